package org.phos.workbench.internal.trace.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * Files of 1 MiB and more are decoded on the reader's second thread ({@link DecodedEvents}) and only appended on the
 * loading one: the model must be the same as when the loading thread decodes everything itself, and an event batch
 * that passes its checksum but does not decode must still end loading at its offset with the prefix kept.
 */
class DecodeAheadTest {
    @TempDir
    Path dir;

    private static final long NEVER = Long.MAX_VALUE;

    @Test
    void decodingAheadBuildsTheSameModelAsDecodingInline() throws IOException {
        Path f = dir.resolve("gen.phos");
        SyntheticTraceGenerator.generate(f, SyntheticTraceOptions.defaults(30_000), null);
        assertTrue(Files.size(f) > 2 * TraceFileLoader.PIPELINE_THRESHOLD);
        TraceLoadResult ahead = new TraceFileLoader(f).load(null);
        TraceLoadResult inline = new TraceFileLoader(f, NEVER).load(null);
        Trace a = ahead.trace();
        Trace b = inline.trace();
        assertEquals(b.eventCount(), a.eventCount());
        assertEquals(b.launchCount(), a.launchCount());
        assertTrue(a.eventCount() > 30_000);
        for (int i = 0; i < a.eventCount(); i++) {
            assertEquals(b.event(i), a.event(i), "event " + i);
        }
        assertEquals(inline.warnings(), ahead.warnings());
    }

    @Test
    void batchThatPassesItsChecksumButDoesNotDecodeEndsLoadingThere() throws IOException {
        Path f = dir.resolve("plain.phos");
        // the generator writes plain (uncompressed) event batches, so a payload byte can be changed and resealed
        SyntheticTraceGenerator.generate(f, SyntheticTraceOptions.defaults(30_000), null);
        byte[] bytes = Files.readAllBytes(f);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16;
        int batches = 0;
        int victim = -1;
        while (at + 24 <= bytes.length) {
            if (b.getShort(at + 4) == Chunks.EVENT_BATCH && bytes[at + 6] == Chunks.CODEC_NONE && ++batches == 3) {
                victim = at;
                break;
            }
            at += 24 + b.getInt(at + 8);
        }
        assertTrue(victim > 0, "no third plain EventBatch chunk in " + f);
        bytes[victim + 24] = 0; // field tag 0: not valid protobuf
        int stored = b.getInt(victim + 8);
        CRC32C crc = new CRC32C();
        crc.update(bytes, victim + 24, stored);
        b.putInt(victim + 16, (int) crc.getValue());
        crc.reset();
        crc.update(bytes, victim, 20);
        b.putInt(victim + 20, (int) crc.getValue());
        Path broken = dir.resolve("broken.phos");
        Files.write(broken, bytes);

        TraceLoadResult ahead = new TraceFileLoader(broken).load(null);
        TraceLoadResult inline = new TraceFileLoader(broken, NEVER).load(null);
        assertEquals(victim, ahead.warnings().get(0).offset());
        assertTrue(ahead.warnings().get(0).message().contains("EventBatch chunk does not decode: invalid field tag 0"),
                ahead.warnings().get(0).message());
        assertEquals(inline.warnings().get(0).message(), ahead.warnings().get(0).message());
        assertEquals(inline.trace().eventCount(), ahead.trace().eventCount());
        assertTrue(ahead.trace().eventCount() > 0);
        Trace whole = new TraceFileLoader(f).load(null).trace();
        for (int i = 0; i < ahead.trace().eventCount(); i++) {
            assertEquals(whole.event(i), ahead.trace().event(i), "event " + i);
        }
    }
}
