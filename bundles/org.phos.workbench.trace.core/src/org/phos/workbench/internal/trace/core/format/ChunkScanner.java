package org.phos.workbench.internal.trace.core.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.HexFormat;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;

import org.eclipse.jdt.annotation.Nullable;

import com.github.luben.zstd.Zstd;

/**
 * Walks the chunks of a v1 file and hands out each one checked and decompressed: magic, header CRC, lengths
 * against the 256 MiB limit and against the bytes left in the file (so a damaged length never makes it allocate
 * more than the file holds), payload CRC, zstd. After the first damaged chunk it reports the damage and stops.
 * It does not decode protobuf; that is the loader's part, so the two can run on different threads.
 * <p>
 * Memory is bounded by what the file declares, checked before anything is allocated: a chunk's buffers (stored and,
 * for zstd, inflated length) must fit in the heap that is left, less a margin, or the scan ends with
 * {@link RawChunk#outOfMemory} naming the chunk (a small file of zstd chunks that each inflate to 256 MiB would
 * otherwise exhaust the heap). Inflation itself never goes past the declared raw length: a frame that inflates
 * further is damage.
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
        /** Why the chunk was not read: its buffers do not fit in the heap that is left; or null. */
        @Nullable String outOfMemory;
    }

    /** Heap kept free beyond a chunk's buffers, for the model the chunk decodes into and everything else. */
    static final long HEAP_MARGIN = 32L << 20;

    /** Heap the JVM can still allocate: its limit less what is in use (garbage included, see {@link #fits}). */
    static final LongSupplier RUNTIME_HEAP_LEFT = () -> {
        Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    };

    private final FileChannel ch;
    private final long size;
    private final CRC32C crc = new CRC32C();
    private final byte[] header = new byte[Chunks.CHUNK_HEADER_SIZE];
    private byte[] compressed = new byte[0];
    private long offset = Chunks.FILE_HEADER_SIZE;
    private boolean finished;

    private final LongSupplier heapLeft;

    ChunkScanner(FileChannel ch, long size) {
        this(ch, size, RUNTIME_HEAP_LEFT);
    }

    /** With another measure of the heap that is left (tests simulate a small heap). */
    ChunkScanner(FileChannel ch, long size, LongSupplier heapLeft) {
        this.ch = ch;
        this.size = size;
        this.heapLeft = heapLeft;
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
        long need = (zstd ? (compressed.length < stored ? stored : 0) : 0)
                + (buffer != null && buffer.length >= (zstd ? raw : stored) ? 0 : (zstd ? raw : stored));
        if (!fits(need)) {
            c.outOfMemory = Chunks.typeName(c.type) + " chunk needs " + mib(need) + " of heap to be read ("
                    + (zstd ? "zstd, " + raw + " bytes inflated" : stored + " bytes") + ") but only "
                    + mib(Math.max(0, heapLeft.getAsLong())) + " are left, less a margin of " + mib(HEAP_MARGIN)
                    + "; give the JVM more heap (-Xmx)";
            finished = true;
            return c;
        }
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

    /**
     * Whether {@code bytes} more fit in the heap with the margin to spare. Used heap counts garbage not yet
     * collected, so a failed check collects once and measures again before it refuses.
     */
    private boolean fits(long bytes) {
        if (bytes <= 0 || heapLeft.getAsLong() - bytes >= HEAP_MARGIN) {
            return true;
        }
        System.gc();
        return heapLeft.getAsLong() - bytes >= HEAP_MARGIN;
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
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
