package org.phos.workbench.cr.core;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A checkpoint/restore policy: runs beside the replayed application and decides when it stalls, what is copied
 * where, and in what order. The simulator calls the hooks in this order: {@link #begin} once, then (restores only)
 * {@link #beginRestore}, then for every operation {@link #advanceTo} (host time), {@link #beforeIssue},
 * {@link #afterIssue}, and finally {@link #finish}. A policy keeps per-run state; {@link #begin} resets it, so one
 * instance can serve several runs one after another (not concurrently).
 */
public interface CrPolicy {

    /** Short name for reports ("soft-cow"). */
    String name();

    /** The parameters in words, for reports ("at launch:1000, order pointer, whole buffers, budget 14GiB"). */
    String parameters();

    /** Called before the run; {@code workload} may be passed over again for lookahead (first-use order). */
    void begin(SimulationContext ctx, SimulationWorkload workload);

    /**
     * For restore policies: the instant whose state the image holds; operations before it are history (only their
     * allocations count) and the simulated timeline starts there. {@code null} for checkpoint policies.
     */
    default @Nullable CheckpointInstant restoreInstant() {
        return null;
    }

    /** Restore policies: the process is being restored now ({@code ctx.now()} is the restore start). */
    default void beginRestore(SimulationContext ctx) {
    }

    /** Background work (copiers) may schedule everything that starts at or before {@code timeNs}. */
    default void advanceTo(long timeNs, SimulationContext ctx) {
    }

    /** The host is about to issue {@code op} at {@code ctx.now()}; the policy may stall it first. */
    void beforeIssue(Operation op, SimulationContext ctx);

    /** {@code op} was issued and (GPU work) runs over {@code [gpuStartNs, gpuEndNs)}. */
    default void afterIssue(Operation op, long gpuStartNs, long gpuEndNs, SimulationContext ctx) {
    }

    /** The application has issued its last operation; complete background work. */
    void finish(SimulationContext ctx);
}
