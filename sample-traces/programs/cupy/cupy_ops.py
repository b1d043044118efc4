"""CuPy sample for Phoenix Workbench traces: kernels compiled at run time (NVRTC), loaded as PTX when
CUPY_COMPILE_WITH_PTX=1 (as the recording does), so that the PTX analysis and the PTX instrumentation see them.

A RawKernel with a const input and a strided output, a RawKernel reading through a device table of pointers
(indirect), an ElementwiseKernel, a ReductionKernel and a cuBLAS matmul (cp.matmul: no PTX). Deterministic; prints
`checksum <hex>` over every result.

    CUPY_COMPILE_WITH_PTX=1 python3 cupy_ops.py [--iters N]
"""
import argparse
import hashlib

import cupy as cp

SRC = r'''
extern "C" __global__ void strided_scale(const float* __restrict__ in, float* out, int n, int stride, float alpha) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i * stride] = alpha * in[i];
}

extern "C" __global__ void gather_rows(const float* const* rows, float* out, int nrows, int cols) {
    int r = blockIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows && c < cols) out[r * cols + c] = rows[r][c] + 1.0f;
}
'''


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--iters", type=int, default=3)
    args = p.parse_args()
    mod = cp.RawModule(code=SRC)
    strided = mod.get_function("strided_scale")
    gather = mod.get_function("gather_rows")
    axpb = cp.ElementwiseKernel("float32 x, float32 a, float32 b", "float32 y", "y = a * x + b", "phos_axpb")
    sumsq = cp.ReductionKernel("float32 x", "float32 y", "x * x", "a + b", "y = a", "0", "phos_sumsq")
    rs = cp.random.RandomState(0)
    n = 50_000
    x = rs.standard_normal(n, dtype=cp.float32)
    out = cp.zeros(2 * n, dtype=cp.float32)            # every other element written
    srcs = [rs.standard_normal(4096, dtype=cp.float32) for _ in range(4)]
    table = cp.asarray([s.data.ptr for s in srcs[:3]], dtype=cp.uint64)   # 3 of the 4 rows reachable
    gathered = cp.zeros((3, 4096), dtype=cp.float32)
    m = rs.standard_normal((128, 64), dtype=cp.float32)
    w = rs.standard_normal((64, 32), dtype=cp.float32)
    for _ in range(args.iters):
        strided((cp.int32(n + 255) // 256,), (256,), (x, out, cp.int32(n), cp.int32(2), cp.float32(1.5)))
        gather((4096 // 128, 3), (128,), (table, gathered, cp.int32(3), cp.int32(4096)))
        y = axpb(x, cp.float32(2.0), cp.float32(-1.0))
        s = sumsq(y)
        prod = cp.matmul(m, w)
    cp.cuda.Device().synchronize()
    h = hashlib.sha256()
    for t in (out, gathered, y, s, prod):
        h.update(cp.asnumpy(t).tobytes())
    assert bool(cp.allclose(out[::2], 1.5 * x))
    print("cupy_ops: %d iterations, 5 kernels each" % args.iters)
    print("checksum %s" % h.hexdigest()[:16])


if __name__ == "__main__":
    main()
