package org.phos.workbench.internal.trace.core.format;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

import com.github.luben.zstd.Zstd;

/**
 * Writes a v1 file: the file header, then one chunk per call (events and observed accesses are gathered into
 * batches of about {@code batchBytes} and written as one chunk each).
 */
public final class TraceFileWriter {
    private final OutputStream out;
    private final boolean compressEvents;
    private final boolean compressModules;
    private final int level;
    private final int batchBytes;
    private final ProtoWriter message = new ProtoWriter(1 << 12);
    private final ProtoWriter scratch = new ProtoWriter(64);
    private final ProtoWriter batch;
    private final ProtoWriter observed = new ProtoWriter(1 << 12);
    private final EventCodec codec = new EventCodec();
    private final CRC32C crc = new CRC32C();
    private final byte[] chunkHeader = new byte[Chunks.CHUNK_HEADER_SIZE];
    private byte[] compressed = new byte[0];
    private long eventCount;
    private long batchFirst;
    private int batchEvents;
    private long lastHostNs;
    private long bytesWritten;

    public TraceFileWriter(Path file, TraceHeader header, boolean compressEvents, boolean compressModules,
            int zstdLevel, int batchBytes) throws IOException {
        this.out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        this.compressEvents = compressEvents;
        this.compressModules = compressModules;
        this.level = zstdLevel;
        this.batchBytes = batchBytes;
        this.batch = new ProtoWriter(batchBytes + (batchBytes >> 2) + 1024);
        byte[] fh = new byte[Chunks.FILE_HEADER_SIZE];
        System.arraycopy(Chunks.FILE_MAGIC, 0, fh, 0, 8);
        Chunks.putIntLE(fh, 8, TraceHeader.FORMAT_VERSION);
        write(fh, fh.length);
        message.reset();
        Messages.encodeHeader(header, message);
        chunk(Chunks.TRACE_HEADER, message, false);
    }

    public void module(ModuleInfo m) throws IOException {
        flushEvents();
        message.reset();
        Messages.encodeModule(m, message);
        chunk(Chunks.MODULE, message, compressModules);
    }

    public void function(FunctionInfo f) throws IOException {
        flushEvents();
        message.reset();
        Messages.encodeFunction(f, message, scratch);
        chunk(Chunks.FUNCTION, message, false);
    }

    /** Adds an event; returns its index. */
    public long event(TraceEvent e) throws IOException {
        if (batchEvents == 0) {
            batch.reset();
            batchFirst = eventCount;
            batch.uint64(1, batchFirst);
        }
        codec.encode(e, batch);
        batchEvents++;
        lastHostNs = Math.max(lastHostNs, e.hostNs());
        if (batch.len >= batchBytes) {
            flushEvents();
        }
        return eventCount++;
    }

    public void observed(ObservedAccess a) throws IOException {
        message.reset();
        Messages.encodeObserved(a, message, scratch);
        observed.message(1, message);
        if (observed.len >= batchBytes) {
            flushObserved();
        }
    }

    /** i15-cost: one ObservedBatch chunk holding only the coverage of an observer. */
    public void coverage(ObservationCoverage c) throws IOException {
        flushObserved();
        message.reset();
        ProtoWriter cov = new ProtoWriter(256 + 4 * c.observedCount());
        Messages.encodeCoverage(c, cov, new ProtoWriter(64 + 4 * c.observedCount()));
        message.message(2, cov);
        flushEvents();
        chunk(Chunks.OBSERVED_BATCH, message, false);
    }

    public void flushEvents() throws IOException {
        if (batchEvents > 0) {
            chunk(Chunks.EVENT_BATCH, batch, compressEvents);
            batchEvents = 0;
        }
    }

    private void flushObserved() throws IOException {
        if (observed.len > 0) {
            flushEvents();
            chunk(Chunks.OBSERVED_BATCH, observed, false);
            observed.reset();
        }
    }

    /** Flushes pending batches and writes TraceEnd. */
    public void end(long droppedEvents, long endNs) throws IOException {
        end(droppedEvents, endNs, java.util.List.of());
    }

    /** Flushes pending batches and writes TraceEnd with the calls that changed memory without an event (i16-rec). */
    public void end(long droppedEvents, long endNs, java.util.List<TraceEnd.UnrecordedCalls> unrecorded)
            throws IOException {
        flushEvents();
        flushObserved();
        message.reset();
        Messages.encodeEnd(new TraceEnd(eventCount, droppedEvents, endNs, unrecorded), message);
        chunk(Chunks.TRACE_END, message, false);
    }

    /** Flushes pending batches without TraceEnd (for a trace that is to look unfinished, as after a crash). */
    public void flush() throws IOException {
        flushEvents();
        flushObserved();
        out.flush();
    }

    public void close() throws IOException {
        out.close();
    }

    public long eventCount() {
        return eventCount;
    }

    public long lastHostNs() {
        return lastHostNs;
    }

    public long bytesWritten() {
        return bytesWritten;
    }

    private void chunk(int type, ProtoWriter payload, boolean compress) throws IOException {
        byte[] data = payload.buf;
        int stored = payload.len;
        int codecId = Chunks.CODEC_NONE;
        if (payload.len > Chunks.MAX_LENGTH) {
            throw new IOException(Chunks.typeName(type) + " chunk of " + payload.len + " bytes exceeds the 256 MiB limit");
        }
        if (compress && payload.len > 64) {
            int bound = (int) Zstd.compressBound(payload.len);
            if (compressed.length < bound) {
                compressed = new byte[bound];
            }
            long n = Zstd.compressByteArray(compressed, 0, bound, payload.buf, 0, payload.len, level);
            if (Zstd.isError(n)) {
                throw new IOException("zstd compression failed: " + Zstd.getErrorName(n));
            }
            if (n < payload.len) {
                data = compressed;
                stored = (int) n;
                codecId = Chunks.CODEC_ZSTD;
            }
        }
        byte[] h = chunkHeader;
        Chunks.putIntLE(h, 0, Chunks.CHUNK_MAGIC);
        h[4] = (byte) type;
        h[5] = (byte) (type >>> 8);
        h[6] = (byte) codecId;
        h[7] = 0;
        Chunks.putIntLE(h, 8, stored);
        Chunks.putIntLE(h, 12, payload.len);
        crc.reset();
        crc.update(data, 0, stored);
        Chunks.putIntLE(h, 16, (int) crc.getValue());
        crc.reset();
        crc.update(h, 0, 20);
        Chunks.putIntLE(h, 20, (int) crc.getValue());
        write(h, h.length);
        write(data, stored);
    }

    private void write(byte[] b, int n) throws IOException {
        out.write(b, 0, n);
        bytesWritten += n;
    }
}
