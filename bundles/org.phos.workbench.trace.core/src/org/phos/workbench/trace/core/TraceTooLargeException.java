package org.phos.workbench.trace.core;

import java.nio.file.Path;

/**
 * A trace that may be intact but does not fit in the heap this JVM has left: a chunk declares buffers larger than
 * what remains (checked before they are allocated), or the heap ran out while the chunk was decoded. The offset
 * names the chunk. Running with a larger {@code -Xmx} may load it; a damaged or hostile file (a zstd chunk declaring
 * 256 MiB that a few bytes inflate to) fails the same way instead of exhausting the heap.
 */
public class TraceTooLargeException extends TraceFormatException {
    private static final long serialVersionUID = 1L;

    public TraceTooLargeException(Path file, long offset, String reason) {
        super(file, offset, reason);
    }
}
