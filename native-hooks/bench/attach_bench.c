/* Recorder cost per launch on the CPU (the fake libcuda of tests/, no GPU): what live attach adds.
 * Run by attach_bench.py, which starts this program with and without the recorder and attaches readers to it
 * between rounds. Commands on stdin: "round N" runs N launches of one kernel and answers "ns X" (host ns per launch,
 * the whole loop timed with CLOCK_MONOTONIC); "exit". The kernel's arguments are the same as fake_app's (4 params,
 * 40 bytes, copied by the recorder into each Launch event).
 * Build: make -C native-hooks build/attach_bench */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define OK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { fprintf(stderr, "attach_bench: %s failed (%d)\n", #x, (int)r_); return 2; } } while (0)

int main(void) {
    CUdevice dev;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr x, y, sc;
    static const char ptx[] = ".version 9.0\n.target sm_90\n.visible .entry axpy() { ret; }\n";
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&f, mod, "axpy"));
    OK(cuMemAlloc_v2(&x, 256));
    OK(cuMemAlloc_v2(&y, 256));
    OK(cuMemAlloc_v2(&sc, 8));
    int n = 64;
    long k = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("ready %d\n", (int)getpid());
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        long v = 0;
        if (sscanf(line, "round %ld", &v) == 1 && v > 0) {
            uint64_t t0 = now_ns();
            for (long i = 0; i < v; i++, k++) {
                struct { float *s; int k; } st = {(float *)(uintptr_t)sc, (int)k};
                void *kp[] = {&x, &y, &n, &st};
                OK(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, kp, NULL));
            }
            printf("ns %.2f\n", (double)(now_ns() - t0) / (double)v);
        } else if (!strncmp(line, "exit", 4)) break;
        else printf("?\n");
    }
    return 0;
}
