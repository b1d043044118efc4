package org.phos.workbench.cr.core;

/** What an application {@link Operation} does, as far as the simulator's timeline is concerned. */
public enum OperationKind {
    /** A kernel launch: runs on its stream for its GPU duration. */
    LAUNCH,
    /** A memory copy: runs on the copy engine of its {@link CopyDirection}. */
    COPY,
    /** A memset: runs on its stream like a kernel. */
    SET,
    /** A device allocation: introduces a buffer (id, size, address). */
    ALLOC,
    /** A device free: the buffer ends. */
    FREE,
    /** The host waits for all work of one stream. */
    STREAM_SYNC,
    /** The host waits for all work of all streams. */
    DEVICE_SYNC,
    /** A CUDA event is recorded on a stream: it completes when the stream's earlier work does. */
    EVENT_RECORD,
    /** A stream waits for a recorded event before its later work starts. */
    EVENT_WAIT,
    /** The host waits for a recorded event. */
    EVENT_SYNC,
    // i16-rec: begin
    /**
     * Host work enqueued on a stream ({@code cuLaunchHostFunc}, {@code cuStreamAddCallback}): it starts when the
     * stream's earlier work is done and the stream's later work waits for it. The trace has no duration for it: the
     * simulator gives it none (it orders, it does not occupy).
     */
    HOST_FUNCTION
    // i16-rec: end
}
