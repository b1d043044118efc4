package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes on disk are those phos-trace-v1.proto and docs/trace-format.md prescribe: hand-assembled messages (as
 * protoc-generated code would write them) load with the right values, unknown fields, chunk types and event bodies
 * are skipped, and the writer's bytes for a known message are the expected protobuf encoding.
 */
class WireCompatibilityTest {
    @TempDir
    Path dir;

    // TraceHeader { format_version: 1, recorder: "rec", pid: 300, argv: ["a", "bc"], cc_major: 9,
    //               start_mono_ns: 2^63, gpu_timing: true, device_memory: 1 }
    static final String HEADER = "08 01  12 03 726563  28 ac02  32 01 61  32 02 6263  40 09"
            + " 70 80808080808080808001  8001 01  8801 01";
    // Function { id: 7, module: 1, mangled_name: "_Z1kPf", params: [{offset 0, size 8}, {offset 8, size 4}] }
    static final String FUNCTION = "08 07  10 01  1a 06 5f5a316b5066  2a 02 1008  2a 04 0808 1004"; // offset 0: omitted
    // Launch { function: 7, grid_x: 2, block_x: 128, stream: 0x1000, params: 8 bytes, gpu_end_ns: 5, kind: EX }
    static final String LAUNCH = "08 07  10 02  28 8001  48 8020  52 08 0100000000000080  60 05  68 01";
    // Event { host_ns: 1000, thread: 3, launch: LAUNCH }
    static final String EVENT = "08 e807  10 03  72 " + len(LAUNCH) + LAUNCH;

    private Path write(byte[] bytes) throws IOException {
        Path f = dir.resolve("hand.phos");
        Files.write(f, bytes);
        return f;
    }

    @Test
    void handAssembledMessagesLoad() throws IOException {
        byte[] batch = ChunkFiles.hex("12 " + len(EVENT) + EVENT); // first_index 0 omitted (proto3 default)
        byte[] end = ChunkFiles.hex("08 01  10 00  18 e807");
        byte[] file = ChunkFiles.file(1, List.of(new ChunkFiles.Chunk(1, 0, ChunkFiles.hex(HEADER)),
                new ChunkFiles.Chunk(3, 0, ChunkFiles.hex(FUNCTION)), new ChunkFiles.Chunk(4, 0, batch),
                new ChunkFiles.Chunk(6, 0, end)));
        TraceLoadResult r = TraceReader.read(write(file), null);
        assertEquals(List.of(), r.warnings());
        Trace t = r.trace();
        TraceHeader h = t.header();
        assertEquals(1, h.formatVersion());
        assertEquals("rec", h.recorder());
        assertEquals(300, h.pid());
        assertEquals(List.of("a", "bc"), h.argv());
        assertEquals(9, h.ccMajor());
        assertEquals(Long.MIN_VALUE, h.startMonoNs()); // 2^63 unsigned
        assertTrue(h.gpuTiming());
        assertEquals(1, h.deviceMemory());
        assertEquals(new FunctionInfo(7, 1, "_Z1kPf", "", List.of(new ParamInfo(0, 8), new ParamInfo(8, 4))),
                t.functionById(7));
        assertEquals(1, t.eventCount());
        assertEquals(new TraceEvent.Launch(1000, 3, 7, new Dim3(2, 0, 0), new Dim3(128, 0, 0), 0, 0x1000,
                new byte[] { 1, 0, 0, 0, 0, 0, 0, (byte) 0x80 }, 0, 5, LaunchKind.EX, 0), t.event(0));
        assertEquals(0x8000_0000_0000_0001L, t.paramLong(0, 0));
    }

    @Test
    void unknownFieldsChunksAndBodiesAreSkipped() throws IOException {
        // Event 0: Alloc with unknown fields of every wire type inside the body and the event.
        // Alloc { address: 0x10 (1), size: 0x20 (2), [field 9 fixed32], [field 12 fixed64], [field 13 bytes],
        //         [field 14 group { field 1 varint }], kind: MANAGED (3) }
        String alloc = "08 10  10 20  4d 01020304  61 0102030405060708  6a 02 ffff  73 08 01 74  18 02";
        int allocLen = ChunkFiles.hex(alloc).length;
        String event0 = "08 05  10 01  f803 2a  52 " + String.format("%02x", allocLen) + alloc; // field 127 varint
        // Event 1: a body this reader does not know (field 40; 17 and 18 are Array and TensorMap since issue 16)
        // -> UNKNOWN, index kept
        String event1 = "08 06  10 02  c202 03 080102";
        // Event 2: two oneof members: alloc then free -> the last one (free) wins; free merges two occurrences
        String event2 = "08 07  52 02 0801  5a 02 0809  5a 02 1001";
        String batch = "08 00  12 " + len(event0) + event0 + "12 " + len(event1) + event1 + "12 " + len(event2) + event2
                + " f807 05"; // unknown field 127 in the batch itself
        byte[] file = ChunkFiles.file(1, List.of(new ChunkFiles.Chunk(1, 0, ChunkFiles.hex("12 01 78")),
                new ChunkFiles.Chunk(77, 0, ChunkFiles.hex("deadbeef")), // unknown chunk type
                new ChunkFiles.Chunk(4, 0, ChunkFiles.hex(batch)),
                new ChunkFiles.Chunk(6, 0, ChunkFiles.hex("08 03"))));
        TraceLoadResult r = TraceReader.read(write(file), null);
        assertEquals(List.of(), r.warnings());
        Trace t = r.trace();
        assertEquals(3, t.eventCount());
        assertEquals(new TraceEvent.Alloc(5, 1, 0x10, 0x20, AllocKind.MANAGED, 0), t.event(0));
        assertEquals(new TraceEvent.Unknown(6, 2), t.event(1));
        assertEquals(new TraceEvent.Free(7, 0, 9, AllocKind.ASYNC, 0), t.event(2));
    }

    private static String len(String hex) {
        return String.format("%02x ", ChunkFiles.hex(hex).length);
    }

    @Test
    void unknownEnumNumbersReadAsUnrecognized() throws IOException {
        String sync = "08 63  10 05"; // kind 99
        String event = "7a " + len(sync) + sync;
        byte[] file = ChunkFiles.file(1, List.of(new ChunkFiles.Chunk(1, 0, new byte[0]),
                new ChunkFiles.Chunk(4, 0, ChunkFiles.hex("12 " + len(event) + event)),
                new ChunkFiles.Chunk(6, 0, ChunkFiles.hex("08 01"))));
        Trace t = TraceReader.read(write(file), null).trace();
        assertEquals(SyncKind.UNRECOGNIZED, t.syncKind(0));
        assertEquals(5, t.stream(0));
    }

    @Test
    void writerEmitsTheExpectedProtobufBytes() throws IOException {
        Path f = dir.resolve("w.phos");
        try (TraceWriter w = TraceWriter.create(f, TraceHeader.builder("rec", "").clockDomain("").formatVersion(1)
                .pid(300).argv(List.of("a", "bc")).computeCapability(9, 0).startMonoNs(Long.MIN_VALUE).gpuTiming(true)
                .deviceMemory(1).build())) {
            w.function(new FunctionInfo(7, 1, "_Z1kPf", "", List.of(new ParamInfo(0, 8), new ParamInfo(8, 4))));
            w.write(new TraceEvent.Launch(1000, 3, 7, new Dim3(2, 0, 0), new Dim3(128, 0, 0), 0, 0x1000,
                    new byte[] { 1, 0, 0, 0, 0, 0, 0, (byte) 0x80 }, 0, 5, LaunchKind.EX, 0));
        }
        byte[] file = Files.readAllBytes(f);
        byte[] expected = ChunkFiles.file(1, List.of(new ChunkFiles.Chunk(1, 0, ChunkFiles.hex(HEADER)),
                new ChunkFiles.Chunk(3, 0, ChunkFiles.hex(FUNCTION)),
                new ChunkFiles.Chunk(4, 0, ChunkFiles.hex("12 " + len(EVENT) + EVENT)),
                new ChunkFiles.Chunk(6, 0, ChunkFiles.hex("08 01  18 e807"))));
        assertEquals(java.util.HexFormat.of().formatHex(expected), java.util.HexFormat.of().formatHex(file));
        assertArrayEquals(expected, file);
    }
}
