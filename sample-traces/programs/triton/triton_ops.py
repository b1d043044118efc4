"""Triton sample for Phoenix Workbench traces: a few kernels whose accesses differ in shape.

vector add with a masked tail, a row-wise softmax (one program per row, strided rows), a blocked matmul with tl.dot,
and an in-place scaled update of a slice of a larger buffer (a pointer into the middle of an allocation, as a
caching allocator hands out). Deterministic; prints `checksum <hex>` over every result.

    python3 triton_ops.py [--iters N]
"""
import argparse
import hashlib

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(in_ptr + row * in_stride + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * out_stride + offs, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def scale_inplace_kernel(buf_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(buf_ptr + offs, mask=mask)
    tl.store(buf_ptr + offs, v * alpha, mask=mask)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--iters", type=int, default=3)
    args = p.parse_args()
    torch.manual_seed(0)
    dev = "cuda"
    n = 100_003                                   # not a multiple of the block: a masked tail
    x = torch.randn(n, device=dev)
    y = torch.randn(n, device=dev)
    out = torch.empty_like(x)
    rows, cols = 64, 1000
    big = torch.randn(rows, 1024, device=dev)     # rows of 1024 floats, only 1000 columns used
    sm = torch.empty(rows, cols, device=dev)
    M, N, K = 96, 80, 64
    a = torch.randn(M, K, device=dev)
    b = torch.randn(K, N, device=dev)
    c = torch.empty(M, N, device=dev)
    pool = torch.randn(1 << 20, device=dev)       # a 4 MiB buffer; the kernel updates 64k floats in its middle
    part = pool[300_000:300_000 + 65_536]
    for _ in range(args.iters):
        add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
        softmax_kernel[(rows,)](sm, big, big.stride(0), sm.stride(0), cols, BLOCK=1024)
        matmul_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](
            a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            BM=32, BN=32, BK=32)
        scale_inplace_kernel[(triton.cdiv(part.numel(), 1024),)](part, part.numel(), 0.5, BLOCK=1024)
    torch.cuda.synchronize()
    h = hashlib.sha256()
    for t in (out, sm, c, pool):
        h.update(t.cpu().numpy().tobytes())
    assert torch.allclose(out, x + y)
    assert torch.allclose(c, a @ b, atol=1e-3, rtol=1e-3)
    print("triton_ops: %d iterations, 4 kernels each" % args.iters)
    print("checksum %s" % h.hexdigest()[:16])


if __name__ == "__main__":
    main()
