/* Kernels that arrive as PTX: loads ptx_kernels.ptx with cuModuleLoadDataEx (driver JIT) and runs a small explicit
 * diffusion (stencil3, 20 steps, ping-pong buffers) plus saxpy and block sums, using the driver API only.
 * Launches pass parameters through kernelParams, except saxpy which uses the `extra` parameter buffer.
 * Prints "checksum <hex>" over the results. Build: gcc -O2 -I$CUDA/include -o ptx_driver ptx_driver.c -lcuda
 * Run: ./ptx_driver ptx_kernels.ptx */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = ""; cuGetErrorString(r_, &s_); fprintf(stderr, "%s: %d %s\n", #x, r_, s_); exit(2); } } while (0)
enum { N = 1 << 16, TPB = 256, STEPS = 20 };

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "ptx_kernels.ptx";
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 2; }
    static char ptx[1 << 20];
    size_t len = fread(ptx, 1, sizeof ptx - 1, f);
    fclose(f);
    ptx[len] = 0;
    CK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    CUjit_option opts[] = {CU_JIT_OPTIMIZATION_LEVEL};
    void *vals[] = {(void *)(uintptr_t)3};
    CK(cuModuleLoadDataEx(&mod, ptx, 1, opts, vals));
    CUfunction saxpy, stencil, bsum;
    CK(cuModuleGetFunction(&saxpy, mod, "saxpy"));
    CK(cuModuleGetFunction(&stencil, mod, "stencil3"));
    CK(cuModuleGetFunction(&bsum, mod, "block_sum"));
    CUstream st;
    CK(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
    CUdeviceptr a, b, x, sums;
    size_t bytes = N * sizeof(float);
    CK(cuMemAlloc(&a, bytes));
    CK(cuMemAlloc(&b, bytes));
    CK(cuMemAlloc(&x, bytes));
    CK(cuMemAlloc(&sums, (N / TPB) * sizeof(float)));
    float *h, *h2; /* two pinned buffers: a pinned source must not change before its async copy ran */
    CK(cuMemAllocHost((void **)&h, bytes));
    CK(cuMemAllocHost((void **)&h2, bytes));
    for (int i = 0; i < N; i++) h[i] = (i > N / 3 && i < 2 * N / 3) ? 1.f : 0.f;
    CK(cuMemcpyHtoDAsync(a, h, bytes, st));
    for (int i = 0; i < N; i++) h2[i] = (float)(i % 7) * 0.125f;
    CK(cuMemcpyHtoDAsync(x, h2, bytes, st));
    CK(cuStreamSynchronize(st));
    int n = N;
    float w = 0.2f;
    for (int s = 0; s < STEPS; s++) {
        CUdeviceptr src = (s & 1) ? b : a, dst = (s & 1) ? a : b;
        void *kp[] = {&src, &dst, &n, &w};
        CK(cuLaunchKernel(stencil, N / TPB, 1, 1, TPB, 1, 1, 0, st, kp, NULL));
    }
    /* saxpy through the extra parameter buffer: x (8) y (8) a (4) n (4) */
    struct { CUdeviceptr x, y; float a; int n; } pb = {x, a, 0.5f, N};
    size_t pbs = sizeof pb;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &pbs, CU_LAUNCH_PARAM_END};
    CK(cuLaunchKernel(saxpy, N / TPB, 1, 1, TPB, 1, 1, 0, st, NULL, extra));
    void *kb[] = {&a, &n, &sums};
    CK(cuLaunchKernel(bsum, N / TPB, 1, 1, TPB, 1, 1, 0, st, kb, NULL));
    float hs[N / TPB];
    CK(cuMemcpyDtoHAsync(h, a, bytes, st));
    CK(cuMemcpyDtoHAsync(hs, sums, sizeof hs, st));
    CK(cuStreamSynchronize(st));
    uint64_t hh = 0xcbf29ce484222325ull;
    const uint8_t *p = (const uint8_t *)h;
    for (size_t i = 0; i < bytes; i++) { hh ^= p[i]; hh *= 0x100000001b3ull; }
    p = (const uint8_t *)hs;
    for (size_t i = 0; i < sizeof hs; i++) { hh ^= p[i]; hh *= 0x100000001b3ull; }
    printf("checksum %016llx\n", (unsigned long long)hh);
    CK(cuMemFreeHost(h));
    CK(cuMemFreeHost(h2));
    CK(cuMemFree(a)); CK(cuMemFree(b)); CK(cuMemFree(x)); CK(cuMemFree(sums));
    CK(cuStreamDestroy(st));
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
