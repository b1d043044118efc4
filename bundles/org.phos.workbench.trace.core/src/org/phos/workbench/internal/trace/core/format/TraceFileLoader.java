package org.phos.workbench.internal.trace.core.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.model.TraceColumns;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceFormatException;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceWarning;

import com.github.luben.zstd.Zstd;

/**
 * Loads a v1 file chunk by chunk into {@link TraceColumns}. Each chunk is checked (magic, header CRC, lengths
 * against the limit and the bytes left in the file, payload CRC, decompression, protobuf decoding) before it
 * counts; the first chunk that fails ends loading with a warning naming its offset, and what it had appended is
 * rolled back. Lengths are checked before anything is allocated, so a damaged file cannot make the loader
 * allocate more than the file holds (zstd output is bounded by the raw length, at most 256 MiB).
 */
public final class TraceFileLoader {
    private static final int PROGRESS_UNIT = 1 << 16;

    private final Path file;
    private final List<TraceWarning> warnings = new ArrayList<>();
    private final CRC32C crc = new CRC32C();
    private final EventCodec codec = new EventCodec();
    private byte[] stored = new byte[1 << 16];
    private byte[] raw = new byte[1 << 16];

    public TraceFileLoader(Path file) {
        this.file = file;
    }

    public TraceLoadResult load(@Nullable IProgressMonitor monitor) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            // the monitor is driven directly (beginTask/worked/done): SubMonitor needs OSGi classes at run time,
            // and the reader must also work on a plain class path (CLI, scripts)
            IProgressMonitor progress = monitor == null ? new NullProgressMonitor() : monitor;
            progress.beginTask("Loading " + file.getFileName(), (int) Math.min(Integer.MAX_VALUE, size / PROGRESS_UNIT + 1));
            checkFileHeader(ch, size);
            TraceColumns columns = null;
            boolean ended = false;
            long offset = Chunks.FILE_HEADER_SIZE;
            long reported = 0;
            byte[] h = new byte[Chunks.CHUNK_HEADER_SIZE];
            while (offset < size) {
                if (progress.isCanceled()) {
                    throw new OperationCanceledException("loading " + file + " was cancelled");
                }
                String damage = null;
                int type = 0;
                int length = 0;
                long next = offset;
                if (size - offset < Chunks.CHUNK_HEADER_SIZE) {
                    damage = "chunk header truncated (" + (size - offset) + " of 24 bytes)";
                } else {
                    readFully(ch, ByteBuffer.wrap(h), offset);
                    damage = checkHeader(h, size - offset - Chunks.CHUNK_HEADER_SIZE);
                    if (damage == null) {
                        type = (h[4] & 0xff) | (h[5] & 0xff) << 8;
                        int codecId = h[6] & 0xff;
                        int storedLength = Chunks.getIntLE(h, 8);
                        int rawLength = Chunks.getIntLE(h, 12);
                        next = offset + Chunks.CHUNK_HEADER_SIZE + storedLength;
                        if (stored.length < storedLength) {
                            stored = new byte[storedLength];
                        }
                        readFully(ch, ByteBuffer.wrap(stored, 0, storedLength), offset + Chunks.CHUNK_HEADER_SIZE);
                        crc.reset();
                        crc.update(stored, 0, storedLength);
                        if ((int) crc.getValue() != Chunks.getIntLE(h, 16)) {
                            damage = "payload checksum mismatch (" + Chunks.typeName(type) + " chunk, "
                                    + storedLength + " bytes)";
                        } else if (codecId != Chunks.CODEC_NONE && codecId != Chunks.CODEC_ZSTD) {
                            if (columns == null) {
                                throw new TraceFormatException(file, offset,
                                        "first chunk uses unknown codec " + codecId);
                            }
                            warnings.add(new TraceWarning(file, offset, Chunks.typeName(type)
                                    + " chunk skipped: unknown codec " + codecId));
                            offset = next;
                            continue;
                        } else {
                            byte[] payload = stored;
                            if (codecId == Chunks.CODEC_ZSTD) {
                                damage = decompress(storedLength, rawLength);
                                payload = raw;
                            }
                            length = rawLength;
                            if (damage == null) {
                                if (columns == null) {
                                    columns = firstChunk(type, payload, length, offset);
                                } else {
                                    damage = decode(type, payload, length, columns, offset);
                                    ended |= type == Chunks.TRACE_END && damage == null;
                                }
                            }
                        }
                    }
                }
                if (damage != null) {
                    if (columns == null) {
                        throw new TraceFormatException(file, offset, "first chunk is damaged: " + damage);
                    }
                    warnings.add(new TraceWarning(file, offset, "damaged chunk: " + damage + "; loaded the intact "
                            + "prefix before it (" + columns.eventCount() + " events), ignored the remaining "
                            + (size - offset) + " bytes"));
                    break;
                }
                offset = next;
                long units = offset / PROGRESS_UNIT;
                if (units > reported) {
                    progress.worked((int) (units - reported));
                    reported = units;
                }
            }
            if (columns == null) {
                throw new TraceFormatException(file, Chunks.FILE_HEADER_SIZE,
                        "no TraceHeader chunk: the file ends after its 16-byte header");
            }
            if (!ended) {
                warnings.add(new TraceWarning(file, Math.min(offset, size),
                        "trace was not closed cleanly (no TraceEnd chunk): the recorder may have been killed"));
            }
            return new TraceLoadResult(columns.freeze(), warnings);
        } finally {
            if (monitor != null) {
                monitor.done();
            }
        }
    }

    private void checkFileHeader(FileChannel ch, long size) throws IOException {
        if (size < Chunks.FILE_HEADER_SIZE) {
            throw new TraceFormatException(file, 0, "not a .phos trace: the file has " + size
                    + " bytes, fewer than the 16-byte file header");
        }
        byte[] fh = new byte[Chunks.FILE_HEADER_SIZE];
        readFully(ch, ByteBuffer.wrap(fh), 0);
        for (int k = 0; k < 8; k++) {
            if (fh[k] != Chunks.FILE_MAGIC[k]) {
                throw new TraceFormatException(file, 0, "not a .phos trace: the file starts with "
                        + HexFormat.ofDelimiter(" ").formatHex(fh, 0, 8) + ", not 50 48 4f 53 0d 0a 1a 0a (\"PHOS\\r\\n\\x1a\\n\")");
            }
        }
        long version = Integer.toUnsignedLong(Chunks.getIntLE(fh, 8));
        if (version != TraceHeader.FORMAT_VERSION) {
            throw new TraceFormatException(file, 8, version > TraceHeader.FORMAT_VERSION
                    ? "format version " + version + " is newer than this reader (" + TraceHeader.FORMAT_VERSION + ")"
                    : "unknown format version " + version + " (this reader knows " + TraceHeader.FORMAT_VERSION + ")");
        }
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
        long storedLength = Integer.toUnsignedLong(Chunks.getIntLE(h, 8));
        long rawLength = Integer.toUnsignedLong(Chunks.getIntLE(h, 12));
        if (storedLength > Chunks.MAX_LENGTH || rawLength > Chunks.MAX_LENGTH) {
            return "chunk length " + Math.max(storedLength, rawLength) + " exceeds the 256 MiB limit";
        }
        if (storedLength > remaining) {
            return "chunk truncated: it declares " + storedLength + " payload bytes but only " + remaining
                    + " remain in the file";
        }
        if ((h[6] & 0xff) == Chunks.CODEC_NONE && storedLength != rawLength) {
            return "uncompressed chunk with stored length " + storedLength + " != raw length " + rawLength;
        }
        return null;
    }

    private @Nullable String decompress(int storedLength, int rawLength) {
        if (raw.length < rawLength) {
            raw = new byte[Math.max(rawLength, Math.min(Chunks.MAX_LENGTH, raw.length * 2))];
        }
        try {
            long n = Zstd.decompressByteArray(raw, 0, rawLength, stored, 0, storedLength);
            if (Zstd.isError(n)) {
                return "zstd decompression failed: " + Zstd.getErrorName(n);
            }
            if (n != rawLength) {
                return "zstd payload decompressed to " + n + " bytes, header says " + rawLength;
            }
            return null;
        } catch (RuntimeException e) {
            return "zstd decompression failed: " + e.getMessage();
        }
    }

    private TraceColumns firstChunk(int type, byte[] payload, int length, long offset) throws TraceFormatException {
        if (type != Chunks.TRACE_HEADER) {
            throw new TraceFormatException(file, offset, "the first chunk is " + Chunks.typeName(type)
                    + ", expected TraceHeader");
        }
        try {
            return new TraceColumns(Messages.decodeHeader(new ProtoReader(payload, 0, length)));
        } catch (WireFormatException e) {
            throw new TraceFormatException(file, offset, "first chunk (TraceHeader) is damaged: " + e.getMessage());
        }
    }

    /** Decodes one chunk after the header into {@code columns}; returns what is wrong or null. */
    private @Nullable String decode(int type, byte[] payload, int length, TraceColumns columns, long offset) {
        TraceColumns.Mark mark = columns.mark();
        try {
            switch (type) {
                case Chunks.TRACE_HEADER -> warnings.add(new TraceWarning(file, offset,
                        "a second TraceHeader chunk was ignored"));
                case Chunks.MODULE -> columns.addModule(Messages.decodeModule(new ProtoReader(payload, 0, length)));
                case Chunks.FUNCTION ->
                    columns.addFunction(Messages.decodeFunction(new ProtoReader(payload, 0, length)));
                case Chunks.EVENT_BATCH -> codec.decodeBatch(payload, 0, length, columns, columns.eventCount());
                case Chunks.OBSERVED_BATCH -> {
                    List<ObservedAccess> batch = new ArrayList<>();
                    Messages.decodeObservedBatch(new ProtoReader(payload, 0, length), batch);
                    batch.forEach(columns::addObserved);
                }
                case Chunks.TRACE_END -> {
                    TraceEnd end = Messages.decodeEnd(new ProtoReader(payload, 0, length));
                    columns.setEnd(end);
                    if (end.eventCount() != columns.eventCount()) {
                        warnings.add(new TraceWarning(file, offset, "TraceEnd says " + end.eventCount()
                                + " events were written but the file holds " + columns.eventCount()));
                    }
                    if (end.droppedEvents() != 0) {
                        warnings.add(new TraceWarning(file, offset, "the recorder dropped "
                                + Long.toUnsignedString(end.droppedEvents()) + " events (its buffer overflowed)"));
                    }
                }
                default -> {
                    // unknown chunk type: skipped (forward compatibility)
                }
            }
            return null;
        } catch (WireFormatException e) {
            columns.rollback(mark);
            return Chunks.typeName(type) + " chunk does not decode: " + e.getMessage();
        } catch (RuntimeException e) {
            // a decoding defect must not lose the prefix already loaded; the message marks it as ours
            columns.rollback(mark);
            return Chunks.typeName(type) + " chunk does not decode (internal error " + e + ")";
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            int n = ch.read(b, p);
            if (n < 0) {
                throw new IOException("unexpected end of file at offset " + p);
            }
            p += n;
        }
    }
}
