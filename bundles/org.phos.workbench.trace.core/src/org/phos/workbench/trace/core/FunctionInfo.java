package org.phos.workbench.trace.core;

import java.util.List;

/**
 * A kernel function of a trace (the v1 {@code Function} message): its names and the layout of its parameter
 * buffer. Launches name it by {@link #id()} ({@link Trace#functionId(int)}).
 *
 * @param id            unique within the trace, from 1
 * @param moduleId      the {@link ModuleInfo#id()} it comes from, 0 when unknown
 * @param mangledName   the symbol name
 * @param demangledName the demangled C++ signature, empty when unknown ({@code extern "C"} kernels)
 * @param params        the parameters in order
 */
public record FunctionInfo(int id, int moduleId, String mangledName, String demangledName, List<ParamInfo> params) {
    public FunctionInfo {
        params = List.copyOf(params);
    }

    /** The demangled name when known, else the mangled one. */
    public String displayName() {
        return demangledName.isEmpty() ? mangledName : demangledName;
    }
}
