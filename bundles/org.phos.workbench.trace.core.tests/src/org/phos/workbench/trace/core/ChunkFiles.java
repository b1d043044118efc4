package org.phos.workbench.trace.core;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Test-side framing of .phos files, written from docs/trace-format.md independently of the production code:
 * assembles files from chunk payloads, splits files into chunks, and re-seals CRCs after mutation.
 */
final class ChunkFiles {
    static final byte[] MAGIC = { 'P', 'H', 'O', 'S', '\r', '\n', 0x1a, '\n' };

    record Chunk(int type, int codec, byte[] payload) {
    }

    private ChunkFiles() {
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replaceAll("\\s", ""));
    }

    static byte[] file(int version, List<Chunk> chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        h.put(MAGIC).putInt(version).putInt(0);
        out.writeBytes(h.array());
        for (Chunk c : chunks) {
            out.writeBytes(chunkHeader(c.type, c.codec, c.payload.length, c.payload.length, c.payload, 0));
            out.writeBytes(c.payload);
        }
        return out.toByteArray();
    }

    static byte[] chunkHeader(int type, int codec, int stored, int raw, byte[] data, int dataOffset) {
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.put(new byte[] { 'P', 'C', 'H', 'K' }).putShort((short) type).put((byte) codec).put((byte) 0)
                .putInt(stored).putInt(raw);
        CRC32C crc = new CRC32C();
        crc.update(data, dataOffset, stored);
        h.putInt((int) crc.getValue());
        crc.reset();
        crc.update(h.array(), 0, 20);
        h.putInt((int) crc.getValue());
        return h.array();
    }

    /** Start offsets of the chunks of a well-formed file. */
    static List<Integer> chunkOffsets(byte[] file) {
        List<Integer> offsets = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16;
        while (at + 24 <= file.length) {
            offsets.add(at);
            at += 24 + b.getInt(at + 8);
        }
        return offsets;
    }

    /**
     * Recomputes the payload and header CRCs of every chunk whose framing can still be walked, so mutations
     * reach the decompressor and protobuf decoder instead of being caught by the checksums.
     */
    static void reseal(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16;
        CRC32C crc = new CRC32C();
        while (at + 24 <= file.length) {
            long stored = Integer.toUnsignedLong(b.getInt(at + 8));
            if (stored > file.length - at - 24) {
                return;
            }
            crc.reset();
            crc.update(file, at + 24, (int) stored);
            b.putInt(at + 16, (int) crc.getValue());
            crc.reset();
            crc.update(file, at, 20);
            b.putInt(at + 20, (int) crc.getValue());
            at += 24 + (int) stored;
        }
    }
}
