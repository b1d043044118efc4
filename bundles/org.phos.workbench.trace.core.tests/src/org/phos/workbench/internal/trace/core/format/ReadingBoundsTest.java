package org.phos.workbench.internal.trace.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceTooLargeException;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

import com.github.luben.zstd.Zstd;

/** What reading takes is bounded: heap by what chunks declare, time on input that is not a regular file. */
class ReadingBoundsTest {
    @TempDir
    Path dir;

    /** TraceHeader, then three Module chunks each a few KiB of zstd declaring 8 MiB inflated. */
    private Path inflatingModules() throws IOException {
        ProtoWriter header = new ProtoWriter(16);
        header.uint64(1, 1);
        ProtoWriter module = new ProtoWriter(16);
        module.uint64(1, 1);
        byte[] image = new byte[8 << 20];
        module.bytes(3, image, 0, image.length);
        byte[] raw = java.util.Arrays.copyOf(module.buf, module.len);
        byte[] z = Zstd.compress(raw, 3);
        ByteBuffer f = ByteBuffer.allocate(16 + 24 + header.len + 3 * (24 + z.length));
        f.put(Chunks.FILE_MAGIC).put(new byte[] { 1, 0, 0, 0, 0, 0, 0, 0 });
        putChunk(f, Chunks.TRACE_HEADER, 0, java.util.Arrays.copyOf(header.buf, header.len), header.len);
        for (int k = 0; k < 3; k++) {
            putChunk(f, Chunks.MODULE, 1, z, raw.length);
        }
        Path p = dir.resolve("modules.phos");
        Files.write(p, f.array());
        return p;
    }

    private static void putChunk(ByteBuffer f, int type, int codec, byte[] stored, int raw) {
        byte[] h = new byte[24];
        Chunks.putIntLE(h, 0, Chunks.CHUNK_MAGIC);
        h[4] = (byte) type;
        h[6] = (byte) codec;
        Chunks.putIntLE(h, 8, stored.length);
        Chunks.putIntLE(h, 12, raw);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(stored);
        Chunks.putIntLE(h, 16, (int) crc.getValue());
        crc.reset();
        crc.update(h, 0, 20);
        Chunks.putIntLE(h, 20, (int) crc.getValue());
        f.put(h).put(stored);
    }

    @Test
    void aChunkThatDoesNotFitTheHeapLeftFailsBeforeItIsInflated() throws IOException {
        Path p = inflatingModules();
        // a heap with 36 MiB left: 8 MiB more would leave less than the 32 MiB margin
        TraceTooLargeException e = assertThrows(TraceTooLargeException.class,
                () -> new TraceFileLoader(p, Long.MAX_VALUE, () -> 36L << 20).load(null));
        assertEquals(16 + 24 + 2, e.offset(), e.getMessage()); // the first Module chunk
        assertTrue(e.reason().contains("Module chunk needs 8.0 MiB"), e.getMessage());
        assertTrue(e.reason().contains("-Xmx"), e.getMessage());
        assertEquals("ok 0", TraceReader.verdict(p)); // with this JVM's heap it loads
        assertEquals(3, new TraceFileLoader(p).load(null).trace().modules().size());
    }

    @Test
    void readsAPipeThisProcessHolds() throws Exception {
        Path fd = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fd), "needs /proc (Linux)");
        Path trace = dir.resolve("gen.phos");
        SyntheticTraceGenerator.generate(trace, SyntheticTraceOptions.defaults(40), null);
        long events = TraceReader.read(trace, null).trace().eventCount();
        Set<String> before = pipes(fd);
        Pipe pipe = Pipe.open();
        Set<String> after = pipes(fd);
        after.removeAll(before);
        assumeTrue(!after.isEmpty(), "no pipe found under /proc/self/fd");
        Path end = fd.resolve(after.iterator().next());
        assertTrue(TraceFileLoader.isInheritedPipe(end), end.toString());
        Thread writer = new Thread(() -> {
            try (OutputStream out = Channels.newOutputStream(pipe.sink())) {
                Files.copy(trace, out);
            } catch (IOException e) {
                // the reader failed; its assertion says why
            }
        });
        writer.start();
        try {
            TraceLoadResult r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> TraceReader.read(end, null));
            assertEquals(events, r.trace().eventCount());
            assertEquals(List.of(), r.warnings());
        } finally {
            pipe.source().close();
            writer.join(5000);
        }
    }

    private static Set<String> pipes(Path fd) throws IOException {
        Set<String> names = new HashSet<>();
        try (Stream<Path> s = Files.list(fd)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                try {
                    if (Files.readSymbolicLink(p).toString().startsWith("pipe:[")) {
                        names.add(p.getFileName().toString());
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return names;
    }

    @Test
    void aNamedPipeWithoutWriterIsRefusedNotWaitedFor() throws Exception {
        Path fifo = dir.resolve("fifo.phos");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mk.waitFor() == 0, "mkfifo failed");
        IOException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(IOException.class, () -> TraceReader.read(fifo, null)));
        assertTrue(e.getMessage().contains("named pipe"), e.getMessage());
    }
}
