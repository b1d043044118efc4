package jcuda;

/** Test stand-in for JCuda's {@code jcuda.Pointer}: only what the fake driver needs. */
public class Pointer {
    public final Object target;

    public Pointer() {
        this(null);
    }

    private Pointer(Object target) {
        this.target = target;
    }

    public static Pointer to(Object target) {
        return new Pointer(target);
    }
}
