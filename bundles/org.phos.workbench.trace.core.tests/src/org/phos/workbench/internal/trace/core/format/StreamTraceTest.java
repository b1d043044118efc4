package org.phos.workbench.internal.trace.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * A trace saved from a live attach stream (docs/trace-format.md "Live attach"): EventGap chunks advance the index
 * the next batch starts at, StreamStart says where the stream joined, the events held are numbered densely and the
 * process's index of each is recoverable; graph links are renumbered (into a gap: -1). Built here from a trace
 * written with one event per batch, by dropping batches and putting gap chunks in their place, as the recorder does.
 */
class StreamTraceTest {
    @TempDir
    Path dir;

    private static final long NEVER = Long.MAX_VALUE;

    /** The process's trace: 11 events, each in its own EventBatch chunk. */
    private Path processTrace() throws IOException {
        Path f = dir.resolve("process.phos");
        TraceHeader h = TraceHeader.builder("phos-recorder", "0.1.0").pid(77).deviceName("Fake GPU").build();
        try (TraceWriter w = TraceWriter.create(f, h, new TraceWriter.Options(false, false, 3, 1))) {
            w.module(ModuleInfo.of(1, ModuleKind.PTX, "ptx".getBytes(StandardCharsets.UTF_8), "cuModuleLoadData"));
            w.function(new FunctionInfo(1, 1, "axpy", "", List.of()));
            Dim3 one = new Dim3(1, 1, 1);
            byte[] p = { 1, 2, 3, 4 };
            w.write(new TraceEvent.Alloc(10, 1, 0x1000, 256, AllocKind.PLAIN, 0));                       // 0
            w.write(new TraceEvent.Alloc(20, 1, 0x2000, 256, AllocKind.PLAIN, 0));                       // 1
            w.write(new TraceEvent.Free(30, 1, 0x2000, AllocKind.PLAIN, 0));                             // 2
            w.write(launch(40, LaunchKind.PLAIN, 0, p, one));                                            // 3
            w.write(launch(50, LaunchKind.PLAIN, 0, p, one));                                            // 4
            w.write(new TraceEvent.GraphLaunch(60, 1, 0xabc, 0, 2));                                     // 5
            w.write(launch(60, LaunchKind.GRAPH_NODE, 5, p, one));                                       // 6
            w.write(launch(60, LaunchKind.GRAPH_NODE, 5, p, one));                                       // 7
            w.write(launch(70, LaunchKind.PLAIN, 0, p, one));                                            // 8
            w.write(new TraceEvent.Alloc(80, 1, 0x3000, 512, AllocKind.ASYNC, 2));                       // 9
            w.write(launch(90, LaunchKind.PLAIN, 0, new byte[] { 9 }, one));                             // 10
        }
        return f;
    }

    private static TraceEvent.Launch launch(long t, LaunchKind k, long graph, byte[] p, Dim3 d) {
        return new TraceEvent.Launch(t, 1, 1, d, d, 0, 0, p, 0, 0, k, graph);
    }

    record Raw(int type, byte[] framed) {
    }

    private static List<Raw> chunks(byte[] file) {
        List<Raw> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16;
        while (at + 24 <= file.length) {
            int n = 24 + b.getInt(at + 8);
            byte[] c = new byte[n];
            System.arraycopy(file, at, c, 0, n);
            out.add(new Raw(b.getShort(at + 4), c));
            at += n;
        }
        return out;
    }

    private static byte[] frame(int type, byte[] payload) {
        ByteBuffer h = ByteBuffer.allocate(24 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        h.put(new byte[] { 'P', 'C', 'H', 'K' }).putShort((short) type).put((byte) 0).put((byte) 0)
                .putInt(payload.length).putInt(payload.length);
        CRC32C crc = new CRC32C();
        crc.update(payload);
        h.putInt((int) crc.getValue());
        crc.reset();
        crc.update(h.array(), 0, 20);
        h.putInt((int) crc.getValue());
        h.put(payload);
        return h.array();
    }

    private static void varint(ByteArrayOutputStream o, long v) {
        while ((v & ~0x7FL) != 0) {
            o.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        o.write((int) v);
    }

    private static byte[] gap(long first, long count, int reason) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write(1 << 3);
        varint(o, first);
        o.write(2 << 3);
        varint(o, count);
        o.write(3 << 3);
        varint(o, reason);
        return frame(Chunks.EVENT_GAP, o.toByteArray());
    }

    private static byte[] start(long firstLive, long soFar, String path, long pid, long live) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write(1 << 3);
        varint(o, firstLive);
        o.write(2 << 3);
        varint(o, soFar);
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        o.write(4 << 3 | 2);
        varint(o, p.length);
        o.writeBytes(p);
        o.write(5 << 3);
        varint(o, pid);
        o.write(6 << 3);
        varint(o, live);
        return frame(Chunks.STREAM_START, o.toByteArray());
    }

    /** The stream a reader that joined at event 5 would have got, missing event 8 because it fell behind. */
    private Path stream(Path process, long secondGapFirst) throws IOException {
        List<Raw> c = chunks(Files.readAllBytes(process));
        List<Raw> batches = c.stream().filter(r -> r.type == Chunks.EVENT_BATCH).toList();
        assertEquals(11, batches.size(), "one event per batch");
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        byte[] file = Files.readAllBytes(process);
        o.write(file, 0, 16);
        for (Raw r : c) {
            if (r.type == Chunks.TRACE_HEADER) {
                o.writeBytes(r.framed);
                o.writeBytes(start(5, 5, process.toString(), 77, 1));
            } else if (r.type == Chunks.MODULE || r.type == Chunks.FUNCTION) {
                o.writeBytes(r.framed);
            }
        }
        o.writeBytes(batches.get(0).framed);         // allocation 0, live when the reader joined
        o.writeBytes(gap(1, 4, 1));                  // 1..4 before the reader joined
        for (int i = 5; i <= 7; i++) {
            o.writeBytes(batches.get(i).framed);
        }
        o.writeBytes(gap(secondGapFirst, 1, 2));     // 8: the reader fell behind
        o.writeBytes(batches.get(9).framed);
        o.writeBytes(batches.get(10).framed);
        o.writeBytes(c.get(c.size() - 1).framed);    // TraceEnd: 11 events
        Path f = dir.resolve("stream.phos");
        Files.write(f, o.toByteArray());
        return f;
    }

    @Test
    void aSavedStreamLoadsWithItsGapsAndTheProcessIndexOfEachEvent() throws IOException {
        Path process = processTrace();
        Trace full = TraceReader.read(process, null).trace();
        Path f = stream(process, 8);
        for (long threshold : new long[] { NEVER, 0 }) {   // decoded inline, and by the second thread
            TraceLoadResult r = new TraceFileLoader(f, threshold).load(null);
            Trace t = r.trace();
            assertEquals(6, t.eventCount());
            assertEquals(List.of(new StreamGap(1, 4, StreamGap.Reason.ATTACHED_LATE),
                    new StreamGap(8, 1, StreamGap.Reason.READER_BEHIND)), r.streamGaps());
            StreamStart s = r.streamStart();
            assertNotNull(s);
            assertEquals(5, s.firstLiveIndex());
            assertEquals(77, s.pid());
            assertEquals(process.toString(), s.tracePath());
            long[] expected = { 0, 5, 6, 7, 9, 10 };
            for (int i = 0; i < t.eventCount(); i++) {
                long p = StreamGap.processIndex(r.streamGaps(), i);
                assertEquals(expected[i], p, "process index of event " + i);
                assertEquals(full.kind((int) p), t.kind(i));
                assertEquals(full.hostNs((int) p), t.hostNs(i));
            }
            // graph nodes link to their GraphLaunch by the stream's own index
            assertEquals(EventKind.GRAPH_LAUNCH, t.kind(1));
            assertEquals(1, t.graphLaunchEvent(2));
            assertEquals(1, t.graphLaunchEvent(3));
            assertEquals(0x3000, t.address(4));
            assertNotNull(t.end());
            assertEquals(11, t.end().eventCount());
            List<String> w = r.warnings().stream().map(x -> x.message()).toList();
            assertTrue(w.stream().anyMatch(m -> m.contains("attached to process 77 at its event 5")
                    && m.contains("1 allocations still live") && m.contains(process.toString())), w.toString());
            assertTrue(w.stream().anyMatch(m -> m.contains("missed 1 events in 1 gaps")), w.toString());
            assertTrue(w.stream().noneMatch(m -> m.contains("TraceEnd says") || m.contains("damaged")), w.toString());
        }
        // through the public reader: the same, anomalies looked for (the renumbered graph links are sound)
        TraceLoadResult pub = TraceReader.read(f, null);
        assertEquals(2, pub.streamGaps().size());
        assertTrue(pub.anomalies().isEmpty(), pub.anomalies().toString());
    }

    @Test
    void aGapThatDoesNotFollowTheEventsBeforeItIsDamageAndThePrefixIsKept() throws IOException {
        Path f = stream(processTrace(), 9);   // says 9, but 8 events precede it
        TraceLoadResult r = TraceReader.read(f, null);
        assertEquals(4, r.trace().eventCount());
        assertTrue(r.warnings().stream().anyMatch(w -> w.message().contains("EventGap first_index is 9 but 8 events"
                + " precede it")), r.warnings().toString());
    }
}
