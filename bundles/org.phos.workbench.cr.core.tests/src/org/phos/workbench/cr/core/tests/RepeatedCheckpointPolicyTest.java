package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S_D2D_NS;
import static org.phos.workbench.cr.core.tests.Ops.S_D2H_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.RepeatedCheckpointPolicy;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;

class RepeatedCheckpointPolicyTest {

    @Test
    void checkpointsEveryIntervalEachWithItsOwnCopyOnWrite() {
        Ops ops = new Ops().allocS(2);
        for (int i = 0; i <= 30; i++) {
            ops.kernel(i * 10 * MS + 1_000, MS, b(), b(1));
        }
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE,
                new RepeatedCheckpointPolicy(SoftCopyOnWritePolicyTest.options(), 100 * MS)).metrics();
        List<CheckpointSummary> c = m.checkpoints();
        assertEquals(3, c.size(), c.toString());
        for (int i = 0; i < c.size(); i++) {
            assertEquals(i, c.get(i).number());
            assertEquals(1, c.get(i).cowCount(), "b1 written right after each instant");
            assertEquals(2 * S_D2H_NS, c.get(i).completionNs());
            if (i > 0) {
                assertTrue(c.get(i).requestedNs() - c.get(i - 1).requestedNs() >= 100 * MS);
                assertTrue(c.get(i).requestedNs() >= c.get(i - 1).completedNs());
            }
        }
        assertEquals(3 * S_D2D_NS, m.stallTotalNs());
        assertEquals(3, m.cowCount());
    }

    @Test
    void aCheckpointDueWhileTheLastRunsIsDelayed() {
        Ops ops = new Ops().allocS(2);
        for (int i = 0; i <= 20; i++) {
            ops.kernel(i * 10 * MS + 1_000, MS, b(0), b());
        }
        // interval 20 ms but each checkpoint takes 56 ms: they run back to back
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE,
                new RepeatedCheckpointPolicy(SoftCopyOnWritePolicyTest.options(), 20 * MS)).metrics();
        List<CheckpointSummary> c = m.checkpoints();
        assertTrue(c.size() >= 3, c.toString());
        for (int i = 1; i < c.size(); i++) {
            assertTrue(c.get(i).requestedNs() >= c.get(i - 1).completedNs());
        }
        assertEquals(0, m.stallTotalNs(), "nothing written: no stall");
    }
}
