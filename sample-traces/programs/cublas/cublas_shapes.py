"""cuBLAS GEMMs over many shapes, for Phoenix Workbench's library table of cuBLAS kernels (issue #15, i15-cublas).

PyTorch's matmul calls cuBLAS (cublasGemmEx / cublasLt): 11 shapes (m, n, k) in fp32, fp16 and bf16, square, tall,
wide, odd, and k much larger than m*n (where cuBLAS picks split-K GEMMs that write partial products to its
workspace and reduce them in a second kernel), then batched (bmm) and biased (addmm, cublasLt's epilogue) products.
Inputs come from a seeded device generator; fp32 products run without TF32. Deterministic; prints `checksum <hex>`
over every result, so a recorded run can be compared with a plain one.

    PHOS_MODULE_IMAGE_LIMIT=65536 python3 cublas_shapes.py [--set design|holdout]
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
# --set holdout: products the library table was not read from (recorded after it was written): transposed operands,
# beta != 0 (the reduction reads C), odd fp16/bf16 sizes, batched split-K, fp64 and complex64, tall and skinny
HOLDOUT_MM = [(40, 40, 10000), (33, 65, 7000), (120, 8, 3000), (3000, 4, 64), (4, 3000, 64), (96, 96, 20000),
              (1, 1, 50000)]
HOLDOUT_DTYPES = [torch.float32, torch.float16, torch.bfloat16]
HOLDOUT_T = [(24, 72, 6000), (72, 24, 6000)]  # A.t() @ B and A @ B.t(), each dtype
HOLDOUT_BETA = [(56, 56, 9000), (17, 130, 5000)]  # addmm(C, A, B, beta=0.5), fp32
HOLDOUT_BMM = [(2, 16, 16, 8192), (5, 40, 24, 3000)]
HOLDOUT_OTHER = [(torch.float64, (32, 32, 8192)), (torch.complex64, (16, 16, 4096))]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--list", action="store_true", help="print the products and exit")
    p.add_argument("--set", choices=["design", "holdout"], default="design",
                   help="design: the products of cublas-shapes.phos; holdout: those of cublas-shapes-holdout.phos")
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
    if args.set == "holdout":
        products = []
        for dt in HOLDOUT_DTYPES:
            for shape in HOLDOUT_MM:
                products.append(("mm", dt, shape))
            for shape in HOLDOUT_T:
                products.append(("mm_tn", dt, shape))
                products.append(("mm_nt", dt, shape))
            for shape in HOLDOUT_BMM:
                products.append(("bmm", dt, shape))
        for shape in HOLDOUT_BETA:
            products.append(("addmm_beta", torch.float32, shape))
        for dt, shape in HOLDOUT_OTHER:
            products.append(("mm", dt, shape))
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
        elif kind == "mm_tn":
            m, n, k = shape
            a = torch.randn(k, m, device="cuda", generator=gen).to(dt)
            b = torch.randn(k, n, device="cuda", generator=gen).to(dt)
            c = a.t() @ b
        elif kind == "mm_nt":
            m, n, k = shape
            a = torch.randn(m, k, device="cuda", generator=gen).to(dt)
            b = torch.randn(n, k, device="cuda", generator=gen).to(dt)
            c = a @ b.t()
        elif kind == "addmm_beta":
            m, n, k = shape
            c0 = torch.randn(m, n, device="cuda", generator=gen)
            a = torch.randn(m, k, device="cuda", generator=gen)
            b = torch.randn(k, n, device="cuda", generator=gen)
            c = torch.addmm(c0, a, b, beta=0.5)
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
        h.update((torch.view_as_real(c) if c.is_complex() else c).float().cpu().numpy().tobytes())
    torch.cuda.synchronize()
    print("cublas_shapes (%s): %d products (torch %s, CUDA %s)" % (args.set, len(products), torch.__version__, torch.version.cuda))
    print("checksum %s" % h.hexdigest()[:16])


if __name__ == "__main__":
    main()
