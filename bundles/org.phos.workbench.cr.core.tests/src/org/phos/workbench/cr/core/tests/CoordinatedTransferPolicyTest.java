package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S_D2H_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CoordinatedTransferPolicy;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.SimulationResult;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.Units;

/**
 * The application's own D2H copy (55 MB, 1 ms) issued at 3 ms while the copier commits b0 (1.54 GB from 2 ms): whole
 * buffers make it wait for the whole commit; 4 MiB chunks make it wait for the chunk in flight only.
 */
class CoordinatedTransferPolicyTest {
    static final long SMALL = 55_000_000L;

    static SimulationResult run(CrPolicy policy) {
        Ops ops = new Ops().allocS(1).alloc(9, SMALL, 0x7000_0000_0000L).kernel(1_000, MS, b(), b(0))
                .kernel(2 * MS, MS, b(0), b()).copy(1, 3 * MS, CopyDirection.DEVICE_TO_HOST, SMALL, 9);
        return Simulator.runInMemory(ops.workload(), MACHINE, policy);
    }

    static StallInterval engineStall(SimulationResult r) {
        List<StallInterval> s = r.timeline().stalls().stream().filter(x -> x.cause() == StallCause.COPY_ENGINE_BUSY)
                .toList();
        assertEquals(1, s.size(), s.toString());
        return s.get(0);
    }

    @Test
    void wholeBufferCommitBlocksTheApplicationsCopy() {
        SimulationResult r = run(new SoftCopyOnWritePolicy(SoftCopyOnWritePolicyTest.options()));
        StallInterval s = engineStall(r);
        assertEquals(Lane.FIRST_STREAM + 1, s.lane());
        assertEquals(3 * MS, s.startNs());
        assertEquals(2 * MS + S_D2H_NS, s.endNs());
        assertEquals(0, r.metrics().stallTotalNs(), "engine contention is not a host stall");
    }

    @Test
    void chunkedCommitLetsTheApplicationsCopyGoAfterOneChunk() {
        SimulationResult r = run(new CoordinatedTransferPolicy(SoftCopyOnWritePolicyTest.options()));
        long chunkNs = Units.transferNs(SoftCheckpointOptions.COORDINATED_CHUNK, MACHINE.d2hBytesPerSec());
        assertEquals(76_261, chunkNs);
        // chunks start at 2 ms + k * chunkNs; the one in flight at 3 ms is k = 13, ending at 2 ms + 14 * chunkNs
        StallInterval s = engineStall(r);
        assertEquals(3 * MS, s.startNs());
        assertEquals(2 * MS + 14 * chunkNs, s.endNs());
        assertTrue(s.durationNs() < chunkNs);
        List<TimelineInterval> engine = r.timeline().intervals(Lane.ENGINE_D2H);
        TimelineInterval app = engine.stream().filter(TimelineInterval::isApplication).findFirst().orElseThrow();
        assertEquals(2 * MS + 14 * chunkNs, app.startNs());
        assertEquals(2 * MS + 14 * chunkNs + MS, app.endNs());
        // the commit goes on after the application's copy: one engine, intervals never overlap
        for (int i = 1; i < engine.size(); i++) {
            assertTrue(engine.get(i).startNs() >= engine.get(i - 1).endNs(), "overlap at " + engine.get(i));
        }
        assertEquals("coordinated", r.metrics().policy());
    }
}
