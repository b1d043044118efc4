package org.phos.workbench.cr.core;

/**
 * An interval during which the application waited for checkpoint/restore work.
 *
 * @param lane lane the wait shows on (the host lane, or a stream lane for {@link StallCause#COPY_ENGINE_BUSY})
 * @param startNs start in ns
 * @param endNs end in ns
 * @param cause why
 * @param buffer buffer waited for, or -1
 * @param opIndex the operation that waited, or -1
 */
public record StallInterval(int lane, long startNs, long endNs, StallCause cause, int buffer, long opIndex) {
    public long durationNs() {
        return endNs - startNs;
    }

    /** Whether the host thread itself waited (engine contention on a stream lane is not a host stall). */
    public boolean isHostStall() {
        return cause != StallCause.COPY_ENGINE_BUSY;
    }
}
