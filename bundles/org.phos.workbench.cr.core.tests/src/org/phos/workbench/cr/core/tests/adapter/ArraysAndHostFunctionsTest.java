package org.phos.workbench.cr.core.tests.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.ArrayOp;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * CUDA arrays and host functions in the C/R workload (issue 16): an array is a buffer of its bytes from its create to
 * its destroy, an array copy moves bytes on the copy engine of its direction and touches the whole array, and a host
 * function is stream-ordered host work: the stream's later work starts after it.
 */
class ArraysAndHostFunctionsTest {

    private static final long DEV = 0x7f00_0000_0000L, ARR = 0x5555_0000_1000L, S = 0x5555_0000_9000L;

    private static Trace trace(boolean hostFunction) {
        Dim3 one = new Dim3(1, 1, 1);
        Trace.Builder b = Trace.builder(TraceHeader.builder("t", "1").build())
                .function(new FunctionInfo(1, 1, "k", "k", List.of()))
                .event(new TraceEvent.Sync(1, 1, SyncKind.STREAM_CREATE, S, 0, 0))
                .event(new TraceEvent.Alloc(2, 1, DEV, 4096, AllocKind.PLAIN, 0))
                .event(new TraceEvent.CudaArray(3, 1, ArrayOp.CREATE, ARR, 1024, 0x20, 1, 64, 4, 0, 0))
                .event(new TraceEvent.Memcpy(4, 1, CopyKind.D2A, DEV + 512, ARR, 256, S, true, new byte[0], 0, 0))
                .event(new TraceEvent.Launch(5, 1, 1, one, one, 0, S, new byte[8], 1_000, 101_000, LaunchKind.PLAIN, 0));
        if (hostFunction) {
            b.event(new TraceEvent.Sync(6, 1, SyncKind.HOST_FUNCTION, S, 0x5555_0000_7000L, 0));
        }
        return b.event(new TraceEvent.Launch(7, 1, 1, one, one, 0, S, new byte[8], 0, 0, LaunchKind.PLAIN, 0))
                .event(new TraceEvent.CudaArray(8, 1, ArrayOp.DESTROY, ARR, 0, 0, 0, 0, 0, 0, 0))
                .build();
    }

    private static List<Operation> ops(Trace t) {
        List<Operation> out = new ArrayList<>();
        Iterator<Operation> it = new TraceWorkload(t, "t", new WholeAllocationParameterPlaceholder(), null, true).operations();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void anArrayIsABufferAndAnArrayCopyTouchesIt() {
        List<Operation> ops = ops(trace(true));
        Operation array = ops.stream().filter(o -> o.kind() == OperationKind.ALLOC && o.address() == ARR).findFirst().orElseThrow();
        assertEquals(1024, array.bytes());
        Operation copy = ops.stream().filter(o -> o.kind() == OperationKind.COPY).findFirst().orElseThrow();
        assertEquals(CopyDirection.DEVICE_TO_DEVICE, copy.direction());
        assertEquals(List.of(new BufferRange(0, 512, 768)), copy.reads(), "the device source range");
        assertEquals(List.of(new BufferRange(array.buffer(), 0, 1024)), copy.writes(), "the whole array");
        assertTrue(ops.stream().anyMatch(o -> o.kind() == OperationKind.FREE && o.buffer() == array.buffer()));
        assertEquals(1, ops.stream().filter(o -> o.kind() == OperationKind.HOST_FUNCTION).count());
    }

    @Test
    void aHostFunctionOrdersItsStreamAndTheSimulationRuns() {
        MachineModel m = MachineModel.h100();
        SimulationMetrics with = Simulator.runInMemory(new TraceWorkload(trace(true), "x",
                new WholeAllocationParameterPlaceholder(), null, true), m,
                new SoftCopyOnWritePolicy(SoftCheckpointOptions.phosDefaults(CheckpointInstant.atLaunch(1)))).metrics();
        SimulationMetrics without = Simulator.runInMemory(new TraceWorkload(trace(false), "x",
                new WholeAllocationParameterPlaceholder(), null, true), m,
                new SoftCopyOnWritePolicy(SoftCheckpointOptions.phosDefaults(CheckpointInstant.atLaunch(1)))).metrics();
        // the second launch follows the first (100 us) on the stream either way; the host function between them takes
        // no time of its own, so the application ends at the same time
        assertTrue(with.appEndNs() >= 100_000, with.toString());
        assertEquals(without.appEndNs(), with.appEndNs());
    }
}
