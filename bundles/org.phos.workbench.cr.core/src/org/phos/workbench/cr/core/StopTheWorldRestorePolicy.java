package org.phos.workbench.cr.core;

/**
 * cuda-checkpoint's restore: create the context (or take one from a pool), copy every buffer of the image H2D, and
 * only then let the application make its first call. The image is the set of buffers live at the instant.
 */
public final class StopTheWorldRestorePolicy implements CrPolicy {
    private final CheckpointInstant at;
    private final boolean contextPool;
    private final Staging staging;

    public StopTheWorldRestorePolicy(CheckpointInstant at, boolean contextPool, Staging staging) {
        this.at = at;
        this.contextPool = contextPool;
        this.staging = staging;
    }

    @Override
    public String name() {
        return "stop-the-world-restore";
    }

    @Override
    public String parameters() {
        return "image at " + at + ", context pool " + (contextPool ? "on" : "off") + ", "
                + staging.name().toLowerCase(java.util.Locale.ROOT) + " staging";
    }

    @Override
    public CheckpointInstant restoreInstant() {
        return at;
    }

    @Override
    public void begin(SimulationContext ctx, SimulationWorkload workload) {
    }

    @Override
    public void beginRestore(SimulationContext ctx) {
        long start = ctx.now();
        ctx.marker(start, "restore started", 0);
        createContext(ctx, contextPool);
        long t = ctx.now();
        for (int b : ctx.liveBuffers()) {
            ctx.stateChange(t, b, BufferState.ABSENT, BufferState.RESTORING, 0);
            t = ctx.scheduleCopy(CopyDirection.HOST_TO_DEVICE, staging, t, ctx.size(b), Lane.CR_RESTORE_H2D,
                    "restore buffer " + b, TimelineInterval.RESTORE, b);
            ctx.stateChange(t, b, BufferState.RESTORING, BufferState.PRESENT, 0);
        }
        ctx.stallUntil(t, StallCause.STOP_THE_WORLD, -1, -1);
        ctx.marker(t, "restore complete (full state)", 0);
        ctx.reportRestore(start, t, 0);
    }

    static void createContext(SimulationContext ctx, boolean pool) {
        long cost = pool ? ctx.machine().contextPoolNs() : ctx.machine().contextCreationNs();
        ctx.stallUntil(ctx.now() + cost, StallCause.CONTEXT_CREATION, -1, -1);
        ctx.marker(ctx.now(), pool ? "context taken from pool" : "context created", 0);
    }

    @Override
    public void beforeIssue(Operation op, SimulationContext ctx) {
    }

    @Override
    public void finish(SimulationContext ctx) {
    }
}
