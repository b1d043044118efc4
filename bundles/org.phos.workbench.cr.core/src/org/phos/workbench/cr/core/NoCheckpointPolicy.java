package org.phos.workbench.cr.core;

/** No checkpoint or restore: the application alone (the baseline of every slowdown). */
public final class NoCheckpointPolicy implements CrPolicy {
    private final @org.eclipse.jdt.annotation.Nullable CheckpointInstant replayFrom;

    public NoCheckpointPolicy() {
        this(null);
    }

    /** A baseline that replays from {@code replayFrom} on, as a restore policy does (history before it skipped). */
    public NoCheckpointPolicy(@org.eclipse.jdt.annotation.Nullable CheckpointInstant replayFrom) {
        this.replayFrom = replayFrom;
    }

    @Override
    public String name() {
        return "none";
    }

    @Override
    public String parameters() {
        return replayFrom == null ? "" : "from " + replayFrom;
    }

    @Override
    public @org.eclipse.jdt.annotation.Nullable CheckpointInstant restoreInstant() {
        return replayFrom;
    }

    @Override
    public void begin(SimulationContext ctx, SimulationWorkload workload) {
    }

    @Override
    public void beforeIssue(Operation op, SimulationContext ctx) {
    }

    @Override
    public void finish(SimulationContext ctx) {
    }
}
