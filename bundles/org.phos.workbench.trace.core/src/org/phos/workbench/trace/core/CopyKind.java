package org.phos.workbench.trace.core;

/**
 * Direction of a memory copy (the v1 {@code CopyKind} enum). Each constant keeps its wire number; a number this reader does not know (a newer recorder) reads as
 * {@link #UNRECOGNIZED}, as in protoc-generated Java.
 */
public enum CopyKind {
    /** Not known. Wire name {@code COPY_UNKNOWN}. */
    UNKNOWN(0),
    /** Host to device. Wire name {@code H2D}. */
    H2D(1),
    /** Device to host. Wire name {@code D2H}. */
    D2H(2),
    /** Device to device. Wire name {@code D2D}. */
    D2D(3),
    /** Host to host. Wire name {@code H2H}. */
    H2H(4),
    /** Between two devices. Wire name {@code PEER}. */
    PEER(5),
    /** Inferred from the pointers by the driver ({@code cudaMemcpyDefault}). Wire name {@code DEFAULT}. */
    DEFAULT(6),
    /** Host to CUDA array (src is the host address, dst the {@code CUarray} handle). Wire name {@code H2A}. */
    H2A(7),
    /** CUDA array to host. Wire name {@code A2H}. */
    A2H(8),
    /** Device to CUDA array. Wire name {@code D2A}. */
    D2A(9),
    /** CUDA array to device. Wire name {@code A2D}. */
    A2D(10),
    /** CUDA array to CUDA array. Wire name {@code A2A}. */
    A2A(11),
    /** A wire number this reader does not know. Cannot be written. */
    UNRECOGNIZED(-1);

    private static final CopyKind[] BY_CODE;
    static {
        int max = 0;
        for (CopyKind k : values()) max = Math.max(max, k.code);
        BY_CODE = new CopyKind[max + 1];
        for (CopyKind k : values()) if (k.code >= 0) BY_CODE[k.code] = k;
    }

    private final int code;

    CopyKind(int code) {
        this.code = code;
    }

    /** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
    public int code() {
        return code;
    }

    /** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
    public static CopyKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length && BY_CODE[code] != null ? BY_CODE[code] : UNRECOGNIZED;
    }
}
