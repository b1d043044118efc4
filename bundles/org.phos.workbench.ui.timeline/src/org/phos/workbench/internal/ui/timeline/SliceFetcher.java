package org.phos.workbench.internal.ui.timeline;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides what each lane draws for a window and a pixel width, with level of detail. A lane with few events in the
 * window ({@code <= DETAIL_PER_PIXEL * width}) is walked event by event: an event at least one pixel wide, or alone in
 * its column, is a slice; columns that several narrow events share become one busy column. A dense lane is never
 * walked: per pixel column a search (galloping from the previous column's count) finds the events starting in it and
 * the prefix maximum of the ends says whether an earlier event still runs there, so the cost is at most
 * {@code O(width log n)} whatever the trace's size.
 */
public final class SliceFetcher {
    /** Above this many events per pixel column on average, a lane is drawn by columns only. */
    static final int DETAIL_PER_PIXEL = 4;

    private final TimelineContent content;

    public SliceFetcher(TimelineContent content) {
        this.content = content;
    }

    /** One {@link LaneSlices} per lane of the content, in its order, each with its overlay's slices when it has one. */
    public List<LaneSlices> fetch(TimeWindow w, int width) {
        List<TimelineLane> lanes = content.lanes();
        List<LaneSlices> out = new ArrayList<>(lanes.size());
        for (int l = 0; l < lanes.size(); l++) {
            LaneSlices s = fetch(lanes.get(l), w, width);
            TimelineLane overlay = content.overlay(l);
            if (overlay != null) {
                s.setOverlay(fetch(overlay, w, width));
            }
            out.add(s);
        }
        return out;
    }

    /** The slices of {@code lane} in window {@code w} drawn {@code width} pixels wide. */
    public static LaneSlices fetch(TimelineLane lane, TimeWindow w, int width) {
        LaneSlices out = new LaneSlices();
        if (width <= 0 || lane.size() == 0) {
            return out;
        }
        int first = lane.firstEndingAtOrAfter(w.fromNs());
        int last = lane.firstStartingAtOrAfter(w.toNs());
        if (last <= first) {
            return out;
        }
        if ((long) (last - first) <= (long) DETAIL_PER_PIXEL * width) {
            detailed(lane, w, width, first, last, out);
        } else {
            byColumns(lane, w, width, out);
        }
        return out;
    }

    private static void detailed(TimelineLane lane, TimeWindow w, int width, int first, int last, LaneSlices out) {
        int[] count = new int[width];
        int[] firstIn = new int[width];
        long[] starts = lane.starts();
        long[] ends = lane.ends();
        for (int k = first; k < last; k++) {
            if (ends[k] < w.fromNs()) {
                continue; // an earlier long event kept the prefix maximum high; this one is over
            }
            double fx0 = w.x(starts[k], width);
            double fx1 = w.x(ends[k], width);
            if (fx1 - fx0 >= 1.0) {
                int x0 = (int) Math.max(0, Math.floor(fx0));
                int x1 = (int) Math.min(width, Math.ceil(fx1));
                if (x1 > x0) {
                    out.addSlice(x0, x1, lane.categories()[k], lane.events()[k]);
                }
            } else {
                int x = (int) Math.clamp(Math.floor(fx0), 0, width - 1);
                if (count[x]++ == 0) {
                    firstIn[x] = k;
                }
            }
        }
        for (int x = 0; x < width; x++) {
            if (count[x] == 1) {
                int k = firstIn[x];
                out.addSlice(x, x + 1, lane.categories()[k], lane.events()[k]);
            } else if (count[x] > 1) {
                out.addBusy(x, lane.categories()[firstIn[x]], LaneSlices.level(count[x]));
            }
        }
    }

    private static void byColumns(TimelineLane lane, TimeWindow w, int width, LaneSlices out) {
        long[] prefixMaxEnd = lane.prefixMaxEnd();
        int a = lane.firstStartingAtOrAfter(w.fromNs());
        int last = 0;
        for (int x = 0; x < width; x++) {
            long t1 = w.time(x + 1, width);
            int b = lane.firstStartingAtOrAfter(t1, a, a + last); // guess: as many as in the previous column
            int n = b - a;
            last = n;
            if (n > 0) {
                out.addBusy(x, lane.categories()[a], LaneSlices.level(n));
            } else if (a > 0 && prefixMaxEnd[a - 1] >= w.time(x, width)) {
                // an earlier event still runs through this column: busy, coloured by the last one that started
                out.addBusy(x, lane.categories()[a - 1], 0);
            }
            a = b;
        }
    }
}
