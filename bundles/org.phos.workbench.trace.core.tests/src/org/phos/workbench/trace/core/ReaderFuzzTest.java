package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * A bounded, seeded mutation fuzz run of the reader. Mutations are followed, most of the time, by re-sealing the
 * chunk checksums, so that they reach the length checks, zstd and the protobuf decoder rather than stopping at the
 * CRC. The reader must answer every input with a trace (plus warnings) or a {@link TraceFormatException}, without a
 * decoding defect ("internal error" in a warning), hang or out-of-memory.
 */
class ReaderFuzzTest {
    static final int ITERATIONS = 2000;

    @TempDir
    Path dir;

    @Test
    void mutatedFilesNeverBreakTheReader() throws IOException {
        Path gen = dir.resolve("gen.phos");
        SyntheticTraceGenerator.generate(gen, SyntheticTraceOptions.defaults(120).withLiveAllocations(30), null);
        Trace trace = TraceReader.read(gen, null).trace();
        Path p = dir.resolve("plain.phos");
        TraceWriter.write(trace, p, new TraceWriter.Options(false, false, 1, 1024));
        Path z = dir.resolve("zstd.phos");
        TraceWriter.write(trace, z, new TraceWriter.Options(true, true, 1, 2048));
        List<byte[]> seeds = List.of(Files.readAllBytes(p), Files.readAllBytes(z), Files.readAllBytes(gen));
        SplittableRandom rnd = new SplittableRandom(2026);
        Path f = dir.resolve("fuzz.phos");
        int[] outcomes = new int[3]; // clean, warnings, format error
        long start = System.nanoTime();
        double[] cpu = new double[1];
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> { // a hang guard; the run takes a few seconds
            long cpuStart = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            for (int n = 0; n < ITERATIONS; n++) {
                byte[] b = mutate(seeds.get(rnd.nextInt(seeds.size())), rnd);
                if (rnd.nextInt(10) < 8) {
                    ChunkFiles.reseal(b);
                }
                Files.write(f, b);
                try {
                    TraceLoadResult r = TraceReader.read(f, null);
                    for (TraceWarning w : r.warnings()) {
                        assertFalse(w.message().contains("internal error"), "iteration " + n + ": " + w);
                    }
                    // the model must be readable throughout
                    Trace t = r.trace();
                    for (int i = 0; i < t.eventCount(); i++) {
                        t.event(i);
                    }
                    outcomes[r.warnings().isEmpty() ? 0 : 1]++;
                } catch (TraceFormatException e) {
                    outcomes[2]++;
                } catch (IOException | RuntimeException | OutOfMemoryError e) {
                    throw new AssertionError("iteration " + n + ": " + e, e);
                }
            }
            cpu[0] = (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1e9;
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(outcomes[1] > ITERATIONS / 4, "most mutations should be detected: " + Arrays.toString(outcomes));
        System.out.printf("reader fuzz: %d iterations in %.1f s (%.1f s CPU of the test thread), outcomes"
                + " clean/warned/rejected %s%n", ITERATIONS, seconds, cpu[0], Arrays.toString(outcomes));
    }

    static byte[] mutate(byte[] seed, SplittableRandom rnd) {
        byte[] b = seed.clone();
        int rounds = 1 + rnd.nextInt(4);
        for (int k = 0; k < rounds; k++) {
            int at = 16 + rnd.nextInt(Math.max(1, b.length - 16));
            switch (rnd.nextInt(8)) {
                case 0 -> b[Math.min(at, b.length - 1)] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> b[Math.min(at, b.length - 1)] = (byte) rnd.nextInt(256);
                case 2 -> { // run of 0xff: huge varints and lengths
                    for (int j = 0; j < 1 + rnd.nextInt(10) && at + j < b.length; j++) {
                        b[at + j] = (byte) 0xff;
                    }
                }
                case 3 -> b = Arrays.copyOf(b, Math.max(16, at)); // truncate
                case 4 -> { // delete a range
                    int len = Math.min(b.length - at, 1 + rnd.nextInt(32));
                    byte[] c = new byte[b.length - len];
                    System.arraycopy(b, 0, c, 0, at);
                    System.arraycopy(b, at + len, c, at, b.length - at - len);
                    b = c;
                }
                case 5 -> { // insert random bytes
                    int len = 1 + rnd.nextInt(16);
                    byte[] c = new byte[b.length + len];
                    System.arraycopy(b, 0, c, 0, at);
                    for (int j = 0; j < len; j++) {
                        c[at + j] = (byte) rnd.nextInt(256);
                    }
                    System.arraycopy(b, at, c, at + len, b.length - at);
                    b = c;
                }
                case 6 -> { // a small varint-looking value
                    if (at < b.length) {
                        b[at] = (byte) rnd.nextInt(128);
                    }
                }
                default -> { // copy a slice over another place (splices of real structure)
                    int from = 16 + rnd.nextInt(Math.max(1, b.length - 16));
                    int len = Math.min(Math.min(b.length - from, b.length - at), rnd.nextInt(64));
                    if (len > 0) {
                        System.arraycopy(b.clone(), from, b, at, len);
                    }
                }
            }
        }
        return b;
    }
}
