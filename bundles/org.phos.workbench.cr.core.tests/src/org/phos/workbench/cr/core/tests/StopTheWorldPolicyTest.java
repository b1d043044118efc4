package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S;
import static org.phos.workbench.cr.core.tests.Ops.S_D2H_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.StopTheWorldCheckpointPolicy;
import org.phos.workbench.cr.core.StopTheWorldRestorePolicy;

class StopTheWorldPolicyTest {

    @Test
    void checkpointStallIsDrainPlusAllBytesOverD2hBandwidth() {
        // launch 0 runs [1 us, 1.001 ms]; the checkpoint before launch 1 (host 100 us) drains, then copies one buffer
        Ops ops = new Ops().allocS(1).kernel(1_000, MS, b(), b(0)).kernel(100_000, MS, b(0), b());
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE,
                new StopTheWorldCheckpointPolicy(CheckpointInstant.atLaunch(1), Staging.PINNED)).metrics();
        long drain = MS + 1_000 - 100_000;
        assertEquals(drain, m.stallByCause().get(StallCause.DRAIN));
        assertEquals(S_D2H_NS, m.stallByCause().get(StallCause.STOP_THE_WORLD));
        assertEquals(drain + S_D2H_NS, m.stallTotalNs());
        assertEquals(drain + S_D2H_NS, m.checkpointCompletionNs());
        assertEquals(S, m.checkpoints().get(0).snapshotBytes());
        assertEquals(MS + 1_000 + S_D2H_NS + MS, m.appEndNs(), "launch 1 runs after the unlock");
    }

    @Test
    void checkpointCopiesEveryLiveBufferAndCpuStateFirst() {
        MachineModel machine = MACHINE.with("cpu-state", "10GB"); // 10 GB at 10 GB/s host copy = 1 s
        Ops ops = new Ops().allocS(3).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(0), b());
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), machine,
                new StopTheWorldCheckpointPolicy(CheckpointInstant.atTimeNs(2 * MS), Staging.PINNED)).metrics();
        assertEquals(1_000 * MS, m.stallByCause().get(StallCause.CPU_STATE));
        assertEquals(3 * S_D2H_NS, m.stallByCause().get(StallCause.STOP_THE_WORLD));
        assertEquals(3 * S, m.bytesPerLane().get("C/R commit D2H"));
    }

    @Test
    void restoreCreatesContextThenCopiesEverythingBeforeTheFirstCall() {
        Ops ops = new Ops().allocS(2).kernel(MS, MS, b(1), b()).kernel(2 * MS, MS, b(0), b());
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE,
                new StopTheWorldRestorePolicy(CheckpointInstant.atLaunch(0), false, Staging.PINNED)).metrics();
        long ctx = MACHINE.contextCreationNs();
        assertEquals(3_100 * MS, ctx);
        assertEquals(ctx, m.stallByCause().get(StallCause.CONTEXT_CREATION));
        assertEquals(2 * S_D2H_NS, m.stallByCause().get(StallCause.STOP_THE_WORLD), "H2D is 55 GB/s too");
        assertEquals(ctx + 2 * S_D2H_NS, m.restoreFullStateNs());
        assertEquals(ctx + 2 * S_D2H_NS, m.restoreFirstKernelNs());
        assertEquals(0, m.restoreStartNs());
        // baseline replays from the same point: launches at 0 and 1 ms, end at 2 ms
        assertEquals(2 * MS, m.baselineEndNs());
    }

    @Test
    void contextPoolRemovesContextCreation() {
        Ops ops = new Ops().allocS(1).kernel(MS, MS, b(0), b());
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE,
                new StopTheWorldRestorePolicy(CheckpointInstant.atLaunch(0), true, Staging.PINNED)).metrics();
        assertEquals(MACHINE.contextPoolNs() + S_D2H_NS, m.restoreFirstKernelNs());
    }
}
