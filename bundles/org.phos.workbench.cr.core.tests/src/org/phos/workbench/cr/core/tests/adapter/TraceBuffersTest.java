package org.phos.workbench.cr.core.tests.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.trace.TraceBuffers;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/** Buffer ids mapped back to Alloc events agree with the ids the workload's pass gives. */
class TraceBuffersTest {
    private static final long A = TraceWorkloadTest.A;
    private static final long B = TraceWorkloadTest.B;
    private static final long MIB = TraceWorkloadTest.MIB;

    /** The (buffer id, Alloc event) pairs of the workload's ALLOC operations, by buffer id. */
    private static List<Integer> allocEventsOfWorkload(Trace trace) {
        List<Integer> events = new ArrayList<>();
        Iterator<Operation> ops = new TraceWorkload(trace, "t", new WholeAllocationParameterPlaceholder(), null, false)
                .operations();
        while (ops.hasNext()) {
            Operation op = ops.next();
            if (op.kind() == OperationKind.ALLOC) {
                assertEquals(events.size(), op.buffer(), "ids are dense in allocation order");
                events.add((int) op.index());
            }
        }
        return events;
    }

    private static List<Integer> allocEvents(TraceBuffers buffers) {
        List<Integer> events = new ArrayList<>();
        for (int b = 0; b < buffers.count(); b++) {
            events.add(buffers.allocationEvent(b));
        }
        return events;
    }

    @Test
    void smallTraceWithPinnedMemory() {
        Trace trace = TraceWorkloadTest.trace();
        TraceBuffers buffers = TraceBuffers.of(trace);
        assertEquals(List.of(0, 1), allocEvents(buffers), "pinned host memory (event 2) is not a buffer");
        assertEquals(allocEventsOfWorkload(trace), allocEvents(buffers));
        assertEquals(-1, buffers.allocationEvent(2));
        assertEquals(-1, buffers.allocationEvent(-1));
    }

    @Test
    void overlappingEmptyAndReusedAllocations() {
        Trace.Builder b = Trace.builder(TraceHeader.builder("test", "1").build());
        b.event(new TraceEvent.Alloc(100, 1, A, MIB, AllocKind.PLAIN, 0)); // 0: buffer 0
        b.event(new TraceEvent.Alloc(110, 1, A + 4096, 4096, AllocKind.PLAIN, 0)); // 1: overlaps A: no buffer
        b.event(new TraceEvent.Alloc(120, 1, B, 0, AllocKind.PLAIN, 0)); // 2: empty: no buffer
        b.event(new TraceEvent.Alloc(130, 1, 0x5000_0000L, MIB, AllocKind.HOST_PINNED, 0)); // 3: host
        b.event(new TraceEvent.Alloc(140, 1, B, MIB, AllocKind.MANAGED, 0)); // 4: buffer 1
        b.event(new TraceEvent.Free(150, 1, A, AllocKind.PLAIN, 0)); // 5
        b.event(new TraceEvent.Alloc(160, 1, A, 2 * MIB, AllocKind.ASYNC, 0)); // 6: A again: buffer 2
        b.event(new TraceEvent.Free(170, 1, A, AllocKind.ASYNC, 0)); // 7
        b.event(new TraceEvent.Alloc(180, 1, A + 4096, 4096, AllocKind.PLAIN, 0)); // 8: free now: buffer 3
        Trace trace = b.build();
        TraceBuffers buffers = TraceBuffers.of(trace);
        assertEquals(List.of(0, 4, 6, 8), allocEvents(buffers));
        assertEquals(allocEventsOfWorkload(trace), allocEvents(buffers));
    }
}
