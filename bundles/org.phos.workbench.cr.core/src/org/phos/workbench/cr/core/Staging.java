package org.phos.workbench.cr.core;

/**
 * Host memory used by checkpoint and restore copies. Pinned memory copies at the engine's full bandwidth; pageable
 * memory goes through the driver's bounce buffers at {@link MachineModel#pageableFactor()} of it (PhOS's released
 * code uses pageable staging).
 */
public enum Staging {
    PINNED, PAGEABLE
}
