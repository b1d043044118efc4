package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S;
import static org.phos.workbench.cr.core.tests.Ops.b;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;

/** The consistency check of the soft copy-on-write image against planted speculation errors. */
class ConsistencyCheckTest {

    static ConsistencyReport check(Ops ops, SoftCheckpointOptions o) {
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE, new SoftCopyOnWritePolicy(o)).metrics();
        return m.consistency();
    }

    @Test
    void plantedMissedWriteIsReportedWithItsBufferAndOperation() {
        // launch 1 really writes b1 but speculation said it writes nothing: no CoW, the copier takes b1 at 30 ms,
        // after the write: the image holds the new content, not the instant's
        Ops ops = new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernelMisspeculated(2 * MS, MS, b(), b(1));
        ConsistencyReport r = check(ops, SoftCopyOnWritePolicyTest.options());
        assertTrue(r.checked());
        assertFalse(r.consistent());
        assertEquals(1, r.violations().size());
        ConsistencyViolation v = r.violations().get(0);
        assertEquals(ConsistencyViolation.Kind.MISSED_WRITE_BEFORE_COPY, v.kind());
        assertEquals(1, v.buffer());
        assertEquals(3, v.opIndex());
        assertEquals(2 * MS, v.timeNs());
        assertEquals(S, r.affectedBytes());
        assertTrue(v.detail().contains("buffer 1"), v.detail());
    }

    @Test
    void correctSpeculationIsConsistent() {
        Ops ops = new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1));
        assertTrue(check(ops, SoftCopyOnWritePolicyTest.options()).consistent());
    }

    @Test
    void overApproximationIsConsistentButCostsACopy() {
        // speculated {b1}, really writes nothing: a wasted CoW, never a violation
        Ops ops = new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernelMisspeculated(2 * MS, MS, b(1), b());
        SimulationMetrics m = Simulator.runInMemory(ops.workload(), MACHINE,
                new SoftCopyOnWritePolicy(SoftCopyOnWritePolicyTest.options())).metrics();
        assertTrue(m.consistency().consistent());
        assertEquals(1, m.cowCount());
    }

    @Test
    void missedWriteAfterTheBufferWasCommittedIsHarmless() {
        Ops ops = new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b())
                .kernelMisspeculated(40 * MS, MS, b(), b(0));
        assertTrue(check(ops, SoftCopyOnWritePolicyTest.options()).consistent(), "b0 committed at 30 ms");
    }

    @Test
    void missedWriteIntoTheCopiedPrefixOfAChunkedBufferIsHarmlessBeyondItIsNot() {
        long chunk = 512L << 20; // 512 MiB = 9.761 ms at 55 GB/s
        // b0 is being committed in chunks from 2 ms; at 13 ms the first chunk is done, the rest is not
        Operation early = Operation.launch(3, 0, 13 * MS, MS, List.of(), List.of(), "prefix writer")
                .withObserved(List.of(), List.of(new BufferRange(0, 0, 1024)));
        Ops ok = new Ops().allocS(1).kernel(1_000, MS, b(), b()).kernel(2 * MS, MS, b(), b()).add(early);
        assertTrue(check(ok, SoftCopyOnWritePolicyTest.options().withChunkBytes(chunk)).consistent());
        Operation late = Operation.launch(3, 0, 13 * MS, MS, List.of(), List.of(), "tail writer")
                .withObserved(List.of(), List.of(new BufferRange(0, S - 1024, S)));
        Ops bad = new Ops().allocS(1).kernel(1_000, MS, b(), b()).kernel(2 * MS, MS, b(), b()).add(late);
        ConsistencyReport r = check(bad, SoftCopyOnWritePolicyTest.options().withChunkBytes(chunk));
        assertEquals(1, r.violations().size());
        assertEquals(S - 1024, r.violations().get(0).begin());
    }

    @Test
    void withoutObservedAccessesNothingIsChecked() {
        Ops ops = new Ops().allocS(2);
        ops.add(Operation.launch(2, 0, 1_000, MS, List.of(), Ops.whole(0), "k"));
        ops.add(Operation.launch(3, 0, 2 * MS, MS, List.of(), Ops.whole(1), "k"));
        ConsistencyReport r = check(ops, SoftCopyOnWritePolicyTest.options());
        assertFalse(r.checked());
        assertFalse(r.consistent());
        assertTrue(r.violations().isEmpty());
    }
}
