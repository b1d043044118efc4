package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S;
import static org.phos.workbench.cr.core.tests.Ops.S_D2D_NS;
import static org.phos.workbench.cr.core.tests.Ops.S_D2H_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.BufferState;
import org.phos.workbench.cr.core.BufferStateChange;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.CounterSample;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.SimulationResult;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;

/**
 * Soft copy-on-write checkpoint, all on hand-built workloads whose answers follow by arithmetic: buffers of S = 1.54 GB
 * (28 ms D2H, 1.1 ms D2D on the latency-free h100 model), a writer kernel before the instant, the checkpoint just
 * before the second launch at host time 2 ms (the GPU is idle by then, so the drain costs nothing).
 */
class SoftCopyOnWritePolicyTest {

    static SoftCheckpointOptions options() {
        return new SoftCheckpointOptions(CheckpointInstant.atLaunch(1), org.phos.workbench.cr.core.CopierOrder.POINTER,
                0, SoftCheckpointOptions.PHOS_BUDGET, Staging.PINNED, true);
    }

    /** Two buffers; launch 0 writes b0 at 1 us; launch 1 at 2 ms writes {@code secondWrites}. */
    static Ops twoBuffers(int... secondWrites) {
        return new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), secondWrites);
    }

    static SimulationResult run(Ops ops, SoftCheckpointOptions o) {
        return Simulator.runInMemory(ops.workload(), MACHINE, new SoftCopyOnWritePolicy(o));
    }

    @Test
    void copyOnWriteStallIsOneDeviceCopyOfTheBuffer() {
        SimulationResult r = run(twoBuffers(1), options());
        SimulationMetrics m = r.metrics();
        assertEquals(S_D2D_NS, m.stallTotalNs(), "only stall: CoW of b1 at D2D bandwidth");
        assertEquals(1, m.stallCount());
        assertEquals(S_D2D_NS, m.stallByCause().get(StallCause.COPY_ON_WRITE));
        assertEquals(1, m.cowCount());
        assertEquals(S, m.cowBytes());
        CheckpointSummary c = m.checkpoints().get(0);
        assertEquals(2 * MS, c.requestedNs());
        assertEquals(2 * MS, c.drainedNs(), "GPU idle at the instant: no drain stall");
        // copier: b0 [2, 30] ms, then the CoW copy of b1 [30, 58] ms
        assertEquals(2 * MS + 2 * S_D2H_NS, c.completedNs());
        assertEquals(2 * S_D2H_NS, m.checkpointCompletionNs());
        assertEquals(2 * S, m.bytesPerLane().get("C/R commit D2H"));
        assertEquals(S, m.bytesPerLane().get("C/R CoW D2D"));
        // app: launch 1 runs [3.1, 4.1] ms instead of [2, 3] ms
        assertEquals(2 * MS + S_D2D_NS + MS, m.appEndNs());
        assertEquals(3 * MS, m.baselineEndNs());
        assertEquals((double) S_D2D_NS / (3 * MS), m.slowdown(), 1e-12);
        TimelineModel t = r.timeline();
        List<BufferStateChange> b1 = t.stateChanges(1);
        assertEquals(List.of(
                new BufferStateChange(2 * MS + S_D2D_NS, 1, BufferState.UNTOUCHED, BufferState.COW_DONE, 0),
                new BufferStateChange(2 * MS + 2 * S_D2H_NS, 1, BufferState.COW_DONE, BufferState.COMMITTED, 0)), b1);
        List<TimelineInterval> cow = t.intervals(Lane.CR_COW_D2D);
        assertEquals(1, cow.size());
        assertEquals(2 * MS, cow.get(0).startNs());
        assertEquals(2 * MS + S_D2D_NS, cow.get(0).endNs());
        List<CounterSample> dirty = t.counter(CounterSample.DIRTY_BYTES);
        assertEquals(S, dirty.get(dirty.size() - 1).value(), "b1 is the one dirty buffer");
        assertTrue(m.consistency().consistent(), "speculated = observed: " + m.consistency());
    }

    @Test
    void budgetExhaustedFallsBackToDirectCopyBehindTheCopier() {
        SimulationMetrics m = run(twoBuffers(1), options().withBudgetBytes(S - 1)).metrics();
        // the D2H engine commits b0 until 30 ms; the direct copy of b1 follows [30, 58] ms; the app waits from 2 ms
        assertEquals(2 * S_D2H_NS, m.stallTotalNs());
        assertEquals(2 * S_D2H_NS, m.stallByCause().get(StallCause.BUDGET_FALLBACK));
        assertEquals(0, m.cowCount());
        CheckpointSummary c = m.checkpoints().get(0);
        assertEquals(1, c.fallbackCount());
        assertEquals(S, c.fallbackBytes());
        assertEquals(2 * S_D2H_NS, c.completionNs(), "completion includes the fallback copy");
        assertEquals(2 * S, m.bytesPerLane().get("C/R commit D2H"));
    }

    @Test
    void budgetIsReleasedWhenTheCoWCopyIsCommitted() {
        // budget for one buffer: b1 is CoW'd at 2 ms; b2 written at 40 ms, after the copier committed b0 (30 ms) but
        // while the CoW copy of b1 is being committed [30, 58]: budget still in use -> direct copy [58, 86]
        Ops ops = new Ops().allocS(3).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1))
                .kernel(40 * MS, MS, b(), b(2));
        SimulationMetrics m = run(ops, options().withBudgetBytes(S)).metrics();
        CheckpointSummary c = m.checkpoints().get(0);
        assertEquals(1, c.cowCount());
        assertEquals(1, c.fallbackCount());
        assertEquals(S, c.peakBudgetBytes());
        long fallbackWait = 2 * MS + 3 * S_D2H_NS - (40 * MS + S_D2D_NS);
        assertEquals(S_D2D_NS + fallbackWait, m.stallTotalNs());
        // after b1's commit has freed the budget (58 ms), a write at 60 ms to b3 (untouched: the copier is on b2
        // [58, 86] ms) is a plain CoW again
        Ops later = new Ops().allocS(4).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1))
                .kernel(60 * MS, MS, b(), b(3));
        SimulationMetrics m2 = run(later, options().withBudgetBytes(S)).metrics();
        assertEquals(2, m2.cowCount());
        assertEquals(0, m2.checkpoints().get(0).fallbackCount());
        assertEquals(2 * S_D2D_NS, m2.stallTotalNs());
    }

    @Test
    void writeDuringCommitWaitsForTheCopier() {
        SimulationResult r = run(twoBuffers(0), options());
        SimulationMetrics m = r.metrics();
        assertEquals(S_D2H_NS, m.stallTotalNs(), "b0 is being committed [2, 30] ms: launch 1 waits for it");
        assertEquals(S_D2H_NS, m.stallByCause().get(StallCause.WAIT_FOR_COPIER));
        assertEquals(0, m.cowCount());
        StallInterval s = r.timeline().stalls().get(0);
        assertEquals(0, s.buffer());
        assertEquals(3, s.opIndex());
        assertEquals(2 * MS + 2 * S_D2H_NS, m.checkpoints().get(0).completedNs());
    }

    @Test
    void bufferFreedDuringCheckpointIsStillCommitted() {
        Ops ops = new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(0, 1), b()).free(3 * MS, 1);
        SimulationResult r = run(ops, options());
        SimulationMetrics m = r.metrics();
        assertEquals(0, m.stallTotalNs());
        assertEquals(2 * S_D2H_NS, m.checkpointCompletionNs());
        assertEquals(2 * S, m.checkpoints().get(0).snapshotBytes());
        assertEquals(List.of(BufferState.FREED_PENDING, BufferState.COPYING, BufferState.COMMITTED),
                r.timeline().stateChanges(1).stream().map(BufferStateChange::to).toList());
        assertEquals(3 * MS, r.timeline().stateChanges(1).get(0).timeNs());
    }

    @Test
    void nothingWrittenCostsNoStall() {
        SimulationMetrics m = run(twoBuffers(), options()).metrics();
        assertEquals(0, m.stallTotalNs());
        assertEquals(0, m.stallCount());
        assertEquals(0, m.cowCount());
        assertEquals(0, m.checkpoints().get(0).dirtyBytes());
        assertEquals(2 * S_D2H_NS, m.checkpointCompletionNs());
        assertEquals(0.0, m.slowdown(), 0.0);
    }

    @Test
    void everythingWrittenWaitsForTheCopierThenCopiesTheRestOnWrite() {
        Ops ops = new Ops().allocS(3).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(0, 1, 2));
        SimulationMetrics m = run(ops, options()).metrics();
        assertEquals(S_D2H_NS, m.stallByCause().get(StallCause.WAIT_FOR_COPIER));
        assertEquals(2 * S_D2D_NS, m.stallByCause().get(StallCause.COPY_ON_WRITE));
        assertEquals(S_D2H_NS + 2 * S_D2D_NS, m.stallTotalNs());
        assertEquals(S_D2H_NS, m.stallLongestNs());
        assertEquals(3, m.stallCount());
        assertEquals(2, m.cowCount());
        assertEquals(3 * S, m.checkpoints().get(0).dirtyBytes());
        assertEquals(3 * S_D2H_NS, m.checkpointCompletionNs());
    }

    @Test
    void drainIsTheOnlyGlobalStall() {
        // launch 0 runs 10 ms; the checkpoint at 2 ms must first wait for it
        Ops ops = new Ops().allocS(1).kernel(1_000, 10 * MS, b(), b(0)).kernel(2 * MS, MS, b(0), b());
        SimulationMetrics m = run(ops, options()).metrics();
        assertEquals(10 * MS + 1_000 - 2 * MS, m.stallByCause().get(StallCause.DRAIN));
        assertEquals(10 * MS + 1_000, m.checkpoints().get(0).drainedNs());
        assertEquals(10 * MS + 1_000 + S_D2H_NS, m.checkpoints().get(0).completedNs());
    }

    @Test
    void pageableStagingHalvesCommitBandwidth() {
        SimulationMetrics m = run(twoBuffers(), options().withStaging(Staging.PAGEABLE)).metrics();
        assertEquals(4 * S_D2H_NS, m.checkpointCompletionNs(), "pageable factor 0.5 on the h100 preset");
    }

    @Test
    void copierOrderDecidesWhichBufferIsCommittedFirst() {
        // b1 is written at 2 ms; with first-use order the copier starts with b1, so the write waits for it
        Ops ops = new Ops().allocS(2).kernel(1_000, MS, b(), b(0)).kernel(2 * MS, MS, b(), b(1));
        SimulationMetrics m = run(ops, options().withOrder(org.phos.workbench.cr.core.CopierOrder.FIRST_USE)).metrics();
        assertEquals(S_D2H_NS, m.stallByCause().get(StallCause.WAIT_FOR_COPIER));
        assertEquals(0, m.cowCount());
    }

    @Test
    void chunkedCommitsProduceOneIntervalPerChunk() {
        long chunk = 256L << 20;
        SimulationResult r = run(twoBuffers(), options().withChunkBytes(chunk));
        long chunksPerBuffer = (S + chunk - 1) / chunk;
        assertEquals(2 * chunksPerBuffer, r.timeline().intervals(Lane.CR_COMMIT_D2H).size());
        assertEquals(2 * S, r.metrics().bytesPerLane().get("C/R commit D2H"));
    }
}
