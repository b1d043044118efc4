package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.NoCheckpointPolicy;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationResult;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineInterval;

/** The application timeline without C/R: streams, events, host gaps, syncs, modelled durations. */
class ExecutionModelTest {

    static SimulationResult run(Ops ops) {
        return Simulator.runInMemory(ops.workload(), MACHINE, new NoCheckpointPolicy());
    }

    static List<TimelineInterval> stream(SimulationResult r, int s) {
        return r.timeline().intervals(Lane.FIRST_STREAM + s);
    }

    @Test
    void streamsRunInOrderAndOverlapEachOther() {
        Ops ops = new Ops().allocS(1).kernelOn(0, 0, 5 * MS, b(), b()).kernelOn(0, 1_000, MS, b(), b())
                .kernelOn(1, 2_000, MS, b(), b());
        SimulationResult r = run(ops);
        assertEquals(5 * MS, stream(r, 0).get(1).startNs(), "second kernel of stream 0 waits for the first");
        assertEquals(2_000, stream(r, 1).get(0).startNs(), "stream 1 is independent");
        assertEquals(6 * MS, r.metrics().appEndNs());
    }

    @Test
    void eventWaitOrdersAcrossStreams() {
        Ops ops = new Ops().allocS(1).kernelOn(0, 0, 5 * MS, b(), b())
                .sync(OperationKind.EVENT_RECORD, 0, 10_000, 7).sync(OperationKind.EVENT_WAIT, 1, 20_000, 7)
                .kernelOn(1, 30_000, MS, b(), b());
        SimulationResult r = run(ops);
        assertEquals(5 * MS, stream(r, 1).get(0).startNs());
    }

    @Test
    void hostGapsAreKeptAndASyncAbsorbsGpuTimeUpToItsSlack() {
        // kernel of 5 ms; stream sync at 1 ms returns at 5 ms; the next call was recorded at 5.5 ms
        Ops ops = new Ops().allocS(1).kernel(0, 5 * MS, b(), b()).sync(OperationKind.STREAM_SYNC, 0, MS, -1)
                .kernel(5 * MS + 500_000, MS, b(), b());
        SimulationResult r = run(ops);
        assertEquals(5 * MS + 500_000, stream(r, 0).get(1).startNs());
        // a longer kernel (8 ms) pushes the call after the sync to the sync's end
        Ops slow = new Ops().allocS(1).kernel(0, 8 * MS, b(), b()).sync(OperationKind.STREAM_SYNC, 0, MS, -1)
                .kernel(5 * MS + 500_000, MS, b(), b());
        assertEquals(8 * MS, stream(run(slow), 0).get(1).startNs());
        // and the recorded timeline replays unchanged: the baseline ends where the trace ends
        assertEquals(run(ops).metrics().baselineEndNs(), run(ops).metrics().appEndNs());
    }

    @Test
    void deviceSyncWaitsForAllStreams() {
        Ops ops = new Ops().allocS(1).kernelOn(3, 0, 7 * MS, b(), b()).sync(OperationKind.DEVICE_SYNC, 0, 1_000, -1)
                .kernelOn(0, 2_000, MS, b(), b());
        assertEquals(7 * MS, stream(run(ops), 0).get(0).startNs());
    }

    @Test
    void missingDurationsComeFromTheMachineModel() {
        Ops ops = new Ops().allocS(1).add(Operation.launch(1, 0, 0, -1, List.of(), List.of(), "k"))
                .copy(0, 0, CopyDirection.HOST_TO_DEVICE, 55_000_000L, 0);
        SimulationResult r = run(ops);
        List<TimelineInterval> s = stream(r, 0);
        assertEquals(MACHINE.defaultKernelNs(), s.get(0).durationNs());
        assertEquals(MS, s.get(1).durationNs(), "55 MB at 55 GB/s");
        assertEquals(55_000_000L, r.metrics().bytesPerLane().get("engine H2D"));
    }

    @Test
    void blockingCopyHoldsTheHost() {
        Ops ops = new Ops().allocS(1).add(Operation.copy(1, 0, 0, 2 * MS, CopyDirection.DEVICE_TO_HOST, 1000, true,
                List.of(), List.of())).kernelOn(1, 1_000, MS, b(), b());
        assertEquals(2 * MS, stream(run(ops), 1).get(0).startNs());
    }

    @Test
    void cancellationStopsTheRun() {
        org.eclipse.core.runtime.NullProgressMonitor monitor = new org.eclipse.core.runtime.NullProgressMonitor();
        monitor.setCanceled(true);
        assertThrows(org.eclipse.core.runtime.OperationCanceledException.class,
                () -> Simulator.run(new Ops().allocS(1).kernel(0, MS, b(), b()).workload(), MACHINE,
                        new NoCheckpointPolicy(), org.phos.workbench.cr.core.TimelineSink.NONE, false, monitor));
    }

    @Test
    void badInputIsNamed() {
        Ops freeUnknown = new Ops().allocS(1).free(0, 5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(freeUnknown));
        assertTrue(e.getMessage().contains("operation 1") && e.getMessage().contains("buffer 5"), e.getMessage());
        Ops twice = new Ops().allocS(1).alloc(0, 10, 0);
        e = assertThrows(IllegalArgumentException.class, () -> run(twice));
        assertTrue(e.getMessage().contains("allocated twice"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Operation.launch(4, -1, -5, 0, List.of(), List.of(), "k"));
        assertTrue(e.getMessage().contains("operation 4"), e.getMessage());
    }
}
