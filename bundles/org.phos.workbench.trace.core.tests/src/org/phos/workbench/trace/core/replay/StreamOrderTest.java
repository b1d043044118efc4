package org.phos.workbench.trace.core.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StreamOrderTest {

    private static final long S1 = 0x5501;
    private static final long S2 = 0x5502;
    private static final long E = 0xee01;

    @Test
    void twoStreamsAreConcurrentUntilARecordAndWait() {
        StreamOrder order = StreamOrder.builder()
                .streamCreate(S1, 0).streamCreate(S2, 0)
                .operation(2, 1, S1) // a1
                .operation(3, 1, S2) // b1
                .operation(4, 1, S1) // a2
                .eventRecord(1, S1, E) // captures a1, a2
                .operation(6, 1, S1) // a3: after the record, not covered
                .streamWaitEvent(1, S2, E)
                .operation(8, 1, S2) // b2 waits for a2
                .build();
        assertTrue(order.happensBefore(2, 4));
        assertTrue(order.happensBefore(2, 6));
        assertFalse(order.happensBefore(4, 2));
        assertTrue(order.concurrent(2, 3));
        assertTrue(order.concurrent(4, 3));
        assertTrue(order.happensBefore(4, 8));
        assertTrue(order.happensBefore(2, 8)); // transitively
        assertTrue(order.happensBefore(3, 8));
        assertTrue(order.concurrent(6, 8)); // recorded before a3
        assertArrayEquals(new int[] { 3, 4 }, order.predecessors(8));
        assertArrayEquals(new int[] { 2 }, order.predecessors(4));
        assertArrayEquals(new int[0], order.predecessors(2));
        assertEquals(S2, order.stream(8));
        assertEquals(5, order.operationCount());
        assertFalse(order.isOperation(5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> order.happensBefore(5, 8));
        assertTrue(e.getMessage().contains("event 5"), e.getMessage());
    }

    @Test
    void waitOnAnEventNeverRecordedOrdersNothing() {
        StreamOrder order = StreamOrder.builder().operation(0, 1, S1).streamWaitEvent(1, S2, E).operation(2, 1, S2)
                .build();
        assertTrue(order.concurrent(0, 2));
    }

    @Test
    void legacyDefaultStreamIsABarrierForBlockingStreams() {
        StreamOrder order = StreamOrder.builder()
                .streamCreate(S1, 0).streamCreate(S2, 0)
                .operation(2, 1, S1)
                .operation(3, 1, S2)
                .operation(4, 1, 0) // legacy: waits for both
                .operation(5, 1, S1) // waits for the legacy op
                .operation(6, 2, S2)
                .build();
        assertTrue(order.happensBefore(2, 4));
        assertTrue(order.happensBefore(3, 4));
        assertTrue(order.happensBefore(4, 5));
        assertTrue(order.happensBefore(4, 6));
        assertTrue(order.happensBefore(3, 5)); // through the barrier
        assertArrayEquals(new int[] { 2, 3 }, order.predecessors(4));
        assertArrayEquals(new int[] { 2, 4 }, order.predecessors(5));
    }

    @Test
    void nonBlockingStreamIgnoresTheLegacyDefaultStream() {
        StreamOrder order = StreamOrder.builder()
                .streamCreate(S1, 1) // cudaStreamNonBlocking
                .streamCreate(S2, 0)
                .operation(2, 1, S1)
                .operation(3, 1, S2)
                .operation(4, 1, 0)
                .operation(5, 1, S1)
                .build();
        assertTrue(order.concurrent(2, 4));
        assertTrue(order.happensBefore(3, 4));
        assertTrue(order.concurrent(4, 5));
        assertTrue(order.happensBefore(2, 5));
    }

    @Test
    void perThreadDefaultStreamsAreDistinctPerThreadAndBlocking() {
        StreamOrder order = StreamOrder.builder()
                .operation(0, 1, 2)
                .operation(1, 2, 2)
                .operation(2, 1, 0)
                .build();
        assertTrue(order.concurrent(0, 1));
        assertTrue(order.happensBefore(0, 2));
        assertTrue(order.happensBefore(1, 2));
    }

    @Test
    void hostSynchronisationOrdersLaterWorkOfThatThreadOnly() {
        StreamOrder order = StreamOrder.builder()
                .streamCreate(S1, 1).streamCreate(S2, 1)
                .operation(2, 1, S1)
                .streamSynchronize(1, S1)
                .operation(4, 2, S2) // other thread: not ordered
                .operation(5, 1, S2) // same thread: after the sync
                .build();
        assertTrue(order.concurrent(2, 4));
        assertTrue(order.happensBefore(2, 5));
        StreamOrder ctx = StreamOrder.builder().streamCreate(S1, 1).streamCreate(S2, 1)
                .operation(2, 1, S1).contextSynchronize(1).operation(4, 1, S2).build();
        assertTrue(ctx.happensBefore(2, 4));
        StreamOrder ev = StreamOrder.builder().streamCreate(S1, 1).streamCreate(S2, 1)
                .operation(2, 1, S1).eventRecord(1, S1, E).operation(4, 1, S1).eventSynchronize(1, E)
                .operation(6, 1, S2).build();
        assertTrue(ev.happensBefore(2, 6));
        assertTrue(ev.concurrent(4, 6));
    }

    @Test
    void graphNodesFormOneStepAndAreUnorderedAmongThemselves() {
        StreamOrder order = StreamOrder.builder()
                .operation(0, 1, S1)
                .operation(1, 1, S1) // graph launch
                .graphNode(2, 1).graphNode(3, 1)
                .operation(4, 1, S1)
                .build();
        assertTrue(order.happensBefore(0, 2));
        assertTrue(order.happensBefore(0, 3));
        assertTrue(order.concurrent(2, 3));
        assertTrue(order.happensBefore(2, 4));
        assertTrue(order.happensBefore(3, 4));
        assertArrayEquals(new int[] { 0 }, order.predecessors(3));
        assertArrayEquals(new int[] { 1 }, order.predecessors(4));
    }

    @Test
    void recreatedStreamHandleIsANewStream() {
        StreamOrder order = StreamOrder.builder()
                .streamCreate(S1, 1).operation(1, 1, S1).streamDestroy(S1)
                .streamCreate(S1, 1).operation(4, 1, S1)
                .build();
        assertTrue(order.concurrent(1, 4));
    }

    @Test
    void operationsMustComeInIssueOrder() {
        StreamOrder.Builder b = StreamOrder.builder().operation(5, 1, S1);
        assertThrows(IllegalArgumentException.class, () -> b.operation(5, 1, S1));
    }
}
