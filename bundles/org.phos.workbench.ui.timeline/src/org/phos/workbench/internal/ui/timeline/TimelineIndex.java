package org.phos.workbench.internal.ui.timeline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;

/**
 * The timeline's lanes of one trace, built once (a few hundred ms for 10M events, so in a Job): the host-API lane
 * holds every event at its host time (a call, zero length); each stream that saw GPU work gets a lane with its
 * kernels, copies, memsets, syncs, graph launches and graph kernel nodes, at their GPU times when measured, else at
 * the host time. Streams are ordered by handle, the default stream (0) first.
 */
public final class TimelineIndex implements TimelineContent {
    private static final List<String> CATEGORY_KEYS = java.util.Arrays.stream(SliceCategory.values())
            .map(SliceCategory::colorKey).toList();

    private final Trace trace;
    private final List<TimelineLane> lanes;
    private final long start;
    private final long end;

    private TimelineIndex(Trace trace, List<TimelineLane> lanes, long start, long end) {
        this.trace = trace;
        this.lanes = List.copyOf(lanes);
        this.start = start;
        this.end = end;
    }

    /** Builds the lanes of {@code trace}; cancellable through {@code monitor}. */
    public static TimelineIndex build(Trace trace, IProgressMonitor monitor) {
        int n = trace.eventCount();
        monitor.beginTask("Indexing timeline of " + n + " events", 3);
        int[] perStream = new int[0];
        TreeMap<Long, Integer> streamSlot = new TreeMap<>(Long::compareUnsigned);
        for (int i = 0; i < n; i++) {
            if (onStream(trace.kind(i))) {
                streamSlot.putIfAbsent(trace.stream(i), 0);
            }
        }
        int slot = 0;
        for (var e : streamSlot.entrySet()) {
            e.setValue(slot++);
        }
        perStream = new int[slot];
        int[] slotOf = new int[n];
        for (int i = 0; i < n; i++) {
            if (onStream(trace.kind(i))) {
                int s = streamSlot.get(trace.stream(i));
                slotOf[i] = s;
                perStream[s]++;
            } else {
                slotOf[i] = -1;
            }
            if ((i & 0xFFFFF) == 0 && monitor.isCanceled()) {
                throw new OperationCanceledException();
            }
        }
        monitor.worked(1);
        List<TimelineLane> lanes = new ArrayList<>();
        int[] all = new int[n];
        Arrays.setAll(all, i -> i);
        lanes.add(lane(trace, "Host API calls", -1, all, true));
        int[][] members = new int[slot][];
        int[] fill = new int[slot];
        for (int s = 0; s < slot; s++) {
            members[s] = new int[perStream[s]];
        }
        for (int i = 0; i < n; i++) {
            if (slotOf[i] >= 0) {
                members[slotOf[i]][fill[slotOf[i]]++] = i;
            }
        }
        monitor.worked(1);
        List<TimelineLane> syncOnly = new ArrayList<>();
        for (var e : streamSlot.entrySet()) {
            if (monitor.isCanceled()) {
                throw new OperationCanceledException();
            }
            long handle = e.getKey();
            String label = handle == 0 ? "Stream default" : "Stream 0x" + Long.toHexString(handle);
            TimelineLane lane = lane(trace, label, handle, members[e.getValue()], false);
            (hasWork(lane) ? lanes : syncOnly).add(lane);
        }
        lanes.addAll(syncOnly); // streams that only synchronised (created, waited) come after those that worked
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (TimelineLane l : lanes) {
            if (l.size() > 0) {
                lo = Math.min(lo, l.starts()[0]);
                hi = Math.max(hi, l.prefixMaxEnd()[l.size() - 1]);
            }
        }
        if (lo > hi) {
            lo = 0;
            hi = 1;
        }
        monitor.done();
        return new TimelineIndex(trace, lanes, lo, Math.max(hi, lo + 1));
    }

    private static boolean hasWork(TimelineLane lane) {
        for (byte c : lane.categories()) {
            if (c != SliceCategory.SYNC.ordinal()) {
                return true;
            }
        }
        return false;
    }

    private static boolean onStream(EventKind k) {
        return k == EventKind.LAUNCH || k == EventKind.MEMCPY || k == EventKind.MEMSET || k == EventKind.SYNC
                || k == EventKind.GRAPH_LAUNCH;
    }

    private static TimelineLane lane(Trace t, String label, long stream, int[] events, boolean host) {
        int m = events.length;
        long[] starts = new long[m];
        long[] ends = new long[m];
        for (int k = 0; k < m; k++) {
            int i = events[k];
            long s = host ? t.hostNs(i) : startNs(t, i);
            starts[k] = s;
            ends[k] = host ? s : Math.max(s, endNs(t, i));
        }
        IndexSort.byStart(starts, ends, events);
        long[] prefix = new long[m];
        byte[] categories = new byte[m];
        long max = Long.MIN_VALUE;
        for (int k = 0; k < m; k++) {
            max = Math.max(max, ends[k]);
            prefix[k] = max;
            categories[k] = (byte) SliceCategory.of(t, events[k]).ordinal();
        }
        return new TimelineLane(label, stream, events, starts, ends, prefix, categories);
    }

    /** When event {@code i} started on its stream: its GPU start when measured, else its host time. */
    public static long startNs(Trace t, int i) {
        EventKind k = t.kind(i);
        boolean timed = k == EventKind.LAUNCH || k == EventKind.MEMCPY || k == EventKind.MEMSET;
        long g = timed ? t.gpuStartNs(i) : 0;
        return g != 0 ? g : t.hostNs(i);
    }

    /** When event {@code i} ended on its stream: its GPU end when measured, else its start. */
    public static long endNs(Trace t, int i) {
        EventKind k = t.kind(i);
        boolean timed = k == EventKind.LAUNCH || k == EventKind.MEMCPY || k == EventKind.MEMSET;
        long g = timed && t.gpuStartNs(i) != 0 ? t.gpuEndNs(i) : 0;
        return g != 0 ? g : startNs(t, i);
    }

    public Trace trace() {
        return trace;
    }

    /** Host-API lane first, then one lane per stream. */
    @Override
    public List<TimelineLane> lanes() {
        return lanes;
    }

    /** Earliest start over all lanes (ns). */
    @Override
    public long start() {
        return start;
    }

    /** Latest end over all lanes (ns), {@code > start()}. */
    @Override
    public long end() {
        return end;
    }

    /** The stream lane that holds event {@code i}, or null (events not on a stream). */
    public TimelineLane laneOf(int i) {
        EventKind k = trace.kind(i);
        if (onStream(k)) {
            long s = trace.stream(i);
            for (int l = 1; l < lanes.size(); l++) {
                if (lanes.get(l).stream() == s) {
                    return lanes.get(l);
                }
            }
        }
        return lanes.get(0);
    }

    @Override
    public List<String> categoryColorKeys() {
        return CATEGORY_KEYS;
    }

    // i14-ckpt: begin (marks a live session asks for: its driver checkpoint's phases; asked at every paint)
    private volatile java.util.function.Supplier<List<Mark>> marks = List::of;

    /** Where the vertical marks come from (a live trace's session); none by default. */
    public void setMarks(java.util.function.Supplier<List<Mark>> source) {
        marks = source;
    }

    @Override
    public List<Mark> marks() {
        return marks.get();
    }
    // i14-ckpt: end

    @Override
    public String sliceName(int event) {
        return TimelinePainter.sliceName(trace, event);
    }

    /** The stream lane of event {@code event} (host lane for events not on a stream). */
    @Override
    public int laneIndexOf(int event) {
        return lanes.indexOf(laneOf(event));
    }

    @Override
    public long itemStart(int event) {
        return laneIndexOf(event) == 0 ? trace.hostNs(event) : startNs(trace, event);
    }

    @Override
    public long itemEnd(int event) {
        return laneIndexOf(event) == 0 ? trace.hostNs(event) : endNs(trace, event);
    }
}
