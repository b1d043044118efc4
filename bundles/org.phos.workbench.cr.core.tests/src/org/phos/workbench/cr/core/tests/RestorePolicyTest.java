package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S;
import static org.phos.workbench.cr.core.tests.Ops.S_D2H_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.CopierOrder;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftOnDemandRestorePolicy;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.Staging;

/**
 * Soft on-demand restore. Image = b0, b1 (live before launch 0); launch 0 (host 1 ms) reads b1, launch 1 (host
 * 2 ms) reads {@code second}; H2D moves S in 28 ms; the context pool hands out a context in 1 ms.
 */
class RestorePolicyTest {
    static final long POOL = MACHINE.contextPoolNs();

    static SimulationMetrics run(int second, boolean prefetch, CopierOrder order, boolean pool) {
        Ops ops = new Ops().allocS(2).kernel(MS, MS, b(1), b()).kernel(2 * MS, MS, b(second), b());
        return Simulator.runInMemory(ops.workload(), MACHINE, new SoftOnDemandRestorePolicy(CheckpointInstant.atLaunch(0),
                prefetch, order, pool, Staging.PINNED)).metrics();
    }

    @Test
    void withoutPrefetchOnlyBuffersTheCallsNameComeBack() {
        SimulationMetrics m = run(1, false, CopierOrder.POINTER, true);
        assertEquals(POOL + S_D2H_NS, m.restoreFirstKernelNs());
        assertEquals(-1, m.restoreFullStateNs(), "b0 is never named, never restored");
        assertEquals(S, m.bytesNeverRestored());
        assertEquals(S_D2H_NS, m.stallByCause().get(StallCause.RESTORE_ON_DEMAND));
    }

    @Test
    void withoutPrefetchFullStateWhenEveryBufferWasDemanded() {
        SimulationMetrics m = run(0, false, CopierOrder.POINTER, true);
        // launch 0 at pool + 28 ms; launch 1 one host gap (1 ms) later demands b0: another 28 ms
        assertEquals(POOL + S_D2H_NS + MS + S_D2H_NS, m.restoreFullStateNs());
        assertEquals(0, m.bytesNeverRestored());
    }

    @Test
    void pointerPrefetchMakesTheFirstKernelWaitBehindTheWrongBuffer() {
        SimulationMetrics m = run(0, true, CopierOrder.POINTER, true);
        // prefetch b0 [1, 29] ms; b1 demanded at 1 ms queues behind it [29, 57] ms
        assertEquals(POOL + 2 * S_D2H_NS, m.restoreFirstKernelNs());
        assertEquals(POOL + 2 * S_D2H_NS, m.restoreFullStateNs());
    }

    @Test
    void firstUsePrefetchBringsTheFirstKernelsBufferFirst() {
        SimulationMetrics m = run(0, true, CopierOrder.FIRST_USE, true);
        assertEquals(POOL + S_D2H_NS, m.restoreFirstKernelNs());
        assertEquals(POOL + 2 * S_D2H_NS, m.restoreFullStateNs());
    }

    @Test
    void contextPoolOffCostsContextCreation() {
        SimulationMetrics m = run(1, false, CopierOrder.POINTER, false);
        assertEquals(MACHINE.contextCreationNs() + S_D2H_NS, m.restoreFirstKernelNs());
    }

    @Test
    void accessMissedBySpeculationBeforeRestoreIsReported() {
        Ops ops = new Ops().allocS(2).kernel(MS, MS, b(1), b()).kernelMisspeculated(2 * MS, MS, b(), b(0));
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE, new SoftOnDemandRestorePolicy(
                CheckpointInstant.atLaunch(0), false, CopierOrder.POINTER, true, Staging.PINNED)).metrics();
        assertEquals(1, m.consistency().violations().size());
        ConsistencyViolation v = m.consistency().violations().get(0);
        assertEquals(ConsistencyViolation.Kind.ACCESS_BEFORE_RESTORED, v.kind());
        assertEquals(0, v.buffer());
        SimulationMetrics ok = run(0, false, CopierOrder.POINTER, true);
        assertTrue(ok.consistency().consistent());
    }
}
