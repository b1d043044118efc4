// Source of jacobi.ptx (regenerate: nvcc -ptx -arch=sm_90 -o jacobi.ptx jacobi.cu), loaded by JCudaJacobi.java.
// One Jacobi sweep of a 2D Laplace problem on an n x n grid (boundary rows/columns fixed).
extern "C" __global__ void jacobi_step(const float *u, float *unew, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n) return;
    int i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) { unew[i] = u[i]; return; }
    unew[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n]);
}
// squared differences per row, summed in fixed order
extern "C" __global__ void row_residual(const float *u, const float *unew, int n, float *res) {
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= n) return;
    float s = 0.f;
    for (int x = 0; x < n; x++) { float d = unew[y * n + x] - u[y * n + x]; s += d * d; }
    res[y] = s;
}
