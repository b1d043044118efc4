package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S;
import static org.phos.workbench.cr.core.tests.Ops.S_D2D_NS;
import static org.phos.workbench.cr.core.tests.Ops.S_D2H_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.SoftRecopyPolicy;
import org.phos.workbench.cr.core.StallCause;

class SoftRecopyPolicyTest {

    /** b1 written at 2 ms (the instant); pre-copy done at 58 ms; the next call at 100 ms stops for the recopy. */
    static Ops workload() {
        return new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1))
                .kernel(100 * MS, MS, b(0), b());
    }

    static SimulationMetrics run(Ops ops, SoftCheckpointOptions o, long threshold) {
        return Simulator.runInMemory(ops.workload(), MACHINE, new SoftRecopyPolicy(o, threshold)).metrics();
    }

    @Test
    void stopRecopiesOnlyTheDirtySet() {
        SimulationMetrics m = run(workload(), SoftCopyOnWritePolicyTest.options(), SoftRecopyPolicy.PHOS_THRESHOLD);
        assertEquals(S_D2D_NS, m.stallByCause().get(StallCause.COPY_ON_WRITE));
        // host: launch 1 issued at 3.1 ms, so launch 2 at 101.1 ms; then recopy of b1 (28 ms)
        assertEquals(S_D2H_NS, m.stallByCause().get(StallCause.RECOPY));
        CheckpointSummary c = m.checkpoints().get(0);
        assertEquals(S, c.recopyBytes());
        assertEquals(S, c.dirtyBytes());
        assertEquals(0, c.recomputeNs());
        assertEquals(100 * MS + S_D2D_NS + S_D2H_NS, c.completedNs());
        assertTrue(m.consistency().consistent());
    }

    @Test
    void pastThresholdShipsTheLogAndRecomputes() {
        SimulationMetrics m = run(workload(), SoftCopyOnWritePolicyTest.options(), S - 1);
        CheckpointSummary c = m.checkpoints().get(0);
        assertEquals(0, c.recopyBytes());
        assertEquals(MS, c.recomputeNs(), "GPU time since the instant: launch 1");
        assertEquals(null, m.stallByCause().get(StallCause.RECOPY));
        assertEquals(S_D2D_NS, m.stallTotalNs());
    }

    @Test
    void precopyWithoutCopyOnWriteNeverStallsBeforeTheStop() {
        SimulationMetrics m = run(workload(), SoftCopyOnWritePolicyTest.options().withCopyOnWrite(false),
                SoftRecopyPolicy.PHOS_THRESHOLD);
        assertEquals(S_D2H_NS, m.stallTotalNs(), "only the recopy of b1");
        assertEquals(0, m.cowCount());
    }

    @Test
    void writeMissedBySpeculationAfterPrecopyIsReported() {
        // at 40 ms a kernel really writes b0 (committed at 30 ms) but its speculated write set is empty
        Ops ops = new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1))
                .kernelMisspeculated(40 * MS, MS, b(), b(0)).kernel(100 * MS, MS, b(0), b());
        SimulationMetrics recopy = run(ops, SoftCopyOnWritePolicyTest.options(), SoftRecopyPolicy.PHOS_THRESHOLD);
        assertEquals(1, recopy.consistency().violations().size());
        ConsistencyViolation v = recopy.consistency().violations().get(0);
        assertEquals(ConsistencyViolation.Kind.MISSED_WRITE_NOT_RECOPIED, v.kind());
        assertEquals(0, v.buffer());
        assertEquals(4, v.opIndex());
        assertEquals(S, recopy.consistency().affectedBytes());
        // the image of the instant (soft CoW) is not hurt by the same write: b0 was committed before it
        SimulationMetrics cow = Simulator.runInMemory(ops.workload(), MACHINE,
                new SoftCopyOnWritePolicy(SoftCopyOnWritePolicyTest.options())).metrics();
        assertTrue(cow.consistency().consistent(), cow.consistency().toString());
    }
}
