package org.phos.workbench.cr.core;

/**
 * A byte range {@code [begin, end)} of one simulated buffer; offsets are relative to the buffer's start.
 *
 * @param buffer the buffer id, as given by the workload's {@link OperationKind#ALLOC} operation
 * @param begin first byte offset (inclusive)
 * @param end last byte offset (exclusive)
 */
public record BufferRange(int buffer, long begin, long end) {
    public BufferRange {
        if (buffer < 0) {
            throw new IllegalArgumentException("buffer id must be >= 0, was " + buffer);
        }
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("bad byte range [" + begin + ", " + end + ") of buffer " + buffer);
        }
    }

    /** The whole of a buffer of {@code size} bytes. */
    public static BufferRange whole(int buffer, long size) {
        return new BufferRange(buffer, 0, size);
    }

    public long length() {
        return end - begin;
    }

    public boolean overlaps(long otherBegin, long otherEnd) {
        return begin < otherEnd && otherBegin < end;
    }
}
