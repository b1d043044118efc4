package org.phos.workbench.trace.core;

/**
 * How an allocation was made (the v1 {@code AllocKind} enum). Each constant keeps its wire number; a number this reader does not know (a newer recorder) reads as
 * {@link #UNRECOGNIZED}, as in protoc-generated Java.
 */
public enum AllocKind {
    /** {@code cuMemAlloc}/{@code cudaMalloc}. Wire name {@code ALLOC_PLAIN}. */
    PLAIN(0),
    /** Stream-ordered allocation from a memory pool ({@code cudaMallocAsync}). Wire name {@code ALLOC_ASYNC}. */
    ASYNC(1),
    /** Unified (managed) memory. Wire name {@code ALLOC_MANAGED}. */
    MANAGED(2),
    /** A virtual-memory-management mapping ({@code cuMemMap}). Wire name {@code ALLOC_VMM}. */
    VMM(3),
    /** Page-locked host memory. Wire name {@code ALLOC_HOST_PINNED}. */
    HOST_PINNED(4),
    /** A pitched 2D allocation. Wire name {@code ALLOC_PITCHED}. */
    PITCHED(5),
    /** A wire number this reader does not know. Cannot be written. */
    UNRECOGNIZED(-1);

    private static final AllocKind[] BY_CODE;
    static {
        int max = 0;
        for (AllocKind k : values()) max = Math.max(max, k.code);
        BY_CODE = new AllocKind[max + 1];
        for (AllocKind k : values()) if (k.code >= 0) BY_CODE[k.code] = k;
    }

    private final int code;

    AllocKind(int code) {
        this.code = code;
    }

    /** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
    public int code() {
        return code;
    }

    /** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
    public static AllocKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length && BY_CODE[code] != null ? BY_CODE[code] : UNRECOGNIZED;
    }
}
