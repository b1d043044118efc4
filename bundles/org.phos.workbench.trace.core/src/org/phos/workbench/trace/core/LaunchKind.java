package org.phos.workbench.trace.core;

/**
 * How a kernel was launched (the v1 {@code LaunchKind} enum). Each constant keeps its wire number; a number this reader does not know (a newer recorder) reads as
 * {@link #UNRECOGNIZED}, as in protoc-generated Java.
 */
public enum LaunchKind {
    /** {@code cuLaunchKernel}/{@code <<<>>>}. Wire name {@code LAUNCH_PLAIN}. */
    PLAIN(0),
    /** {@code cuLaunchKernelEx} with attributes. Wire name {@code LAUNCH_EX}. */
    EX(1),
    /** A cooperative launch. Wire name {@code LAUNCH_COOPERATIVE}. */
    COOPERATIVE(2),
    /** A kernel node of a graph launch; {@link Trace#graphLaunchEvent(int)} names the graph launch. Wire name {@code LAUNCH_GRAPH_NODE}. */
    GRAPH_NODE(3),
    /** A wire number this reader does not know. Cannot be written. */
    UNRECOGNIZED(-1);

    private static final LaunchKind[] BY_CODE;
    static {
        int max = 0;
        for (LaunchKind k : values()) max = Math.max(max, k.code);
        BY_CODE = new LaunchKind[max + 1];
        for (LaunchKind k : values()) if (k.code >= 0) BY_CODE[k.code] = k;
    }

    private final int code;

    LaunchKind(int code) {
        this.code = code;
    }

    /** The wire number of this constant ({@code -1} for {@link #UNRECOGNIZED}). */
    public int code() {
        return code;
    }

    /** The constant with the given wire number, or {@link #UNRECOGNIZED}. */
    public static LaunchKind ofCode(int code) {
        return code >= 0 && code < BY_CODE.length && BY_CODE[code] != null ? BY_CODE[code] : UNRECOGNIZED;
    }
}
