package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * Files cut at random offsets and with random bytes flipped (seeded, bounded): each loads its intact prefix with a
 * warning naming the offset of the damaged chunk, or fails with a {@link TraceFormatException}; never another
 * exception, a hang or an out-of-memory.
 */
class DamagedFileTest {
    @TempDir
    static Path dir;
    static Trace original;
    static byte[] plain;
    static byte[] compressed;

    @BeforeAll
    static void makeFiles() throws IOException {
        Path gen = dir.resolve("gen.phos");
        SyntheticTraceGenerator.generate(gen, SyntheticTraceOptions.defaults(400).withLiveAllocations(50), null);
        original = TraceReader.read(gen, null).trace();
        Path p = dir.resolve("plain.phos");
        TraceWriter.write(original, p, new TraceWriter.Options(false, false, 1, 2048));
        plain = Files.readAllBytes(p);
        Path c = dir.resolve("zstd.phos");
        TraceWriter.write(original, c, new TraceWriter.Options(true, true, 1, 4096));
        compressed = Files.readAllBytes(c);
        assertTrue(ChunkFiles.chunkOffsets(plain).size() > 20, "many chunks to damage");
    }

    /** Loads {@code bytes}; returns the result, or null when it failed with a TraceFormatException. */
    static TraceLoadResult load(byte[] bytes, String what) {
        Path f = dir.resolve("damaged.phos");
        try {
            Files.write(f, bytes);
            return TraceReader.read(f, null);
        } catch (TraceFormatException e) {
            assertTrue(e.getMessage().contains("damaged.phos") && e.getMessage().contains("offset " + e.offset()),
                    "message names file and offset: " + e.getMessage());
            return null;
        } catch (IOException | RuntimeException | Error e) {
            throw new AssertionError(what + ": unexpected " + e, e);
        }
    }

    /** The loaded events are exactly the first events of the original. */
    static void assertPrefix(Trace t, String what) {
        assertTrue(t.eventCount() <= original.eventCount(), what);
        for (int i = 0; i < t.eventCount(); i++) {
            if (!original.event(i).equals(t.event(i))) {
                fail(what + ": event " + i + " differs from the original");
            }
        }
    }

    /** Offset of the chunk that contains byte {@code k}. */
    static int chunkAt(byte[] file, int k) {
        int at = -1;
        for (int o : ChunkFiles.chunkOffsets(file)) {
            if (o <= k) {
                at = o;
            }
        }
        return at;
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void truncatedAtRandomOffsets(boolean zstd) {
        byte[] file = zstd ? compressed : plain;
        SplittableRandom rnd = new SplittableRandom(11);
        int firstChunkEnd = ChunkFiles.chunkOffsets(file).get(1);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int n = 0; n < 250; n++) {
                int cut = n < 20 ? n : rnd.nextInt(file.length);
                String what = "cut at " + cut;
                TraceLoadResult r = load(Arrays.copyOf(file, cut), what);
                if (cut < firstChunkEnd) {
                    assertEquals(null, r, what + " must fail: no intact header chunk");
                    continue;
                }
                assertTrue(r != null, what);
                assertPrefix(r.trace(), what);
                List<TraceWarning> w = r.warnings();
                assertFalse(w.isEmpty(), what);
                boolean boundary = ChunkFiles.chunkOffsets(file).contains(cut);
                long expected = boundary ? cut : chunkAt(file, cut);
                assertTrue(w.stream().anyMatch(x -> x.offset() == expected), what + ": " + w);
                assertTrue(w.stream().anyMatch(x -> x.message().contains("not closed cleanly")), what);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void randomByteFlips(boolean zstd) {
        byte[] file = zstd ? compressed : plain;
        SplittableRandom rnd = new SplittableRandom(12);
        int firstChunkEnd = ChunkFiles.chunkOffsets(file).get(1);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int n = 0; n < 250; n++) {
                byte[] bad = file.clone();
                int k = rnd.nextInt(bad.length);
                bad[k] ^= (byte) (1 + rnd.nextInt(255));
                String what = "byte " + k + " flipped";
                TraceLoadResult r = load(bad, what);
                if (k >= 12 && k < 16) { // reserved flags: ignored
                    assertTrue(r != null && r.warnings().isEmpty(), what);
                    continue;
                }
                if (k < firstChunkEnd) {
                    assertEquals(null, r, what + " must fail");
                    continue;
                }
                assertTrue(r != null, what);
                assertPrefix(r.trace(), what);
                int chunk = chunkAt(file, k);
                assertTrue(r.warnings().stream().anyMatch(x -> x.offset() == chunk && x.message().contains("damaged")),
                        what + ": " + r.warnings());
            }
        });
    }
}
