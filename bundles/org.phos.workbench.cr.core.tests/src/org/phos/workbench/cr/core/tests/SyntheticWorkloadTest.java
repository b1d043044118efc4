package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.StopTheWorldCheckpointPolicy;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.internal.cr.core.bench.SyntheticWorkload;

/** The benchmark's synthetic workload, and policies compared on it. */
class SyntheticWorkloadTest {

    @Test
    void passesAreIdentical() {
        SyntheticWorkload w = SyntheticWorkload.standard(5_000);
        Iterator<Operation> a = w.operations();
        Iterator<Operation> b = w.operations();
        long n = 0;
        while (a.hasNext()) {
            assertEquals(a.next(), b.next());
            n++;
        }
        assertFalse(b.hasNext());
        assertEquals(w.sizeHint(), n);
    }

    @Test
    void softCheckpointStallsFarLessThanStopTheWorldAndBothCopyEverything() {
        SyntheticWorkload w = SyntheticWorkload.standard(100_000);
        MachineModel h100 = MachineModel.h100();
        CheckpointInstant at = CheckpointInstant.atLaunch(20_000);
        SimulationMetrics soft = Simulator.run(w, h100, new SoftCopyOnWritePolicy(SoftCheckpointOptions.phosDefaults(at)),
                TimelineSink.NONE, true, null);
        SimulationMetrics stw = Simulator.run(w, h100, new StopTheWorldCheckpointPolicy(at, Staging.PINNED),
                TimelineSink.NONE, true, null);
        long image = w.totalBufferBytes();
        assertEquals(image, soft.checkpoints().get(0).snapshotBytes());
        assertEquals(image, stw.checkpoints().get(0).snapshotBytes());
        assertEquals(image, soft.bytesPerLane().get("C/R commit D2H"));
        // stop-the-world stalls for the whole image at 55 GB/s (plus drain); soft only for drain and CoW copies
        assertTrue(stw.stallTotalNs() >= image / 55, stw.stallTotalNs() + " ns");
        assertTrue(soft.stallTotalNs() * 10 < stw.stallTotalNs(), soft.stallTotalNs() + " vs " + stw.stallTotalNs());
        assertTrue(soft.cowCount() > 0);
        assertTrue(soft.slowdown() >= 0 && soft.slowdown() < stw.slowdown());
        assertEquals(100_000, soft.launches());
    }

    @Test
    void smallBudgetForcesFallbacks() {
        SyntheticWorkload w = SyntheticWorkload.standard(50_000);
        SimulationMetrics m = Simulator.run(w, MachineModel.h100(),
                new SoftCopyOnWritePolicy(SoftCheckpointOptions.phosDefaults(CheckpointInstant.atLaunch(10_000))
                        .withBudgetBytes(64L << 20)),
                TimelineSink.NONE, false, null);
        assertTrue(m.checkpoints().get(0).fallbackCount() > 0);
        assertTrue(m.checkpoints().get(0).peakBudgetBytes() <= 64L << 20);
    }
}
