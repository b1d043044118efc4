package org.phos.workbench.cr.core;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.cr.core.SimulationEngine;

/**
 * Runs a workload under a C/R policy on a machine model. With a baseline, the workload is first replayed without C/R
 * (same restore point, no timeline) so that the metrics carry the slowdown.
 * <p>
 * Headless callers use the blocking methods here; UI code wraps them in a {@code Job} and passes its monitor
 * (cancellation raises {@link org.eclipse.core.runtime.OperationCanceledException}). The monitor is polled every
 * 1024 operations (well under a millisecond of replay) and receives {@code worked} as the replay advances.
 */
public final class Simulator {
    private Simulator() {
    }

    /**
     * Streams the timeline to {@code sink} and returns the metrics.
     *
     * @param withBaseline whether to replay once more without C/R for the slowdown
     */
    public static SimulationMetrics run(SimulationWorkload workload, MachineModel machine, CrPolicy policy,
            TimelineSink sink, boolean withBaseline, @Nullable IProgressMonitor monitor) {
        // plain IProgressMonitor calls: SubMonitor needs OSGi debug classes, absent on a plain classpath
        IProgressMonitor pm = monitor == null ? new NullProgressMonitor() : monitor;
        int ticks = SimulationEngine.PROGRESS_TICKS;
        pm.beginTask("Simulating " + policy.name() + " on " + workload.name(), withBaseline ? 2 * ticks : ticks);
        long baselineEnd = -1;
        if (withBaseline) {
            pm.subTask("replaying without C/R (baseline)");
            SimulationMetrics base = new SimulationEngine(workload, machine,
                    new NoCheckpointPolicy(policy.restoreInstant()), TimelineSink.NONE, policy.restoreInstant())
                    .run(pm);
            baselineEnd = base.appEndNs();
        }
        pm.subTask("replaying with " + policy.name());
        SimulationMetrics m = new SimulationEngine(workload, machine, policy, sink, policy.restoreInstant()).run(pm);
        pm.done();
        return withBaseline ? withBaseline(m, baselineEnd) : m;
    }

    /** Runs with a baseline and keeps the whole timeline (application intervals included) in memory. */
    public static SimulationResult runInMemory(SimulationWorkload workload, MachineModel machine, CrPolicy policy) {
        TimelineModel model = new TimelineModel(true);
        SimulationMetrics m = run(workload, machine, policy, model, true, null);
        return new SimulationResult(m, model);
    }

    private static SimulationMetrics withBaseline(SimulationMetrics m, long baselineEnd) {
        return new SimulationMetrics(m.policy(), m.machine(), m.operations(), m.launches(), m.appEndNs(), baselineEnd,
                m.endNs(), m.stallTotalNs(), m.stallLongestNs(), m.stallCount(), m.stallByCause(), m.checkpoints(),
                m.restoreStartNs(), m.restoreFirstKernelNs(), m.restoreFullStateNs(), m.bytesNeverRestored(),
                m.bytesPerLane(), m.cowCount(), m.cowBytes(), m.consistency());
    }
}
