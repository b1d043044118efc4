package org.phos.workbench.internal.ui.buffers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.phos.workbench.analysis.core.BufferRow;

/**
 * Where the memory map puts an address and an event. Time (event index) runs left to right linearly. Addresses run
 * bottom (low) to top (high), compressed: the allocations' bases and ends cut the address space into elementary
 * intervals; each interval some allocation covers gets a height growing with the square root of its length, so a
 * 64 KiB buffer next to a 64 MiB one stays visible (and none gets less than a quarter of the mean); an uncovered interval (the gap between two address runs) gets a
 * small fixed height whatever its length. Inside an interval an address maps linearly, so byte ranges keep their
 * order and nest inside their allocation's rectangle. UI-free; built off the UI thread.
 */
final class MemoryMapLayout {
    /** Height of a gap, relative to the mean height of a covered interval. */
    private static final double GAP = 0.35;
    /** Least height of a covered interval, relative to the mean. */
    private static final double MIN_COVERED = 0.25;

    /** A run of addresses that allocations cover: {@code [base, end)}, drawn in {@code [y0, y1)} (0 = bottom). */
    record Segment(long base, long end, double y0, double y1) {
    }

    private final long[] starts; // elementary interval starts, unsigned ascending; the last entry is the top end
    private final double[] ys; // y of each start, ascending, ys[last] = 1
    private final List<Segment> segments;
    private final int events;

    private MemoryMapLayout(long[] starts, double[] ys, List<Segment> segments, int events) {
        this.starts = starts;
        this.ys = ys;
        this.segments = segments;
        this.events = Math.max(1, events);
    }

    /**
     * Lays out {@code rows}.
     *
     * @param rows the allocations
     * @param events the trace's event count (the time axis)
     */
    static MemoryMapLayout of(List<BufferRow> rows, int events) {
        long[][] ranges = rows.stream().filter(r -> r.size() > 0).map(r -> new long[] { r.base(), r.base() + r.size() })
                .toArray(long[][]::new);
        Arrays.sort(ranges, (a, b) -> Long.compareUnsigned(a[0], b[0]));
        // covered runs: the union of the allocations
        List<long[]> runs = new ArrayList<>();
        for (long[] r : ranges) {
            long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && Long.compareUnsigned(r[0], last[1]) <= 0) {
                if (Long.compareUnsigned(r[1], last[1]) > 0) {
                    last[1] = r[1];
                }
            } else {
                runs.add(new long[] { r[0], r[1] });
            }
        }
        if (runs.isEmpty()) {
            return new MemoryMapLayout(new long[0], new double[0], List.of(), events);
        }
        // elementary intervals: every base and end, unsigned order (xor flips to signed order), without repeats
        long[] cuts = new long[ranges.length * 2];
        for (int i = 0; i < ranges.length; i++) {
            cuts[2 * i] = ranges[i][0] ^ Long.MIN_VALUE;
            cuts[2 * i + 1] = ranges[i][1] ^ Long.MIN_VALUE;
        }
        Arrays.sort(cuts);
        int n = 0;
        for (int i = 0; i < cuts.length; i++) {
            if (n == 0 || cuts[i] != cuts[n - 1]) {
                cuts[n++] = cuts[i];
            }
        }
        long[] starts = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = cuts[i] ^ Long.MIN_VALUE;
        }
        // weights: sqrt(length) where covered, a fixed gap where not
        double[] weight = new double[n - 1];
        boolean[] covered = new boolean[n - 1];
        int run = 0;
        double coveredSum = 0;
        int coveredCount = 0;
        for (int i = 0; i + 1 < n; i++) {
            while (run < runs.size() && Long.compareUnsigned(runs.get(run)[1], starts[i]) <= 0) {
                run++;
            }
            covered[i] = run < runs.size() && Long.compareUnsigned(runs.get(run)[0], starts[i]) <= 0;
            if (covered[i]) {
                weight[i] = Math.sqrt((double) (starts[i + 1] - starts[i]));
                coveredSum += weight[i];
                coveredCount++;
            }
        }
        double mean = coveredCount == 0 ? 1 : coveredSum / coveredCount;
        double gap = GAP * mean;
        double total = 0;
        for (int i = 0; i + 1 < n; i++) {
            // a covered interval gets at least a quarter of the mean, so a 512-byte buffer beside 64 MiB still shows
            weight[i] = covered[i] ? Math.max(weight[i], MIN_COVERED * mean) : gap;
            total += weight[i];
        }
        double[] ys = new double[n];
        for (int i = 0; i + 1 < n; i++) {
            ys[i + 1] = ys[i] + weight[i] / total;
        }
        ys[n - 1] = 1;
        MemoryMapLayout probe = new MemoryMapLayout(starts, ys, List.of(), events);
        List<Segment> segments = new ArrayList<>();
        for (long[] r : runs) {
            segments.add(new Segment(r[0], r[1], probe.y(r[0]), probe.y(r[1])));
        }
        return new MemoryMapLayout(starts, ys, List.copyOf(segments), events);
    }

    /** @return the covered address runs, by address */
    List<Segment> segments() {
        return segments;
    }

    /** @return the events on the time axis */
    int events() {
        return events;
    }

    /** @return the height share of {@code address} (0 bottom, 1 top); addresses outside clamp to 0 or 1 */
    double y(long address) {
        if (starts.length == 0 || Long.compareUnsigned(address, starts[0]) <= 0) {
            return 0;
        }
        if (Long.compareUnsigned(address, starts[starts.length - 1]) >= 0) {
            return 1;
        }
        int lo = 0;
        int hi = starts.length - 1; // starts[lo] <= address < starts[hi]
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], address) <= 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double f = (double) (address - starts[lo]) / (double) (starts[hi] - starts[lo]);
        return ys[lo] + f * (ys[hi] - ys[lo]);
    }

    /** @return the share of the width of event {@code event} */
    double x(int event) {
        return (double) event / events;
    }

    /** @return the event at width share {@code x} */
    int event(double x) {
        return (int) Math.max(0, Math.min(events - 1, Math.floor(x * events)));
    }
}
