package org.phos.workbench.cr.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The intervals of one lane sorted by start time, as {@link TimelineModel#laneIntervals(int)} keeps them: the
 * records, and beside them their start, end and category as columns. A pass over a million-interval lane that needs
 * only times and kinds (a chart's per-pixel merge, finding a window) reads the columns sequentially instead of
 * visiting a million objects spread over the heap; a window is found by binary search instead of a filter over the
 * whole lane.
 * <p>
 * Immutable; built once per lane and change of the model (a model that is still growing builds a new one on the
 * next request), so callers on several threads share it.
 */
public final class LaneIntervals {
    private static final LaneIntervals EMPTY = new LaneIntervals(List.of(), new long[0], new long[0], new byte[0],
            List.of(), 0);

    private final List<TimelineInterval> list;
    private final long[] starts;
    private final long[] ends;
    private final byte[] categoryIndex;
    private final List<String> categories;
    private final long maxDurationNs;

    private LaneIntervals(List<TimelineInterval> list, long[] starts, long[] ends, byte[] categoryIndex,
            List<String> categories, long maxDurationNs) {
        this.list = list;
        this.starts = starts;
        this.ends = ends;
        this.categoryIndex = categoryIndex;
        this.categories = categories;
        this.maxDurationNs = maxDurationNs;
    }

    static LaneIntervals empty() {
        return EMPTY;
    }

    /**
     * Sorts (stably, by start) a copy of {@code added} unless {@code inOrder} says it is sorted already, and builds
     * the columns.
     */
    static LaneIntervals of(List<TimelineInterval> added, boolean inOrder) {
        if (added.isEmpty()) {
            return EMPTY;
        }
        TimelineInterval[] a = added.toArray(TimelineInterval[]::new);
        if (!inOrder) {
            Arrays.sort(a, Comparator.comparingLong(TimelineInterval::startNs));
        }
        int n = a.length;
        long[] starts = new long[n];
        long[] ends = new long[n];
        byte[] category = new byte[n];
        List<String> categories = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        long maxDuration = 0;
        String last = null;
        int lastIndex = -1;
        for (int i = 0; i < n; i++) {
            TimelineInterval t = a[i];
            starts[i] = t.startNs();
            ends[i] = t.endNs();
            maxDuration = Math.max(maxDuration, t.endNs() - t.startNs());
            String c = t.category();
            if (c != last) { // identity first: most lanes hold one or two category constants
                Integer k = index.get(c);
                if (k == null) {
                    if (categories.size() == 255) {
                        throw new IllegalStateException("more than 255 interval categories on one lane");
                    }
                    k = categories.size();
                    categories.add(c);
                    index.put(c, k);
                }
                last = c;
                lastIndex = k;
            }
            category[i] = (byte) lastIndex;
        }
        return new LaneIntervals(Collections.unmodifiableList(Arrays.asList(a)), starts, ends, category,
                List.copyOf(categories), maxDuration);
    }

    /** The intervals, sorted by start (equal starts in the order they were added); unmodifiable. */
    public List<TimelineInterval> list() {
        return list;
    }

    public int size() {
        return starts.length;
    }

    public long startNs(int i) {
        return starts[i];
    }

    public long endNs(int i) {
        return ends[i];
    }

    /** The category of interval {@code i} as an index into {@link #categories()}. */
    public int categoryIndex(int i) {
        return categoryIndex[i] & 0xff;
    }

    /** The lane's distinct categories, in the order of their first interval. */
    public List<String> categories() {
        return categories;
    }

    /** The longest interval of the lane (0 when empty). */
    public long maxDurationNs() {
        return maxDurationNs;
    }

    /**
     * The first index whose interval may end at or after {@code fromNs}: every interval before it ends earlier. With
     * {@link #endAfterStartsUpTo(long)} it bounds a window's candidates; the caller still checks each end.
     */
    public int firstMayEndFrom(long fromNs) {
        long bound = fromNs - maxDurationNs;
        return firstStartAtOrAfter(fromNs < Long.MIN_VALUE + maxDurationNs ? Long.MIN_VALUE : bound);
    }

    /** One past the last index whose interval starts at or before {@code toNs}. */
    public int endAfterStartsUpTo(long toNs) {
        return toNs == Long.MAX_VALUE ? starts.length : firstStartAtOrAfter(toNs + 1);
    }

    /** The first index with a start at or after {@code ns} ({@link #size()} when none). */
    private int firstStartAtOrAfter(long ns) {
        int lo = 0;
        int hi = starts.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] < ns) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
