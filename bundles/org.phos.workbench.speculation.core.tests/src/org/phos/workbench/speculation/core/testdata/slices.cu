extern "C" __global__ void slice_write(float *base, int off, int n, float v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) base[off + i] = v;
}
extern "C" __global__ void slice_copy(const float *src, float *dst, unsigned long long off, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long) blockDim.x + threadIdx.x;
    if (i < n) dst[off + i] = src[i];
}
extern "C" __global__ void grid_stride_fill(float *base, int off, int n, float v) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) base[off + i] = v;
}
