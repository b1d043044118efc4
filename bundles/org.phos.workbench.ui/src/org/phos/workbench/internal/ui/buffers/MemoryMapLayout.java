package org.phos.workbench.internal.ui.buffers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.phos.workbench.analysis.core.BufferRow;

/**
 * Where the memory map puts an address and an event: time (event index) runs left to right linearly; addresses run
 * bottom (low) to top (high) over <em>segments</em>, the address ranges that allocations cover with the empty space
 * between them cut out. Inside a segment an address maps linearly, so a byte range of an allocation keeps its shape;
 * a segment's share of the height grows with the square root of its span, so that a 4 GiB pool does not squeeze a
 * 64 KiB buffer to nothing, and each gets at least a minimum share. UI-free; built off the UI thread.
 */
final class MemoryMapLayout {
    /** Gap between segments, as a share of the height (shrunk when there are many segments). */
    private static final double GAP = 0.01;
    /** The least share of the height a segment gets, relative to an even share. */
    private static final double MIN_SHARE = 0.25;

    /** A run of addresses that allocations cover: {@code [base, end)}, drawn in {@code [y0, y1)} (0 = bottom). */
    record Segment(long base, long end, double y0, double y1) {
        double y(long address) {
            double f = (double) (address - base) / (double) (end - base);
            return y0 + Math.max(0, Math.min(1, f)) * (y1 - y0);
        }
    }

    private final Segment[] segments;
    private final long[] bases;
    private final int events;

    private MemoryMapLayout(Segment[] segments, int events) {
        this.segments = segments;
        this.events = Math.max(1, events);
        bases = new long[segments.length];
        for (int i = 0; i < segments.length; i++) {
            bases[i] = segments[i].base() ^ Long.MIN_VALUE; // unsigned order for binary search
        }
    }

    /**
     * Lays out {@code rows}.
     *
     * @param rows the allocations
     * @param events the trace's event count (the time axis)
     */
    static MemoryMapLayout of(List<BufferRow> rows, int events) {
        long[][] ranges = new long[rows.size()][];
        int n = 0;
        for (BufferRow r : rows) {
            if (r.size() > 0) {
                ranges[n++] = new long[] { r.base(), r.base() + r.size() };
            }
        }
        ranges = Arrays.copyOf(ranges, n);
        Arrays.sort(ranges, (a, b) -> Long.compareUnsigned(a[0], b[0]));
        List<long[]> merged = new ArrayList<>();
        for (long[] r : ranges) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            // close neighbours (a pool's buffers with alignment padding between them) share a segment
            long slack = last == null ? 0 : Math.max(64 << 10, (last[1] - last[0]) / 8);
            if (last != null && Long.compareUnsigned(r[0], last[1] + slack) <= 0) {
                if (Long.compareUnsigned(r[1], last[1]) > 0) {
                    last[1] = r[1];
                }
            } else {
                merged.add(new long[] { r[0], r[1] });
            }
        }
        int m = merged.size();
        Segment[] segments = new Segment[m];
        if (m == 0) {
            return new MemoryMapLayout(segments, events);
        }
        double gap = m == 1 ? 0 : Math.min(GAP, 0.2 / (m - 1));
        double[] weight = new double[m];
        double total = 0;
        for (int i = 0; i < m; i++) {
            weight[i] = Math.sqrt((double) (merged.get(i)[1] - merged.get(i)[0]));
            total += weight[i];
        }
        double floor = MIN_SHARE * total / m;
        total = 0;
        for (int i = 0; i < m; i++) {
            weight[i] = Math.max(weight[i], floor);
            total += weight[i];
        }
        double usable = 1 - gap * (m - 1);
        double y = 0;
        for (int i = 0; i < m; i++) {
            double h = usable * weight[i] / total;
            segments[i] = new Segment(merged.get(i)[0], merged.get(i)[1], y, y + h);
            y += h + gap;
        }
        return new MemoryMapLayout(segments, events);
    }

    /** @return the segments, by address */
    List<Segment> segments() {
        return List.of(segments);
    }

    /** @return the events on the time axis */
    int events() {
        return events;
    }

    /** @return the height share of {@code address} (0 bottom, 1 top); addresses outside every segment clamp */
    double y(long address) {
        int i = segmentOf(address);
        return i < 0 ? 0 : segments[i].y(address);
    }

    /** @return the segment holding {@code address} or the last one below it, -1 below all */
    int segmentOf(long address) {
        int i = Arrays.binarySearch(bases, address ^ Long.MIN_VALUE);
        return i >= 0 ? i : -i - 2;
    }

    /**
     * @param y a height share (0 bottom, 1 top)
     * @return the address drawn there, or -1 (all ones) in a gap or outside
     */
    long address(double y) {
        for (Segment s : segments) {
            if (y >= s.y0() && y < s.y1()) {
                return s.base() + (long) ((y - s.y0()) / (s.y1() - s.y0()) * (double) (s.end() - s.base()));
            }
        }
        return -1;
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
