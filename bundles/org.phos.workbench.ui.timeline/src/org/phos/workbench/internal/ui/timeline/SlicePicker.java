package org.phos.workbench.internal.ui.timeline;

/** Which event of a lane is under a point in time: the shortest one covering it, else the nearest within a tolerance. */
public final class SlicePicker {
    /** At most this many candidates are looked at (a dense lane at whole-trace zoom). */
    static final int MAX_CANDIDATES = 100_000;

    private SlicePicker() {
    }

    /** The event index under time {@code t} in {@code lane}, within {@code toleranceNs}, or -1. */
    public static int pick(TimelineLane lane, long t, long toleranceNs) {
        int from = lane.firstEndingAtOrAfter(t - toleranceNs);
        int to = Math.min(lane.firstStartingAtOrAfter(t + toleranceNs + 1), from + MAX_CANDIDATES);
        int best = -1;
        long bestScore = Long.MAX_VALUE;
        for (int k = from; k < to; k++) {
            long s = lane.starts()[k];
            long e = lane.ends()[k];
            long score;
            if (s <= t && t <= e) {
                score = e - s; // covering: the shortest wins (a kernel over a sync)
            } else {
                long d = t < s ? s - t : t - e;
                if (d > toleranceNs) {
                    continue;
                }
                score = Long.MAX_VALUE / 2 + d;
            }
            if (score < bestScore) {
                bestScore = score;
                best = lane.events()[k];
            }
        }
        return best;
    }
}
