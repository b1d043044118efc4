// Source of ptx_kernels.ptx (regenerate: nvcc -ptx -arch=sm_90 -o ptx_kernels.ptx ptx_kernels.cu).
// The PTX is what ptx_driver loads at run time with cuModuleLoadDataEx (the driver JIT-compiles it).
extern "C" __global__ void saxpy(const float *x, float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
// 3-point stencil from src to dst (boundaries copied)
extern "C" __global__ void stencil3(const float *src, float *dst, int n, float w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i == 0 || i == n - 1) { dst[i] = src[i]; return; }
    dst[i] = w * src[i - 1] + (1.f - 2.f * w) * src[i] + w * src[i + 1];
}
// per-block sums (fixed order, deterministic)
extern "C" __global__ void block_sum(const float *x, int n, float *out) {
    if (threadIdx.x != 0) return;
    float s = 0.f;
    int b = blockIdx.x * blockDim.x;
    for (int i = b; i < b + (int)blockDim.x && i < n; i++) s += x[i];
    out[blockIdx.x] = s;
}
