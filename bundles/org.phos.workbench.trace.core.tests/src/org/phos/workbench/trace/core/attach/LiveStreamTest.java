package org.phos.workbench.trace.core.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * {@link LiveStream} over a real Unix socket served by this test with the bytes of a trace written by
 * {@link TraceWriter} (the recorder's stream is such bytes): whole stream, a cut in the middle of a chunk (a killed
 * process), a damaged chunk, a foreign peer; {@link StreamSaver} and {@link LiveStatistics} over what arrives.
 */
class LiveStreamTest {
    @TempDir
    Path dir;

    private final long self = ProcessHandle.current().pid();

    private byte[] trace(int launches, boolean compress) throws IOException {
        Path f = dir.resolve("t.phos");
        TraceHeader h = TraceHeader.builder("phos-recorder", "0.1.0").pid((int) self).deviceName("Fake GPU")
                .argv(List.of("app", "--x")).build();
        try (TraceWriter w = TraceWriter.create(f, h, new TraceWriter.Options(compress, false, 3, 4096))) {
            w.module(ModuleInfo.of(1, ModuleKind.PTX, "ptx".getBytes(StandardCharsets.UTF_8), "cuModuleLoadData"));
            w.function(new FunctionInfo(1, 1, "axpy", "", List.of()));
            w.function(new FunctionInfo(2, 1, "_Z4scalePf", "scale(float*)", List.of()));
            w.write(new TraceEvent.Alloc(1, 1, 0x1000, 1 << 20, AllocKind.PLAIN, 0));
            w.write(new TraceEvent.Alloc(2, 1, 0x9000, 4096, AllocKind.HOST_PINNED, 0));
            Dim3 d = new Dim3(1, 1, 1);
            for (int i = 0; i < launches; i++) {
                w.write(new TraceEvent.Launch(10 + i, 1, i % 3 == 0 ? 2 : 1, d, d, 0, 0, new byte[] { (byte) i }, 0, 0,
                        LaunchKind.PLAIN, 0));
            }
            w.write(new TraceEvent.Free(5000, 1, 0x1000, AllocKind.PLAIN, 0));
            w.write(new TraceEvent.Alloc(5001, 1, 0x2000, 300, AllocKind.ASYNC, 2));
        }
        return Files.readAllBytes(f);
    }

    /** Serves {@code bytes} to the first connection on this JVM's socket in {@link #dir}, then closes. */
    private Thread serve(byte[] bytes) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(AttachDirectory.socket(dir, self)));
        Thread t = new Thread(() -> {
            try (server; SocketChannel c = server.accept()) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    c.write(b);
                }
            } catch (IOException e) {
                // the reader went away: nothing to serve
            }
        });
        t.start();
        return t;
    }

    @Test
    void aWholeStreamArrivesChunkByChunkAndSavesToTheSameTrace() throws Exception {
        byte[] bytes = trace(3000, true);
        Thread t = serve(bytes);
        Path saved = dir.resolve("saved.phos");
        LiveStatistics stats = new LiveStatistics(2);
        int chunks = 0;
        try (LiveStream s = LiveStream.open(dir, self); StreamSaver sv = new StreamSaver(saved)) {
            LiveStream.StreamChunk c;
            while ((c = s.next()) != null) {
                stats.accept(c);
                sv.chunk(c);
                chunks++;
            }
            assertTrue(s.closedCleanly());
            assertEquals(bytes.length, s.received());
        }
        t.join(5000);
        assertTrue(chunks > 5, chunks + " chunks");
        assertEquals(bytes.length, Files.size(saved));
        assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(saved)), "saved byte for byte");
        LiveStatistics.Snapshot snap = stats.snapshot();
        assertEquals(3000, snap.launches());
        assertEquals(3004, snap.events());
        assertEquals(List.of(new LiveStatistics.KernelCount("axpy", 2000), new LiveStatistics.KernelCount(
                "scale(float*)", 1000)), snap.topKernels());
        assertEquals(300, snap.liveBytes(), "the 1 MiB freed, pinned host memory not counted");
        assertEquals(2, snap.liveAllocations());
        assertNotNull(snap.header());
        assertEquals(List.of("app", "--x"), snap.header().argv());
        assertNotNull(snap.end());
    }

    @Test
    void aStreamCutInTheMiddleOfAChunkEndsAfterTheLastWholeOne() throws Exception {
        byte[] bytes = trace(3000, false);
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 700);   // inside the last batch
        Thread t = serve(cut);
        Path saved = dir.resolve("cut.phos");
        try (LiveStream s = LiveStream.open(dir, self); StreamSaver sv = new StreamSaver(saved)) {
            LiveStream.StreamChunk c;
            while ((c = s.next()) != null) {
                sv.chunk(c);
            }
            assertFalse(s.closedCleanly());
            assertTrue(s.ended());
            assertNull(s.next());
        }
        t.join(5000);
        TraceLoadResult r = TraceReader.read(saved, null);
        Trace tr = r.trace();
        assertTrue(tr.eventCount() > 0 && tr.eventCount() < 3004, tr.eventCount() + " events");
        assertTrue(r.warnings().stream().anyMatch(w -> w.message().contains("not closed cleanly")), r.warnings().toString());
        assertTrue(r.warnings().stream().noneMatch(w -> w.message().contains("damaged")), r.warnings().toString());
    }

    @Test
    void aDamagedChunkOrAForeignPeerFailsWithTheByteOffset() throws Exception {
        byte[] bytes = trace(100, false);
        bytes[bytes.length - 40] ^= 0x55;   // in the payload of the last chunk (TraceEnd is shorter: the batch)
        Thread t = serve(bytes);
        try (LiveStream s = LiveStream.open(dir, self)) {
            AttachException e = assertThrows(AttachException.class, () -> {
                while (s.next() != null) {
                    // until the damaged chunk
                }
            });
            assertTrue(e.getMessage().contains("is damaged at byte") && e.getMessage().contains("checksum"), e.getMessage());
        }
        t.join(5000);
        Files.delete(AttachDirectory.socket(dir, self));

        t = serve("HTTP/1.1 200 OK\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
        try (LiveStream s = LiveStream.open(dir, self)) {
            AttachException e = assertThrows(AttachException.class, s::next);
            assertTrue(e.getMessage().contains("does not speak the .phos format"), e.getMessage());
        }
        t.join(5000);
    }

    @Test
    void theDirectoryFollowsTheRecordersRule() {
        assertEquals(Path.of("/run/user/1000/phos"), AttachDirectory.of(java.util.Map.of("XDG_RUNTIME_DIR", "/run/user/1000")));
        assertEquals(Path.of("/tmp/phos-" + AttachDirectory.uid()), AttachDirectory.of(java.util.Map.of()));
        assertEquals(Path.of("/tmp/phos-" + AttachDirectory.uid()), AttachDirectory.of(java.util.Map.of("XDG_RUNTIME_DIR", "rel")));
        assertTrue(AttachDirectory.uid() >= 0);
    }
}
