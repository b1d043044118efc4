package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Writing a trace and reading it back gives the same header, modules, functions, events and observed accesses. */
class RoundTripTest {
    @TempDir
    Path dir;

    private TraceLoadResult writeAndRead(TraceWriter.Options options) throws IOException {
        Path file = dir.resolve("all.phos");
        try (TraceWriter w = TraceWriter.create(file, TraceFixtures.header(), options)) {
            for (ModuleInfo m : TraceFixtures.modules()) {
                w.module(m);
            }
            for (FunctionInfo f : TraceFixtures.functions()) {
                w.function(f);
            }
            long index = 0;
            for (TraceEvent e : TraceFixtures.events()) {
                assertEquals(index++, w.write(e));
            }
            for (ObservedAccess a : TraceFixtures.observed()) {
                w.observed(a);
            }
            w.droppedEvents(0);
        }
        return TraceReader.read(file, null);
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 2 })
    void everyEventKindAndFieldSurvives(int variant) throws IOException {
        TraceWriter.Options options = switch (variant) {
            case 0 -> TraceWriter.Options.DEFAULT;
            case 1 -> new TraceWriter.Options(true, true, 1, 1 << 20); // zstd batches
            default -> new TraceWriter.Options(false, false, 1, 64); // a batch per event or two
        };
        TraceLoadResult r = writeAndRead(options);
        assertEquals(List.of(), r.warnings());
        Trace t = r.trace();
        assertEquals(TraceFixtures.header(), t.header());
        assertEquals(TraceFixtures.modules(), t.modules());
        assertEquals(TraceFixtures.functions(), t.functions());
        assertEquals(TraceFixtures.observed(), t.observedAccesses());
        List<TraceEvent> events = TraceFixtures.events();
        assertEquals(events.size(), t.eventCount());
        for (int i = 0; i < events.size(); i++) {
            assertEquals(events.get(i), t.event(i), "event " + i);
        }
        TraceEnd end = t.end();
        assertNotNull(end);
        assertEquals(events.size(), end.eventCount());
        assertEquals(events.stream().mapToLong(TraceEvent::hostNs).max().getAsLong(), end.endNs());
    }

    @Test
    void columnAccessorsAgreeWithRecords() throws IOException {
        Trace t = writeAndRead(TraceWriter.Options.DEFAULT).trace();
        int launches = 0;
        for (int i = 0; i < t.eventCount(); i++) {
            TraceEvent e = t.event(i);
            assertEquals(e.kind(), t.kind(i));
            assertEquals(e.hostNs(), t.hostNs(i));
            assertEquals(e.thread(), t.thread(i));
            switch (e) {
                case TraceEvent.Launch l -> {
                    assertEquals(launches, t.launchIndex(i));
                    assertEquals(i, t.launchEvent(launches++));
                    assertEquals(l.function(), t.functionId(i));
                    assertEquals(l.grid(), new Dim3(t.gridX(i), t.gridY(i), t.gridZ(i)));
                    assertEquals(l.block(), new Dim3(t.blockX(i), t.blockY(i), t.blockZ(i)));
                    assertEquals(l.sharedMem(), t.sharedMem(i));
                    assertEquals(l.stream(), t.stream(i));
                    assertEquals(l.gpuStartNs(), t.gpuStartNs(i));
                    assertEquals(l.gpuEndNs(), t.gpuEndNs(i));
                    assertEquals(l.params().length, t.paramLength(i));
                    ByteBuffer view = t.params(i);
                    assertTrue(view.isReadOnly());
                    assertEquals(ByteOrder.LITTLE_ENDIAN, view.order());
                    byte[] fromView = new byte[view.remaining()];
                    view.get(fromView);
                    assertArrayEquals(l.params(), fromView);
                    byte[] copy = new byte[l.params().length + 3];
                    assertEquals(l.params().length, t.copyParams(i, copy, 3));
                    for (int off = -2; off < l.params().length + 2; off++) {
                        long expected = 0;
                        for (int k = 7; k >= 0; k--) {
                            int at = off + k;
                            expected = expected << 8 | (at >= 0 && at < l.params().length ? l.params()[at] & 0xff : 0);
                        }
                        assertEquals(expected, t.paramLong(i, off), "paramLong at " + off);
                    }
                    assertEquals(l.launchKind() == LaunchKind.GRAPH_NODE ? l.graphLaunch() : -1, t.graphLaunchEvent(i));
                }
                case TraceEvent.Alloc a -> {
                    assertEquals(a.address(), t.address(i));
                    assertEquals(a.size(), t.size(i));
                    assertEquals(a.allocKind(), t.allocKind(i));
                    assertEquals(-1, t.launchIndex(i));
                }
                case TraceEvent.Memcpy m -> {
                    assertEquals(m.payload().length, t.payloadLength(i));
                    assertEquals(m.payload().length, t.payload(i).remaining());
                    assertEquals(m.dst(), t.dst(i));
                    assertEquals(m.async(), t.async(i));
                }
                default -> {
                }
            }
        }
        assertEquals(launches, t.launchCount());
        assertEquals(launches, t.count(EventKind.LAUNCH));
        assertThrows(IllegalArgumentException.class, () -> t.functionId(0)); // event 0 is an ALLOC
        assertThrows(IllegalArgumentException.class, () -> t.size(1)); // FREE has no size
        assertThrows(IndexOutOfBoundsException.class, () -> t.kind(t.eventCount()));
        assertNotNull(t.functionById(2));
        assertEquals(null, t.functionById(99));
        assertTrue(t.heapFootprintBytes() > t.parameterBytes() + t.payloadBytes());
    }

    @Test
    void writerRejectsWhatTheFormatCannotHold() throws IOException {
        try (TraceWriter w = TraceWriter.create(dir.resolve("x.phos"), TraceFixtures.header())) {
            assertThrows(IllegalArgumentException.class, () -> w.write(new TraceEvent.Unknown(1, 1)));
            assertThrows(IllegalArgumentException.class,
                    () -> w.write(new TraceEvent.Free(1, 1, 0, AllocKind.UNRECOGNIZED, 0)));
        }
    }

    @Test
    void modelWrittenByTraceWriterWriteReadsBackEqual() throws IOException {
        Trace model = TraceFixtures.model();
        Path file = dir.resolve("model.phos");
        TraceWriter.write(model, file, TraceWriter.Options.DEFAULT);
        Trace back = TraceReader.read(file, null).trace();
        assertEquals(model.eventCount(), back.eventCount());
        for (int i = 0; i < model.eventCount(); i++) {
            assertEquals(model.event(i), back.event(i));
        }
        assertEquals(model.observedAccesses(), back.observedAccesses());
    }

    @Test
    void manyEventsCrossColumnPages() throws IOException {
        Path file = dir.resolve("big.phos");
        int n = 100_000;
        try (TraceWriter w = TraceWriter.create(file, TraceFixtures.header())) {
            w.function(TraceFixtures.functions().get(0));
            for (int i = 0; i < n; i++) {
                byte[] p = new byte[i % 40];
                if (p.length >= 8) {
                    ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 0x7f00_0000_0000L + i);
                }
                long host = i < 50_000 ? i * 1000L : i * 10_000_000L; // second half: deltas beyond 32 bits
                w.write(i % 3 == 0 ? new TraceEvent.Alloc(host, i % 5, 0x7f00_0000_0000L + 512L * i, i, AllocKind.PLAIN, i % 7)
                        : new TraceEvent.Launch(host, 1, 1 + i % 3, new Dim3(i % 100, 1, 1), new Dim3(128, 1, 1), 0, i % 4, p,
                                i % 2 == 0 ? 0 : host + 5, i % 2 == 0 ? 0 : host + 5 + i, LaunchKind.PLAIN, 0));
            }
        }
        Trace t = TraceReader.read(file, null).trace();
        assertEquals(n, t.eventCount());
        for (int i = 0; i < n; i++) {
            long host = i < 50_000 ? i * 1000L : i * 10_000_000L;
            assertEquals(host, t.hostNs(i));
            if (i % 3 == 0) {
                assertEquals(i, t.size(i));
                assertEquals(i % 7, t.stream(i));
            } else {
                assertEquals(i % 40, t.paramLength(i));
                if (i % 40 >= 8) {
                    assertEquals(0x7f00_0000_0000L + i, t.paramLong(i, 0));
                }
                assertEquals(i % 2 == 0 ? 0 : host + 5 + i, t.gpuEndNs(i));
                assertEquals(i % 100, t.gridX(i));
            }
        }
    }
}
