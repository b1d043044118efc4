package org.phos.workbench.trace.core;

/**
 * Where one kernel parameter lies in a launch's raw parameter buffer (from {@code cuFuncGetParamInfo} or the
 * cubin's {@code EIATTR_KPARAM_INFO}). Says nothing about whether the parameter is a pointer.
 *
 * @param offset byte offset of the parameter in the buffer
 * @param size   size of the parameter in bytes (8 for a pointer, more for a struct passed by value)
 */
public record ParamInfo(int offset, int size) {
}
