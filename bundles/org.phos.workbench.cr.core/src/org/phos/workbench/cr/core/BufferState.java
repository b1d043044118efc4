package org.phos.workbench.cr.core;

/** Checkpoint state of one buffer of the snapshot set (and restore state for restores). */
public enum BufferState {
    /** In the snapshot; neither copied nor written since the checkpoint instant. */
    UNTOUCHED,
    /** Being copied to the host (by the copier or, budget exhausted, before a write). */
    COPYING,
    /** Its state at the checkpoint instant sits in the spare on-device budget, waiting to be committed. */
    COW_DONE,
    /** Its checkpointed state is on the host. */
    COMMITTED,
    /** Freed by the application during the checkpoint; kept allocated until committed. */
    FREED_PENDING,
    /** Restore: not on the device yet. */
    ABSENT,
    /** Restore: being copied to the device. */
    RESTORING,
    /** Restore: back on the device. */
    PRESENT
}
