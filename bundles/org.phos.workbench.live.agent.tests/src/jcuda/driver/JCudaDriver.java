package jcuda.driver;

import jcuda.CudaException;
import jcuda.Pointer;

/**
 * A stand-in for JCuda 12.0.0's {@code jcuda.driver.JCudaDriver} with the exact signatures of the methods the agent
 * instruments, and deterministic results so a test can tell that the instrumented class returns and throws exactly
 * what the original does. Like JCuda, an error result becomes a {@link CudaException} when exceptions are enabled.
 */
public final class JCudaDriver {
    private static boolean exceptions;
    private static long nextHandle = 0x1000;

    private JCudaDriver() {
    }

    public static void setExceptionsEnabled(boolean enabled) {
        exceptions = enabled;
    }

    private static int checkResult(int result) {
        if (exceptions && result != 0) {
            throw new CudaException("CUDA_ERROR " + result);
        }
        return result;
    }

    public static int cuModuleLoad(CUmodule module, String fname) {
        if (!new java.io.File(fname).isFile()) {
            return checkResult(301); // CUDA_ERROR_FILE_NOT_FOUND
        }
        module.handle = nextHandle++;
        return checkResult(0);
    }

    public static int cuModuleLoadData(CUmodule module, byte[] image) {
        module.handle = nextHandle++;
        return checkResult(image.length == 0 ? 218 : 0);
    }

    public static int cuModuleLoadData(CUmodule module, String string) {
        // delegates to the byte[] overload, as JCuda does: the agent must record this call once
        byte[] b = (string + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return cuModuleLoadData(module, b);
    }

    public static int cuModuleGetFunction(CUfunction hfunc, CUmodule hmod, String name) {
        if (hmod.handle == 0) {
            return checkResult(400); // CUDA_ERROR_INVALID_HANDLE
        }
        hfunc.handle = name.hashCode();
        return checkResult(0);
    }

    public static int cuMemAlloc(CUdeviceptr dptr, long bytesize) {
        dptr.handle = 0x7f0000000000L + bytesize;
        return checkResult(bytesize > (1L << 40) ? 2 : 0); // CUDA_ERROR_OUT_OF_MEMORY
    }

    public static int cuMemFree(CUdeviceptr dptr) {
        try {
            if (dptr.handle == 0) {
                throw new IllegalStateException("freed twice");
            }
            dptr.handle = 0;
            return checkResult(0);
        } catch (IllegalStateException e) {
            // a handler of the method's own: the agent's catch-all must not take it over
            return checkResult(1); // CUDA_ERROR_INVALID_VALUE
        }
    }

    public static int cuMemcpyHtoD(CUdeviceptr dstDevice, Pointer srcHost, long ByteCount) {
        return checkResult(0);
    }

    public static int cuMemcpyDtoH(Pointer dstHost, CUdeviceptr srcDevice, long ByteCount) {
        if (dstHost.target instanceof float[] f) {
            for (int i = 0; i < f.length; i++) {
                f[i] = i * 0.5f + srcDevice.handle % 7;
            }
        }
        return checkResult(0);
    }

    public static int cuLaunchKernel(CUfunction f, int gridDimX, int gridDimY, int gridDimZ, int blockDimX,
            int blockDimY, int blockDimZ, int sharedMemBytes, CUstream hStream, Pointer kernelParams, Pointer extra) {
        if (f.handle == 0) {
            throw new IllegalArgumentException("launch of a function that was never looked up");
        }
        return checkResult(gridDimX == 0 ? 1 : 0);
    }

    public static int cuLaunchCooperativeKernel(CUfunction f, int gridDimX, int gridDimY, int gridDimZ,
            int blockDimX, int blockDimY, int blockDimZ, int sharedMemBytes, CUstream hStream, Pointer kernelParams) {
        return checkResult(0);
    }

    /** Not instrumented (the agent wraps only the calls of DriverCall): a control. */
    public static int cuCtxSynchronize() {
        return checkResult(0);
    }
}
