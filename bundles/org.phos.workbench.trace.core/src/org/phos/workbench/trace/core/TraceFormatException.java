package org.phos.workbench.trace.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file could not be loaded as a trace at all: not a {@code .phos} file, a format version this reader does not
 * know, or a first chunk (the header) that is damaged; or, as {@link TraceTooLargeException}, a chunk that does not
 * fit in the heap left. The message names the file and the byte offset.
 */
public class TraceFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;
    private final String reason;

    public TraceFormatException(Path file, long offset, String reason) {
        super(file + ": at byte offset " + offset + ": " + reason);
        this.file = file;
        this.offset = offset;
        this.reason = reason;
    }

    /** The file that failed to load. */
    public Path file() {
        return file;
    }

    /** Byte offset in the file where the problem was found. */
    public long offset() {
        return offset;
    }

    /** What is wrong, without file and offset. */
    public String reason() {
        return reason;
    }
}
