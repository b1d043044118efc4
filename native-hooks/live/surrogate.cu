// Surrogate kernels of the live C/R executor (org.phos.workbench.live.SurrogateKernels).
__device__ __forceinline__ unsigned char phos_pattern(unsigned long long seed, unsigned long long index) {
  unsigned long long h = seed ^ (index * 0x9E3779B97F4A7C15ull);
  h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
  return (unsigned char) h;
}
extern "C" __global__ void phos_surrogate_write(unsigned char *dst, unsigned long long bytes,
    unsigned long long seed, unsigned long long first) {
  unsigned long long stride = (unsigned long long) gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x; i < bytes; i += stride)
    dst[i] = phos_pattern(seed, first + i);
}
extern "C" __global__ void phos_surrogate_spin(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}
