// Interception cost microbenchmark: host time per kernel launch (an empty kernel, <<<1,32>>> on one stream).
// Runs BATCHES batches of LAUNCHES launches, synchronizing between batches so the launch queue never fills,
// and prints the median ns per launch over the batches. Run it with and without the recorder preloaded.
// Build: nvcc -O2 -arch=sm_90 -o launch_bench launch_bench.cu     Run: ./launch_bench [launches] [batches]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void empty_kernel(float *p, int n) { if (n < 0) p[0] = 0.f; }

int main(int argc, char **argv) {
    int launches = argc > 1 ? atoi(argv[1]) : 1000, batches = argc > 2 ? atoi(argv[2]) : 60;
    float *p;
    cudaMalloc(&p, 256);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int i = 0; i < 2000; i++) empty_kernel<<<1, 32, 0, s>>>(p, 1);  // warm up (module load, first-launch work)
    cudaStreamSynchronize(s);
    std::vector<double> per;
    for (int b = 0; b < batches; b++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < launches; i++) empty_kernel<<<1, 32, 0, s>>>(p, i);
        auto t1 = std::chrono::steady_clock::now();
        cudaStreamSynchronize(s);
        per.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / launches);
    }
    std::sort(per.begin(), per.end());
    printf("launch_bench: median %.1f ns per launch (p10 %.1f, p90 %.1f) over %d batches of %d\n", per[per.size() / 2],
           per[per.size() / 10], per[per.size() * 9 / 10], batches, launches);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : 1;
}
