"""i15-alloc: what the PyTorch allocator tracker (PHOS_TORCH_ALLOC=1) adds per caching-allocator call.

Run under the recorder with PHOS_TORCH_ALLOC=0 and =1 (releng/gpu/record-alloc-samples.sh alternates them): a loop of
N `torch.empty(256)` + `del` on the GPU, which launches nothing and makes three allocator calls the tracker sees
(ALLOC, FREE_REQUESTED, FREE_COMPLETED) and no CUDA call; prints ns per iteration."""
import sys
import time

import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
keep = torch.empty(1 << 20, device="cuda")   # a segment exists before the loop: no cudaMalloc inside it
torch.cuda.synchronize()
for _ in range(2000):
    t = torch.empty(256, device="cuda")
    del t
t0 = time.perf_counter_ns()
for _ in range(n):
    t = torch.empty(256, device="cuda")
    del t
t1 = time.perf_counter_ns()
torch.cuda.synchronize()
print("iterations %d ns_per_iteration %.1f" % (n, (t1 - t0) / n))
