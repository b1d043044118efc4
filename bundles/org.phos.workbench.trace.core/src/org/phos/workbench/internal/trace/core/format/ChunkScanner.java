package org.phos.workbench.internal.trace.core.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.HexFormat;
import java.util.zip.CRC32C;

import org.eclipse.jdt.annotation.Nullable;

import com.github.luben.zstd.Zstd;

/**
 * Walks the chunks of a v1 file and hands out each one checked and decompressed: magic, header CRC, lengths
 * against the 256 MiB limit and against the bytes left in the file (so a damaged length never makes it allocate
 * more than the file holds), payload CRC, zstd. After the first damaged chunk it reports the damage and stops.
 * It does not decode protobuf; that is the loader's part, so the two can run on different threads.
 */
final class ChunkScanner {
    /** One chunk: its payload (uncompressed), or why it is damaged, or the end of the file. */
    static final class RawChunk {
        long offset;
        int type;
        int codec;
        byte @Nullable [] payload;
        int length;
        @Nullable String damage;
        boolean unknownCodec;
        boolean end;
        /** An EventBatch decoded ahead by the reader thread, or null (then the loader decodes it). */
        @Nullable DecodedEvents decoded;
        /** Why decoding ahead failed (the chunk is damaged), or null. */
        @Nullable String decodeError;
    }

    private final FileChannel ch;
    private final long size;
    private final CRC32C crc = new CRC32C();
    private final byte[] header = new byte[Chunks.CHUNK_HEADER_SIZE];
    private byte[] compressed = new byte[0];
    private long offset = Chunks.FILE_HEADER_SIZE;
    private boolean finished;

    ChunkScanner(FileChannel ch, long size) {
        this.ch = ch;
        this.size = size;
    }

    /**
     * The next chunk, its payload in {@code buffer} when that is large enough (else in a new array).
     * After an {@code end} or {@code damage} chunk there are no more.
     */
    RawChunk next(byte @Nullable [] buffer) throws IOException {
        RawChunk c = new RawChunk();
        c.offset = offset;
        if (finished || offset >= size) {
            c.end = true;
            finished = true;
            return c;
        }
        if (size - offset < Chunks.CHUNK_HEADER_SIZE) {
            return damaged(c, "chunk header truncated (" + (size - offset) + " of 24 bytes)");
        }
        byte[] h = header;
        readFully(ByteBuffer.wrap(h), offset);
        String bad = checkHeader(h, size - offset - Chunks.CHUNK_HEADER_SIZE);
        if (bad != null) {
            return damaged(c, bad);
        }
        c.type = (h[4] & 0xff) | (h[5] & 0xff) << 8;
        c.codec = h[6] & 0xff;
        int stored = Chunks.getIntLE(h, 8);
        int raw = Chunks.getIntLE(h, 12);
        long payloadAt = offset + Chunks.CHUNK_HEADER_SIZE;
        boolean zstd = c.codec == Chunks.CODEC_ZSTD;
        byte[] in;
        if (zstd) {
            if (compressed.length < stored) {
                compressed = new byte[stored];
            }
            in = compressed;
        } else {
            in = buffer != null && buffer.length >= stored ? buffer : new byte[stored];
        }
        readFully(ByteBuffer.wrap(in, 0, stored), payloadAt);
        crc.reset();
        crc.update(in, 0, stored);
        if ((int) crc.getValue() != Chunks.getIntLE(h, 16)) {
            return damaged(c, "payload checksum mismatch (" + Chunks.typeName(c.type) + " chunk, " + stored + " bytes)");
        }
        offset = payloadAt + stored;
        if (c.codec != Chunks.CODEC_NONE && !zstd) {
            c.unknownCodec = true;
            return c;
        }
        if (zstd) {
            byte[] out = buffer != null && buffer.length >= raw ? buffer : new byte[raw];
            String failed = decompress(in, stored, out, raw);
            if (failed != null) {
                offset = c.offset;
                return damaged(c, failed);
            }
            c.payload = out;
        } else {
            c.payload = in;
        }
        c.length = raw;
        return c;
    }

    private RawChunk damaged(RawChunk c, String why) {
        c.damage = why;
        finished = true;
        return c;
    }

    /** Checks a chunk header; returns what is wrong or null. */
    private @Nullable String checkHeader(byte[] h, long remaining) {
        if (Chunks.getIntLE(h, 0) != Chunks.CHUNK_MAGIC) {
            return "bad chunk magic " + HexFormat.ofDelimiter(" ").formatHex(h, 0, 4) + " (expected 50 43 48 4b \"PCHK\")";
        }
        crc.reset();
        crc.update(h, 0, 20);
        if ((int) crc.getValue() != Chunks.getIntLE(h, 20)) {
            return "chunk header checksum mismatch";
        }
        long stored = Integer.toUnsignedLong(Chunks.getIntLE(h, 8));
        long raw = Integer.toUnsignedLong(Chunks.getIntLE(h, 12));
        if (stored > Chunks.MAX_LENGTH || raw > Chunks.MAX_LENGTH) {
            return "chunk length " + Math.max(stored, raw) + " exceeds the 256 MiB limit";
        }
        if (stored > remaining) {
            return "chunk truncated: it declares " + stored + " payload bytes but only " + remaining
                    + " remain in the file";
        }
        if ((h[6] & 0xff) == Chunks.CODEC_NONE && stored != raw) {
            return "uncompressed chunk with stored length " + stored + " != raw length " + raw;
        }
        return null;
    }

    private static @Nullable String decompress(byte[] in, int stored, byte[] out, int raw) {
        try {
            long n = Zstd.decompressByteArray(out, 0, raw, in, 0, stored);
            if (Zstd.isError(n)) {
                return "zstd decompression failed: " + Zstd.getErrorName(n);
            }
            if (n != raw) {
                return "zstd payload decompressed to " + n + " bytes, the chunk header says " + raw;
            }
            return null;
        } catch (RuntimeException e) {
            return "zstd decompression failed: " + e.getMessage();
        }
    }

    private void readFully(ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            int n = ch.read(b, p);
            if (n < 0) {
                throw new IOException("the file shrank while it was read (end of file at offset " + p + ")");
            }
            p += n;
        }
    }
}
