package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S;
import static org.phos.workbench.cr.core.tests.Ops.S_D2D_NS;
import static org.phos.workbench.cr.core.tests.Ops.S_D2H_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.Staging;

/**
 * The calibrated soft copy-on-write model (issue #13, i13-cow) on the hand-built workloads of
 * {@link SoftCopyOnWritePolicyTest}: buffers of S = 1.54 GB, 28 ms D2H and 1.1 ms D2D on the latency-free h100 model;
 * the machine's copier rate, the per-copy-on-write fixed cost that copies queued back to back share, and
 * {@code budget=auto} (the machine's device memory less the bytes live at the instant less 2 GiB).
 */
class CalibratedCowModelTest {

    /** Half the engine's rate: the copier needs 56 ms for a buffer of S. */
    static final MachineModel HALF_RATE = MACHINE.with("copier-rate", "27.5GB/s");
    static final long COW_FIXED_NS = 5_000;

    static SimulationMetrics run(Ops ops, MachineModel machine, SoftCheckpointOptions o) {
        return Simulator.runInMemory(ops.workload(), machine, new SoftCopyOnWritePolicy(o)).metrics();
    }

    @Test
    void theCopierCommitsAtTheMachinesCopierRate() {
        SimulationMetrics m = run(SoftCopyOnWritePolicyTest.twoBuffers(1), HALF_RATE,
                SoftCopyOnWritePolicyTest.options());
        CheckpointSummary c = m.checkpoints().get(0);
        // copier: b0 [2, 58] ms, then the CoW copy of b1 [58, 114] ms; the CoW copy itself is unchanged
        assertEquals(2 * MS + 4 * S_D2H_NS, c.completedNs());
        assertEquals(S_D2D_NS, m.stallTotalNs());
        // a copier rate above the engine's is capped by it
        assertEquals(55e9, MACHINE.with("copier-rate", "100GB/s").copierBandwidth(Staging.PINNED));
        assertEquals(27.5e9, HALF_RATE.copierBandwidth(Staging.PINNED));
        assertEquals(55e9, MACHINE.copierBandwidth(Staging.PINNED), "copier-rate 0: the engine's rate");
    }

    @Test
    void aSlowerCopierFreesTheBudgetLaterSoAWriteFallsBack() {
        // budget for one buffer; b1 CoW at 2 ms; b3 written at 60 ms (61.1 ms after the 1.1 ms CoW stall)
        Ops later = new Ops().allocS(4).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1))
                .kernel(60 * MS, MS, b(), b(3));
        SoftCheckpointOptions o = SoftCopyOnWritePolicyTest.options().withBudgetBytes(S);
        // at the engine's rate the budget is free again at 58 ms: a second plain CoW
        SimulationMetrics fast = run(later, MACHINE, o);
        assertEquals(2, fast.cowCount());
        assertEquals(2 * S_D2D_NS, fast.stallTotalNs());
        // at half the rate the copier commits b0 [2, 58] ms and b1's CoW copy [58, 114] ms: the budget is still in
        // use at 61.1 ms, b3 is copied straight to the host behind it [114, 142] ms at the engine's rate
        SimulationMetrics slow = run(later, HALF_RATE, o);
        assertEquals(1, slow.cowCount());
        assertEquals(1, slow.checkpoints().get(0).fallbackCount());
        long fallbackEnd = 2 * MS + 4 * S_D2H_NS + S_D2H_NS;
        assertEquals(fallbackEnd - (60 * MS + S_D2D_NS), slow.stallByCause().get(StallCause.BUDGET_FALLBACK));
        assertEquals(S_D2D_NS + fallbackEnd - (60 * MS + S_D2D_NS), slow.stallTotalNs());
    }

    @Test
    void calibratedCopiesEachPayTheQueuedCostAndDoNotWaitBehindTheEngine() {
        // launch 1 writes b1 and b2: two CoW copies queued back to back, each its bytes plus the queued cost
        Ops oneCall = new Ops().allocS(3).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1, 2));
        MachineModel calibrated = MACHINE.with("cow-latency", "5us");
        SimulationMetrics m = run(oneCall, calibrated, SoftCopyOnWritePolicyTest.options());
        assertEquals(2, m.cowCount());
        assertEquals(2 * (COW_FIXED_NS + S_D2D_NS), m.stallByCause().get(StallCause.COPY_ON_WRITE));
        // uncalibrated (cow-latency -1): each copy pays the machine's copy latency
        MachineModel old = MACHINE.with("copy-latency", "5us");
        assertEquals(-1, old.cowLatencyNs());
        assertEquals(2 * (COW_FIXED_NS + S_D2D_NS),
                run(oneCall, old, SoftCopyOnWritePolicyTest.options()).stallByCause().get(StallCause.COPY_ON_WRITE));
        // the application's own D2D copy of 10 S, issued at 2.5 ms, holds the D2D engine [2.5, 13.5] ms; launch 2 at
        // 3 ms writes b1. Uncalibrated, the CoW copy queues behind the engine: [13.5, 14.6] ms, stall 11.6 ms;
        // calibrated, it runs on the application's stream beside it: [3, 4.1] ms plus the queued cost
        Ops busy = new Ops().allocS(3).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b())
                .copy(1, 2 * MS + MS / 2, CopyDirection.DEVICE_TO_DEVICE, 10 * S, 2).kernel(3 * MS, MS, b(), b(1));
        assertEquals(2 * MS + MS / 2 + 10 * S_D2D_NS + S_D2D_NS - 3 * MS,
                run(busy, MACHINE, SoftCopyOnWritePolicyTest.options()).stallByCause().get(StallCause.COPY_ON_WRITE));
        assertEquals(COW_FIXED_NS + S_D2D_NS,
                run(busy, calibrated, SoftCopyOnWritePolicyTest.options()).stallByCause().get(StallCause.COPY_ON_WRITE));
    }

    @Test
    void autoBudgetIsTheDeviceMemoryTheInstantLeavesLessTheHeadroom() {
        long headroom = SoftCheckpointOptions.AUTO_BUDGET_HEADROOM;
        assertEquals(2L << 30, headroom);
        SoftCheckpointOptions auto = ((SoftCopyOnWritePolicy) CrPolicies
                .parse("soft-cow:at=launch:1,budget=auto,staging=pinned")).options();
        assertEquals(SoftCheckpointOptions.AUTO_BUDGET, auto.budgetBytes());
        assertTrue(auto.toString().contains("budget auto"), auto.toString());
        // live at the instant: b0 and b1, 2 S; room for exactly one more buffer of S: b1's CoW copy fits
        MachineModel fits = MACHINE.with("device-memory", Long.toString(2 * S + headroom + S));
        SimulationMetrics m = run(SoftCopyOnWritePolicyTest.twoBuffers(1), fits, auto);
        assertEquals(1, m.cowCount());
        assertEquals(S, m.checkpoints().get(0).peakBudgetBytes());
        // one byte less: the budget is S - 1 and b1 is copied straight to the host behind b0 [30, 58] ms
        MachineModel tight = MACHINE.with("device-memory", Long.toString(2 * S + headroom + S - 1));
        SimulationMetrics t = run(SoftCopyOnWritePolicyTest.twoBuffers(1), tight, auto);
        assertEquals(0, t.cowCount());
        assertEquals(1, t.checkpoints().get(0).fallbackCount());
        assertEquals(2 * S_D2H_NS, t.stallTotalNs());
        // less memory than is live: budget 0, never negative
        assertEquals(0, auto.budgetFor(-5));
        assertEquals(7, SoftCopyOnWritePolicyTest.options().withBudgetBytes(7).budgetFor(1L << 40),
                "an explicit budget is kept");
    }

    @Test
    void theNewKnobsParseAndBadValuesSayWhich() {
        MachineModel m = MachineModel.parse("h100,copier-rate=30.5GB/s,cow-latency=2us,device-memory=80GiB");
        assertEquals(30.5e9, m.copierCommitBytesPerSec());
        assertEquals(2_000, m.cowLatencyNs());
        assertEquals(80L << 30, m.deviceMemoryBytes());
        assertEquals(MachineModel.H100_MEMORY, MachineModel.h100().deviceMemoryBytes());
        assertEquals(0, MachineModel.h100().copierCommitBytesPerSec());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MachineModel.parse("h100,copier-rate=fast"));
        assertTrue(e.getMessage().contains("copier-rate"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MachineModel.parse("h100,cow-latency=-3us"));
        assertTrue(e.getMessage().contains("cow-latency"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> CrPolicies.parse("soft-cow:budget=lots"));
        assertTrue(e.getMessage().contains("soft-cow:budget=lots"), e.getMessage());
    }
}
