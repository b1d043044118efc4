package org.phos.workbench.trace.core;

import java.nio.file.Path;

/**
 * Something wrong with a trace file that did not stop it from loading: a damaged chunk (loading kept the intact
 * prefix before it), a chunk with an unknown codec (skipped), a missing {@code TraceEnd}.
 *
 * @param file    the trace file
 * @param offset  byte offset in the file of the chunk concerned, or the file length for "not closed cleanly"
 * @param message what is wrong, for a person
 */
public record TraceWarning(Path file, long offset, String message) {
    @Override
    public String toString() {
        return file + ": at byte offset " + offset + ": " + message;
    }
}
