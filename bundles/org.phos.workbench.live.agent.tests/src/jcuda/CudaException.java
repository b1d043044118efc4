package jcuda;

/** Test stand-in for JCuda's {@code jcuda.CudaException}. */
public class CudaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CudaException(String message) {
        super(message);
    }
}
