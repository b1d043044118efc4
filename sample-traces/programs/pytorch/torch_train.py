"""A few training iterations of a small CNN on the GPU (PyTorch), for the recorder's sample trace and its
throughput figure. Deterministic (fixed seeds, deterministic algorithms), so runs with and without the recorder
must print the same "checksum" over the final parameters and losses.

    python3 torch_train.py --iters 8                 # the sample trace: 8 iterations
    python3 torch_train.py --iters 200 --warmup 20   # throughput: prints iterations per second after warm-up
"""
import argparse
import hashlib
import os
import time

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 8 * 8, 128), nn.ReLU(), nn.Linear(128, 10))

    def forward(self, x):
        return self.head(self.features(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=0)
    ap.add_argument("--batch", type=int, default=64)
    a = ap.parse_args()
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True, warn_only=True)  # max-pool backward warns; its windows do not overlap
    torch.backends.cudnn.benchmark = False
    dev = torch.device("cuda")
    model = SmallCNN().to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(1)
    data = torch.randn(4, a.batch, 3, 32, 32, generator=g)
    labels = torch.randint(0, 10, (4, a.batch), generator=g)
    losses = []
    t0 = None
    for it in range(a.warmup + a.iters):
        if it == a.warmup:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
        x = data[it % 4].to(dev, non_blocking=True)
        y = labels[it % 4].to(dev, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    torch.cuda.synchronize()
    dt = time.perf_counter() - t0
    h = hashlib.sha256()
    for p in model.parameters():
        h.update(p.detach().cpu().numpy().tobytes())
    h.update(torch.stack(losses).cpu().numpy().tobytes())
    print("iterations %d, %.1f it/s, final loss %.6f" % (a.iters, a.iters / dt, losses[-1].item()))
    print("checksum %s" % h.hexdigest()[:16])


if __name__ == "__main__":
    main()
