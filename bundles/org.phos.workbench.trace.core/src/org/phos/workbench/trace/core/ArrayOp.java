package org.phos.workbench.trace.core;

/**
 * What an {@link EventKind#ARRAY} event did to a CUDA array (the v1 {@code ArrayOp} enum). A number this reader does
 * not know (a newer recorder) reads as {@link #UNRECOGNIZED}.
 */
public enum ArrayOp {
    /** Not known. Wire name {@code ARRAY_OP_UNKNOWN}. */
    UNKNOWN(0),
    /** {@code cuArrayCreate} / {@code cuArray3DCreate}. Wire name {@code ARRAY_CREATE}. */
    CREATE(1),
    /** {@code cuArrayDestroy}. Wire name {@code ARRAY_DESTROY}. */
    DESTROY(2),
    /** A wire number this reader does not know. Cannot be written. */
    UNRECOGNIZED(-1);

    private final int code;

    ArrayOp(int code) {
        this.code = code;
    }

    /** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
    public int code() {
        return code;
    }

    /** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
    public static ArrayOp ofCode(int code) {
        return switch (code) {
            case 0 -> UNKNOWN;
            case 1 -> CREATE;
            case 2 -> DESTROY;
            default -> UNRECOGNIZED;
        };
    }
}
