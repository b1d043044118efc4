package org.phos.workbench.cr.core;

/** The order in which a background copier takes the buffers of a snapshot (or of a restore image). */
public enum CopierOrder {
    /** Ascending device address (PhOS's released code). */
    POINTER,
    /** Largest buffer first. */
    LARGEST_FIRST,
    /** Smallest buffer first. */
    SMALLEST_FIRST,
    /**
     * By the first operation after the instant that reads or writes the buffer (per the policy's sets, looked up in
     * the workload: an oracle bound on what a predictor of the next iteration would give); unused buffers last.
     */
    FIRST_USE
}
