package org.phos.workbench.cr.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A whole timeline in memory, in the shape charts want: lanes in order, each lane's intervals sorted by start, stalls,
 * markers, per-buffer state changes and counter series. Fine for hand-built and sample workloads; stream long ones
 * to an exporter instead (or keep {@code includeApplicationIntervals} off).
 */
public final class TimelineModel implements TimelineSink {
    private final boolean includeApplicationIntervals;
    private final Map<Integer, Lane> lanes = new LinkedHashMap<>();
    private final Map<Integer, Added> intervals = new LinkedHashMap<>();
    private final List<StallInterval> stalls = new ArrayList<>();
    private final List<Marker> markers = new ArrayList<>();
    private final List<BufferStateChange> stateChanges = new ArrayList<>();
    private final Map<String, List<CounterSample>> counters = new LinkedHashMap<>();

    /**
     * A lane's intervals as they come, whether they came in start order (the simulator's lanes do), and their sorted
     * form once asked for: built once per change, not per call (a chart, its zoom and the runs file all ask for the
     * same million-interval lanes).
     */
    private static final class Added {
        final List<TimelineInterval> list = new ArrayList<>();
        long lastStart = Long.MIN_VALUE;
        boolean inOrder = true;
        @Nullable
        LaneIntervals sorted;

        void add(TimelineInterval i) {
            list.add(i);
            if (i.startNs() < lastStart) {
                inOrder = false;
            }
            lastStart = Math.max(lastStart, i.startNs());
            sorted = null;
        }

        synchronized LaneIntervals sorted() {
            LaneIntervals s = sorted;
            if (s == null) {
                s = LaneIntervals.of(list, inOrder);
                sorted = s;
            }
            return s;
        }
    }

    public TimelineModel() {
        this(true);
    }

    public TimelineModel(boolean includeApplicationIntervals) {
        this.includeApplicationIntervals = includeApplicationIntervals;
    }

    @Override
    public void lane(Lane lane) {
        lanes.putIfAbsent(lane.id(), lane);
        intervals.computeIfAbsent(lane.id(), k -> new Added());
    }

    @Override
    public void interval(TimelineInterval interval) {
        if (!interval.isApplication() || includeApplicationIntervals) {
            intervals.computeIfAbsent(interval.lane(), k -> new Added()).add(interval);
        }
    }

    @Override
    public void stall(StallInterval stall) {
        stalls.add(stall);
    }

    @Override
    public void marker(Marker marker) {
        markers.add(marker);
    }

    @Override
    public void bufferState(BufferStateChange change) {
        stateChanges.add(change);
    }

    @Override
    public void counter(CounterSample sample) {
        counters.computeIfAbsent(sample.counter(), k -> new ArrayList<>()).add(sample);
    }

    @Override
    public boolean wantsApplicationIntervals() {
        return includeApplicationIntervals;
    }

    /** Lanes ordered: application (host, streams), copy engines, C/R activities; by id within a group. */
    public List<Lane> lanes() {
        List<Lane> l = new ArrayList<>(lanes.values());
        l.sort(Comparator.comparing(Lane::kind).thenComparingInt(Lane::id));
        return l;
    }

    /**
     * Intervals of one lane sorted by start time (equal starts in the order they were added); unmodifiable. Sorted
     * once per change of the lane, so repeated calls cost nothing.
     */
    public List<TimelineInterval> intervals(int laneId) {
        return laneIntervals(laneId).list();
    }

    /**
     * Intervals of one lane sorted by start time, with their times and categories as columns (for passes over long
     * lanes, such as charts); empty for an unknown lane. Safe to call from several threads once the model no longer
     * grows.
     */
    public LaneIntervals laneIntervals(int laneId) {
        Added a = intervals.get(laneId);
        return a == null ? LaneIntervals.empty() : a.sorted();
    }

    public List<StallInterval> stalls() {
        List<StallInterval> l = new ArrayList<>(stalls);
        l.sort(Comparator.comparingLong(StallInterval::startNs));
        return l;
    }

    public List<Marker> markers() {
        List<Marker> l = new ArrayList<>(markers);
        l.sort(Comparator.comparingLong(Marker::timeNs));
        return l;
    }

    /** State changes of all buffers, in time order. */
    public List<BufferStateChange> stateChanges() {
        List<BufferStateChange> l = new ArrayList<>(stateChanges);
        l.sort(Comparator.comparingLong(BufferStateChange::timeNs));
        return l;
    }

    /** State changes of one buffer, in time order. */
    public List<BufferStateChange> stateChanges(int buffer) {
        return stateChanges().stream().filter(c -> c.buffer() == buffer).toList();
    }

    /** A counter's samples (a step function) in time order; empty when never reported. */
    public List<CounterSample> counter(String name) {
        List<CounterSample> l = new ArrayList<>(counters.getOrDefault(name, List.of()));
        l.sort(Comparator.comparingLong(CounterSample::timeNs));
        return l;
    }

    /** Whether application intervals (kernels, copies, sets) are kept, as constructed. */
    public boolean includesApplicationIntervals() {
        return includeApplicationIntervals;
    }

    /** How many intervals the model holds, all lanes together. */
    public long intervalCount() {
        long n = 0;
        for (Added a : intervals.values()) {
            n += a.list.size();
        }
        return n;
    }

    /** The names of the counters reported, in the order they were first reported. */
    public List<String> counterNames() {
        return List.copyOf(counters.keySet());
    }

    /** The first marker whose label starts with {@code prefix}, or null. */
    public @org.eclipse.jdt.annotation.Nullable Marker marker(String prefix) {
        return markers().stream().filter(m -> m.label().startsWith(prefix)).findFirst().orElse(null);
    }
}
