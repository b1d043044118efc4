package org.phos.workbench.internal.cr.core;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.BufferState;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.CounterSample;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneKind;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.SimulationContext;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.SimulationWorkload;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.cr.core.Units;
import org.phos.workbench.cr.core.BufferStateChange;

/**
 * Discrete-event replay of one workload under one policy.
 * <p>
 * Host: operation i is issued at {@code max(s(i-1) + (h(i) - h(i-1)), end of what blocked the host at i-1)} plus any
 * stall the policy adds, where h are the recorded host times: the recorded gaps stand for host computation, and a
 * sync absorbs GPU delays up to the slack it had. GPU: each stream runs its work in order; work starts at the later
 * of issue (+ launch latency), the stream's previous work, awaited events and, for copies, its copy engine. Kernels of
 * different streams overlap freely (SM contention is not modelled); each copy engine (H2D, D2H, D2D) serves one copy
 * at a time, first come first served, shared by the application and C/R copies.
 * <p>
 * Background C/R work is scheduled lazily: before each call the policy may schedule every unit that starts by the
 * host's time (by the copy's ready time for an application copy, so that engine order is first come first served).
 * A buffer whose background copy is already scheduled counts as being copied, even if the copy starts a little later.
 */
public final class SimulationEngine implements SimulationContext {
    private static final int MAX_STREAM = 1 << 20;

    private final MachineModel machine;
    private final CrPolicy policy;
    private final TimelineSink sink;
    private final boolean appIntervals;
    private final SimulationWorkload workload;
    private final @Nullable CheckpointInstant replayFrom;

    private final BufferTable buffers = new BufferTable();
    private final LongArray streamTail = new LongArray(0);
    private final LongArray eventTime = new LongArray(0);
    private final long[] engineFree = new long[CopyDirection.values().length];
    private final boolean[] engineLastCr = new boolean[CopyDirection.values().length];
    private boolean[] declaredLanes = new boolean[256];

    private long now;
    private long launches;
    private long operations;
    private long gpuEnd;
    private long crEnd;
    private boolean observed;
    private long observedLaunches;
    private long firstKernelStart = -1;

    private long stallTotal;
    private long stallLongest;
    private long stallCount;
    private final Map<StallCause, Long> stallByCause = new EnumMap<>(StallCause.class);
    private final Map<String, Long> bytesPerLane = new HashMap<>();
    private final Map<Integer, String> laneNames = new HashMap<>();
    private final List<CheckpointSummary> checkpoints = new ArrayList<>();
    private final List<ConsistencyViolation> violations = new ArrayList<>();
    private final Set<Long> violationKeys = new HashSet<>();
    private long violationBytes;
    private long restoreStart = -1;
    private long restoreFull = -1;
    private long neverRestored;

    public SimulationEngine(SimulationWorkload workload, MachineModel machine, CrPolicy policy, TimelineSink sink,
            @Nullable CheckpointInstant replayFrom) {
        this.workload = workload;
        this.machine = machine;
        this.policy = policy;
        this.sink = sink;
        this.appIntervals = sink.wantsApplicationIntervals();
        this.replayFrom = replayFrom;
    }

    /** Work units one pass reports to the monitor ({@link #run}): the caller's task counts this many per pass. */
    public static final int PROGRESS_TICKS = 1000;
    /** Operations between two looks at the monitor (cancel and progress): a few hundred microseconds of replay. */
    private static final int POLL_MASK = 0x3FF;

    private @Nullable IProgressMonitor monitor;
    private long progressTotal;
    private int progressReported;

    /**
     * Replays the workload; {@code monitor} is polled for cancellation every 1024 operations (and before the first),
     * and receives {@link #PROGRESS_TICKS} units of {@code worked} over the pass (in proportion to the operations
     * replayed against the workload's size hint; all of them by the end).
     */
    public SimulationMetrics run(IProgressMonitor monitor) {
        this.monitor = monitor;
        this.progressTotal = Math.max(1, workload.sizeHint());
        declare(Lane.HOST, "host (API calls)", LaneKind.APPLICATION);
        // a policy may pass over the whole workload first (first-use order): cancellable, and said
        policy.begin(this, watched(workload, monitor));
        Iterator<Operation> ops = workload.operations();
        @Nullable Operation pending = null;
        if (replayFrom != null) {
            pending = skipHistory(ops, replayFrom);
            policy.beginRestore(this);
        }
        long prevHost = -1;
        long hostBlockedUntil = now;
        while (pending != null || ops.hasNext()) {
            Operation op = pending != null ? pending : ops.next();
            pending = null;
            if ((operations & POLL_MASK) == 0) {
                poll(skipped + operations);
            }
            if (prevHost >= 0) {
                now = Math.max(now + Math.max(0, op.hostTimeNs() - prevHost), hostBlockedUntil);
            } else {
                now = Math.max(now, hostBlockedUntil);
            }
            prevHost = op.hostTimeNs();
            if (op.kind() == org.phos.workbench.cr.core.OperationKind.LAUNCH
                    && (op.observedWrites() != null || op.observedReads() != null)) {
                observed = true;
                observedLaunches++;
            }
            policy.advanceTo(now, this);
            policy.beforeIssue(op, this);
            hostBlockedUntil = issue(op);
            operations++;
            if (op.kind() == org.phos.workbench.cr.core.OperationKind.LAUNCH) {
                launches++;
            }
        }
        now = Math.max(now, hostBlockedUntil);
        long appEnd = Math.max(now, gpuEnd);
        policy.finish(this);
        if (progressReported < PROGRESS_TICKS) {
            monitor.worked(PROGRESS_TICKS - progressReported);
            progressReported = PROGRESS_TICKS;
        }
        long end = Math.max(appEnd, crEnd);
        long firstKernel = restoreStart >= 0 && firstKernelStart >= 0 ? firstKernelStart - restoreStart : -1;
        long full = restoreStart >= 0 && restoreFull >= 0 ? restoreFull - restoreStart : -1;
        return new SimulationMetrics(policy.name(), machine.name(), operations, launches, appEnd, -1, end,
                stallTotal, stallLongest, stallCount, stallByCause, checkpoints, restoreStart, firstKernel, full,
                neverRestored, bytesPerLane, checkpoints.stream().mapToLong(CheckpointSummary::cowCount).sum(),
                checkpoints.stream().mapToLong(CheckpointSummary::cowBytes).sum(),
                new ConsistencyReport(observed, observedLaunches, violations, violationBytes));
    }

    /**
     * The workload as a policy sees it before the replay: its passes poll the monitor for cancellation every 1024
     * operations and name what they do every 64k (a look ahead over a long trace takes a while).
     */
    private static SimulationWorkload watched(SimulationWorkload workload, IProgressMonitor monitor) {
        return new SimulationWorkload() {
            @Override
            public String name() {
                return workload.name();
            }

            @Override
            public long sizeHint() {
                return workload.sizeHint();
            }

            @Override
            public Iterator<Operation> operations() {
                Iterator<Operation> ops = workload.operations();
                return new Iterator<>() {
                    private long seen;

                    @Override
                    public boolean hasNext() {
                        return ops.hasNext();
                    }

                    @Override
                    public Operation next() {
                        if ((++seen & POLL_MASK) == 0) {
                            if (monitor.isCanceled()) {
                                throw new OperationCanceledException();
                            }
                            if ((seen & 0xFFFF) == 0) {
                                monitor.subTask("looking ahead: " + seen + " operations");
                            }
                        }
                        return ops.next();
                    }
                };
            }
        };
    }

    /** Cancels, or reports the share of the pass done; {@code position} counts the operations passed so far. */
    private void poll(long position) {
        IProgressMonitor m = monitor;
        if (m == null) {
            return;
        }
        if (m.isCanceled()) {
            throw new OperationCanceledException();
        }
        int done = (int) Math.min(PROGRESS_TICKS - 1, position * PROGRESS_TICKS / progressTotal);
        if (done > progressReported) {
            m.worked(done - progressReported);
            progressReported = done;
        }
    }

    /** Operations skipped before the restore point (they count for progress). */
    private long skipped;

    private @Nullable Operation skipHistory(Iterator<Operation> ops, CheckpointInstant at) {
        long seenLaunches = 0;
        while (ops.hasNext()) {
            Operation op = ops.next();
            if ((++skipped & POLL_MASK) == 0) {
                poll(skipped);
            }
            if (at.reached(op.hostTimeNs(), seenLaunches, op)) {
                return op;
            }
            switch (op.kind()) {
                case ALLOC -> buffers.alloc(op.buffer(), op.bytes(), op.address(), op.index());
                case FREE -> buffers.free(op.buffer());
                case LAUNCH -> seenLaunches++;
                default -> {
                }
            }
        }
        return null;
    }

    /** Schedules one operation; returns the time until which the host is blocked by it. */
    private long issue(Operation op) {
        int stream = op.stream();
        if (stream < 0 || stream >= MAX_STREAM) {
            throw new IllegalArgumentException("operation " + op.index() + ": stream number " + stream
                    + " out of range [0, " + MAX_STREAM + ") (adapters must map stream handles to small numbers)");
        }
        ensureStream(stream);
        switch (op.kind()) {
            case LAUNCH, SET -> {
                long start = Math.max(now + machine.launchLatencyNs(), streamTail.get(stream));
                long dur = op.gpuDurationNs() >= 0 ? op.gpuDurationNs()
                        : op.kind() == org.phos.workbench.cr.core.OperationKind.SET
                                ? Units.transferNs(op.bytes(), machine.memsetBytesPerSec())
                                : machine.defaultKernelNs();
                long end = start + dur;
                finishGpu(op, stream, start, end, Lane.FIRST_STREAM + stream,
                        op.kind() == org.phos.workbench.cr.core.OperationKind.SET ? TimelineInterval.SET
                                : TimelineInterval.KERNEL);
                if (op.kind() == org.phos.workbench.cr.core.OperationKind.LAUNCH && firstKernelStart < 0) {
                    firstKernelStart = start;
                }
                return now;
            }
            case COPY -> {
                CopyDirection dir = op.direction();
                if (dir == null) {
                    throw new IllegalStateException("copy without direction");
                }
                long ready = Math.max(now + machine.launchLatencyNs(), streamTail.get(stream));
                long dur = op.gpuDurationNs() >= 0 ? op.gpuDurationNs()
                        : machine.copyLatencyNs() + Units.transferNs(op.bytes(), machine.bandwidth(dir, Staging.PINNED));
                long start = ready;
                if (dir != CopyDirection.HOST_TO_HOST) {
                    policy.advanceTo(ready, this);
                    int e = dir.ordinal();
                    start = Math.max(ready, engineFree[e]);
                    if (start > ready && engineLastCr[e]) {
                        recordStall(new StallInterval(Lane.FIRST_STREAM + stream, ready, start,
                                StallCause.COPY_ENGINE_BUSY, -1, op.index()));
                    }
                    engineFree[e] = start + dur;
                    engineLastCr[e] = false;
                    int lane = engineLane(dir);
                    addBytes(lane, op.bytes());
                    if (appIntervals) {
                        sink.interval(new TimelineInterval(lane, start, start + dur, op.label(), TimelineInterval.COPY,
                                -1, op.bytes(), op.index()));
                    }
                }
                long end = start + dur;
                finishGpu(op, stream, start, end, Lane.FIRST_STREAM + stream, TimelineInterval.COPY);
                return op.blocking() ? end : now;
            }
            case ALLOC -> {
                buffers.alloc(op.buffer(), op.bytes(), op.address(), op.index());
                policy.afterIssue(op, now, now, this);
                return now;
            }
            case FREE -> {
                if (!buffers.free(op.buffer())) {
                    throw new IllegalArgumentException("operation " + op.index() + ": free of buffer " + op.buffer()
                            + " which is not allocated");
                }
                policy.afterIssue(op, now, now, this);
                return now;
            }
            case STREAM_SYNC -> {
                policy.afterIssue(op, now, now, this);
                return Math.max(now, streamTail.get(stream));
            }
            case DEVICE_SYNC -> {
                policy.afterIssue(op, now, now, this);
                return Math.max(now, gpuEnd);
            }
            case EVENT_RECORD -> {
                eventTime.set(op.event(), Math.max(now, streamTail.get(stream)));
                ensureStream(stream);
                return now;
            }
            case EVENT_WAIT -> {
                streamTail.set(stream, Math.max(streamTail.get(stream), eventTime.get(op.event())));
                ensureStream(stream);
                return now;
            }
            case EVENT_SYNC -> {
                return Math.max(now, eventTime.get(op.event()));
            }
            case HOST_FUNCTION -> {
                // i16-rec: stream-ordered host work: runs after the stream's earlier work (its later work follows it
                // through the stream's tail); no recorded duration, so it takes none; the host does not wait
                streamTail.set(stream, Math.max(now + machine.launchLatencyNs(), streamTail.get(stream)));
                ensureStream(stream);
                return now;
            }
            default -> throw new IllegalStateException(op.kind().toString());
        }
    }

    private void ensureStream(int stream) {
        declare(Lane.FIRST_STREAM + stream, "stream " + stream, LaneKind.APPLICATION);
    }

    private void finishGpu(Operation op, int stream, long start, long end, int lane, String category) {
        streamTail.set(stream, end);
        gpuEnd = Math.max(gpuEnd, end);
        ensureStream(stream);
        if (appIntervals) {
            sink.interval(new TimelineInterval(lane, start, end, op.label(), category, -1, op.bytes(), op.index()));
        }
        policy.afterIssue(op, start, end, this);
    }

    private int engineLane(CopyDirection dir) {
        return switch (dir) {
            case HOST_TO_DEVICE -> declare(Lane.ENGINE_H2D, "engine H2D", LaneKind.COPY_ENGINE);
            case DEVICE_TO_HOST -> declare(Lane.ENGINE_D2H, "engine D2H", LaneKind.COPY_ENGINE);
            case DEVICE_TO_DEVICE -> declare(Lane.ENGINE_D2D, "engine D2D", LaneKind.COPY_ENGINE);
            case HOST_TO_HOST -> Lane.HOST;
        };
    }

    private int declare(int id, String name, LaneKind kind) {
        if (id >= declaredLanes.length) {
            declaredLanes = java.util.Arrays.copyOf(declaredLanes, Math.max(id + 1, declaredLanes.length * 2));
        }
        if (!declaredLanes[id]) {
            declaredLanes[id] = true;
            laneNames.put(id, name);
            sink.lane(new Lane(id, name, kind));
        }
        return id;
    }

    /** Declares one of the C/R lanes by id. */
    private int crLane(int id) {
        return switch (id) {
            case Lane.CR_COW_D2D -> declare(id, "C/R CoW D2D", LaneKind.CHECKPOINT_RESTORE);
            case Lane.CR_COMMIT_D2H -> declare(id, "C/R commit D2H", LaneKind.CHECKPOINT_RESTORE);
            case Lane.CR_RESTORE_H2D -> declare(id, "C/R restore H2D", LaneKind.CHECKPOINT_RESTORE);
            case Lane.CR_CONTROL -> declare(id, "C/R control", LaneKind.CHECKPOINT_RESTORE);
            default -> throw new IllegalArgumentException("not a C/R lane: " + id);
        };
    }

    private void addBytes(int lane, long bytes) {
        if (bytes > 0) {
            bytesPerLane.merge(laneNames.getOrDefault(lane, "lane " + lane), bytes, Long::sum);
        }
    }

    private void recordStall(StallInterval s) {
        if (s.endNs() <= s.startNs()) {
            return;
        }
        stallByCause.merge(s.cause(), s.durationNs(), Long::sum);
        if (s.isHostStall()) {
            stallTotal += s.durationNs();
            stallLongest = Math.max(stallLongest, s.durationNs());
            stallCount++;
        }
        sink.stall(s);
    }

    // ---- SimulationContext ----

    @Override
    public MachineModel machine() {
        return machine;
    }

    @Override
    public long now() {
        return now;
    }

    @Override
    public long launchesIssued() {
        return launches;
    }

    @Override
    public boolean isLive(int buffer) {
        return buffers.isLive(buffer);
    }

    @Override
    public long size(int buffer) {
        return buffers.size(buffer);
    }

    @Override
    public long address(int buffer) {
        return buffers.address(buffer);
    }

    @Override
    public int[] liveBuffers() {
        return buffers.liveIds();
    }

    @Override
    public int bufferIdLimit() {
        return buffers.limit();
    }

    @Override
    public long drainTime() {
        long t = Math.max(now, gpuEnd);
        for (int e = 0; e < engineFree.length; e++) {
            if (!engineLastCr[e]) {
                t = Math.max(t, engineFree[e]);
            }
        }
        return t;
    }

    @Override
    public long stallUntil(long endNs, StallCause cause, int buffer, long opIndex) {
        if (endNs > now) {
            recordStall(new StallInterval(Lane.HOST, now, endNs, cause, buffer, opIndex));
            now = endNs;
        }
        return now;
    }

    @Override
    public long scheduleCopy(CopyDirection direction, Staging staging, long earliestNs, long bytes, int crLaneId,
            String label, String category, int buffer) {
        return scheduleCopy(direction, machine.bandwidth(direction, staging), machine.copyLatencyNs(), true,
                earliestNs, bytes, crLaneId, label, category, buffer);
    }

    @Override
    public long scheduleCopy(CopyDirection direction, double bytesPerSec, long latencyNs, boolean onEngine,
            long earliestNs, long bytes, int crLaneId, String label, String category, int buffer) {
        int e = direction.ordinal();
        long start = onEngine ? Math.max(earliestNs, engineFree[e]) : earliestNs;
        long end = start + latencyNs + Units.transferNs(bytes, bytesPerSec);
        if (onEngine) {
            engineFree[e] = end;
            engineLastCr[e] = true;
        }
        crEnd = Math.max(crEnd, end);
        int engine = engineLane(direction);
        int lane = crLane(crLaneId);
        addBytes(lane, bytes);
        addBytes(engine, bytes);
        sink.interval(new TimelineInterval(engine, start, end, label, category, buffer, bytes, -1));
        sink.interval(new TimelineInterval(lane, start, end, label, category, buffer, bytes, -1));
        return end;
    }

    @Override
    public long engineFreeAt(CopyDirection direction) {
        return engineFree[direction.ordinal()];
    }

    @Override
    public void marker(long timeNs, String label, int checkpoint) {
        crLane(Lane.CR_CONTROL);
        sink.marker(new Marker(timeNs, label, checkpoint));
    }

    @Override
    public void stateChange(long timeNs, int buffer, BufferState from, BufferState to, int checkpoint) {
        sink.bufferState(new BufferStateChange(timeNs, buffer, from, to, checkpoint));
    }

    @Override
    public void counter(long timeNs, String counter, long value) {
        crLane(Lane.CR_CONTROL);
        sink.counter(new CounterSample(timeNs, counter, value));
    }

    @Override
    public void reportCheckpoint(CheckpointSummary summary) {
        checkpoints.add(summary);
        crEnd = Math.max(crEnd, summary.completedNs());
    }

    @Override
    public void reportRestore(long restoreStartNs, long fullStateNs, long bytesNeverRestored) {
        this.restoreStart = restoreStartNs;
        this.restoreFull = fullStateNs;
        this.neverRestored = bytesNeverRestored;
        crEnd = Math.max(crEnd, fullStateNs);
    }

    @Override
    public void reportViolation(ConsistencyViolation violation) {
        long key = ((long) violation.checkpoint() << 32) | (violation.buffer() & 0xFFFFFFFFL);
        if (violationKeys.add(key)) {
            violations.add(violation);
            violationBytes += buffers.size(violation.buffer());
        }
    }

    @Override
    public boolean hasObservedAccesses() {
        return observed;
    }
}
