package org.phos.workbench.trace.core;

/**
 * Which {@code cuTensorMapEncode*} call made a tensor map (the v1 {@code TensorMapKind} enum). A number this reader
 * does not know reads as {@link #UNRECOGNIZED}.
 */
public enum TensorMapKind {
    /** Not known. Wire name {@code TENSOR_MAP_UNKNOWN}. */
    UNKNOWN(0),
    /** {@code cuTensorMapEncodeTiled}. Wire name {@code TILED}. */
    TILED(1),
    /** {@code cuTensorMapEncodeIm2col}. Wire name {@code IM2COL}. */
    IM2COL(2),
    /** {@code cuTensorMapEncodeIm2colWide}. Wire name {@code IM2COL_WIDE}. */
    IM2COL_WIDE(3),
    /** A wire number this reader does not know. Cannot be written. */
    UNRECOGNIZED(-1);

    private final int code;

    TensorMapKind(int code) {
        this.code = code;
    }

    /** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
    public int code() {
        return code;
    }

    /** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
    public static TensorMapKind ofCode(int code) {
        return switch (code) {
            case 0 -> UNKNOWN;
            case 1 -> TILED;
            case 2 -> IM2COL;
            case 3 -> IM2COL_WIDE;
            default -> UNRECOGNIZED;
        };
    }
}
