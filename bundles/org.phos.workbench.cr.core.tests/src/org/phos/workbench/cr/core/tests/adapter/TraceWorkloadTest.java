package org.phos.workbench.cr.core.tests.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.trace.LaunchAccessSource;
import org.phos.workbench.cr.core.trace.LaunchAccesses;
import org.phos.workbench.cr.core.trace.ObservedLaunchAccesses;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.cr.core.trace.LiveBuffers;

/** The trace adapter on a small in-memory trace with observed accesses. */
class TraceWorkloadTest {
    static final long A = 0x7f00_1000_0000L;
    static final long B = 0x7f00_2000_0000L;
    static final long MIB = 1L << 20;

    static byte[] params(long... words) {
        ByteBuffer b = ByteBuffer.allocate(words.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long w : words) {
            b.putLong(w);
        }
        return b.array();
    }

    static Trace trace() {
        Trace.Builder b = Trace.builder(TraceHeader.builder("test", "1").gpuTiming(true).build());
        b.function(new FunctionInfo(1, 0, "_Z1kPKfPf", "k(float const*, float*)",
                List.of(new ParamInfo(0, 8), new ParamInfo(8, 8))));
        b.event(new TraceEvent.Alloc(100, 1, A, MIB, AllocKind.PLAIN, 0)); // 0
        b.event(new TraceEvent.Alloc(200, 1, B, MIB, AllocKind.PLAIN, 0)); // 1
        b.event(new TraceEvent.Alloc(300, 1, 0x5000_0000L, MIB, AllocKind.HOST_PINNED, 0)); // 2: not a buffer
        b.event(new TraceEvent.Memcpy(400, 1, CopyKind.H2D, 0x5000_0000L, A, 4096, 0x55, true, new byte[0], 1_000,
                2_000)); // 3
        b.event(new TraceEvent.Launch(500, 1, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0x55, params(A, B), 3_000,
                8_000, LaunchKind.PLAIN, 0)); // 4
        b.event(new TraceEvent.Sync(600, 1, SyncKind.EVENT_RECORD, 0x55, 0xE1, 0)); // 5
        b.event(new TraceEvent.Sync(700, 1, SyncKind.STREAM_WAIT_EVENT, 0x66, 0xE1, 0)); // 6
        b.event(new TraceEvent.Launch(800, 1, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0x66, params(B, A), 0, 0,
                LaunchKind.PLAIN, 0)); // 7: not timed
        b.event(new TraceEvent.Sync(900, 1, SyncKind.GRAPH_CAPTURE_BEGIN, 0x66, 0, 0)); // 8: not simulated
        b.event(new TraceEvent.Free(20_000, 1, B, AllocKind.PLAIN, 0)); // 9
        b.observed(new ObservedAccess(4, A, List.of(new AddressRange(A, A + 4096)), List.of(), 1, 0, "t"));
        b.observed(new ObservedAccess(4, B, List.of(), List.of(new AddressRange(B, B + MIB)), 0, 1, "t"));
        b.observed(new ObservedAccess(7, A, List.of(), List.of(new AddressRange(A, A + 64)), 0, 1, "t"));
        b.observed(new ObservedAccess(7, B, List.of(new AddressRange(B, B + MIB)), List.of(), 1, 0, "t"));
        return b.build();
    }

    static List<Operation> ops(TraceWorkload w) {
        List<Operation> l = new ArrayList<>();
        w.operations().forEachRemaining(l::add);
        return l;
    }

    @Test
    void eventsBecomeOperationsOnBuffers() {
        Trace t = trace();
        ObservedLaunchAccesses observed = new ObservedLaunchAccesses(t);
        TraceWorkload w = new TraceWorkload(t, "tiny", new WholeAllocationParameterPlaceholder(), observed, true);
        List<Operation> ops = ops(w);
        assertEquals(List.of(OperationKind.ALLOC, OperationKind.ALLOC, OperationKind.COPY, OperationKind.LAUNCH,
                OperationKind.EVENT_RECORD, OperationKind.EVENT_WAIT, OperationKind.LAUNCH, OperationKind.FREE),
                ops.stream().map(Operation::kind).toList());
        assertEquals(List.of(0L, 1L, 3L, 4L, 5L, 6L, 7L, 9L), ops.stream().map(Operation::index).toList(),
                "operation index = event index");
        Operation copy = ops.get(2);
        assertEquals(CopyDirection.HOST_TO_DEVICE, copy.direction());
        assertEquals(List.of(new BufferRange(0, 0, 4096)), copy.writes());
        assertEquals(1_000, copy.gpuDurationNs());
        Operation k4 = ops.get(3);
        assertEquals("k(float const*, float*)", k4.label());
        assertEquals(List.of(BufferRange.whole(0, MIB), BufferRange.whole(1, MIB)), k4.writes(),
                "placeholder: every pointed-to allocation, whole, read-write");
        assertEquals(List.of(BufferRange.whole(1, MIB)), k4.observedWrites());
        assertEquals(List.of(new BufferRange(0, 0, 4096)), k4.observedReads());
        assertEquals(0, k4.stream());
        Operation k7 = ops.get(6);
        assertEquals(1, k7.stream());
        assertEquals(5_000, k7.gpuDurationNs(), "calibrated from the same function's measured launch");
        assertEquals(ops.get(4).event(), ops.get(5).event());
        assertEquals(1, ops.get(7).buffer());
        assertEquals(ops, ops(w), "every pass gives the same operations");
    }

    @Test
    void observedSetsAsPolicySourceAreConsistentAndAMissingOneIsCaught() {
        Trace t = trace();
        ObservedLaunchAccesses observed = new ObservedLaunchAccesses(t);
        SoftCheckpointOptions o = SoftCheckpointOptions.phosDefaults(CheckpointInstant.atLaunch(1));
        SimulationMetrics good = Simulator.runInMemory(new TraceWorkload(t, "tiny", observed, observed, true),
                MachineModel.h100(), new SoftCopyOnWritePolicy(o)).metrics();
        assertTrue(good.consistency().consistent(), good.consistency().toString());
        assertEquals(2, good.consistency().observedLaunches());
        // launch 7 writes A, which the copier (pointer order) is committing right then: it waits for the copier
        assertEquals(0, good.cowCount());
        assertTrue(good.stallByCause().get(org.phos.workbench.cr.core.StallCause.WAIT_FOR_COPIER) > 0);

        // an engine that never predicts writes: launch 7's write to A lands while the copier is still on A
        LaunchAccessSource blind = new LaunchAccessSource() {
            @Override
            public String name() {
                return "blind";
            }

            @Override
            public @Nullable LaunchAccesses accesses(Trace trace, int eventIndex, LiveBuffers live) {
                return LaunchAccesses.NONE;
            }
        };
        SimulationMetrics bad = Simulator.runInMemory(new TraceWorkload(t, "tiny", blind, observed, true),
                MachineModel.h100(), new SoftCopyOnWritePolicy(o)).metrics();
        assertFalse(bad.consistency().consistent());
        assertEquals(1, bad.consistency().violations().size());
        ConsistencyViolation v = bad.consistency().violations().get(0);
        assertEquals(0, v.buffer());
        assertEquals(7, v.opIndex());
        assertEquals(64, v.end());
    }

    @Test
    void withoutObservedAccessesThePlaceholderIsUsedAndNothingIsChecked() {
        Trace.Builder b = Trace.builder(TraceHeader.builder("test", "1").build());
        b.event(new TraceEvent.Alloc(100, 1, A, MIB, AllocKind.PLAIN, 0));
        b.event(new TraceEvent.Launch(500, 1, 9, new Dim3(1, 1, 1), new Dim3(1, 1, 1), 0, 0, params(A + 16, 7), 0, 0,
                LaunchKind.PLAIN, 0));
        TraceWorkload w = TraceWorkload.withBestAvailableSets(b.build(), "no-observed");
        assertTrue(w.name().contains("placeholder"), w.name());
        Operation k = ops(w).get(1);
        assertEquals(List.of(BufferRange.whole(0, MIB)), k.writes(), "interior pointer -> whole allocation");
        assertNull(k.observedWrites());
        assertEquals("function 9", k.label());
        assertEquals(-1, k.gpuDurationNs());
        SimulationMetrics m = Simulator.runInMemory(w, MachineModel.h100(), new SoftCopyOnWritePolicy(
                SoftCheckpointOptions.phosDefaults(CheckpointInstant.atLaunch(0)))).metrics();
        assertFalse(m.consistency().checked(), "no launch observed: nothing checked");
        // the placeholder's write set (A) makes the launch wait for the copier, which starts with A
        assertTrue(m.stallByCause().get(org.phos.workbench.cr.core.StallCause.WAIT_FOR_COPIER) > 0);
    }
}
