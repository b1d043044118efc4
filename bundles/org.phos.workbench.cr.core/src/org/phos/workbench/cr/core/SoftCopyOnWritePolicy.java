package org.phos.workbench.cr.core;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.cr.core.CowCheckpointSession;
import org.phos.workbench.internal.cr.core.Lookahead;

/**
 * PhOS's soft copy-on-write checkpoint: a consistent image of the instant taken while the application runs (one
 * drain, then copy-on-write before the first write of each uncopied buffer, a background copier, budget and
 * fallback). The mechanism is described on {@link org.phos.workbench.internal.cr.core.CowCheckpointSession}.
 */
public class SoftCopyOnWritePolicy implements CrPolicy {
    private final SoftCheckpointOptions options;
    private long @Nullable [] firstUse;
    private @Nullable CowCheckpointSession session;
    private boolean reported;

    public SoftCopyOnWritePolicy(SoftCheckpointOptions options) {
        this.options = options;
    }

    public SoftCheckpointOptions options() {
        return options;
    }

    @Override
    public String name() {
        return "soft-cow";
    }

    @Override
    public String parameters() {
        return options.toString();
    }

    @Override
    public void begin(SimulationContext ctx, SimulationWorkload workload) {
        session = null;
        reported = false;
        firstUse = options.order() == CopierOrder.FIRST_USE ? Lookahead.firstUse(workload, options.at()) : null;
    }

    @Override
    public void advanceTo(long timeNs, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null && !reported) {
            s.advanceTo(timeNs);
            reportIfDone(s, ctx);
        }
    }

    private void reportIfDone(CowCheckpointSession s, SimulationContext ctx) {
        if (!reported && s.completedNs() >= 0) {
            reported = true;
            for (ConsistencyViolation v : s.instantViolations()) {
                ctx.reportViolation(v);
            }
            ctx.reportCheckpoint(s.summary(s.completedNs(), 0, 0));
        }
    }

    @Override
    public void beforeIssue(Operation op, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s == null) {
            if (options.at().reached(ctx.now(), ctx.launchesIssued(), op)) {
                s = new CowCheckpointSession(ctx, 0, options, firstUse);
                session = s;
                s.advanceTo(ctx.now());
            } else {
                return;
            }
        }
        if (!reported) {
            s.beforeIssue(op);
        }
    }

    @Override
    public void afterIssue(Operation op, long gpuStartNs, long gpuEndNs, SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null && !reported) {
            s.afterIssue(op, gpuStartNs, gpuEndNs);
        }
    }

    @Override
    public void finish(SimulationContext ctx) {
        CowCheckpointSession s = session;
        if (s != null && !reported) {
            s.runToCompletion();
            reportIfDone(s, ctx);
        }
    }
}
