package org.phos.workbench.cr.core;

import java.util.List;
import java.util.Map;

/**
 * The figures of one simulated run.
 *
 * @param policy policy name
 * @param machine machine name
 * @param operations operations replayed (after the restore point, for restores)
 * @param launches launches replayed
 * @param appEndNs when the application finished (last host call returned and its GPU work completed)
 * @param baselineEndNs the same without C/R ({@code -1} when no baseline was run)
 * @param endNs when everything, background C/R work included, finished
 * @param stallTotalNs host stall time caused by C/R
 * @param stallLongestNs longest single host stall
 * @param stallCount number of host stalls
 * @param stallByCause host stall time per cause (and engine contention, which is not a host stall)
 * @param checkpoints one summary per checkpoint
 * @param restoreStartNs restore start ({@code -1} for checkpoint policies)
 * @param restoreFirstKernelNs time from restore start to the first kernel's GPU start ({@code -1} if none)
 * @param restoreFullStateNs time from restore start to all buffers present ({@code -1} if never)
 * @param bytesNeverRestored bytes of the image never brought back (on-demand restore without prefetch)
 * @param bytesPerLane bytes moved per lane name
 * @param cowCount buffers copied on write, all checkpoints
 * @param cowBytes their bytes
 * @param consistency the consistency check
 */
public record SimulationMetrics(String policy, String machine, long operations, long launches, long appEndNs,
        long baselineEndNs, long endNs, long stallTotalNs, long stallLongestNs, long stallCount,
        Map<StallCause, Long> stallByCause, List<CheckpointSummary> checkpoints, long restoreStartNs,
        long restoreFirstKernelNs, long restoreFullStateNs, long bytesNeverRestored, Map<String, Long> bytesPerLane,
        long cowCount, long cowBytes, ConsistencyReport consistency) {

    public SimulationMetrics {
        stallByCause = Map.copyOf(stallByCause);
        checkpoints = List.copyOf(checkpoints);
        bytesPerLane = Map.copyOf(bytesPerLane);
    }

    /** Relative slowdown against the run without C/R: 0.05 means 5% longer; NaN without a baseline. */
    public double slowdown() {
        if (baselineEndNs <= 0) {
            return Double.NaN;
        }
        return (double) (appEndNs - baselineEndNs) / baselineEndNs;
    }

    /** Completion time of the first checkpoint from its request, -1 when there is none or it never completed. */
    public long checkpointCompletionNs() {
        return checkpoints.isEmpty() ? -1 : checkpoints.get(0).completionNs();
    }
}
