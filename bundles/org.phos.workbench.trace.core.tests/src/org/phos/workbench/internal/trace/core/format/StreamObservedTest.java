package org.phos.workbench.internal.trace.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * i14-liveacc: observed accesses on a live stream (docs/trace-format.md "Live attach"). ObservedBatch chunks name
 * launches by the process's event index; a stream with gaps holds its events densely numbered, so the reader
 * renumbers the records and the coverage to its own indices, leaves out those of launches in its gaps (one warning),
 * merges the coverage of one tool (one per hand-over) into one, and warns about ObservedGap chunks (type 9).
 */
class StreamObservedTest {
    @TempDir
    Path dir;

    /** Events: 0 alloc 0x1000, 1..6 launches; one event per batch. */
    private Path processTrace() throws IOException {
        Path f = dir.resolve("process.phos");
        TraceHeader h = TraceHeader.builder("phos-recorder", "0.1.0").pid(42).deviceName("Fake GPU").build();
        try (TraceWriter w = TraceWriter.create(f, h, new TraceWriter.Options(false, false, 3, 1))) {
            w.module(ModuleInfo.of(1, ModuleKind.PTX, "ptx".getBytes(StandardCharsets.UTF_8), "cuModuleLoadData"));
            w.function(new FunctionInfo(1, 1, "k", "", List.of()));
            Dim3 one = new Dim3(1, 1, 1);
            w.write(new TraceEvent.Alloc(10, 1, 0x1000, 256, AllocKind.PLAIN, 0));
            for (int i = 1; i <= 6; i++) {
                w.write(new TraceEvent.Launch(10 + i, 1, 1, one, one, 0, 0, new byte[] { 1 }, 0, 0, LaunchKind.PLAIN, 0));
            }
        }
        return f;
    }

    private static List<byte[]> chunks(byte[] file, int type) {
        List<byte[]> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 16; at + 24 <= file.length;) {
            int n = 24 + b.getInt(at + 8);
            if (type < 0 || b.getShort(at + 4) == type) {
                byte[] c = new byte[n];
                System.arraycopy(file, at, c, 0, n);
                out.add(c);
            }
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

    private static void field(ByteArrayOutputStream o, int f, long v) {
        varint(o, f << 3);
        varint(o, v);
    }

    private static void bytes(ByteArrayOutputStream o, int f, byte[] b) {
        varint(o, f << 3 | 2);
        varint(o, b.length);
        o.writeBytes(b);
    }

    /** One hand-over as the recorder encodes it: a write of [0x1000, 0x1040) per launch, coverage of them all. */
    private static byte[] observed(long... launches) {
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        ByteArrayOutputStream idx = new ByteArrayOutputStream();
        for (long l : launches) {
            ByteArrayOutputStream a = new ByteArrayOutputStream();
            field(a, 1, l);
            field(a, 2, 0x1000);
            ByteArrayOutputStream r = new ByteArrayOutputStream();
            field(r, 1, 0x1000);
            field(r, 2, 0x1040);
            bytes(a, 4, r.toByteArray());
            field(a, 6, 16);
            bytes(a, 7, "sanitizer".getBytes(StandardCharsets.UTF_8));
            bytes(m, 1, a.toByteArray());
            varint(idx, l);
        }
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        bytes(c, 1, "sanitizer".getBytes(StandardCharsets.UTF_8));
        bytes(c, 2, idx.toByteArray());
        bytes(c, 3, "every launch".getBytes(StandardCharsets.UTF_8));
        field(c, 4, 6);
        bytes(m, 2, c.toByteArray());
        return frame(Chunks.OBSERVED_BATCH, m.toByteArray());
    }

    private static byte[] gap(long first, long count, int reason) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        field(o, 1, first);
        field(o, 2, count);
        field(o, 3, reason);
        return frame(Chunks.EVENT_GAP, o.toByteArray());
    }

    @Test
    void observationsAreRenumberedToTheHeldLaunchesAndTheRestIsSaid() throws IOException {
        byte[] file = Files.readAllBytes(processTrace());
        List<byte[]> batches = chunks(file, Chunks.EVENT_BATCH);
        assertEquals(7, batches.size());
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write(file, 0, 16);
        for (byte[] c : chunks(file, -1)) {
            int type = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).getShort(4);
            if (type == Chunks.TRACE_HEADER || type == Chunks.MODULE || type == Chunks.FUNCTION) {
                o.writeBytes(c);
            }
        }
        o.writeBytes(batches.get(0));                 // the allocation, live when the reader joined
        o.writeBytes(gap(1, 2, 1));                   // launches 1, 2: before it joined
        o.writeBytes(batches.get(3));
        o.writeBytes(batches.get(4));
        o.writeBytes(observed(2, 3, 4));              // launch 2 is not held: left out
        o.writeBytes(frame(Chunks.OBSERVED_GAP, new byte[] { 1 << 3, 1, 2 << 3, 7 })); // 7 launches missed
        o.writeBytes(batches.get(5));
        o.writeBytes(batches.get(6));
        o.writeBytes(observed(6));
        o.writeBytes(chunks(file, Chunks.TRACE_END).get(0));
        Path f = dir.resolve("stream.phos");
        Files.write(f, o.toByteArray());

        TraceLoadResult r = TraceReader.read(f, null);
        Trace t = r.trace();
        assertEquals(5, t.eventCount(), "the allocation and launches 3..6");
        List<Long> launches = t.observedAccesses().stream().map(ObservedAccess::launchEvent).toList();
        assertEquals(List.of(1L, 2L, 4L), launches, "process launches 3, 4, 6 are held events 1, 2, 4");
        List<ObservationCoverage> cov = t.observationCoverage();
        assertEquals(1, cov.size(), "the two hand-overs' coverage, one tool: one coverage");
        assertEquals(List.of(1L, 2L, 4L), java.util.Arrays.stream(cov.get(0).observedEvents()).boxed().toList());
        List<String> w = r.warnings().stream().map(x -> x.message()).toList();
        assertTrue(w.stream().anyMatch(m -> m.contains("2 observed records name launches this stream does not hold")),
                w.toString());
        assertTrue(w.stream().anyMatch(m -> m.contains("missed the observed accesses of 7 launches")), w.toString());
    }
}
