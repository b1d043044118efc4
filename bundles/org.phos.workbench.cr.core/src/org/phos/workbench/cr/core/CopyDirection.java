package org.phos.workbench.cr.core;

/** Direction of a copy; each device direction has its own copy engine in the machine model. */
public enum CopyDirection {
    HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE, HOST_TO_HOST
}
