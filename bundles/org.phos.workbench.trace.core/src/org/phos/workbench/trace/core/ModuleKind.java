package org.phos.workbench.trace.core;

/**
 * What a module image is (the v1 {@code ModuleKind} enum). Each constant keeps its wire number; a number this reader does not know (a newer recorder) reads as
 * {@link #UNRECOGNIZED}, as in protoc-generated Java.
 */
public enum ModuleKind {
    /** Not known. Wire name {@code MODULE_UNKNOWN}. */
    UNKNOWN(0),
    /** PTX text. Wire name {@code PTX}. */
    PTX(1),
    /** An ELF cubin. Wire name {@code CUBIN}. */
    CUBIN(2),
    /** A fat binary holding cubins and/or PTX. Wire name {@code FATBIN}. */
    FATBIN(3),
    /** A wire number this reader does not know. Cannot be written. */
    UNRECOGNIZED(-1);

    private static final ModuleKind[] BY_CODE;
    static {
        int max = 0;
        for (ModuleKind k : values()) max = Math.max(max, k.code);
        BY_CODE = new ModuleKind[max + 1];
        for (ModuleKind k : values()) if (k.code >= 0) BY_CODE[k.code] = k;
    }

    private final int code;

    ModuleKind(int code) {
        this.code = code;
    }

    /** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
    public int code() {
        return code;
    }

    /** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
    public static ModuleKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length && BY_CODE[code] != null ? BY_CODE[code] : UNRECOGNIZED;
    }
}
