package org.phos.workbench.cr.core;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.cr.core.CowCheckpointSession;

/**
 * Continuous checkpointing (fault tolerance): a soft copy-on-write checkpoint at the first instant and then every
 * {@code intervalNs} of host time. A checkpoint due while the previous one still runs starts when that one completes
 * (counted in the markers as "delayed"). {@link CopierOrder#FIRST_USE} is not looked ahead per checkpoint here; it
 * falls back to pointer order.
 */
public final class RepeatedCheckpointPolicy implements CrPolicy {
    private final SoftCheckpointOptions options;
    private final long intervalNs;
    private @Nullable CowCheckpointSession session;
    private int started;
    private long nextDue;
    private boolean firstReached;

    public RepeatedCheckpointPolicy(SoftCheckpointOptions options, long intervalNs) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("checkpoint interval must be > 0 ns, was " + intervalNs);
        }
        this.options = options;
        this.intervalNs = intervalNs;
    }

    /** @return each checkpoint's options (the live engine runs them) */
    public SoftCheckpointOptions options() {
        return options;
    }

    /** @return host time between checkpoint requests */
    public long intervalNs() {
        return intervalNs;
    }

    @Override
    public String name() {
        return "repeated";
    }

    @Override
    public String parameters() {
        return options + ", every " + Units.formatNs(intervalNs);
    }

    @Override
    public void begin(SimulationContext ctx, SimulationWorkload workload) {
        session = null;
        started = 0;
        firstReached = false;
        nextDue = Long.MAX_VALUE;
    }

    @Override
    public void advanceTo(long timeNs, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null) {
            // reported at the first call after completion, so that the next checkpoint never starts earlier
            s.advanceTo(timeNs);
        }
    }

    private void report(CowCheckpointSession s, SimulationContext ctx) {
        for (ConsistencyViolation v : s.instantViolations()) {
            ctx.reportViolation(v);
        }
        ctx.reportCheckpoint(s.summary(s.completedNs(), 0, 0));
        session = null;
    }

    @Override
    public void beforeIssue(Operation op, SimulationContext ctx) {
        if (!firstReached && options.at().reached(ctx.now(), ctx.launchesIssued(), op)) {
            firstReached = true;
            nextDue = ctx.now();
        }
        CowCheckpointSession s = session;
        if (s != null && s.completedNs() >= 0 && s.completedNs() <= ctx.now()) {
            report(s, ctx);
            s = null;
        }
        if (s == null && ctx.now() >= nextDue) {
            if (ctx.now() - nextDue > 0 && started > 0) {
                ctx.marker(ctx.now(), "checkpoint " + started + " delayed by " + Units.formatNs(ctx.now() - nextDue),
                        started);
            }
            s = new CowCheckpointSession(ctx, started++, options, null);
            session = s;
            nextDue = s.requestedNs() + intervalNs;
            s.advanceTo(ctx.now());
        }
        if (s != null) {
            s.beforeIssue(op);
        }
    }

    @Override
    public void afterIssue(Operation op, long gpuStartNs, long gpuEndNs, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null) {
            s.afterIssue(op, gpuStartNs, gpuEndNs);
        }
    }

    @Override
    public void finish(SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null) {
            s.runToCompletion();
            report(s, ctx);
        }
    }
}
