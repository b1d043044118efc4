package jcuda;

/**
 * Stand-in for JCuda's {@code jcuda.Pointer} (i14-jsites): what the FFM stand-in driver needs. {@code Pointer.to(...)}
 * of kernel arguments holds them in order: a {@code Pointer} (a device pointer: its address), an {@code int[]} or a
 * {@code long[]} (their values, laid out one after the other).
 */
public class Pointer {
    public final Object[] targets;
    /** The native address of a handle or device pointer (0 when none). */
    public long handle;

    public Pointer() {
        this.targets = new Object[0];
    }

    private Pointer(Object[] targets) {
        this.targets = targets;
    }

    public static Pointer to(Object... targets) {
        return new Pointer(targets);
    }
}
