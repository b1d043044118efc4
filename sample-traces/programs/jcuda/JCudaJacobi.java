import static jcuda.driver.JCudaDriver.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.*;

/**
 * A small iterative computation through JCuda's driver binding: Jacobi relaxation of a 2D Laplace problem on a
 * 256 x 256 grid, 60 sweeps with ping-pong buffers, the residual computed on the GPU every 10 sweeps and copied back
 * asynchronously into pinned memory, timed with CUDA events. Kernels come as PTX (jacobi.ptx, JIT-compiled by the
 * driver). Prints "checksum <hex>" (FNV-1a over the final grid and residuals) so runs with and without the recorder
 * can be compared. Run: java -cp jcuda-12.0.0.jar:jcuda-natives-12.0.0-linux-x86_64.jar:. JCudaJacobi jacobi.ptx
 */
public class JCudaJacobi {
    static final int N = 256, SWEEPS = 60, CHECK_EVERY = 10, TPB = 16;

    public static void main(String[] args) throws Exception {
        JCudaDriver.setExceptionsEnabled(true);
        byte[] ptx = Files.readAllBytes(Path.of(args.length > 0 ? args[0] : "jacobi.ptx"));
        byte[] image = new byte[ptx.length + 1];
        System.arraycopy(ptx, 0, image, 0, ptx.length);
        cuInit(0);
        CUdevice dev = new CUdevice();
        cuDeviceGet(dev, 0);
        CUcontext ctx = new CUcontext();
        cuCtxCreate(ctx, 0, dev);
        CUmodule mod = new CUmodule();
        cuModuleLoadData(mod, image);
        CUfunction step = new CUfunction(), residual = new CUfunction();
        cuModuleGetFunction(step, mod, "jacobi_step");
        cuModuleGetFunction(residual, mod, "row_residual");
        CUstream stream = new CUstream();
        cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING);
        long bytes = (long) N * N * Sizeof.FLOAT;
        CUdeviceptr u = new CUdeviceptr(), v = new CUdeviceptr(), res = new CUdeviceptr();
        cuMemAlloc(u, bytes);
        cuMemAlloc(v, bytes);
        cuMemAlloc(res, (long) N * Sizeof.FLOAT);
        // boundary: top row 1.0, everything else 0
        float[] grid = new float[N * N];
        for (int x = 0; x < N; x++) grid[x] = 1.0f;
        cuMemcpyHtoD(u, Pointer.to(grid), bytes);
        cuMemcpyHtoD(v, Pointer.to(grid), bytes);
        Pointer pinned = new Pointer();
        cuMemAllocHost(pinned, (long) N * Sizeof.FLOAT);
        FloatBuffer resHost = pinned.getByteBuffer(0, (long) N * Sizeof.FLOAT).order(ByteOrder.nativeOrder()).asFloatBuffer();
        CUevent start = new CUevent(), stop = new CUevent();
        cuEventCreate(start, 0);
        cuEventCreate(stop, 0);
        cuEventRecord(start, stream);
        int gridDim = (N + TPB - 1) / TPB;
        float[] residuals = new float[SWEEPS / CHECK_EVERY];
        CUdeviceptr a = u, b = v;
        for (int s = 0; s < SWEEPS; s++) {
            Pointer params = Pointer.to(Pointer.to(a), Pointer.to(b), Pointer.to(new int[] {N}));
            cuLaunchKernel(step, gridDim, gridDim, 1, TPB, TPB, 1, 0, stream, params, null);
            if ((s + 1) % CHECK_EVERY == 0) {
                Pointer rp = Pointer.to(Pointer.to(a), Pointer.to(b), Pointer.to(new int[] {N}), Pointer.to(res));
                cuLaunchKernel(residual, (N + 127) / 128, 1, 1, 128, 1, 1, 0, stream, rp, null);
                cuMemcpyDtoHAsync(pinned, res, (long) N * Sizeof.FLOAT, stream);
                cuStreamSynchronize(stream);
                float sum = 0f;
                for (int i = 0; i < N; i++) sum += resHost.get(i);
                residuals[s / CHECK_EVERY] = sum;
            }
            CUdeviceptr t = a; a = b; b = t;
        }
        cuEventRecord(stop, stream);
        cuEventSynchronize(stop);
        float[] ms = new float[1];
        cuEventElapsedTime(ms, start, stop);
        cuMemcpyDtoH(Pointer.to(grid), a, bytes);
        long h = 0xcbf29ce484222325L;
        ByteBuffer bb = ByteBuffer.allocate(grid.length * 4 + residuals.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : grid) bb.putFloat(f);
        for (float f : residuals) bb.putFloat(f);
        for (byte x : bb.array()) { h ^= (x & 0xff); h *= 0x100000001b3L; }
        System.out.printf("jacobi: %d sweeps, residual %.6e -> %.6e, %.3f ms on the GPU%n", SWEEPS, residuals[0], residuals[residuals.length - 1], ms[0]);
        System.out.printf("checksum %016x%n", h);
        cuMemFreeHost(pinned);
        cuMemFree(u); cuMemFree(v); cuMemFree(res);
        cuEventDestroy(start); cuEventDestroy(stop);
        cuStreamDestroy(stream);
        cuModuleUnload(mod);
        cuCtxDestroy(ctx);
    }
}
