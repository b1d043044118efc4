package org.phos.workbench.cr.core;

/** Why the application waited on checkpoint/restore work. */
public enum StallCause {
    /** Draining submitted work at a checkpoint's start (the one global stall of soft checkpoints). */
    DRAIN,
    /** Stop-the-world copy of device memory (checkpoint D2H or restore H2D) while API calls are locked. */
    STOP_THE_WORLD,
    /** Copy-on-write of a buffer into the spare budget before its first write. */
    COPY_ON_WRITE,
    /** Budget exhausted: the buffer is copied straight to the host before the write may run. */
    BUDGET_FALLBACK,
    /** The buffer to be written is being copied by the background copier right now. */
    WAIT_FOR_COPIER,
    /** Recopy of the dirty set (or log shipping) with the application stopped. */
    RECOPY,
    /** Context creation (or taking one from the pool) before a restored process may run. */
    CONTEXT_CREATION,
    /** On-demand restore: a buffer the next call needs is not back on the device yet. */
    RESTORE_ON_DEMAND,
    /** Host-side process state dump. */
    CPU_STATE,
    /** The application's own copy waited for a copy engine busy with C/R traffic (shown on the stream's lane). */
    COPY_ENGINE_BUSY
}
