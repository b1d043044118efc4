"""cuBLAS GEMMs over many shapes, for Phoenix Workbench's library table of cuBLAS kernels (issue #15, i15-cublas).

PyTorch's matmul calls cuBLAS (cublasGemmEx / cublasLt): 11 shapes (m, n, k) in fp32, fp16 and bf16, square, tall,
wide, odd, and k much larger than m*n (where cuBLAS picks split-K GEMMs that write partial products to its
workspace and reduce them in a second kernel), then batched (bmm) and biased (addmm, cublasLt's epilogue) products.
Inputs come from a seeded device generator; fp32 products run without TF32. Deterministic; prints `checksum <hex>`
over every result, so a recorded run can be compared with a plain one.

    PHOS_MODULE_IMAGE_LIMIT=65536 python3 cublas_shapes.py
"""
import argparse
import hashlib

import torch

SHAPES = [  # (m, n, k): C[m, n] = A[m, k] @ B[k, n]
    (64, 64, 8192), (32, 32, 16384), (128, 32, 4096), (8, 256, 2048), (100, 30, 5000), (7, 9, 3000),
    (48, 200, 12000), (512, 512, 512), (1024, 16, 256), (16, 1024, 256), (1, 64, 4096),
]
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
BATCHED = [(4, 32, 32, 4096), (3, 96, 64, 2048)]  # (batch, m, n, k)
BIASED = [(64, 48, 6000), (256, 128, 64)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--list", action="store_true", help="print the products and exit")
    args = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    gen = torch.Generator(device="cuda")
    gen.manual_seed(15)
    products = []
    for dt in DTYPES:
        for m, n, k in SHAPES:
            products.append(("mm", dt, (m, n, k)))
        for b, m, n, k in BATCHED:
            products.append(("bmm", dt, (b, m, n, k)))
    for m, n, k in BIASED:
        products.append(("addmm", torch.float32, (m, n, k)))
    if args.list:
        for kind, dt, shape in products:
            print(kind, str(dt).replace("torch.", ""), shape)
        return
    h = hashlib.sha256()
    for kind, dt, shape in products:
        if kind == "mm":
            m, n, k = shape
            a = torch.randn(m, k, device="cuda", generator=gen).to(dt)
            b = torch.randn(k, n, device="cuda", generator=gen).to(dt)
            c = a @ b
        elif kind == "bmm":
            bs, m, n, k = shape
            a = torch.randn(bs, m, k, device="cuda", generator=gen).to(dt)
            b = torch.randn(bs, k, n, device="cuda", generator=gen).to(dt)
            c = torch.bmm(a, b)
        else:
            m, n, k = shape
            bias = torch.randn(n, device="cuda", generator=gen)
            a = torch.randn(m, k, device="cuda", generator=gen)
            w = torch.randn(n, k, device="cuda", generator=gen)
            c = torch.nn.functional.linear(a, w, bias)
        h.update(c.float().cpu().numpy().tobytes())
    torch.cuda.synchronize()
    print("cublas_shapes: %d products (torch %s, CUDA %s)" % (len(products), torch.__version__, torch.version.cuda))
    print("checksum %s" % h.hexdigest()[:16])


if __name__ == "__main__":
    main()
