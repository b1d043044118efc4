package org.phos.workbench.internal.trace.core.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.replay.StreamOrder;

/**
 * Builds a {@link StreamOrder} with vector clocks: each stream incarnation is a lane, each operation a step
 * {@code (lane, seq)}; a clock maps lanes to the last step known done. A lane stores a clock only at the steps where
 * it gained something from another lane ("joins"), so memory stays proportional to operations plus cross-stream
 * dependencies.
 */
public final class StreamOrderBuilder implements StreamOrder.Builder {

    private static final long LEGACY = 0;
    private static final long LEGACY_ALIAS = 1; // cudaStreamLegacy
    private static final long PER_THREAD = 2; // cudaStreamPerThread
    private static final int[] EMPTY = new int[0];

    /** One stream incarnation. */
    static final class Lane {
        final int index;
        final long stream;
        final boolean blocking;
        final boolean legacy;
        int seq;
        int[] frontier = EMPTY; // what the next operation of this lane follows (own component = seq)
        int[] lastClock = EMPTY; // clock of the last operation
        final IntList stepOps = new IntList(16); // op index representing each step, by seq - 1
        final IntList joinSeqs = new IntList(4);
        final List<int[]> joinClocks = new ArrayList<>(4);
        boolean capturing;

        Lane(int index, long stream, boolean blocking, boolean legacy) {
            this.index = index;
            this.stream = stream;
            this.blocking = blocking;
            this.legacy = legacy;
        }
    }

    private final List<Lane> lanes = new ArrayList<>();
    private final Map<Long, Lane> laneByStream = new HashMap<>();
    private final Map<Integer, Lane> perThreadLane = new HashMap<>();
    private @Nullable Lane legacyLane;
    private final Map<Long, int[]> recorded = new HashMap<>();
    private final Map<Integer, int[]> hostClock = new HashMap<>();

    private final IntList opEvent = new IntList(1024);
    private final IntList opLane = new IntList(1024);
    private final IntList opSeq = new IntList(1024);
    private final IntList extraOps = new IntList(64);
    private final IntList extraStart = new IntList(64);
    private final IntList extraEvents = new IntList(64);
    private int lastEvent = -1;

    /** Feeds every event of {@code trace} (see {@link StreamOrder#of}). */
    public static StreamOrder fromTrace(Trace trace, @Nullable IProgressMonitor monitor) {
        int n = trace.eventCount();
        // driven directly: SubMonitor needs OSGi classes at run time, and core runs on a plain classpath too
        IProgressMonitor progress = monitor == null ? new NullProgressMonitor() : monitor;
        progress.beginTask("Computing stream order", Math.max(1, n / 65536 + 1));
        StreamOrderBuilder b = new StreamOrderBuilder();
        for (int i = 0; i < n; i++) {
            if ((i & 0xffff) == 0) {
                if (progress.isCanceled()) {
                    throw new OperationCanceledException();
                }
                progress.worked(1);
            }
            int thread = trace.thread(i);
            switch (trace.kind(i)) {
                case LAUNCH -> {
                    if (trace.launchKind(i) == LaunchKind.GRAPH_NODE && trace.graphLaunchEvent(i) >= 0
                            && b.isOperation((int) trace.graphLaunchEvent(i))) {
                        b.graphNode(i, (int) trace.graphLaunchEvent(i));
                    } else if (!b.capturing(thread, trace.stream(i))) {
                        b.operation(i, thread, trace.stream(i));
                    }
                }
                case MEMSET, GRAPH_LAUNCH -> {
                    if (!b.capturing(thread, trace.stream(i))) {
                        b.operation(i, thread, trace.stream(i));
                    }
                }
                case MEMCPY -> {
                    if (!b.capturing(thread, trace.stream(i))) {
                        b.operation(i, thread, trace.stream(i));
                        CopyKind kind = trace.copyKind(i);
                        if (!trace.async(i) && (kind == CopyKind.D2H || kind == CopyKind.H2H)) {
                            b.hostWaitsFor(thread, i);
                        }
                    }
                }
                case SYNC -> {
                    SyncKind sk = trace.syncKind(i);
                    if (sk == SyncKind.HOST_FUNCTION || sk == SyncKind.STREAM_CALLBACK) {
                        // i16-rec: a host function runs in its stream's order: after the earlier work, before the later
                        if (!b.capturing(thread, trace.stream(i))) {
                            b.operation(i, thread, trace.stream(i));
                        }
                    } else {
                        b.sync(trace, i, thread);
                    }
                }
                default -> {
                    // allocations and unknown events take no part in stream order
                }
            }
        }
        progress.done();
        return b.build();
    }

    private void sync(Trace trace, int i, int thread) {
        long stream = trace.stream(i);
        long event = trace.cudaEvent(i);
        switch (trace.syncKind(i)) {
            case STREAM_CREATE -> streamCreate(stream, trace.syncFlags(i));
            case STREAM_DESTROY -> streamDestroy(stream);
            case EVENT_CREATE, EVENT_DESTROY -> eventReset(event);
            case EVENT_RECORD -> eventRecord(thread, stream, event);
            case STREAM_WAIT_EVENT -> streamWaitEvent(thread, stream, event);
            case STREAM_SYNCHRONIZE -> streamSynchronize(thread, stream);
            case EVENT_SYNCHRONIZE -> eventSynchronize(thread, event);
            case CONTEXT_SYNCHRONIZE -> contextSynchronize(thread);
            case GRAPH_CAPTURE_BEGIN -> captureBegin(thread, stream);
            case GRAPH_CAPTURE_END -> captureEnd(thread, stream);
            default -> {
                // UNKNOWN / UNRECOGNIZED: nothing CUDA orders by it that we could know
            }
        }
    }

    // ---- lanes and clocks

    private Lane lane(int thread, long stream) {
        if (stream == LEGACY || stream == LEGACY_ALIAS) {
            Lane l = legacyLane;
            if (l == null) {
                l = newLane(LEGACY, true, true);
                legacyLane = l;
            }
            return l;
        }
        if (stream == PER_THREAD) {
            return perThreadLane.computeIfAbsent(thread, t -> newLane(PER_THREAD, true, false));
        }
        Lane l = laneByStream.get(stream);
        if (l == null) {
            l = newLane(stream, true, false);
            laneByStream.put(stream, l);
        }
        return l;
    }

    private Lane newLane(long stream, boolean blocking, boolean legacy) {
        Lane l = new Lane(lanes.size(), stream, blocking, legacy);
        lanes.add(l);
        return l;
    }

    private static int[] join(int[] a, int[] b) {
        if (b.length == 0) {
            return a;
        }
        if (a.length == 0) {
            return b;
        }
        int[] r = Arrays.copyOf(a, Math.max(a.length, b.length));
        boolean changed = r.length != a.length;
        for (int i = 0; i < b.length; i++) {
            if (b[i] > r[i]) {
                r[i] = b[i];
                changed = true;
            }
        }
        return changed ? r : a;
    }

    private static int at(int[] clock, int lane) {
        return lane < clock.length ? clock[lane] : 0;
    }

    /** What work issued now on {@code lane} by {@code thread} must follow: the lane, host syncs, default stream. */
    private int[] effectiveFrontier(Lane lane, int thread) {
        int[] vc = join(lane.frontier, hostClock.getOrDefault(thread, EMPTY));
        if (lane.legacy) {
            for (Lane other : lanes) {
                if (other != lane && other.blocking) {
                    vc = join(vc, other.frontier);
                }
            }
        } else if (lane.blocking && legacyLane != null) {
            vc = join(vc, legacyLane.frontier);
        }
        return vc;
    }

    // ---- Builder

    @Override
    public StreamOrderBuilder operation(int event, int thread, long stream) {
        checkOrder(event);
        Lane lane = lane(thread, stream);
        int[] vc = effectiveFrontier(lane, thread);
        int seq = ++lane.seq;
        vc = Arrays.copyOf(vc, Math.max(vc.length, lane.index + 1));
        vc[lane.index] = seq;
        int op = opEvent.size();
        opEvent.add(event);
        opLane.add(lane.index);
        opSeq.add(seq);
        lane.stepOps.add(op);

        boolean joined = false;
        int firstExtra = extraEvents.size();
        for (int other = 0; other < vc.length; other++) {
            if (other != lane.index && vc[other] > at(lane.lastClock, other)) {
                joined = true;
                if (!impliedByAnother(vc, other, lane)) {
                    extraEvents.add(opEvent.get(lanes.get(other).stepOps.get(vc[other] - 1)));
                }
            }
        }
        if (joined) {
            extraOps.add(op);
            extraStart.add(firstExtra);
            lane.joinSeqs.add(seq);
            lane.joinClocks.add(vc);
        }
        lane.frontier = vc;
        lane.lastClock = vc;
        return this;
    }

    /**
     * Whether the new dependency on step {@code vc[x]} of lane x is already implied by the previous operation of
     * {@code lane} or by the dependency on another lane's step (keeps predecessor lists short).
     */
    private boolean impliedByAnother(int[] vc, int x, Lane lane) {
        for (int y = 0; y < vc.length; y++) {
            if (y != x && vc[y] > 0 && (y != lane.index || vc[y] > 1)) {
                int step = y == lane.index ? vc[y] - 1 : vc[y];
                if (at(clockAt(lanes.get(y), step), x) >= vc[x]) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The clock of step {@code seq} of {@code lane}: the last join at or before it (own component implied). */
    private static int[] clockAt(Lane lane, int seq) {
        int lo = 0;
        int hi = lane.joinSeqs.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (lane.joinSeqs.get(mid) <= seq) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? EMPTY : lane.joinClocks.get(found);
    }

    @Override
    public StreamOrderBuilder graphNode(int event, int graphLaunchEvent) {
        checkOrder(event);
        int g = indexOf(opEvent, graphLaunchEvent);
        if (g < 0) {
            throw new IllegalArgumentException("graph node at event " + event + " names event " + graphLaunchEvent
                    + ", which is not a graph launch added before");
        }
        opEvent.add(event);
        opLane.add(opLane.get(g));
        opSeq.add(opSeq.get(g));
        return this;
    }

    @Override
    public StreamOrderBuilder hostWaitsFor(int thread, int event) {
        int op = indexOf(opEvent, event);
        if (op < 0) {
            throw new IllegalArgumentException("event " + event + " is not an operation");
        }
        Lane lane = lanes.get(opLane.get(op));
        hostClock.merge(thread, lane.lastClock, StreamOrderBuilder::join);
        return this;
    }

    @Override
    public StreamOrderBuilder streamCreate(long stream, int flags) {
        if (stream == LEGACY || stream == LEGACY_ALIAS || stream == PER_THREAD) {
            return this; // not creatable; a recorder quirk, ignore
        }
        laneByStream.put(stream, newLane(stream, (flags & 1) == 0, false));
        return this;
    }

    @Override
    public StreamOrderBuilder streamDestroy(long stream) {
        laneByStream.remove(stream);
        return this;
    }

    @Override
    public StreamOrderBuilder eventReset(long cudaEvent) {
        recorded.remove(cudaEvent);
        return this;
    }

    @Override
    public StreamOrderBuilder eventRecord(int thread, long stream, long cudaEvent) {
        recorded.put(cudaEvent, effectiveFrontier(lane(thread, stream), thread));
        return this;
    }

    @Override
    public StreamOrderBuilder streamWaitEvent(int thread, long stream, long cudaEvent) {
        int[] captured = recorded.get(cudaEvent);
        if (captured != null) {
            Lane lane = lane(thread, stream);
            lane.frontier = join(lane.frontier, captured);
        }
        return this;
    }

    @Override
    public StreamOrderBuilder streamSynchronize(int thread, long stream) {
        hostClock.merge(thread, effectiveFrontier(lane(thread, stream), thread), StreamOrderBuilder::join);
        return this;
    }

    @Override
    public StreamOrderBuilder eventSynchronize(int thread, long cudaEvent) {
        int[] captured = recorded.get(cudaEvent);
        if (captured != null) {
            hostClock.merge(thread, captured, StreamOrderBuilder::join);
        }
        return this;
    }

    @Override
    public StreamOrderBuilder contextSynchronize(int thread) {
        int[] all = EMPTY;
        for (Lane lane : lanes) {
            all = join(all, lane.frontier);
        }
        hostClock.merge(thread, all, StreamOrderBuilder::join);
        return this;
    }

    @Override
    public StreamOrderBuilder captureBegin(int thread, long stream) {
        lane(thread, stream).capturing = true;
        return this;
    }

    @Override
    public StreamOrderBuilder captureEnd(int thread, long stream) {
        lane(thread, stream).capturing = false;
        return this;
    }

    @Override
    public boolean capturing(int thread, long stream) {
        return lane(thread, stream).capturing;
    }

    boolean isOperation(int event) {
        return indexOf(opEvent, event) >= 0;
    }

    @Override
    public StreamOrder build() {
        int laneCount = lanes.size();
        long[] laneStream = new long[laneCount];
        int[][] stepOps = new int[laneCount][];
        int[][] joinSeqs = new int[laneCount][];
        int[][][] joinClocks = new int[laneCount][][];
        for (Lane lane : lanes) {
            laneStream[lane.index] = lane.stream;
            stepOps[lane.index] = lane.stepOps.toArray();
            joinSeqs[lane.index] = lane.joinSeqs.toArray();
            joinClocks[lane.index] = lane.joinClocks.toArray(new int[0][]);
        }
        return new VectorClockStreamOrder(opEvent.toArray(), opLane.toArray(), opSeq.toArray(), laneStream, stepOps,
                joinSeqs, joinClocks, extraOps.toArray(), extraStart.toArray(), extraEvents.toArray());
    }

    private void checkOrder(int event) {
        if (event <= lastEvent) {
            throw new IllegalArgumentException("operations must come in issue order: event " + event + " after "
                    + lastEvent);
        }
        lastEvent = event;
    }

    private static int indexOf(IntList sorted, int value) {
        int lo = 0;
        int hi = sorted.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = sorted.get(mid);
            if (v < value) {
                lo = mid + 1;
            } else if (v > value) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }
}
