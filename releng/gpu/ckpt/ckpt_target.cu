// The target of the driver-checkpoint check on the GPU (releng/gpu/ckpt/ckpt.sh): a deterministic CUDA loop whose
// results can be compared with an uninterrupted run. It fills a BIG buffer with a pattern, then each iteration
// advances a 4 MiB state with a kernel that reads the big buffer, copies the state back and prints its checksum with a
// CLOCK_MONOTONIC time, then sleeps. At the end it counts the big buffer's words that lost their pattern.
//   ckpt_target MIB ITERATIONS SLEEP_MS [managed]
// "managed" also allocates 64 MiB with cudaMallocManaged (the driver refuses to checkpoint such a process).
// Prints "ready PID" after the setup, "iter I sum S t_ns T" per iteration, "big_mismatches N" and "done" at the end.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <ctime>
#include <unistd.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("cuda error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); fflush(stdout); exit(3); } } while (0)

__device__ __host__ static uint32_t pattern(uint64_t i) {
    uint64_t x = i * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return (uint32_t)(x * 0xBF58476D1CE4E5B9ull >> 32);
}
__global__ void fill(uint32_t *b, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = pattern(i);
}
__global__ void step(uint32_t *s, size_t ns, const uint32_t *b, size_t nb, uint32_t it) {
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < ns; j += (size_t)gridDim.x * blockDim.x)
        s[j] = s[j] * 1664525u + 1013904223u + b[(j * 2654435761u + it * 40503u) % nb];
}
__global__ void verify(const uint32_t *b, size_t n, unsigned long long *bad) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        if (b[i] != pattern(i)) atomicAdd(bad, 1ull);
}
static long long now_ns() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s MIB ITERATIONS SLEEP_MS [managed]\n", argv[0]); return 2; }
    size_t nb = (size_t)atol(argv[1]) << 18;    // 32-bit words
    int iters = atoi(argv[2]), sleep_ms = atoi(argv[3]);
    bool managed = argc > 4 && !strcmp(argv[4], "managed");
    const size_t ns = 1 << 20;
    uint32_t *big, *st, *host = (uint32_t *)malloc(ns * 4);
    unsigned long long *bad;
    CK(cudaMalloc(&big, nb * 4));
    CK(cudaMalloc(&st, ns * 4));
    CK(cudaMalloc(&bad, 8));
    CK(cudaMemset(st, 0, ns * 4));
    CK(cudaMemset(bad, 0, 8));
    void *m = nullptr;
    if (managed) { CK(cudaMallocManaged(&m, 64 << 20)); CK(cudaMemset(m, 1, 64 << 20)); }
    fill<<<1024, 256>>>(big, nb);
    CK(cudaDeviceSynchronize());
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    for (int it = 0; it < iters; it++) {
        step<<<1024, 256>>>(st, ns, big, nb, (uint32_t)it);
        CK(cudaMemcpy(host, st, ns * 4, cudaMemcpyDeviceToHost));
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t j = 0; j < ns; j++) { h ^= host[j]; h *= 0x100000001b3ull; }
        printf("iter %d sum %016llx t_ns %lld\n", it, (unsigned long long)h, now_ns());
        fflush(stdout);
        usleep(sleep_ms * 1000);
    }
    verify<<<1024, 256>>>(big, nb, bad);
    unsigned long long nbad = 0;
    CK(cudaMemcpy(&nbad, bad, 8, cudaMemcpyDeviceToHost));
    printf("big_mismatches %llu\n", nbad);
    printf("done\n");
    return 0;
}
