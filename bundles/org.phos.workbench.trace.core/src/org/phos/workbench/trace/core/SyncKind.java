package org.phos.workbench.trace.core;

/**
 * Which stream or CUDA-event operation a sync event is (the v1 {@code SyncKind} enum). Each constant keeps its wire number; a number this reader does not know (a newer recorder) reads as
 * {@link #UNRECOGNIZED}, as in protoc-generated Java.
 */
public enum SyncKind {
    /** Not known. Wire name {@code SYNC_UNKNOWN}. */
    UNKNOWN(0),
    /** A stream was created. Wire name {@code STREAM_CREATE}. */
    STREAM_CREATE(1),
    /** A stream was destroyed. Wire name {@code STREAM_DESTROY}. */
    STREAM_DESTROY(2),
    /** A CUDA event was created. Wire name {@code EVENT_CREATE}. */
    EVENT_CREATE(3),
    /** A CUDA event was destroyed. Wire name {@code EVENT_DESTROY}. */
    EVENT_DESTROY(4),
    /** A CUDA event was recorded on a stream. Wire name {@code EVENT_RECORD}. */
    EVENT_RECORD(5),
    /** A stream waits for a recorded CUDA event. Wire name {@code STREAM_WAIT_EVENT}. */
    STREAM_WAIT_EVENT(6),
    /** The host waited for a stream. Wire name {@code STREAM_SYNCHRONIZE}. */
    STREAM_SYNCHRONIZE(7),
    /** The host waited for a CUDA event. Wire name {@code EVENT_SYNCHRONIZE}. */
    EVENT_SYNCHRONIZE(8),
    /** The host waited for the whole device. Wire name {@code CONTEXT_SYNCHRONIZE}. */
    CONTEXT_SYNCHRONIZE(9),
    /** Stream capture into a graph began. Wire name {@code GRAPH_CAPTURE_BEGIN}. */
    GRAPH_CAPTURE_BEGIN(10),
    /** Stream capture into a graph ended. Wire name {@code GRAPH_CAPTURE_END}. */
    GRAPH_CAPTURE_END(11),
    /**
     * A host function enqueued on a stream ({@code cuLaunchHostFunc}): it runs after the stream's earlier work and
     * the stream's later work waits for it; the event field holds the function's address. Wire name
     * {@code HOST_FUNCTION}.
     */
    HOST_FUNCTION(12),
    /** A stream callback ({@code cuStreamAddCallback}), ordered like a host function. Wire name {@code STREAM_CALLBACK}. */
    STREAM_CALLBACK(13),
    /** A wire number this reader does not know. Cannot be written. */
    UNRECOGNIZED(-1);

    private static final SyncKind[] BY_CODE;
    static {
        int max = 0;
        for (SyncKind k : values()) max = Math.max(max, k.code);
        BY_CODE = new SyncKind[max + 1];
        for (SyncKind k : values()) if (k.code >= 0) BY_CODE[k.code] = k;
    }

    private final int code;

    SyncKind(int code) {
        this.code = code;
    }

    /** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
    public int code() {
        return code;
    }

    /** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
    public static SyncKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length && BY_CODE[code] != null ? BY_CODE[code] : UNRECOGNIZED;
    }
}
