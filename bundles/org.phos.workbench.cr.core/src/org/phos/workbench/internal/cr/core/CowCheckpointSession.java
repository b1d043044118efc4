package org.phos.workbench.internal.cr.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.BufferState;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.CopierOrder;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.CounterSample;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationContext;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.Units;

/**
 * One soft checkpoint from its drain to its last commit (PhOS's copy-on-write mechanism, notes section 4).
 * <p>
 * At the start the host drains once and the live buffers become the snapshot set S, each {@code UNTOUCHED}. A
 * background copier commits S to the host one unit at a time (a whole buffer or a chunk) on the D2H engine: first any
 * buffer waiting in the spare budget (which frees budget), then the next buffer in the chosen order. Before the
 * application issues a call whose (policy) write set holds a buffer of S: {@code UNTOUCHED} -> copied D2D into the
 * budget while the host waits ({@code COW_DONE}), or, budget full, copied straight D2H while it waits
 * ({@code COMMITTED}); {@code COPYING} -> the host waits for the copier to finish it. Buffers freed during the
 * checkpoint stay allocated until committed. Every buffer written or allocated after the instant is dirty.
 * <p>
 * Consistency: a true write (observed set) to a buffer of S whose bytes were not all in the image before the write's
 * GPU start is a missed write of the image at the instant. For recopy, true writes to a buffer after its pre-copy
 * started are candidates, violations if the buffer is not in the dirty set at the stop.
 */
public final class CowCheckpointSession {
    private static final byte NOT_IN_SNAPSHOT = -1;

    private final SimulationContext ctx;
    private final int number;
    private final SoftCheckpointOptions options;
    private final long @Nullable [] firstUse;

    private final long requested;
    /** The copy-on-write budget, {@code budget=auto} resolved against the machine's memory at the instant. */
    private long budgetBytes;

    private long drained;
    private long completed = -1;
    private int limit;
    private byte[] state = new byte[0];
    private long[] size = new long[0];
    private long[] imageDone = new long[0];
    private long[] copyStart = new long[0];
    private boolean[] freed = new boolean[0];
    private int[] order = new int[0];
    private int cursor;
    private final ArrayDeque<Integer> cowPending = new ArrayDeque<>();

    private int current = -1;
    private boolean currentFromSpare;
    private long currentDone;
    private long[] chunkEnds = new long[8];
    private int chunkCount;
    private long copierClock;
    /** Latest end of any copy that completes part of the image (copier units and budget fallbacks). */
    private long lastImageCopyEnd;

    private long budgetUsed;
    private long peakBudget;
    private final ArrayDeque<long[]> releases = new ArrayDeque<>();

    private boolean[] dirty = new boolean[1024];
    private long dirtyBytes;
    private final Map<Integer, ConsistencyViolation> recopyCandidates = new HashMap<>();
    private final List<ConsistencyViolation> instantViolations = new ArrayList<>();
    private long gpuTimeSinceInstant;

    private int snapshotBuffers;
    private long snapshotBytes;
    private long cowCount;
    private long cowBytes;
    private long fallbackCount;
    private long fallbackBytes;

    /**
     * Starts the checkpoint now: the host drains (stall), dumps CPU state if the machine has any, and the live buffers
     * become the snapshot.
     *
     * @param firstUse per buffer id, index of its first use after the instant (for {@link CopierOrder#FIRST_USE})
     */
    public CowCheckpointSession(SimulationContext ctx, int number, SoftCheckpointOptions options,
            long @Nullable [] firstUse) {
        this.ctx = ctx;
        this.number = number;
        this.options = options;
        this.firstUse = firstUse;
        this.requested = ctx.now();
        ctx.marker(requested, "checkpoint " + number + " requested", number);
        ctx.stallUntil(ctx.drainTime(), StallCause.DRAIN, -1, -1);
        long cpu = ctx.machine().cpuStateBytes();
        if (cpu > 0) {
            ctx.stallUntil(ctx.now() + Units.transferNs(cpu, ctx.machine().hostCopyBytesPerSec()),
                    StallCause.CPU_STATE, -1, -1);
        }
        drained = ctx.now();
        copierClock = drained;
        ctx.marker(drained, "checkpoint " + number + " instant (drained)", number);
        snapshot();
        budgetBytes = options.budgetFor(ctx.machine().deviceMemoryBytes() - snapshotBytes);
    }

    private void snapshot() {
        int[] live = ctx.liveBuffers();
        limit = ctx.bufferIdLimit();
        state = new byte[limit];
        Arrays.fill(state, NOT_IN_SNAPSHOT);
        size = new long[limit];
        imageDone = new long[limit];
        freed = new boolean[limit];
        Arrays.fill(imageDone, Long.MAX_VALUE);
        copyStart = new long[limit];
        Arrays.fill(copyStart, Long.MAX_VALUE);
        for (int b : live) {
            state[b] = (byte) BufferState.UNTOUCHED.ordinal();
            size[b] = ctx.size(b);
            snapshotBytes += size[b];
        }
        snapshotBuffers = live.length;
        Integer[] boxed = new Integer[live.length];
        for (int i = 0; i < live.length; i++) {
            boxed[i] = live[i];
        }
        Comparator<Integer> byPointer = Comparator.<Integer>comparingLong(ctx::address).thenComparingInt(i -> i);
        Comparator<Integer> cmp = switch (options.order()) {
            case POINTER -> byPointer;
            case LARGEST_FIRST -> Comparator.<Integer>comparingLong(b -> -size[b]).thenComparing(byPointer);
            case SMALLEST_FIRST -> Comparator.<Integer>comparingLong(b -> size[b]).thenComparing(byPointer);
            case FIRST_USE -> {
                long[] fu = firstUse;
                yield Comparator.<Integer>comparingLong(
                        b -> fu != null && b < fu.length && fu[b] >= 0 ? fu[b] : Long.MAX_VALUE).thenComparing(byPointer);
            }
        };
        Arrays.sort(boxed, cmp);
        order = new int[live.length];
        for (int i = 0; i < live.length; i++) {
            order[i] = boxed[i];
        }
    }

    public int number() {
        return number;
    }

    public long requestedNs() {
        return requested;
    }

    public long drainedNs() {
        return drained;
    }

    private static final BufferState[] STATES = BufferState.values();

    private BufferState stateOf(int b) {
        return STATES[state[b]];
    }

    private boolean inSnapshot(int b) {
        return b >= 0 && b < limit && state[b] != NOT_IN_SNAPSHOT;
    }

    private void setState(long t, int b, BufferState to) {
        BufferState from = stateOf(b);
        state[b] = (byte) to.ordinal();
        ctx.stateChange(t, b, from, to, number);
    }

    private long chunk(long remaining) {
        return options.chunkBytes() == 0 ? remaining : Math.min(options.chunkBytes(), remaining);
    }

    /** Whether the copier has committed everything. */
    public boolean copierDone() {
        return current < 0 && cowPending.isEmpty() && nextInOrder(false) < 0;
    }

    /** When the copier finished (the image is complete), or -1 while it runs. */
    public long completedNs() {
        return completed;
    }

    private int nextInOrder(boolean consume) {
        int c = cursor;
        while (c < order.length) {
            BufferState s = stateOf(order[c]);
            if (s == BufferState.UNTOUCHED || s == BufferState.FREED_PENDING) {
                if (consume) {
                    cursor = c + 1;
                }
                return order[c];
            }
            c++;
        }
        if (consume) {
            cursor = c;
        }
        return -1;
    }

    /** Lets the copier schedule every unit that can start at or before {@code t}. */
    public void advanceTo(long t) {
        while (completed < 0) {
            long start = Math.max(copierClock, ctx.engineFreeAt(CopyDirection.DEVICE_TO_HOST));
            if (start > t) {
                return;
            }
            if (!step()) {
                return;
            }
        }
    }

    /** Schedules the copier's next unit; false when there is no work left (then the checkpoint is complete). */
    private boolean step() {
        if (current < 0) {
            if (!cowPending.isEmpty()) {
                current = cowPending.poll();
                currentFromSpare = true;
            } else {
                int b = nextInOrder(true);
                if (b < 0) {
                    complete(Math.max(copierClock, lastImageCopyEnd));
                    return false;
                }
                current = b;
                currentFromSpare = false;
            }
            currentDone = 0;
            chunkCount = 0;
        }
        int b = current;
        long bytes = chunk(size[b] - currentDone);
        String label = (currentFromSpare ? "commit CoW copy of buffer " : "commit buffer ") + b;
        long start = Math.max(copierClock, ctx.engineFreeAt(CopyDirection.DEVICE_TO_HOST));
        if (currentDone == 0 && !currentFromSpare) {
            setState(start, b, BufferState.COPYING);
            copyStart[b] = start;
        }
        // the copier commits at the machine's copier rate (a host-pumped copier is slower than the engine)
        long end = ctx.scheduleCopy(CopyDirection.DEVICE_TO_HOST, ctx.machine().copierBandwidth(options.staging()),
                ctx.machine().copyLatencyNs(), true, copierClock, bytes, Lane.CR_COMMIT_D2H, label, TimelineInterval.COMMIT,
                b);
        copierClock = end;
        lastImageCopyEnd = Math.max(lastImageCopyEnd, end);
        currentDone += bytes;
        if (chunkCount == chunkEnds.length) {
            chunkEnds = Arrays.copyOf(chunkEnds, chunkCount * 2);
        }
        chunkEnds[chunkCount++] = end;
        if (currentDone >= size[b]) {
            if (currentFromSpare) {
                releases.add(new long[] { end, size[b] });
            } else {
                imageDone[b] = end;
            }
            setState(end, b, BufferState.COMMITTED);
            current = -1;
        }
        return true;
    }

    /** Schedules the rest of the buffer the copier is on; returns when it is committed. */
    private long finishCurrent() {
        int b = current;
        while (current == b) {
            step();
        }
        return imageDone[b] == Long.MAX_VALUE ? copierClock : imageDone[b];
    }

    private void complete(long t) {
        if (completed < 0) {
            completed = Math.max(t, drained);
            ctx.marker(completed, "checkpoint " + number + " image complete", number);
        }
    }

    private void releaseBudget(long t) {
        while (!releases.isEmpty() && releases.peek()[0] <= t) {
            long[] r = releases.poll();
            budgetUsed -= r[1];
            ctx.counter(r[0], CounterSample.BUDGET_USED, budgetUsed);
        }
    }

    /** Copy-on-write and dirty tracking before the host issues {@code op}. */
    public void beforeIssue(Operation op) {
        if (op.kind() == OperationKind.FREE) {
            int b = op.buffer();
            undirty(b);
            if (inSnapshot(b) && (stateOf(b) == BufferState.UNTOUCHED)) {
                freed[b] = true;
                setState(ctx.now(), b, BufferState.FREED_PENDING);
            }
            return;
        }
        if (op.writes().isEmpty()) {
            return;
        }
        releaseBudget(ctx.now());
        for (BufferRange r : op.writes()) {
            int b = r.buffer();
            markDirty(b);
            if (!inSnapshot(b) || !options.copyOnWrite()) {
                continue;
            }
            // states are recorded when a copy is scheduled, which may end after now: compare times, not states
            switch (stateOf(b)) {
                case UNTOUCHED -> preserve(b, op.index());
                case COPYING -> ctx.stallUntil(b == current ? finishCurrent() : imageDone[b],
                        StallCause.WAIT_FOR_COPIER, b, op.index());
                case COMMITTED -> {
                    if (imageDone[b] != Long.MAX_VALUE && imageDone[b] > ctx.now()) {
                        ctx.stallUntil(imageDone[b], StallCause.WAIT_FOR_COPIER, b, op.index());
                    }
                }
                default -> {
                }
            }
        }
    }

    private void preserve(int b, long opIndex) {
        long now = ctx.now();
        if (budgetBytes - budgetUsed >= size[b]) {
            long end;
            long cowLatency = ctx.machine().cowLatencyNs();
            if (cowLatency < 0) {
                copyStart[b] = Math.max(now, ctx.engineFreeAt(CopyDirection.DEVICE_TO_DEVICE));
                end = ctx.scheduleCopy(CopyDirection.DEVICE_TO_DEVICE, Staging.PINNED, now, size[b], Lane.CR_COW_D2D,
                        "CoW buffer " + b, TimelineInterval.COW, b);
            } else {
                // calibrated (cow-latency set): queued on the application's stream, as the live engine does, beside
                // the D2D engine's other copies, not behind them; each copy costs its bytes and the GPU time of a
                // copy queued back to back (cow-latency), the host's issue cost overlapping the copies before it
                copyStart[b] = now;
                end = ctx.scheduleCopy(CopyDirection.DEVICE_TO_DEVICE,
                        ctx.machine().bandwidth(CopyDirection.DEVICE_TO_DEVICE, Staging.PINNED), cowLatency, false, now,
                        size[b], Lane.CR_COW_D2D, "CoW buffer " + b, TimelineInterval.COW, b);
            }
            budgetUsed += size[b];
            peakBudget = Math.max(peakBudget, budgetUsed);
            ctx.counter(now, CounterSample.BUDGET_USED, budgetUsed);
            imageDone[b] = end;
            cowCount++;
            cowBytes += size[b];
            ctx.stallUntil(end, StallCause.COPY_ON_WRITE, b, opIndex);
            setState(end, b, BufferState.COW_DONE);
            cowPending.add(b);
        } else {
            setState(now, b, BufferState.COPYING);
            copyStart[b] = Math.max(now, ctx.engineFreeAt(CopyDirection.DEVICE_TO_HOST));
            long end = ctx.scheduleCopy(CopyDirection.DEVICE_TO_HOST, options.staging(), now, size[b],
                    Lane.CR_COMMIT_D2H, "direct commit buffer " + b + " (budget full)", TimelineInterval.COMMIT, b);
            imageDone[b] = end;
            lastImageCopyEnd = Math.max(lastImageCopyEnd, end);
            fallbackCount++;
            fallbackBytes += size[b];
            ctx.stallUntil(end, StallCause.BUDGET_FALLBACK, b, opIndex);
            setState(end, b, BufferState.COMMITTED);
        }
    }

    private void markDirty(int b) {
        if (b >= dirty.length) {
            dirty = Arrays.copyOf(dirty, Math.max(b + 1, dirty.length * 2));
        }
        if (!dirty[b] && ctx.isLive(b)) {
            dirty[b] = true;
            dirtyBytes += ctx.size(b);
            ctx.counter(ctx.now(), CounterSample.DIRTY_BYTES, dirtyBytes);
        }
    }

    private void undirty(int b) {
        if (b < dirty.length && dirty[b]) {
            dirty[b] = false;
            dirtyBytes -= ctx.size(b);
            ctx.counter(ctx.now(), CounterSample.DIRTY_BYTES, dirtyBytes);
        }
    }

    /** After the host issued {@code op}: new allocations are dirty; true writes are checked against the image. */
    public void afterIssue(Operation op, long gpuStart, long gpuEnd) {
        if (op.kind() == OperationKind.ALLOC) {
            markDirty(op.buffer());
            return;
        }
        gpuTimeSinceInstant += gpuEnd - gpuStart;
        List<BufferRange> trueWrites = op.observedWrites();
        if (trueWrites == null) {
            return;
        }
        for (BufferRange w : trueWrites) {
            int b = w.buffer();
            if (!inSnapshot(b) || freed[b]) {
                continue;
            }
            if (!imageSafe(b, w, gpuStart)) {
                instantViolations.add(new ConsistencyViolation(ConsistencyViolation.Kind.MISSED_WRITE_BEFORE_COPY, b,
                        op.index(), w.begin(), w.end(), gpuStart, number,
                        "operation " + op.index() + " (" + op.label() + ") wrote bytes [" + w.begin() + ", " + w.end()
                                + ") of buffer " + b + " before its image of checkpoint " + number
                                + " was taken, and the policy's write set did not include it"));
            }
            if (copyStart[b] < gpuEnd && !recopyCandidates.containsKey(b)) {
                recopyCandidates.put(b, new ConsistencyViolation(ConsistencyViolation.Kind.MISSED_WRITE_NOT_RECOPIED,
                        b, op.index(), w.begin(), w.end(), gpuStart, number,
                        "operation " + op.index() + " (" + op.label() + ") wrote buffer " + b
                                + " after its pre-copy started, and it was not in the dirty set that was recopied"));
            }
        }
    }

    private boolean imageSafe(int b, BufferRange w, long writeStart) {
        if (imageDone[b] <= writeStart) {
            return true;
        }
        if (b == current && !currentFromSpare) {
            long chunkBytes = options.chunkBytes() == 0 ? size[b] : options.chunkBytes();
            long safePrefix = 0;
            for (int i = 0; i < chunkCount && chunkEnds[i] <= writeStart; i++) {
                safePrefix = Math.min(size[b], safePrefix + chunkBytes);
            }
            return w.end() <= safePrefix;
        }
        return false;
    }

    /** Runs the copier to the end; returns the completion time. */
    public long runToCompletion() {
        advanceTo(Long.MAX_VALUE);
        return completed;
    }

    public boolean isDirty(int b) {
        return b < dirty.length && dirty[b];
    }

    public long dirtyBytes() {
        return dirtyBytes;
    }

    /** Dirty buffers that are live now, ascending id. */
    public int[] liveDirtyBuffers() {
        int n = 0;
        for (int b = 0; b < dirty.length; b++) {
            if (dirty[b] && ctx.isLive(b)) {
                n++;
            }
        }
        int[] ids = new int[n];
        n = 0;
        for (int b = 0; b < dirty.length; b++) {
            if (dirty[b] && ctx.isLive(b)) {
                ids[n++] = b;
            }
        }
        return ids;
    }

    /** Violations of the image at the instant (soft copy-on-write semantics). */
    public List<ConsistencyViolation> instantViolations() {
        return instantViolations;
    }

    /** Violations of the latest-state image after recopying the dirty set at the stop. */
    public List<ConsistencyViolation> recopyViolations() {
        List<ConsistencyViolation> v = new ArrayList<>();
        for (ConsistencyViolation c : recopyCandidates.values()) {
            if (!isDirty(c.buffer())) {
                v.add(c);
            }
        }
        v.sort(Comparator.comparingLong(ConsistencyViolation::opIndex));
        return v;
    }

    /** GPU time of the operations issued since the instant (what a destination recomputes from the log). */
    public long gpuTimeSinceInstant() {
        return gpuTimeSinceInstant;
    }

    public CheckpointSummary summary(long completedAt, long recopyBytes, long recomputeNs) {
        return new CheckpointSummary(number, requested, drained, completedAt, snapshotBuffers, snapshotBytes, cowCount,
                cowBytes, fallbackCount, fallbackBytes, dirtyBytes, recopyBytes, recomputeNs, peakBudget);
    }

    /** The copy-on-write budget of this checkpoint in bytes ({@code budget=auto} resolved at the instant). */
    public long budgetBytes() {
        return budgetBytes;
    }
}
