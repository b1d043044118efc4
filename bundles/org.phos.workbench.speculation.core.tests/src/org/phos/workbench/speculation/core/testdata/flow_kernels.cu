#include <cuda_pipeline.h>
struct Args { const float* in; float* out; int n; };
struct Mixed { int count; float* dst; double scale; const int* idx; };
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void struct_copy(Args a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) a.out[i] = a.in[i];
}
extern "C" __global__ void mixed_struct(Mixed m) {
  unsigned i = threadIdx.x;
  if (i < 64) m.dst[m.idx[i]] = (float)m.scale;
}
extern "C" __global__ void counter(unsigned* hits, const int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] > 0) atomicAdd(hits, 1u);
}
extern "C" __global__ void gather_ptrs(float** rows, int cols) {
  int c = threadIdx.x;
  if (c < cols) rows[blockIdx.x][c] = 1.0f;
}
extern "C" __global__ void vec4_copy(const float4* __restrict__ src, float4* dst, unsigned n4) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) dst[i] = src[i];
}
extern "C" __global__ void sloppy_const(const float* p) {
  ((float*)p)[threadIdx.x] = 0.0f;
}
extern "C" __global__ void read_only_nonconst(float* p, float* out) {
  __shared__ float s[32];
  s[threadIdx.x & 31] = p[threadIdx.x & 31];
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s[0] + s[1];
}
extern "C" __global__ void grid_stride(float* p, long n) {
  for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x) p[i] *= 2.0f;
}
extern "C" __global__ void fixed_slots(int* p, const int* q, int unused_int, float* unused_ptr) {
  p[3] = q[1] + q[2];
}
extern "C" __global__ void async_copy(const float* __restrict__ g, float* out) {
  __shared__ float buf[256];
  __pipeline_memcpy_async(&buf[threadIdx.x], &g[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = buf[threadIdx.x];
}
__device__ __noinline__ void helper_store(float* p, int i) { p[i] = 3.0f; }
extern "C" __global__ void calls_helper(float* p) { helper_store(p, threadIdx.x); }
extern "C" __global__ void reduce_max(int* m, const int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(m, v[i]);
}
extern "C" __global__ void row_major(float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = 0.0f;
}
