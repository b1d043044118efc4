package org.phos.workbench.internal.ui.timeline;

/**
 * One row of the timeline: its events sorted by start time, with their start and end times in the same order and
 * the running maximum of the ends, so that a time window is found by binary search and a column's coverage by a
 * prefix maximum, without walking the events.
 *
 * @param label the row's name as drawn
 * @param stream the CUDA stream handle, or {@code -1} for the host-API lane
 * @param events event indices, sorted by {@code starts}
 * @param starts start time (ns) of each entry
 * @param ends end time (ns) of each entry, {@code >= starts}
 * @param prefixMaxEnd {@code max(ends[0..k])}
 * @param categories {@link SliceCategory} ordinal of each entry
 */
public record TimelineLane(String label, long stream, int[] events, long[] starts, long[] ends, long[] prefixMaxEnd,
        byte[] categories) {

    /** Number of entries. */
    public int size() {
        return events.length;
    }

    /** The first entry whose start is {@code >= t} ({@code size()} if none). */
    public int firstStartingAtOrAfter(long t) {
        int lo = 0;
        int hi = starts.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The first entry at or after {@code from} whose start is {@code >= t} ({@code size()} if none), searched outwards
     * from {@code guess} (galloping, then binary): {@code O(log |answer - guess|)} probes, all near the guess. The
     * timeline walks pixel columns left to right and guesses from the previous column's count, so for an even density
     * most probes fall in a few cache lines instead of spreading over the whole array as a plain binary search does.
     * Requires every entry before {@code from} to start before {@code t}.
     */
    public int firstStartingAtOrAfter(long t, int from, int guess) {
        int n = starts.length;
        int g = Math.clamp(guess, from, n);
        int lo;
        int hi;
        if (g == n || starts[g] >= t) { // the answer is at or before g: gallop down
            hi = g;
            lo = from;
            for (int step = 1; g - step > from; step <<= 1) {
                if (starts[g - step] < t) {
                    lo = g - step + 1;
                    break;
                }
                hi = g - step;
            }
        } else { // after g: gallop up
            lo = Math.min(n, g + 1);
            hi = n;
            for (int step = 1; g + step < n; step <<= 1) {
                if (starts[g + step] >= t) {
                    hi = g + step;
                    break;
                }
                lo = g + step + 1;
            }
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first entry that may still be running at {@code t}: every entry before it ended before {@code t}. */
    public int firstEndingAtOrAfter(long t) {
        int lo = 0;
        int hi = prefixMaxEnd.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (prefixMaxEnd[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Position of event index {@code event} in this lane, or -1 (linear; for selection, not painting). */
    public int positionOf(int event, long start) {
        for (int k = firstStartingAtOrAfter(start); k < starts.length && starts[k] == start; k++) {
            if (events[k] == event) {
                return k;
            }
        }
        return -1;
    }
}
