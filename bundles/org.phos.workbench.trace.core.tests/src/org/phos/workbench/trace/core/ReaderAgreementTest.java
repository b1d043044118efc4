package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.github.luben.zstd.Zstd;

/**
 * The Java reader and the Python one ({@code phos_read.py}) read hand-assembled edge cases alike: the same verdict
 * (event count, or offset of the damaged chunk), and the Python one never with a traceback. Each case is one where
 * they once disagreed or the Python reader died.
 */
class ReaderAgreementTest {
    private static final String HEADER = "08 01  12 01 78";

    @TempDir
    Path dir;

    private static String len(String hex) {
        return String.format("%02x ", ChunkFiles.hex(hex).length);
    }

    private static String batch(long first, String... events) {
        StringBuilder b = new StringBuilder(String.format("08 %02x ", first));
        for (String e : events) {
            b.append("12 ").append(len(e)).append(e).append(' ');
        }
        return b.toString();
    }

    private static ChunkFiles.Chunk chunk(int type, String hex) {
        return new ChunkFiles.Chunk(type, 0, ChunkFiles.hex(hex));
    }

    private Path file(String name, List<ChunkFiles.Chunk> chunks) throws IOException {
        Path f = dir.resolve(name + ".phos");
        Files.write(f, ChunkFiles.file(1, chunks));
        return f;
    }

    private Path traceWithEvents(String name, String... events) throws IOException {
        return file(name, List.of(chunk(1, HEADER), chunk(4, batch(0, events)), chunk(6, String.format("08 %02x",
                events.length))));
    }

    private static String agree(Path f) throws IOException, InterruptedException {
        String java = TraceReader.verdict(f);
        assertEquals(java, PythonReader.verdict(f), "verdicts of the Java and the Python reader on " + f.getFileName());
        return java;
    }

    @Test
    void eventWithoutBody() throws Exception {
        Path f = traceWithEvents("nobody", "08 05 10 01", "08 06 10 01 52 02 0801");
        assertEquals("ok 2", agree(f));
        PythonReader.Run r = PythonReader.run(f, "--events");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("unknown"), r.out());
    }

    @Test
    void eventWithUnknownBody() throws Exception {
        // field 40: a body no reader knows (17 and 18 are Array and TensorMap since issue 16)
        Path f = traceWithEvents("unknownbody", "08 06  10 02  c202 03 080102");
        assertEquals("ok 1", agree(f));
        assertEquals(0, PythonReader.run(f).exit());
        assertEquals(new TraceEvent.Unknown(6, 2), TraceReader.read(f, null).trace().event(0));
    }

    @Test
    void fieldsWithTheWrongWireTypeAreSkipped() throws Exception {
        // host_ns as bytes, a launch body as a varint, an alloc whose address is bytes and size a fixed64
        Path f = traceWithEvents("wiretype", "0a 01 00  10 01  52 0e 0a 01 00 11 0102030405060708 18 02",
                "08 07 70 05");
        assertEquals("ok 2", agree(f));
        PythonReader.Run r = PythonReader.run(f, "--events");
        assertEquals(0, r.exit(), r.err());
        assertEquals(new TraceEvent.Alloc(0, 1, 0, 0, AllocKind.MANAGED, 0), TraceReader.read(f, null).trace().event(0));
        assertTrue(r.out().contains("alloc ALLOC_MANAGED 0x0 0 bytes"), r.out());
    }

    @Test
    void twoBodiesTheLastOneWins() throws Exception {
        // alloc then free: protobuf's oneof keeps the last member; a repeated member merges
        Path f = traceWithEvents("twobodies", "08 07  52 02 0801  5a 02 0809  5a 02 1001");
        assertEquals("ok 1", agree(f));
        assertEquals(new TraceEvent.Free(7, 0, 9, AllocKind.ASYNC, 0), TraceReader.read(f, null).trace().event(0));
        PythonReader.Run r = PythonReader.run(f, "--events");
        assertTrue(r.out().contains("free ALLOC_ASYNC 0x9"), r.out());
    }

    @Test
    void groupsAreSkipped() throws Exception {
        Path f = traceWithEvents("group", "08 05 73 08 01 74 52 02 0801");
        assertEquals("ok 1", agree(f));
    }

    @Test
    void fieldNumberZeroIsDamage() throws Exception {
        byte[] bytes = ChunkFiles.file(1, List.of(chunk(1, HEADER), chunk(4, batch(0, "08 05 52 02 0801")),
                chunk(3, "00 01"), chunk(6, "08 01")));
        Path f = dir.resolve("tag0.phos");
        Files.write(f, bytes);
        int third = ChunkFiles.chunkOffsets(bytes).get(2);
        assertEquals("damaged 1 at " + third, agree(f));
    }

    @Test
    void aGapInEventIndicesIsDamage() throws Exception {
        byte[] bytes = ChunkFiles.file(1, List.of(chunk(1, HEADER), chunk(4, batch(0, "08 05 52 02 0801")),
                chunk(4, batch(3, "08 06 52 02 0801")), chunk(6, "08 02")));
        Path f = dir.resolve("gap.phos");
        Files.write(f, bytes);
        assertEquals("damaged 1 at " + ChunkFiles.chunkOffsets(bytes).get(2), agree(f));
    }

    @Test
    void aSecondHeaderIsIgnored() throws Exception {
        Path f = file("twoheaders", List.of(chunk(1, HEADER), chunk(1, "08 01 12 01 79"),
                chunk(4, batch(0, "08 05 52 02 0801")), chunk(6, "08 01")));
        assertEquals("ok 1", agree(f));
    }

    @Test
    void firstChunkOfUnknownTypeIsRefused() throws Exception {
        assertEquals("refused at 16", agree(file("firstunknown", List.of(chunk(9, "00"), chunk(1, HEADER)))));
        assertEquals("refused at 16", agree(file("headeronly", List.of())));
    }

    /** A chunk of an unknown type is still framing-checked: its zstd payload must inflate. */
    @Test
    void unknownChunkTypeWithBrokenZstdIsDamage() throws Exception {
        byte[] garbage = { 0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 1, 2, 3, 4, 5 };
        byte[] bytes = assemble(List.of(chunk(1, HEADER)), 9, garbage, 100, List.of(chunk(6, "08 00")));
        Path f = dir.resolve("brokenzstd.phos");
        Files.write(f, bytes);
        assertEquals("damaged 0 at " + ChunkFiles.chunkOffsets(bytes).get(1), agree(f));
    }

    /** A zstd frame that inflates past what its chunk declares (an inflation bomb) is damage, and cheap. */
    @Test
    void inflationPastTheDeclaredSizeIsDamage() throws Exception {
        byte[] bomb = Zstd.compress(new byte[64 << 20], 19); // 64 MiB of zeros in a few KiB
        assertTrue(bomb.length < 1 << 16, "bomb of " + bomb.length + " bytes");
        byte[] bytes = assemble(List.of(chunk(1, HEADER)), 4, bomb, 4096, List.of(chunk(6, "08 00")));
        Path f = dir.resolve("bomb.phos");
        Files.write(f, bytes);
        assertEquals("damaged 0 at " + ChunkFiles.chunkOffsets(bytes).get(1), agree(f));
    }

    /** A file of chunks {@code before}, one zstd chunk of type {@code type} declaring {@code raw}, then {@code after}. */
    static byte[] assemble(List<ChunkFiles.Chunk> before, int type, byte[] zstd, int raw, List<ChunkFiles.Chunk> after) {
        byte[] head = ChunkFiles.file(1, before);
        byte[] tail = ChunkFiles.file(1, after);
        byte[] h = ChunkFiles.chunkHeader(type, 1, zstd.length, raw, zstd, 0);
        List<byte[]> parts = new ArrayList<>(List.of(head, h, zstd, Arrays.copyOfRange(tail, 16, tail.length)));
        int n = parts.stream().mapToInt(p -> p.length).sum();
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
