package org.phos.workbench.cr.core;

/**
 * cuda-checkpoint's behaviour: at the instant, lock API calls, drain all submitted work, copy every live buffer to
 * the host, unlock. Stall = drain + CPU state + sum of sizes / D2H bandwidth (+ copy latency per buffer).
 */
public final class StopTheWorldCheckpointPolicy implements CrPolicy {
    private final CheckpointInstant at;
    private final Staging staging;
    private boolean done;

    public StopTheWorldCheckpointPolicy(CheckpointInstant at, Staging staging) {
        this.at = at;
        this.staging = staging;
    }

    @Override
    public String name() {
        return "stop-the-world";
    }

    @Override
    public String parameters() {
        return "at " + at + ", " + staging.name().toLowerCase(java.util.Locale.ROOT) + " staging";
    }

    @Override
    public void begin(SimulationContext ctx, SimulationWorkload workload) {
        done = false;
    }

    @Override
    public void beforeIssue(Operation op, SimulationContext ctx) {
        if (!done && at.reached(ctx.now(), ctx.launchesIssued(), op)) {
            done = true;
            checkpoint(ctx, 0, staging);
        }
    }

    /** One stop-the-world checkpoint now; returns its summary (also reported to the context). */
    static CheckpointSummary checkpoint(SimulationContext ctx, int number, Staging staging) {
        long requested = ctx.now();
        ctx.marker(requested, "checkpoint " + number + " requested (stop-the-world)", number);
        ctx.stallUntil(ctx.drainTime(), StallCause.DRAIN, -1, -1);
        long cpu = ctx.machine().cpuStateBytes();
        if (cpu > 0) {
            ctx.stallUntil(ctx.now() + Units.transferNs(cpu, ctx.machine().hostCopyBytesPerSec()),
                    StallCause.CPU_STATE, -1, -1);
        }
        long drained = ctx.now();
        ctx.marker(drained, "checkpoint " + number + " instant (drained)", number);
        long t = drained;
        long bytes = 0;
        int[] live = ctx.liveBuffers();
        for (int b : live) {
            ctx.stateChange(t, b, BufferState.UNTOUCHED, BufferState.COPYING, number);
            t = ctx.scheduleCopy(CopyDirection.DEVICE_TO_HOST, staging, t, ctx.size(b), Lane.CR_COMMIT_D2H,
                    "checkpoint buffer " + b, TimelineInterval.COMMIT, b);
            ctx.stateChange(t, b, BufferState.COPYING, BufferState.COMMITTED, number);
            bytes += ctx.size(b);
        }
        ctx.stallUntil(t, StallCause.STOP_THE_WORLD, -1, -1);
        ctx.marker(t, "checkpoint " + number + " image complete", number);
        CheckpointSummary s = new CheckpointSummary(number, requested, drained, t, live.length, bytes, 0, 0, 0, 0, 0,
                0, 0, 0);
        ctx.reportCheckpoint(s);
        return s;
    }

    @Override
    public void finish(SimulationContext ctx) {
    }
}
