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
