package org.phos.workbench.cr.core;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.phos.workbench.internal.cr.core.Lookahead;

/**
 * PhOS's soft on-demand restore: after the context is ready the application runs at once; before each call, any
 * buffer of its (policy) read or write set not back on the device is copied H2D while the host waits (or, when the
 * prefetcher is on it, the host waits for that copy). With prefetch on, a background copier restores the rest in the
 * chosen order; without it (PhOS's released code), buffers no call names are never restored.
 * <p>
 * Consistency: a true access (observed read or write) to a buffer not yet present at the access's GPU start is an
 * {@link ConsistencyViolation.Kind#ACCESS_BEFORE_RESTORED}.
 */
public final class SoftOnDemandRestorePolicy implements CrPolicy {
    private static final long NEVER = Long.MAX_VALUE;

    private final CheckpointInstant at;
    private final boolean prefetch;
    private final CopierOrder order;
    private final boolean contextPool;
    private final Staging staging;

    private long[] firstUse = new long[0];
    private long[] presentAt = new long[0];
    private boolean[] inImage = new boolean[0];
    private int[] prefetchOrder = new int[0];
    private int cursor;
    private long clock;
    private int remaining;
    private long lastPresent;
    private long restoreStart;

    public SoftOnDemandRestorePolicy(CheckpointInstant at, boolean prefetch, CopierOrder order, boolean contextPool,
            Staging staging) {
        this.at = at;
        this.prefetch = prefetch;
        this.order = order;
        this.contextPool = contextPool;
        this.staging = staging;
    }

    @Override
    public String name() {
        return "soft-on-demand-restore";
    }

    @Override
    public String parameters() {
        return "image at " + at + ", prefetch " + (prefetch ? order.name().toLowerCase(java.util.Locale.ROOT) : "off")
                + ", context pool " + (contextPool ? "on" : "off") + ", "
                + staging.name().toLowerCase(java.util.Locale.ROOT) + " staging";
    }

    @Override
    public CheckpointInstant restoreInstant() {
        return at;
    }

    @Override
    public void begin(SimulationContext ctx, SimulationWorkload workload) {
        firstUse = prefetch && order == CopierOrder.FIRST_USE ? Lookahead.firstUse(workload, at) : new long[0];
        cursor = 0;
        remaining = 0;
        lastPresent = 0;
    }

    @Override
    public void beginRestore(SimulationContext ctx) {
        restoreStart = ctx.now();
        ctx.marker(restoreStart, "restore started", 0);
        StopTheWorldRestorePolicy.createContext(ctx, contextPool);
        int limit = ctx.bufferIdLimit();
        presentAt = new long[limit];
        inImage = new boolean[limit];
        Arrays.fill(presentAt, NEVER);
        int[] live = ctx.liveBuffers();
        for (int b : live) {
            inImage[b] = true;
        }
        remaining = live.length;
        Integer[] boxed = Arrays.stream(live).boxed().toArray(Integer[]::new);
        Comparator<Integer> byPointer = Comparator.<Integer>comparingLong(ctx::address).thenComparingInt(i -> i);
        Comparator<Integer> cmp = switch (order) {
            case POINTER -> byPointer;
            case LARGEST_FIRST -> Comparator.<Integer>comparingLong(b -> -ctx.size(b)).thenComparing(byPointer);
            case SMALLEST_FIRST -> Comparator.<Integer>comparingLong(ctx::size).thenComparing(byPointer);
            case FIRST_USE -> Comparator.<Integer>comparingLong(
                    b -> b < firstUse.length && firstUse[b] >= 0 ? firstUse[b] : Long.MAX_VALUE).thenComparing(byPointer);
        };
        Arrays.sort(boxed, cmp);
        prefetchOrder = Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
        clock = ctx.now();
        if (remaining == 0) {
            lastPresent = ctx.now();
        }
    }

    private boolean needed(int b) {
        return b >= 0 && b < inImage.length && inImage[b] && presentAt[b] == NEVER;
    }

    private long restore(SimulationContext ctx, int b, long earliest, String why) {
        long start = Math.max(earliest, ctx.engineFreeAt(CopyDirection.HOST_TO_DEVICE));
        ctx.stateChange(start, b, BufferState.ABSENT, BufferState.RESTORING, 0);
        long end = ctx.scheduleCopy(CopyDirection.HOST_TO_DEVICE, staging, earliest, ctx.size(b), Lane.CR_RESTORE_H2D,
                why + " buffer " + b, TimelineInterval.RESTORE, b);
        ctx.stateChange(end, b, BufferState.RESTORING, BufferState.PRESENT, 0);
        presentAt[b] = end;
        lastPresent = Math.max(lastPresent, end);
        if (--remaining == 0) {
            ctx.marker(lastPresent, "restore complete (full state)", 0);
        }
        return end;
    }

    @Override
    public void advanceTo(long timeNs, SimulationContext ctx) {
        if (!prefetch) {
            return;
        }
        while (cursor < prefetchOrder.length) {
            int b = prefetchOrder[cursor];
            if (!needed(b)) {
                cursor++;
                continue;
            }
            long start = Math.max(clock, ctx.engineFreeAt(CopyDirection.HOST_TO_DEVICE));
            if (start > timeNs) {
                return;
            }
            cursor++;
            clock = restore(ctx, b, clock, "prefetch");
        }
    }

    @Override
    public void beforeIssue(Operation op, SimulationContext ctx) {
        if (op.kind() == OperationKind.FREE) {
            int b = op.buffer();
            if (needed(b)) {
                inImage[b] = false;
                remaining--;
                ctx.stateChange(ctx.now(), b, BufferState.ABSENT, BufferState.FREED_PENDING, 0);
            }
            return;
        }
        demand(op.reads(), op, ctx);
        demand(op.writes(), op, ctx);
    }

    private void demand(List<BufferRange> ranges, Operation op, SimulationContext ctx) {
        for (BufferRange r : ranges) {
            int b = r.buffer();
            if (b >= inImage.length || !inImage[b]) {
                continue;
            }
            long end = presentAt[b] == NEVER ? restore(ctx, b, ctx.now(), "on-demand") : presentAt[b];
            ctx.stallUntil(end, StallCause.RESTORE_ON_DEMAND, b, op.index());
        }
    }

    @Override
    public void afterIssue(Operation op, long gpuStartNs, long gpuEndNs, SimulationContext ctx) {
        check(op.observedReads(), op, gpuStartNs, ctx);
        check(op.observedWrites(), op, gpuStartNs, ctx);
    }

    private void check(@org.eclipse.jdt.annotation.Nullable List<BufferRange> ranges, Operation op, long gpuStart,
            SimulationContext ctx) {
        if (ranges == null) {
            return;
        }
        for (BufferRange r : ranges) {
            int b = r.buffer();
            if (b < inImage.length && inImage[b] && presentAt[b] > gpuStart) {
                ctx.reportViolation(new ConsistencyViolation(ConsistencyViolation.Kind.ACCESS_BEFORE_RESTORED, b,
                        op.index(), r.begin(), r.end(), gpuStart, 0, "operation " + op.index() + " (" + op.label()
                                + ") accessed buffer " + b + " before it was restored; the policy's sets missed it"));
            }
        }
    }

    @Override
    public void finish(SimulationContext ctx) {
        if (prefetch) {
            advanceTo(Long.MAX_VALUE, ctx);
        }
        long never = 0;
        for (int b = 0; b < inImage.length; b++) {
            if (needed(b)) {
                never += ctx.size(b);
            }
        }
        ctx.reportRestore(restoreStart, remaining == 0 ? lastPresent : -1, never);
    }
}
