package org.phos.workbench.cr.core;

/**
 * What a {@link CrPolicy} sees of and does to a running simulation: the host clock, the live buffers, the copy
 * engines, stalls, and the timeline and metrics it reports to.
 */
public interface SimulationContext {

    MachineModel machine();

    /** The application's host clock in ns (the time the next call would be issued). */
    long now();

    /** Launches issued so far. */
    long launchesIssued();

    boolean isLive(int buffer);

    /** Size of a buffer that is or was allocated; 0 if never seen. */
    long size(int buffer);

    /** Device address of a buffer (0 when the workload gave none). */
    long address(int buffer);

    /** Ids of the live buffers in ascending id order. */
    int[] liveBuffers();

    /** One past the largest buffer id seen so far. */
    int bufferIdLimit();

    /** When all GPU work submitted so far will have completed (max over streams and engines used by the app). */
    long drainTime();

    /**
     * The host waits until {@code endNs} (nothing when {@code endNs <= now()}); the wait is a stall with this cause,
     * recorded on the host lane. Returns the new {@link #now()}.
     */
    long stallUntil(long endNs, StallCause cause, int buffer, long opIndex);

    /**
     * Occupies a copy engine for a C/R copy of {@code bytes}: it starts at the later of {@code earliestNs} and the
     * engine becoming free, lasts the bytes over the engine's bandwidth with {@code staging} plus the machine's copy
     * latency, and appears on the engine's lane and on {@code crLane}. Returns the end time.
     */
    long scheduleCopy(CopyDirection direction, Staging staging, long earliestNs, long bytes, int crLane, String label,
            String category, int buffer);

    // i13-cow: begin
    /**
     * As {@link #scheduleCopy(CopyDirection, Staging, long, long, int, String, String, int)}, at {@code bytesPerSec}
     * with a fixed cost of {@code latencyNs} (a soft checkpoint's copier at its own rate). With {@code onEngine}
     * false the copy starts at {@code earliestNs} whatever the engine is doing and leaves the engine's queue as it
     * is: a copy the host queues on the application's stream (a copy-on-write copy), which the GPU runs beside the
     * engine's other copies.
     */
    long scheduleCopy(CopyDirection direction, double bytesPerSec, long latencyNs, boolean onEngine, long earliestNs,
            long bytes, int crLane, String label, String category, int buffer);
    // i13-cow: end

    /** When the engine of {@code direction} is next free. */
    long engineFreeAt(CopyDirection direction);

    void marker(long timeNs, String label, int checkpoint);

    void stateChange(long timeNs, int buffer, BufferState from, BufferState to, int checkpoint);

    void counter(long timeNs, String counter, long value);

    /** Reports a finished (or, at the end of the workload, cut-off) checkpoint. */
    void reportCheckpoint(CheckpointSummary summary);

    /** Reports a restore: its start, and when full state was reached ({@code -1} if never). */
    void reportRestore(long restoreStartNs, long fullStateNs, long bytesNeverRestored);

    void reportViolation(ConsistencyViolation violation);

    /** Whether at least one launch so far carried observed sets. */
    boolean hasObservedAccesses();
}
