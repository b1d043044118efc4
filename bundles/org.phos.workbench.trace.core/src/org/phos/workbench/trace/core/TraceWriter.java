package org.phos.workbench.trace.core;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

import org.phos.workbench.internal.trace.core.format.TraceFileWriter;

/**
 * Writes a {@code .phos} file (format v1) as a stream: the header on creation, then modules, functions, events and
 * observed accesses in the order the format asks for (a module before the functions naming it, a function before
 * its first launch), then {@code TraceEnd} on {@link #close()}. Events and observed accesses are gathered into
 * batches, so memory stays flat however long the trace.
 * <pre>
 * try (TraceWriter w = TraceWriter.create(path, header)) {
 *     w.module(module);
 *     w.function(function);
 *     w.write(new TraceEvent.Launch(...));
 * }
 * </pre>
 */
public final class TraceWriter implements Closeable {

    /**
     * How to write.
     *
     * @param compressEvents  zstd-compress event batches (smaller files; reading costs decompression)
     * @param compressModules zstd-compress module images
     * @param zstdLevel       zstd level (1 is fast, 3 is zstd's default)
     * @param batchBytes      approximate raw size of one event batch chunk
     */
    public record Options(boolean compressEvents, boolean compressModules, int zstdLevel, int batchBytes) {
        /** Event batches uncompressed, modules compressed at level 3, 1 MiB batches. */
        public static final Options DEFAULT = new Options(false, true, 3, 1 << 20);

        public Options {
            if (batchBytes < 1 || batchBytes > (64 << 20)) {
                throw new IllegalArgumentException("batchBytes must be in 1..64 MiB: " + batchBytes);
            }
        }
    }

    private final TraceFileWriter out;
    private final Path file;
    private long droppedEvents;
    private boolean closed;

    private TraceWriter(Path file, TraceFileWriter out) {
        this.file = file;
        this.out = out;
    }

    /** Creates (or replaces) {@code file} and writes the file header and the TraceHeader chunk. */
    public static TraceWriter create(Path file, TraceHeader header) throws IOException {
        return create(file, header, Options.DEFAULT);
    }

    public static TraceWriter create(Path file, TraceHeader header, Options options) throws IOException {
        return new TraceWriter(file, new TraceFileWriter(file, header, options.compressEvents(),
                options.compressModules(), options.zstdLevel(), options.batchBytes()));
    }

    public void module(ModuleInfo module) throws IOException {
        check();
        out.module(module);
    }

    public void function(FunctionInfo function) throws IOException {
        check();
        out.function(function);
    }

    /**
     * Appends an event and returns its event index.
     *
     * @throws IllegalArgumentException for {@link TraceEvent.Unknown} or an {@code UNRECOGNIZED} enum value
     */
    public long write(TraceEvent event) throws IOException {
        check();
        return out.event(event);
    }

    public void observed(ObservedAccess access) throws IOException {
        check();
        out.observed(access);
    }

    /** Which launches an observer observed (i15-cost): one ObservedBatch chunk of its own. */
    public void coverage(ObservationCoverage coverage) throws IOException {
        check();
        out.coverage(coverage);
    }

    /** Events the recorder lost; written into TraceEnd on close. */
    public void droppedEvents(long count) {
        droppedEvents = count;
    }

    // i16-rec: begin
    private java.util.List<TraceEnd.UnrecordedCalls> unrecorded = java.util.List.of();

    /** Calls that changed memory without an event ({@link TraceEnd#unrecorded()}); written into TraceEnd on close. */
    public void unrecorded(java.util.List<TraceEnd.UnrecordedCalls> calls) {
        unrecorded = java.util.List.copyOf(calls);
    }
    // i16-rec: end

    /** Number of events written so far (the index the next event gets). */
    public long eventCount() {
        return out.eventCount();
    }

    /** Bytes written to the file so far (pending batches not included). */
    public long bytesWritten() {
        return out.bytesWritten();
    }

    /** Writes pending batches and TraceEnd (end time: the latest event host time) and closes the file. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.end(droppedEvents, out.lastHostNs(), unrecorded);
        } finally {
            out.close();
        }
    }

    /**
     * Writes pending batches and closes the file <i>without</i> TraceEnd, leaving it as a killed recorder would
     * (for tests and for tools that append later).
     */
    public void closeUnfinished() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.flush();
        } finally {
            out.close();
        }
    }

    /** Writes a whole in-memory trace to {@code file}. */
    public static void write(Trace trace, Path file, Options options) throws IOException {
        try (TraceWriter w = create(file, trace.header(), options)) {
            for (ModuleInfo m : trace.modules()) {
                w.module(m);
            }
            for (FunctionInfo f : trace.functions()) {
                w.function(f);
            }
            for (int i = 0; i < trace.eventCount(); i++) {
                w.write(trace.event(i));
            }
            for (ObservedAccess a : trace.observedAccesses()) {
                w.observed(a);
            }
            for (ObservationCoverage c : trace.observationCoverage()) {
                w.coverage(c);
            }
            TraceEnd end = trace.end();
            if (end != null) {
                w.droppedEvents(end.droppedEvents());
                w.unrecorded(end.unrecorded()); // i16-rec
            }
        }
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException(file + " is already closed");
        }
    }
}
