package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.TraceAnomaly.Kind;

/** The semantic check after loading: each kind of anomaly once, with count and first event; sane traces clean. */
class TraceAnomaliesTest {
    private static final long S = 0x5555_0000_1000L;
    private static final long A = 0x7f00_0000_0000L;
    private static final Dim3 ONE = new Dim3(1, 1, 1);

    @TempDir
    Path dir;

    private static TraceEvent.Launch launch(long host, int thread, int fn, long stream, long gs, long ge,
            LaunchKind kind, long graph) {
        return new TraceEvent.Launch(host, thread, fn, ONE, ONE, 0, stream, new byte[8], gs, ge, kind, graph);
    }

    private static Trace.Builder sane() {
        return Trace.builder(TraceHeader.builder("t", "1").build())
                .module(ModuleInfo.of(1, ModuleKind.PTX, new byte[] { 1 }, "x"))
                .function(new FunctionInfo(1, 1, "k", "k", List.of()))
                .event(new TraceEvent.Sync(10, 1, SyncKind.STREAM_CREATE, S, 0, 0)) // 0
                .event(new TraceEvent.Sync(20, 1, SyncKind.EVENT_CREATE, 0, 0xe1, 0)) // 1
                .event(new TraceEvent.Alloc(30, 1, A, 4096, AllocKind.PLAIN, 0)); // 2
    }

    private static Map<Kind, TraceAnomaly> byKind(Trace t) {
        Map<Kind, TraceAnomaly> m = new EnumMap<>(Kind.class);
        for (TraceAnomaly a : TraceAnomalies.find(t)) {
            m.put(a.kind(), a);
        }
        return m;
    }

    @Test
    void saneTracesAndTheFixturesHaveNone() {
        Trace t = sane().event(launch(40, 1, 1, S, 100, 200, LaunchKind.PLAIN, 0))
                .event(new TraceEvent.Sync(50, 1, SyncKind.EVENT_RECORD, S, 0xe1, 0))
                .event(new TraceEvent.GraphLaunch(60, 1, 0x99, S, 1)) // 5
                .event(launch(60, 1, 1, S, 0, 0, LaunchKind.GRAPH_NODE, 5))
                .event(launch(55, 2, 1, 2, 0, 0, LaunchKind.PLAIN, 0)) // another thread, earlier: fine
                .event(new TraceEvent.Free(70, 1, A, AllocKind.PLAIN, 0))
                .event(new TraceEvent.Alloc(80, 1, A + 64, 4096, AllocKind.PLAIN, 0))
                .event(new TraceEvent.Alloc(90, 1, A + 64 + 4096, 16, AllocKind.PLAIN, 0)) // adjacent
                .build();
        assertEquals(List.of(), TraceAnomalies.find(t));
    }

    @Test
    void eachKindOnceWithCountAndFirstEvent() {
        Trace t = sane()
                .module(ModuleInfo.of(1, ModuleKind.PTX, new byte[] { 2 }, "y"))
                .function(new FunctionInfo(1, 1, "k2", "k2", List.of()))
                .function(new FunctionInfo(2, 9, "g", "g", List.of()))
                .event(new TraceEvent.Alloc(40, 1, A + 4000, 100, AllocKind.PLAIN, 0)) // 3 overlap (tail of 2)
                .event(new TraceEvent.Alloc(35, 1, A + 4090, 16, AllocKind.PLAIN, 0)) // 4 back; overlaps 3
                .event(launch(50, 1, 1, S, 300, 200, LaunchKind.PLAIN, 0)) // 5 inverted
                .event(launch(60, 1, 1, 0x77, 0, 0, LaunchKind.PLAIN, 0)) // 6 stream never created
                .event(new TraceEvent.Sync(70, 1, SyncKind.EVENT_SYNCHRONIZE, 0, 0xe2, 0)) // 7 event never created
                .event(launch(80, 1, 1, S, 0, 0, LaunchKind.GRAPH_NODE, 99)) // 8 no such event
                .event(launch(90, 1, 5, S, 0, 0, LaunchKind.PLAIN, 0)) // 9 function 5 undefined
                .event(launch(-1L, 1, 1, S, 0, 0, LaunchKind.PLAIN, 0)) // 10 host 2^64-1
                .event(new TraceEvent.Memcpy(-1L, 1, CopyKind.D2D, A, A, -1L, 0, false, new byte[0], 1L << 63,
                        5)) // 11: time, size, inverted
                .event(new TraceEvent.Alloc(-1L, 1, -16L, 32, AllocKind.PLAIN, 0)) // 12: wraps past 2^64
                .end(new TraceEnd(13, 0, 0)).end(new TraceEnd(13, 0, 0))
                .build();
        Map<Kind, TraceAnomaly> m = byKind(t);
        assertEquals(new TraceAnomaly(Kind.OVERLAPPING_ALLOCATIONS, 2, 3,
                "100 bytes at 0x7f0000000fa0 overlap the live allocation of event 2"),
                m.get(Kind.OVERLAPPING_ALLOCATIONS));
        assertEquals(new TraceAnomaly(Kind.HOST_TIME_BACKWARDS, 1, 4, "thread 1: 40 ns, then 35 ns"),
                m.get(Kind.HOST_TIME_BACKWARDS));
        assertEquals(2, m.get(Kind.GPU_TIME_INVERTED).count());
        assertEquals(5, m.get(Kind.GPU_TIME_INVERTED).firstEvent());
        assertEquals(new TraceAnomaly(Kind.STREAM_NOT_CREATED, 1, 6, "stream 0x77"), m.get(Kind.STREAM_NOT_CREATED));
        assertEquals(new TraceAnomaly(Kind.CUDA_EVENT_NOT_CREATED, 1, 7, "EVENT_SYNCHRONIZE of event 0xe2"),
                m.get(Kind.CUDA_EVENT_NOT_CREATED));
        assertEquals(new TraceAnomaly(Kind.BROKEN_GRAPH_LINK, 1, 8, "graph launch 99, no such event"),
                m.get(Kind.BROKEN_GRAPH_LINK));
        assertEquals(new TraceAnomaly(Kind.UNDEFINED_FUNCTION, 1, 9, "function 5"), m.get(Kind.UNDEFINED_FUNCTION));
        assertEquals(new TraceAnomaly(Kind.TIME_OUT_OF_RANGE, 4, 10, "host time 18446744073709551615 ns"),
                m.get(Kind.TIME_OUT_OF_RANGE));
        assertEquals(new TraceAnomaly(Kind.SIZE_OUT_OF_RANGE, 2, 11,
                "copy of 18446744073709551615 bytes at 0x7f0000000000"), m.get(Kind.SIZE_OUT_OF_RANGE));
        assertEquals(new TraceAnomaly(Kind.UNDEFINED_MODULE, 1, -1, "function 2 of module 9"),
                m.get(Kind.UNDEFINED_MODULE));
        assertEquals(1, m.get(Kind.DUPLICATE_MODULE_ID).count());
        assertEquals(1, m.get(Kind.DUPLICATE_FUNCTION_ID).count());
        assertEquals(1, m.get(Kind.SECOND_TRACE_END).count());
        assertEquals("GPU end time before GPU start time: 2 times, first at event 5 (launch GPU time 300 .. 200 ns)",
                m.get(Kind.GPU_TIME_INVERTED).message());
        assertEquals(13, m.size(), m.toString());
    }

    @Test
    void readerRunsTheCheckAndCountsRepeatedHeaderAndEndChunks() throws IOException {
        Path file = dir.resolve("t.phos");
        TraceWriter.write(sane().event(launch(40, 1, 1, S, 300, 200, LaunchKind.PLAIN, 0)).build(), file,
                TraceWriter.Options.DEFAULT);
        byte[] bytes = Files.readAllBytes(file);
        List<Integer> offsets = ChunkFiles.chunkOffsets(bytes);
        int header = offsets.get(0);
        int end = offsets.get(offsets.size() - 1);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(bytes);
        for (int k = 0; k < 3; k++) {
            out.write(bytes, header, offsets.get(1) - header); // three more TraceHeader chunks
            out.write(bytes, end, bytes.length - end); // three more TraceEnd chunks
        }
        Files.write(file, out.toByteArray());
        TraceLoadResult r = TraceReader.read(file, null);
        assertEquals(List.of(), r.warnings());
        Map<Kind, TraceAnomaly> m = new EnumMap<>(Kind.class);
        r.anomalies().forEach(a -> m.put(a.kind(), a));
        assertEquals(3, m.get(Kind.SECOND_TRACE_HEADER).count());
        assertEquals("at byte offset " + bytes.length, m.get(Kind.SECOND_TRACE_HEADER).first());
        assertEquals(3, m.get(Kind.SECOND_TRACE_END).count());
        assertEquals(1, m.get(Kind.GPU_TIME_INVERTED).count());
        assertEquals(3, m.size(), m.toString());
    }

    @Test
    void headerWithAnotherFormatVersion() {
        Trace t = Trace.builder(TraceHeader.builder("t", "1").formatVersion(2).build()).build();
        assertEquals(List.of(new TraceAnomaly(Kind.FORMAT_VERSION_MISMATCH, 1, -1,
                "TraceHeader says version 2, the file header 1")), TraceAnomalies.find(t));
    }

    @Test
    void theFormatFixtureIsSaneButForItsEdgeValues() {
        // TraceFixtures holds edge values on purpose (u64 extremes); the check must name them, not fail
        for (TraceAnomaly a : TraceAnomalies.find(TraceFixtures.model())) {
            assertTrue(a.count() > 0 && !a.message().isEmpty(), a.toString());
        }
    }
}
