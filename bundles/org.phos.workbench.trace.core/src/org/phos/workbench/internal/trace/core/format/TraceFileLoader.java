package org.phos.workbench.internal.trace.core.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.LongSupplier;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.model.TraceColumns;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceFormatException;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceTooLargeException;
import org.phos.workbench.trace.core.TraceWarning;


/**
 * Loads a v1 file chunk by chunk into {@link TraceColumns}. Each chunk is checked (magic, header CRC, lengths
 * against the limit and the bytes left in the file, payload CRC, decompression, protobuf decoding) before it
 * counts; the first chunk that fails ends loading with a warning naming its offset, and what it had appended is
 * rolled back. Framing checks are the {@link ChunkScanner}'s; for files of 1 MiB and more it runs on a second
 * thread, a few chunks ahead.
 * <p>
 * Input that is not a regular file is looked at before it is opened: a pipe this process already holds (standard
 * input as {@code /dev/stdin}, {@code /dev/fd/N}) is copied to a temporary file first, since the format is read by
 * offset; a named pipe (opening one with no writer waits forever), a device or a socket is refused. A chunk that
 * needs more heap than is left fails the load with a {@link TraceFormatException} naming it, before its buffers are
 * allocated (or, for the model it decodes into, when the heap runs out while decoding it).
 */
public final class TraceFileLoader {
    private static final int PROGRESS_UNIT = 1 << 16;
    /** Files at least this big are scanned (read, CRC, zstd) on a second thread while this one decodes. */
    static final long PIPELINE_THRESHOLD = 1 << 20;

    private final Path file;
    private final long pipelineThreshold;
    private final LongSupplier heapLeft;
    private final List<TraceWarning> warnings = new ArrayList<>();
    private final EventCodec codec = new EventCodec();
    /** A saved live attach stream: its gaps and where it joined. */
    private final List<StreamGap> gaps = new ArrayList<>();
    private @Nullable StreamStart streamStart;

    public TraceFileLoader(Path file) {
        this(file, PIPELINE_THRESHOLD);
    }

    /** With another size from which the second thread scans and decodes ahead (tests compare both paths). */
    TraceFileLoader(Path file, long pipelineThreshold) {
        this(file, pipelineThreshold, ChunkScanner.RUNTIME_HEAP_LEFT);
    }

    /** With another measure of the heap that is left (tests simulate a small heap). */
    TraceFileLoader(Path file, long pipelineThreshold, LongSupplier heapLeft) {
        this.file = file;
        this.pipelineThreshold = pipelineThreshold;
        this.heapLeft = heapLeft;
    }

    public TraceLoadResult load(@Nullable IProgressMonitor monitor) throws IOException {
        Path spooled = spoolIfStream(file);
        try {
            return load(spooled != null ? spooled : file, monitor);
        } finally {
            if (spooled != null) {
                Files.deleteIfExists(spooled);
            }
        }
    }

    /**
     * Checks the type of {@code path} without opening it; copies a pipe this process holds open to a temporary
     * file (returned; the caller deletes it), returns null for a regular file, refuses anything else.
     */
    private static @Nullable Path spoolIfStream(Path path) throws IOException {
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class); // stat: never blocks
        if (a.isRegularFile()) {
            return null;
        }
        if (a.isDirectory()) {
            throw new IOException("is a directory, not a trace file");
        }
        if (!isInheritedPipe(path)) {
            throw new IOException("not a regular file but a named pipe (FIFO), device or socket; opening a pipe with"
                    + " no writer would wait forever: give a regular file, or pipe the trace into /dev/stdin");
        }
        Path tmp = Files.createTempFile("phos-stream-", ".phos");
        try (InputStream in = Files.newInputStream(path)) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /**
     * Whether {@code path} names a pipe this process already holds open ({@code /dev/stdin} -> {@code
     * /proc/self/fd/0} -> {@code pipe:[N]}): it has a writer, so opening it does not block. A named pipe in the
     * file system is not one of these.
     */
    static boolean isInheritedPipe(Path path) {
        Path p = path;
        try {
            for (int k = 0; k < 40 && Files.isSymbolicLink(p); k++) {
                Path target = Files.readSymbolicLink(p);
                if (target.toString().startsWith("pipe:[")) {
                    return true;
                }
                Path parent = p.getParent();
                p = parent == null ? target : parent.resolve(target);
            }
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
        return false;
    }

    private TraceLoadResult load(Path readable, @Nullable IProgressMonitor monitor) throws IOException {
        try (FileChannel ch = FileChannel.open(readable, StandardOpenOption.READ)) {
            long size = ch.size();
            // the monitor is driven directly (beginTask/worked/done): SubMonitor needs OSGi classes at run time,
            // and the reader must also work on a plain class path (CLI, scripts)
            IProgressMonitor progress = monitor == null ? new NullProgressMonitor() : monitor;
            progress.beginTask("Loading " + file.getFileName(), (int) Math.min(Integer.MAX_VALUE, size / PROGRESS_UNIT + 1));
            checkFileHeader(ch, size);
            ChunkScanner scanner = new ChunkScanner(ch, size, heapLeft);
            try (ChunkSource source = size >= pipelineThreshold
                    ? ChunkSource.pipelined(scanner, file.getFileName().toString())
                    : ChunkSource.inline(scanner)) {
                return load(source, size, progress);
            }
        } finally {
            if (monitor != null) {
                monitor.done();
            }
        }
    }

    private TraceLoadResult load(ChunkSource source, long size, IProgressMonitor progress) throws IOException {
        at = Chunks.FILE_HEADER_SIZE;
        try {
            return loadChunks(source, size, progress);
        } catch (OutOfMemoryError e) {
            // the columns this load built are garbage once this returns; the rest of the program goes on
            throw new TraceTooLargeException(file, at, "the heap ran out while loading the chunk at this offset ("
                    + e.getMessage() + "); give the JVM more heap (-Xmx)");
        }
    }

    /** Offset of the chunk being loaded, for an out-of-memory failure. */
    private long at;
    /** Offset of the damaged chunk where loading stopped, or -1. */
    private long damageOffset = -1;

    /** After {@link #load}: the offset of the damaged chunk where loading stopped, or -1 if it read to the end. */
    public long damageOffset() {
        return damageOffset;
    }

    private TraceLoadResult loadChunks(ChunkSource source, long size, IProgressMonitor progress) throws IOException {
        TraceColumns columns = null;
        boolean ended = false;
        long reported = 0;
        long offset = Chunks.FILE_HEADER_SIZE;
        while (true) {
            if (progress.isCanceled()) {
                throw new OperationCanceledException("loading " + file + " was cancelled");
            }
            ChunkScanner.RawChunk c = source.next();
            offset = c.offset;
            at = c.offset;
            if (c.end) {
                break;
            }
            if (c.outOfMemory != null) {
                throw new TraceTooLargeException(file, c.offset, c.outOfMemory);
            }
            String damage = c.damage;
            if (damage == null && c.unknownCodec) {
                if (columns == null) {
                    throw new TraceFormatException(file, c.offset, "first chunk uses unknown codec " + c.codec);
                }
                warnings.add(new TraceWarning(file, c.offset, Chunks.typeName(c.type)
                        + " chunk skipped: unknown codec " + c.codec));
                continue;
            }
            if (damage == null) {
                byte[] payload = c.payload;
                if (columns == null) {
                    columns = firstChunk(c.type, payload, c.length, c.offset);
                } else {
                    damage = decode(c, columns);
                    ended |= c.type == Chunks.TRACE_END && damage == null;
                }
                source.recycle(c);
            }
            if (damage != null) {
                if (columns == null) {
                    throw new TraceFormatException(file, c.offset, "first chunk is damaged: " + damage);
                }
                damageOffset = c.offset;
                warnings.add(new TraceWarning(file, c.offset, "damaged chunk: " + damage + "; loaded the intact "
                        + "prefix before it (" + columns.eventCount() + " events), ignored the remaining "
                        + (size - c.offset) + " bytes"));
                break;
            }
            long units = c.offset / PROGRESS_UNIT;
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
        gapWarnings();
        return new TraceLoadResult(columns.freeze(), warnings, List.of(), gaps, streamStart);
    }

    // i14-liveacc: begin
    /** Launches whose live observations the stream missed (ObservedGap chunks). */
    private long observedMissed;
    /** Observed records and covered launches that name launches the stream does not hold (in its gaps). */
    private long observedOutside;

    /**
     * The held index of the process's event {@code process}, or -1 when the stream does not hold it (one of its gaps):
     * a live stream numbers its events densely, an ObservedBatch names the process's indices.
     */
    private long localIndex(long process) {
        long skipped = 0;
        for (StreamGap g : gaps) {
            if (process < g.firstIndex()) {
                break;
            }
            if (process < g.firstIndex() + g.count()) {
                return -1;
            }
            skipped += g.count();
        }
        return process - skipped;
    }

    private List<ObservedAccess> localObserved(List<ObservedAccess> batch) {
        List<ObservedAccess> out = new ArrayList<>(batch.size());
        for (ObservedAccess a : batch) {
            long i = localIndex(a.launchEvent());
            if (i < 0) {
                observedOutside++;
            } else {
                out.add(i == a.launchEvent() ? a : new ObservedAccess(i, a.allocation(), a.read(), a.written(),
                        a.readCount(), a.writeCount(), a.tool(), a.flags()));
            }
        }
        return out;
    }

    private List<ObservationCoverage> localCoverage(List<ObservationCoverage> cover) {
        List<ObservationCoverage> out = new ArrayList<>(cover.size());
        for (ObservationCoverage c : cover) {
            long[] e = c.observedEvents();
            int n = 0;
            for (long p : e) {
                long i = localIndex(p);
                if (i < 0) {
                    observedOutside++;
                } else {
                    e[n++] = i;
                }
            }
            out.add(new ObservationCoverage(c.tool(), java.util.Arrays.copyOf(e, n), c.policy(), c.launchesSeen()));
        }
        return out;
    }
    // i14-liveacc: end

    /** One warning per kind of gap of a saved live stream: what it does not hold, and where that is. */
    private void gapWarnings() {
        long behind = 0;
        int behindGaps = 0;
        for (StreamGap g : gaps) {
            if (g.reason() == StreamGap.Reason.ATTACHED_LATE) {
                continue;
            }
            behind += g.count();
            behindGaps++;
        }
        StreamStart s = streamStart;
        String where = s != null && !s.tracePath().isEmpty() ? " (they are in the process's trace file " + s.tracePath() + ")"
                : "";
        if (s != null && s.firstLiveIndex() > 0) {
            warnings.add(new TraceWarning(file, Chunks.FILE_HEADER_SIZE, "a live stream attached to process " + s.pid()
                    + " at its event " + s.firstLiveIndex() + ": the events before it are not here except "
                    + s.liveAllocations() + " allocations still live" + where));
        }
        if (behind > 0) {
            warnings.add(new TraceWarning(file, Chunks.FILE_HEADER_SIZE, "the live stream missed " + behind + " events in "
                    + behindGaps + " gaps (the reader fell behind)" + where));
        }
        // i14-liveacc: begin
        if (observedMissed > 0) {
            warnings.add(new TraceWarning(file, Chunks.FILE_HEADER_SIZE, "the live stream missed the observed accesses "
                    + "of " + observedMissed + " launches (the reader fell behind; the observing tool's side file has "
                    + "them)"));
        }
        if (observedOutside > 0) {
            warnings.add(new TraceWarning(file, Chunks.FILE_HEADER_SIZE, observedOutside + " observed records name "
                    + "launches this stream does not hold (before it joined or in its gaps): left out"));
        }
        // i14-liveacc: end
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
    private @Nullable String decode(ChunkScanner.RawChunk c, TraceColumns columns) {
        int type = c.type;
        byte[] payload = c.payload;
        int length = c.length;
        long offset = c.offset;
        if (payload == null) {
            return Chunks.typeName(type) + " chunk has no payload";
        }
        if (c.decodeError != null) {
            return c.decodeError; // decoded ahead: nothing was appended
        }
        TraceColumns.Mark mark = columns.mark();
        try {
            switch (type) {
                case Chunks.TRACE_HEADER -> columns.addExtraHeader(offset); // counted once: TraceAnomaly
                case Chunks.MODULE -> columns.addModule(Messages.decodeModule(new ProtoReader(payload, 0, length)));
                case Chunks.FUNCTION ->
                    columns.addFunction(Messages.decodeFunction(new ProtoReader(payload, 0, length)));
                case Chunks.EVENT_BATCH -> {
                    DecodedEvents d = c.decoded;
                    long expected = columns.eventCount() + codec.skipped();
                    if (d != null && d.first == expected) {
                        d.replayInto(columns, payload);
                    } else {
                        codec.decodeBatch(payload, 0, length, columns, expected);
                    }
                }
                case Chunks.EVENT_GAP -> {
                    StreamGap gap = Messages.decodeGap(new ProtoReader(payload, 0, length));
                    long expected = columns.eventCount() + codec.skipped();
                    if (gap.firstIndex() != expected) {
                        throw new WireFormatException("EventGap first_index is " + Long.toUnsignedString(gap.firstIndex())
                                + " but " + expected + " events precede it");
                    }
                    codec.addGap(gap);
                    gaps.add(gap);
                }
                case Chunks.STREAM_START -> streamStart = Messages.decodeStreamStart(new ProtoReader(payload, 0, length));
                case Chunks.OBSERVED_BATCH -> {
                    List<ObservedAccess> batch = new ArrayList<>();
                    List<ObservationCoverage> cover = new ArrayList<>();
                    Messages.decodeObservedBatch(new ProtoReader(payload, 0, length), batch, cover);
                    if (!gaps.isEmpty()) { // i14-liveacc: a stream's launch indices are the process's: renumber
                        batch = localObserved(batch);
                        cover = localCoverage(cover);
                    }
                    batch.forEach(columns::addObserved);
                    cover.forEach(columns::addCoverage);
                }
                case Chunks.OBSERVED_GAP -> // i14-liveacc
                    observedMissed += Messages.decodeObservedGap(new ProtoReader(payload, 0, length));
                case Chunks.TRACE_END -> {
                    TraceEnd end = Messages.decodeEnd(new ProtoReader(payload, 0, length));
                    columns.setEnd(end);
                    if (end.eventCount() != columns.eventCount() + codec.skipped()) {
                        warnings.add(new TraceWarning(file, offset, "TraceEnd says "
                                + Long.toUnsignedString(end.eventCount()) + " events were written but the file holds "
                                + columns.eventCount() + (gaps.isEmpty() ? "" : " and its gaps " + codec.skipped())));
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
        } catch (WireFormatException | RuntimeException e) {
            // a decoding defect of ours (a runtime exception) must not lose the prefix already loaded either
            columns.rollback(mark);
            return Chunks.doesNotDecode(type, e);
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
