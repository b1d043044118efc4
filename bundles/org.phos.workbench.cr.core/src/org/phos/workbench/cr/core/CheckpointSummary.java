package org.phos.workbench.cr.core;

/**
 * One checkpoint's outcome.
 *
 * @param number 0 for the first checkpoint of a run
 * @param requestedNs when the checkpoint was requested (host time)
 * @param drainedNs when the drain ended and the image instant was fixed
 * @param completedNs when the last byte of the image reached the host ({@code -1} if never)
 * @param snapshotBuffers buffers in the image
 * @param snapshotBytes bytes in the image
 * @param cowCount buffers copied on write into the spare budget
 * @param cowBytes their bytes
 * @param fallbackCount buffers copied straight to the host before a write because the budget was full
 * @param fallbackBytes their bytes
 * @param dirtyBytes bytes of buffers written (by the policy's sets) or allocated after the instant, at completion
 * @param recopyBytes bytes recopied with the application stopped (recopy policy), else 0
 * @param recomputeNs GPU time to recompute from the shipped log at the destination (recopy past threshold), else 0
 * @param peakBudgetBytes most spare budget in use at once
 */
public record CheckpointSummary(int number, long requestedNs, long drainedNs, long completedNs, int snapshotBuffers,
        long snapshotBytes, long cowCount, long cowBytes, long fallbackCount, long fallbackBytes, long dirtyBytes,
        long recopyBytes, long recomputeNs, long peakBudgetBytes) {

    /** Completion time measured from the request; -1 if the checkpoint never completed. */
    public long completionNs() {
        return completedNs < 0 ? -1 : completedNs - requestedNs;
    }
}
