package org.phos.workbench.cr.core;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.cr.core.CowCheckpointSession;
import org.phos.workbench.internal.cr.core.Lookahead;

/**
 * PhOS's soft recopy (latest state, for live migration): a soft pre-copy from the instant while tracking the dirty
 * set (buffers written, by the policy's sets, or allocated after it); when the pre-copy is complete, at the next call
 * the application stops (drain) and either the dirty set is recopied D2H, or, when the dirty bytes exceed the
 * threshold (PhOS: 2 GiB), the log of calls since the instant is shipped and the destination recomputes (its GPU time
 * is reported as {@link CheckpointSummary#recomputeNs()}).
 */
public final class SoftRecopyPolicy implements CrPolicy {
    public static final long PHOS_THRESHOLD = 2L << 30;

    private final SoftCheckpointOptions options;
    private final long thresholdBytes;
    private long @Nullable [] firstUse;
    private @Nullable CowCheckpointSession session;
    private boolean stopped;

    public SoftRecopyPolicy(SoftCheckpointOptions options, long thresholdBytes) {
        if (thresholdBytes < 0) {
            throw new IllegalArgumentException("recopy threshold must be >= 0, was " + thresholdBytes);
        }
        this.options = options;
        this.thresholdBytes = thresholdBytes;
    }

    /** @return the pre-copy's options (the live engine runs them) */
    public SoftCheckpointOptions options() {
        return options;
    }

    /** @return dirty bytes past which the log is shipped and recomputed instead of recopied */
    public long thresholdBytes() {
        return thresholdBytes;
    }

    @Override
    public String name() {
        return "soft-recopy";
    }

    @Override
    public String parameters() {
        return options + ", recompute past " + thresholdBytes + " B dirty";
    }

    @Override
    public void begin(SimulationContext ctx, SimulationWorkload workload) {
        session = null;
        stopped = false;
        firstUse = options.order() == CopierOrder.FIRST_USE ? Lookahead.firstUse(workload, options.at()) : null;
    }

    @Override
    public void advanceTo(long timeNs, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null && !stopped) {
            s.advanceTo(timeNs);
        }
    }

    @Override
    public void beforeIssue(Operation op, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s == null) {
            if (!options.at().reached(ctx.now(), ctx.launchesIssued(), op)) {
                return;
            }
            s = new CowCheckpointSession(ctx, 0, options, firstUse);
            session = s;
            s.advanceTo(ctx.now());
        }
        if (stopped) {
            return;
        }
        if (s.completedNs() >= 0 && s.completedNs() <= ctx.now()) {
            stop(s, ctx, true);
            return;
        }
        s.beforeIssue(op);
    }

    private void stop(CowCheckpointSession s, SimulationContext ctx, boolean appRunning) {
        stopped = true;
        long t2 = Math.max(ctx.now(), s.completedNs());
        ctx.marker(t2, "checkpoint 0 stop for recopy", 0);
        if (appRunning) {
            ctx.stallUntil(ctx.drainTime(), StallCause.DRAIN, -1, -1);
            t2 = ctx.now();
        }
        int[] dirty = s.liveDirtyBuffers();
        long dirtyBytes = 0;
        for (int b : dirty) {
            dirtyBytes += ctx.size(b);
        }
        long end = t2;
        long recopied = 0;
        long recompute = 0;
        if (dirtyBytes > thresholdBytes) {
            recompute = s.gpuTimeSinceInstant();
            ctx.marker(t2, "checkpoint 0: " + dirtyBytes + " dirty bytes > threshold, ship log and recompute", 0);
            for (ConsistencyViolation v : s.instantViolations()) {
                ctx.reportViolation(v);
            }
        } else {
            for (int b : dirty) {
                end = ctx.scheduleCopy(CopyDirection.DEVICE_TO_HOST, options.staging(), end, ctx.size(b),
                        Lane.CR_COMMIT_D2H, "recopy buffer " + b, TimelineInterval.RECOPY, b);
                recopied += ctx.size(b);
            }
            if (appRunning) {
                ctx.stallUntil(end, StallCause.RECOPY, -1, -1);
            }
            for (ConsistencyViolation v : s.recopyViolations()) {
                ctx.reportViolation(v);
            }
        }
        ctx.marker(end, "checkpoint 0 image complete (latest state)", 0);
        ctx.reportCheckpoint(s.summary(end, recopied, recompute));
    }

    @Override
    public void afterIssue(Operation op, long gpuStartNs, long gpuEndNs, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null && !stopped) {
            s.afterIssue(op, gpuStartNs, gpuEndNs);
        }
    }

    @Override
    public void finish(SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null && !stopped) {
            s.runToCompletion();
            stop(s, ctx, false);
        }
    }
}
