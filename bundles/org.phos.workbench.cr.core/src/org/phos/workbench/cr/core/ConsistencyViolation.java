package org.phos.workbench.cr.core;

/**
 * A buffer whose checkpointed (or restored) content would be wrong because the policy's sets missed an access.
 *
 * @param kind what went wrong
 * @param buffer the buffer
 * @param opIndex the first operation whose true access caused it
 * @param begin first byte of the offending access (buffer offset)
 * @param end end of the offending access
 * @param timeNs GPU start of the offending operation
 * @param checkpoint checkpoint number (or 0 for a restore)
 * @param detail explanation in words
 */
public record ConsistencyViolation(Kind kind, int buffer, long opIndex, long begin, long end, long timeNs,
        int checkpoint, String detail) {

    public enum Kind {
        /** A write the policy did not expect landed before the buffer's image was taken (soft CoW). */
        MISSED_WRITE_BEFORE_COPY,
        /** A write the policy did not expect landed after the buffer was pre-copied and it was not recopied. */
        MISSED_WRITE_NOT_RECOPIED,
        /** On-demand restore: an access the policy did not expect touched a buffer not yet restored. */
        ACCESS_BEFORE_RESTORED
    }
}
