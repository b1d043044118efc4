package org.phos.workbench.internal.ui.timeline.cr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneKind;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.internal.ui.timeline.TimelineContent;
import org.phos.workbench.internal.ui.timeline.TimelineLane;

/**
 * A simulated run's timeline in the shape the timeline canvas draws: one lane per {@link Lane} of the model that has
 * work (host, streams, copy engines, CoW D2D, commit D2H, restore H2D, in the model's order), each lane's intervals as
 * items sorted by start, the stalls as an overlay of the lane they hit (the host lane; a stream's lane for a copy that
 * waited for a busy engine), and the markers as vertical marks. Items are numbered densely: interval or stall
 * {@link #item(int)}. Built once per run (one sort per lane), then every repaint is the shared fetcher's level of
 * detail, whatever the number of intervals. Times are the simulator's clock: 0 is the first simulated call.
 */
public final class CrTimelineContent implements TimelineContent {
    private final CrRun run;
    private final List<TimelineLane> lanes = new ArrayList<>();
    private final List<Lane> crLanes = new ArrayList<>();
    private final List<@Nullable TimelineLane> overlays = new ArrayList<>();
    private final List<Object> items = new ArrayList<>();
    private final int[] laneOfItem;
    private final List<Mark> marks = new ArrayList<>();
    private final Map<Long, StallInterval> cowStalls = new HashMap<>();
    private final long start;
    private final long end;

    public CrTimelineContent(CrRun run) {
        this.run = run;
        TimelineModel model = run.timeline();
        Map<Integer, List<StallInterval>> stallsByLane = new HashMap<>();
        for (StallInterval s : model.stalls()) {
            stallsByLane.computeIfAbsent(s.lane(), k -> new ArrayList<>()).add(s);
            if (s.cause() == StallCause.COPY_ON_WRITE) {
                cowStalls.put(key(s.buffer(), s.endNs()), s);
            }
        }
        List<Integer> laneOf = new ArrayList<>();
        long lo = 0;
        long hi = 1;
        for (Lane lane : model.lanes()) {
            List<TimelineInterval> in = model.intervals(lane.id());
            List<StallInterval> st = stallsByLane.remove(lane.id());
            if (in.isEmpty() && st == null && lane.id() != Lane.HOST) {
                continue; // the control lane (markers only), a lane announced but never used
            }
            int index = lanes.size();
            lanes.add(lane(lane.name(), lane.id(), in, index, laneOf));
            crLanes.add(lane);
            overlays.add(st == null ? null : stallLane(lane.name(), lane.id(), st, index, laneOf));
        }
        if (!stallsByLane.isEmpty() && !lanes.isEmpty()) { // stalls on a lane without work: on the first (host)
            List<StallInterval> rest = stallsByLane.values().stream().flatMap(List::stream)
                    .sorted(java.util.Comparator.comparingLong(StallInterval::startNs)).toList();
            overlays.set(0, stallLane(lanes.get(0).label(), -1, rest, 0, laneOf));
        }
        laneOfItem = laneOf.stream().mapToInt(Integer::intValue).toArray();
        for (TimelineLane l : lanes) {
            if (l.size() > 0) {
                hi = Math.max(hi, l.prefixMaxEnd()[l.size() - 1]);
                lo = Math.min(lo, l.starts()[0]);
            }
        }
        for (TimelineLane l : overlays) {
            if (l != null && l.size() > 0) {
                hi = Math.max(hi, l.prefixMaxEnd()[l.size() - 1]);
            }
        }
        boolean one = run.metrics().checkpoints().size() <= 1;
        for (Marker m : model.markers()) {
            // one checkpoint: "requested (stop-the-world)", "image complete"; several keep their numbers
            String label = one ? m.label().replaceFirst("^checkpoint \\d+:? ", "") : m.label();
            marks.add(new Mark(m.timeNs(), label, CrCategory.of(m).ordinal()));
            hi = Math.max(hi, m.timeNs() + 1);
            lo = Math.min(lo, m.timeNs());
        }
        hi = Math.max(hi, run.metrics().endNs());
        start = lo;
        end = Math.max(hi, lo + 1);
    }

    private static long key(int buffer, long endNs) {
        return endNs * 31 + buffer;
    }

    private TimelineLane lane(String label, int id, List<TimelineInterval> in, int index, List<Integer> laneOf) {
        int n = in.size();
        int[] ids = new int[n];
        long[] s = new long[n];
        long[] e = new long[n];
        byte[] c = new byte[n];
        for (int k = 0; k < n; k++) {
            TimelineInterval i = in.get(k);
            ids[k] = items.size();
            items.add(i);
            laneOf.add(index);
            s[k] = i.startNs();
            e[k] = Math.max(i.startNs(), i.endNs());
            c[k] = (byte) CrCategory.of(i).ordinal();
        }
        return new TimelineLane(label, id, ids, s, e, prefixMax(e), c);
    }

    private TimelineLane stallLane(String label, int id, List<StallInterval> in, int index, List<Integer> laneOf) {
        int n = in.size();
        int[] ids = new int[n];
        long[] s = new long[n];
        long[] e = new long[n];
        byte[] c = new byte[n];
        for (int k = 0; k < n; k++) {
            StallInterval i = in.get(k);
            ids[k] = items.size();
            items.add(i);
            laneOf.add(index);
            s[k] = i.startNs();
            e[k] = Math.max(i.startNs(), i.endNs());
            c[k] = (byte) CrCategory.of(i).ordinal();
        }
        return new TimelineLane(label + " stalls", id, ids, s, e, prefixMax(e), c);
    }

    private static long[] prefixMax(long[] ends) {
        long[] p = new long[ends.length];
        long max = Long.MIN_VALUE;
        for (int k = 0; k < ends.length; k++) {
            max = Math.max(max, ends[k]);
            p[k] = max;
        }
        return p;
    }

    /** The run drawn. */
    public CrRun run() {
        return run;
    }

    /** The item: a {@link TimelineInterval} or a {@link StallInterval}. */
    public Object item(int item) {
        return items.get(item);
    }

    /** Number of items (intervals and stalls). */
    public int itemCount() {
        return items.size();
    }

    /** The model's lane drawn as lane {@code index}. */
    public Lane crLane(int index) {
        return crLanes.get(index);
    }

    /** Index of the lane whose model id is {@code laneId}, or -1. */
    public int laneIndex(int laneId) {
        for (int l = 0; l < crLanes.size(); l++) {
            if (crLanes.get(l).id() == laneId) {
                return l;
            }
        }
        return -1;
    }

    /** The stall that the copy-on-write {@code cow} made the application wait (it names the launch), or null. */
    public @Nullable StallInterval causeOf(TimelineInterval cow) {
        return cowStalls.get(key(cow.buffer(), cow.endNs()));
    }

    /** The host stalls shown (what the metrics count as stalls: not a copy's wait for a busy engine). */
    public List<StallInterval> hostStalls() {
        List<StallInterval> out = new ArrayList<>();
        for (TimelineLane o : overlays) {
            if (o != null) {
                for (int k = 0; k < o.size(); k++) {
                    if (items.get(o.events()[k]) instanceof StallInterval s && s.isHostStall()) {
                        out.add(s);
                    }
                }
            }
        }
        return out;
    }

    /** Whether the lane is a checkpoint/restore activity (CoW, commit, restore). */
    public boolean isCrLane(int index) {
        return crLanes.get(index).kind() == LaneKind.CHECKPOINT_RESTORE;
    }

    @Override
    public List<TimelineLane> lanes() {
        return lanes;
    }

    @Override
    public long start() {
        return start;
    }

    @Override
    public long end() {
        return end;
    }

    @Override
    public long origin() {
        return 0;
    }

    @Override
    public List<String> categoryColorKeys() {
        return CrCategory.KEYS;
    }

    @Override
    public @Nullable TimelineLane overlay(int lane) {
        return overlays.get(lane);
    }

    @Override
    public List<Mark> marks() {
        return marks;
    }

    @Override
    public String sliceName(int item) {
        Object o = items.get(item);
        if (o instanceof StallInterval s) {
            return "stall: " + CrItemDetails.cause(s.cause());
        }
        return ((TimelineInterval) o).label();
    }

    @Override
    public int laneIndexOf(int item) {
        return laneOfItem[item];
    }

    @Override
    public long itemStart(int item) {
        Object o = items.get(item);
        return o instanceof StallInterval s ? s.startNs() : ((TimelineInterval) o).startNs();
    }

    @Override
    public long itemEnd(int item) {
        Object o = items.get(item);
        return o instanceof StallInterval s ? s.endNs() : ((TimelineInterval) o).endNs();
    }
}
