/* i15-shapes: launches for the sampled sanitizer tool's CPU test (run_tests.py, section "sanitizer shapes"), over the
 * fake libcuda: the fake kernel axpy(const float *x, float *y, int n, struct {float *s; int k}) with one grid and
 * block throughout, so that only the arguments tell its launches apart.
 *   phase 1, stream s1, 5 launches each:   a (x, y, 64, {s, 1})     the first argument shape
 *                                          b (z, y, 64, {s, 1})     other buffers, same aliasing and offsets: shape a
 *                                          c (x, y, 128, {s, 1})    another scalar: a new shape
 *                                          d (x, x + 16 B, 64, ..)  two pointers into one allocation: a new shape
 *                                          e (x + 64 B, y, 64, ..)  a pointer inside its allocation: a new shape
 *   phase 2 (unpatch safety), grid 2: 2 launches on s1 (observed: the module is patched), 3 on s2 (not observed, run
 *     the patched code, stay in flight: s2 is never synchronised by the application), then 12 on s1: once the
 *     module's last observed launch is PHOS_SANITIZER_UNPATCH_AFTER launches ago the tool unpatches it, with the s2
 *     launches still in flight unless it synchronises s2 first.
 *   phase 3, grid 3: 6 launches whose n counts 64, 65, ... 69 (a step counter): each a new argument shape, unless
 *     PHOS_SANITIZER_ARG_STABLE masks the word once it has taken that many values.
 *   phase 4 (SHAPE_APP_THREADS=1), two threads: thread B makes a launch of a new shape (grid 4, observed: the module
 *     is patched) on stream s3 and is held inside that launch call by the fake sanitizer (FAKE_SANITIZER_HOLD_GRID=4)
 *     while thread A makes 12 launches of phase 2's judged shape on s1: the module is due for unpatching during
 *     them, but B's observed launch has not been issued yet: unpatching then would issue it uninstrumented.
 * Prints "checksum <fnv of y>" (the same with and without the tool). */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#define OK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #x, (int)r_); return 1; } } while (0)

static CUfunction axpy;
static CUdeviceptr gx, gy, gs;
static CUstream gs3;
static int held_bad;
static void *held_launch(void *arg) {   /* thread B of phase 4 */
    (void)arg;
    struct { float *s; int k; int pad; } sk = {(float *)(uintptr_t)gs, 4, 0};
    int n = 32;
    void *kp[4] = {&gx, &gy, &n, &sk};
    held_bad = cuLaunchKernel(axpy, 4, 1, 1, 64, 1, 1, 0, gs3, kp, NULL) != CUDA_SUCCESS;
    return NULL;
}
static int launch(CUstream st, unsigned grid, CUdeviceptr x, CUdeviceptr y, int n, CUdeviceptr s, int k) {
    struct { float *s; int k; int pad; } sk = {(float *)(uintptr_t)s, k, 0};
    void *kp[4] = {&x, &y, &n, &sk};
    return cuLaunchKernel(axpy, grid, 1, 1, 64, 1, 1, 0, st, kp, NULL) != CUDA_SUCCESS;
}

int main(void) {
    OK(cuInit(0));
    CUdeviceptr x, y, z, s;
    OK(cuMemAlloc_v2(&x, 4096));
    OK(cuMemAlloc_v2(&y, 4096));
    OK(cuMemAlloc_v2(&z, 4096));
    OK(cuMemAlloc_v2(&s, 64));
    float one = 1.0f, h[1024];
    for (int i = 0; i < 1024; i++) h[i] = (float)i;
    memcpy((void *)(uintptr_t)x, h, sizeof h);   /* fake "device" memory is host memory */
    memcpy((void *)(uintptr_t)z, h, sizeof h);
    memcpy((void *)(uintptr_t)s, &one, sizeof one);
    static const char ptx[] = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry axpy() { ret; }\n";
    CUmodule mod;
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&axpy, mod, "axpy"));
    CUstream s1, s2;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    int bad = 0;
    for (int i = 0; i < 5; i++) bad |= launch(s1, 1, x, y, 64, s, 1);
    for (int i = 0; i < 5; i++) bad |= launch(s1, 1, z, y, 64, s, 1);
    for (int i = 0; i < 5; i++) bad |= launch(s1, 1, x, y, 128, s, 1);
    for (int i = 0; i < 5; i++) bad |= launch(s1, 1, x, x + 16, 64, s, 1);
    for (int i = 0; i < 5; i++) bad |= launch(s1, 1, x + 64, y, 64, s, 1);
    OK(cuStreamSynchronize(s1));
    for (int i = 0; i < 2; i++) bad |= launch(s1, 2, x, y, 64, s, 2);
    for (int i = 0; i < 3; i++) bad |= launch(s2, 2, x, z, 64, s, 2);
    for (int i = 0; i < 12; i++) bad |= launch(s1, 2, x, y, 64, s, 2);
    OK(cuStreamSynchronize(s1));
    for (int i = 0; i < 6; i++) bad |= launch(s1, 3, x, y, 64 + i, s, 3);   /* phase 3: a counter scalar */
    OK(cuStreamSynchronize(s1));
    const char *th = getenv("SHAPE_APP_THREADS");
    if (th && atoi(th)) {   /* phase 4 */
        gx = x; gy = y; gs = s;
        OK(cuStreamCreate(&gs3, CU_STREAM_NON_BLOCKING));
        pthread_t b;
        if (pthread_create(&b, NULL, held_launch, NULL)) { fprintf(stderr, "no thread\n"); return 1; }
        struct timespec ts = {0, 100000000};   /* B is inside its launch call by then */
        nanosleep(&ts, NULL);
        for (int i = 0; i < 12; i++) bad |= launch(s1, 2, x, y, 64, s, 2);
        pthread_join(b, NULL);
        bad |= held_bad;
        for (int i = 0; i < 12; i++) bad |= launch(s1, 2, x, y, 64, s, 2);
        OK(cuStreamSynchronize(s1));
        OK(cuStreamSynchronize(gs3));
    }
    if (bad) { fprintf(stderr, "a launch failed\n"); return 1; }
    uint64_t f = 0xcbf29ce484222325ull;
    const unsigned char *p = (const unsigned char *)(uintptr_t)y;
    for (int i = 0; i < 4096; i++) f = (f ^ p[i]) * 0x100000001b3ull;
    printf("checksum %016llx\n", (unsigned long long)f);
    return 0;
}
