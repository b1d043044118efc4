package jcuda;

/** Stand-in for JCuda's {@code jcuda.CudaException} (i14-jsites). */
public class CudaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CudaException(String message) {
        super(message);
    }
}
