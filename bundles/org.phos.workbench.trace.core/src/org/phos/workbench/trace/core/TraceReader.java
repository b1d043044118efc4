package org.phos.workbench.trace.core;

import java.io.IOException;
import java.nio.file.Path;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.format.TraceFileLoader;

/**
 * Loads {@code .phos} files (format v1) into a {@link Trace}.
 * <p>
 * A damaged file loads as far as it is intact: loading stops at the first chunk that is truncated or fails a
 * check, keeps everything before it and reports a {@link TraceWarning} naming the chunk's byte offset. A file
 * without a {@code TraceEnd} chunk loads with a "not closed cleanly" warning. Only a file that is not a trace at
 * all, has an unknown format version, or whose first chunk (the header) is bad fails, with a
 * {@link TraceFormatException} naming file and offset.
 * <p>
 * A well-formed trace that says strange things (overlapping live allocations, streams never created, times no
 * real trace can have, ...) loads too; the model checks it while loading ({@link TraceAnomalies}) and the result
 * carries each kind of {@link TraceAnomaly} once, with its count and first event.
 */
public final class TraceReader {
    private TraceReader() {
    }

    /**
     * Reads a whole trace.
     *
     * @param file    a {@code .phos} file
     * @param monitor progress in file bytes and cooperative cancellation; may be {@code null}
     * @return the trace, the warnings about its file and the anomalies of its contents
     * @throws TraceFormatException       when the file cannot be loaded as a trace at all
     * @throws IOException                when the file cannot be read
     * @throws OperationCanceledException when the monitor was cancelled
     */
    public static TraceLoadResult read(Path file, @Nullable IProgressMonitor monitor) throws IOException {
        TraceLoadResult loaded = new TraceFileLoader(file).load(monitor);
        return new TraceLoadResult(loaded.trace(), loaded.warnings(), TraceAnomalies.find(loaded.trace()), loaded.streamGaps(),
                loaded.streamStart());
    }

    /**
     * What reading {@code file} comes to, in the one line that {@code phos_read.py --verdict} prints for the same
     * file, so that the two readers can be compared: {@code ok EVENTS} (read to the end), {@code damaged EVENTS at
     * OFFSET} (the intact prefix of EVENTS events; reading stopped at the chunk at OFFSET), {@code refused at OFFSET}
     * (not a trace, or its first chunk is bad), {@code memory at OFFSET} (a chunk does not fit in the heap left).
     * Warnings that do not stop reading (an unclosed trace, a skipped chunk) are not part of it.
     *
     * @throws IOException when the file cannot be read at all
     */
    public static String verdict(Path file) throws IOException {
        TraceFileLoader loader = new TraceFileLoader(file);
        try {
            long events = loader.load(null).trace().eventCount();
            long damage = loader.damageOffset();
            return damage < 0 ? "ok " + events : "damaged " + events + " at " + damage;
        } catch (TraceTooLargeException e) {
            return "memory at " + e.offset();
        } catch (TraceFormatException e) {
            return "refused at " + e.offset();
        }
    }
}
