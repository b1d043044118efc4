package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/** Files that are not traces, unknown versions, unfinished traces, odd chunks; progress and cancellation. */
class LoadErrorsTest {
    @TempDir
    Path dir;

    private Path file(String name, byte[] bytes) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private TraceFormatException rejects(Path f) {
        return assertThrows(TraceFormatException.class, () -> TraceReader.read(f, null));
    }

    private static final ChunkFiles.Chunk HEADER = new ChunkFiles.Chunk(1, 0, ChunkFiles.hex("08 01 12 01 78"));
    private static final ChunkFiles.Chunk END_ZERO = new ChunkFiles.Chunk(6, 0, new byte[0]);

    @Test
    void notATrace() throws IOException {
        TraceFormatException e = rejects(file("notes.phos", "# just some notes, not a trace at all\n".getBytes()));
        assertTrue(e.getMessage().contains("notes.phos"), e.getMessage());
        assertTrue(e.getMessage().contains("not a .phos trace"), e.getMessage());
        assertEquals(0, e.offset());
        assertTrue(rejects(file("empty.phos", new byte[0])).reason().contains("0 bytes"));
        assertTrue(rejects(file("short.phos", "PHOS".getBytes())).reason().contains("not a .phos trace"));
    }

    @Test
    void unknownFormatVersion() throws IOException {
        TraceFormatException e = rejects(file("v2.phos", ChunkFiles.file(2, List.of(HEADER))));
        assertEquals("format version 2 is newer than this reader (1)", e.reason());
        assertEquals(8, e.offset());
        assertTrue(rejects(file("v0.phos", ChunkFiles.file(0, List.of(HEADER)))).reason().contains("unknown format version 0"));
    }

    @Test
    void noHeaderChunk() throws IOException {
        TraceFormatException e = rejects(file("bare.phos", ChunkFiles.file(1, List.of())));
        assertTrue(e.reason().contains("no TraceHeader chunk"), e.reason());
        e = rejects(file("fn-first.phos", ChunkFiles.file(1, List.of(new ChunkFiles.Chunk(3, 0, new byte[0]), HEADER))));
        assertEquals("the first chunk is Function, expected TraceHeader", e.reason());
        assertEquals(16, e.offset());
        byte[] bad = ChunkFiles.file(1, List.of(HEADER, END_ZERO));
        bad[16 + 24] ^= 1; // payload of the header chunk
        e = rejects(file("bad-first.phos", bad));
        assertTrue(e.reason().contains("first chunk is damaged: payload checksum mismatch"), e.reason());
        assertEquals(16, e.offset());
        // a header payload that is not protobuf, with valid CRCs
        e = rejects(file("garbage-header.phos", ChunkFiles.file(1, List.of(new ChunkFiles.Chunk(1, 0, ChunkFiles.hex("0a ff"))))));
        assertTrue(e.reason().contains("TraceHeader") && e.reason().contains("damaged"), e.reason());
    }

    @Test
    void missingFileIsAnIoError() {
        assertThrows(NoSuchFileException.class, () -> TraceReader.read(dir.resolve("nope.phos"), null));
    }

    @Test
    void unfinishedTraceWarns() throws IOException {
        Path f = dir.resolve("killed.phos");
        TraceWriter w = TraceWriter.create(f, TraceFixtures.header());
        w.write(new TraceEvent.Alloc(1, 1, 0x1000, 64, AllocKind.PLAIN, 0));
        w.closeUnfinished();
        TraceLoadResult r = TraceReader.read(f, null);
        assertEquals(1, r.trace().eventCount());
        assertNull(r.trace().end());
        assertEquals(1, r.warnings().size());
        assertTrue(r.warnings().get(0).message().contains("not closed cleanly"));
        assertEquals(Files.size(f), r.warnings().get(0).offset());
    }

    @Test
    void droppedEventsAndCountMismatchWarn() throws IOException {
        byte[] bytes = ChunkFiles.file(1, List.of(HEADER, new ChunkFiles.Chunk(6, 0, ChunkFiles.hex("08 05 10 03"))));
        TraceLoadResult r = TraceReader.read(file("dropped.phos", bytes), null);
        assertEquals(2, r.warnings().size(), r.warnings().toString());
        assertTrue(r.warnings().get(0).message().contains("TraceEnd says 5 events"));
        assertTrue(r.warnings().get(1).message().contains("dropped 3 events"));
        assertEquals(new TraceEnd(5, 3, 0), r.trace().end());
    }

    @Test
    void unknownCodecSkipsOnlyThatChunk() throws IOException {
        String event = "08 01 52 02 0801"; // alloc at address 1
        byte[] batch = ChunkFiles.hex("12 06 " + event);
        byte[] bytes = ChunkFiles.file(1, List.of(HEADER, new ChunkFiles.Chunk(2, 9, new byte[] { 1, 2, 3 }),
                new ChunkFiles.Chunk(4, 0, batch), new ChunkFiles.Chunk(6, 0, ChunkFiles.hex("08 01"))));
        TraceLoadResult r = TraceReader.read(file("codec.phos", bytes), null);
        assertEquals(1, r.trace().eventCount());
        assertEquals(1, r.warnings().size());
        assertTrue(r.warnings().get(0).message().contains("unknown codec 9"));
        assertEquals(16 + 24 + 5, r.warnings().get(0).offset());
    }

    @Test
    void lostBatchIsDamage() throws IOException {
        String event = "08 01 52 02 0801";
        byte[] batch0 = ChunkFiles.hex("12 06 " + event);
        byte[] batch2 = ChunkFiles.hex("08 02 12 06 " + event); // claims first_index 2, but only 1 event precedes
        byte[] bytes = ChunkFiles.file(1, List.of(HEADER, new ChunkFiles.Chunk(4, 0, batch0),
                new ChunkFiles.Chunk(4, 0, batch2), new ChunkFiles.Chunk(6, 0, ChunkFiles.hex("08 03"))));
        TraceLoadResult r = TraceReader.read(file("lost.phos", bytes), null);
        assertEquals(1, r.trace().eventCount());
        long second = 16 + 24 + 5 + 24 + batch0.length;
        assertEquals(second, r.warnings().get(0).offset());
        assertTrue(r.warnings().get(0).message().contains("first_index is 2 but 1 events precede it"),
                r.warnings().get(0).message());
    }

    @Test
    void damagedBatchIsRolledBackEntirely() throws IOException {
        // the second batch holds a good event then a broken one: neither may appear in the model
        String good = "08 01 52 02 0801";
        byte[] batch0 = ChunkFiles.hex("12 06 " + good);
        byte[] batch1 = ChunkFiles.hex("08 01 12 06 " + good + " 12 05 08 01 52 09 08"); // length past the end
        byte[] bytes = ChunkFiles.file(1, List.of(HEADER, new ChunkFiles.Chunk(4, 0, batch0),
                new ChunkFiles.Chunk(4, 0, batch1)));
        TraceLoadResult r = TraceReader.read(file("half.phos", bytes), null);
        assertEquals(1, r.trace().eventCount());
        assertEquals(1, r.trace().count(EventKind.ALLOC));
        assertTrue(r.warnings().get(0).message().contains("EventBatch chunk does not decode"), r.warnings().toString());
    }

    @Test
    void largeFileDamagedInTheMiddleKeepsItsPrefix() throws IOException {
        // large enough for the pipelined reader (scanning on a second thread)
        Path f = dir.resolve("large.phos");
        SyntheticTraceGenerator.generate(f, SyntheticTraceOptions.defaults(20_000), null);
        byte[] bytes = Files.readAllBytes(f);
        assertTrue(bytes.length > 2 << 20, "file of " + bytes.length + " bytes");
        Trace whole = TraceReader.read(f, null).trace();
        List<Integer> batches = ChunkFiles.chunkOffsets(bytes).stream()
                .filter(o -> bytes[o + 4] == 4).toList(); // EventBatch chunks
        assertTrue(batches.size() >= 3, batches.toString());
        int victim = batches.get(1);
        byte[] flipped = bytes.clone();
        flipped[victim + 24 + 1000] ^= 0x40;
        TraceLoadResult r = TraceReader.read(file("flipped.phos", flipped), null);
        assertEquals(victim, r.warnings().get(0).offset());
        assertTrue(r.trace().eventCount() > 0 && r.trace().eventCount() < whole.eventCount());
        for (int i = 0; i < r.trace().eventCount(); i += 97) {
            assertEquals(whole.event(i), r.trace().event(i));
        }
        TraceLoadResult cut = TraceReader.read(file("cut.phos", java.util.Arrays.copyOf(bytes, victim + 100)), null);
        assertEquals(r.trace().eventCount(), cut.trace().eventCount());
        assertEquals(victim, cut.warnings().get(0).offset());
        assertTrue(cut.warnings().get(0).message().contains("chunk truncated"), cut.warnings().get(0).message());
    }

    /** Records progress and cancels once {@code cancelAfter} units were reported. */
    static final class RecordingMonitor extends NullProgressMonitor {
        int total = -1;
        int worked;
        int cancelAfter = Integer.MAX_VALUE;
        boolean done;

        @Override
        public void beginTask(String name, int totalWork) {
            total = totalWork;
        }

        @Override
        public void worked(int work) {
            worked += work;
            if (worked >= cancelAfter) {
                setCanceled(true);
            }
        }

        @Override
        public void done() {
            done = true;
        }
    }

    @Test
    void progressAndCancellation() throws IOException {
        Path f = dir.resolve("gen.phos");
        SyntheticTraceGenerator.generate(f, SyntheticTraceOptions.defaults(20_000), null);
        RecordingMonitor m = new RecordingMonitor();
        TraceReader.read(f, m);
        assertTrue(m.total > 10 && m.worked > 0 && m.worked <= m.total && m.done, m.total + " " + m.worked);

        RecordingMonitor c = new RecordingMonitor();
        c.cancelAfter = 1;
        assertThrows(OperationCanceledException.class, () -> TraceReader.read(f, c));
        assertTrue(c.done);

        RecordingMonitor g = new RecordingMonitor();
        g.cancelAfter = 100;
        assertThrows(OperationCanceledException.class,
                () -> SyntheticTraceGenerator.generate(dir.resolve("g2.phos"), SyntheticTraceOptions.defaults(100_000), g));
        // the cancelled generator leaves a loadable, unfinished file
        TraceLoadResult r = TraceReader.read(dir.resolve("g2.phos"), null);
        assertTrue(r.warnings().stream().anyMatch(w -> w.message().contains("not closed cleanly")));
    }
}
