package jcuda.driver;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

import jcuda.CudaException;
import jcuda.Pointer;

/**
 * A stand-in for JCuda 12.0.0's {@code jcuda.driver.JCudaDriver} that calls the real entry points of
 * {@code libcuda.so.1} through Java's FFM API (java.lang.foreign), as JCuda does through JNI: under the phos recorder
 * (LD_PRELOAD) the calls reach the recorder's wrappers (its dlsym hands them out), and over native-hooks' fake
 * libcuda (LD_LIBRARY_PATH) they run on the CPU. The methods the JCuda agent instruments have JCuda's exact
 * signatures, so the agent sees the same calls the recorder records (i14-jsites tests).
 */
public final class JCudaDriver {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup CUDA = SymbolLookup.libraryLookup("libcuda.so.1", Arena.global());
    private static final MethodHandle INIT = handle("cuInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle LOAD_DATA = handle("cuModuleLoadData",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GET_FUNCTION = handle("cuModuleGetFunction",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle ALLOC = handle("cuMemAlloc_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle FREE = handle("cuMemFree_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private static final MethodHandle HTOD = handle("cuMemcpyHtoD_v2",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle LAUNCH = handle("cuLaunchKernel", FunctionDescriptor.of(JAVA_INT, ADDRESS,
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static boolean exceptions;

    private JCudaDriver() {
    }

    private static MethodHandle handle(String name, FunctionDescriptor d) {
        return LINKER.downcallHandle(CUDA.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name)), d);
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

    private static int call(MethodHandle h, Object... args) {
        try {
            return (int) h.invokeWithArguments(args);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static int cuInit(int flags) {
        return checkResult(call(INIT, flags));
    }

    public static int cuModuleLoadData(CUmodule module, String image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            byte[] b = image.getBytes(StandardCharsets.UTF_8);
            MemorySegment img = a.allocate(b.length + 1L);
            img.copyFrom(MemorySegment.ofArray(b));
            int r = call(LOAD_DATA, out, img);
            module.handle = out.get(ADDRESS, 0).address();
            return checkResult(r);
        }
    }

    public static int cuModuleGetFunction(CUfunction hfunc, CUmodule hmod, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int r = call(GET_FUNCTION, out, MemorySegment.ofAddress(hmod.handle), a.allocateFrom(name));
            hfunc.handle = out.get(ADDRESS, 0).address();
            return checkResult(r);
        }
    }

    public static int cuMemAlloc(CUdeviceptr dptr, long bytesize) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            int r = call(ALLOC, out, bytesize);
            dptr.handle = out.get(JAVA_LONG, 0);
            return checkResult(r);
        }
    }

    public static int cuMemFree(CUdeviceptr dptr) {
        return checkResult(call(FREE, dptr.handle));
    }

    /** Copies {@code srcHost}'s first target (a {@code float[]}) to the device. */
    public static int cuMemcpyHtoD(CUdeviceptr dstDevice, Pointer srcHost, long ByteCount) {
        try (Arena a = Arena.ofConfined()) {
            float[] f = (float[]) srcHost.targets[0];
            MemorySegment src = a.allocate(Math.max(ByteCount, 4L * f.length));
            src.copyFrom(MemorySegment.ofArray(f));
            return checkResult(call(HTOD, dstDevice.handle, src, ByteCount));
        }
    }

    public static int cuLaunchKernel(CUfunction f, int gridDimX, int gridDimY, int gridDimZ, int blockDimX,
            int blockDimY, int blockDimZ, int sharedMemBytes, CUstream hStream, Pointer kernelParams, Pointer extra) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = MemorySegment.NULL;
            if (kernelParams != null) {
                Object[] t = kernelParams.targets;
                params = a.allocate(ADDRESS, t.length);
                for (int i = 0; i < t.length; i++) {
                    MemorySegment v;
                    if (t[i] instanceof Pointer p) {
                        v = a.allocateFrom(JAVA_LONG, p.handle);
                    } else if (t[i] instanceof int[] ints) {
                        v = a.allocateFrom(JAVA_INT, ints);
                    } else {
                        v = a.allocateFrom(JAVA_LONG, (long[]) t[i]);
                    }
                    params.setAtIndex(ADDRESS, i, v);
                }
            }
            return checkResult(call(LAUNCH, MemorySegment.ofAddress(f.handle), gridDimX, gridDimY, gridDimZ,
                    blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                    MemorySegment.ofAddress(hStream == null ? 0 : hStream.handle), params, MemorySegment.NULL));
        }
    }
}
