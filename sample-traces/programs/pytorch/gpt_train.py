"""A few training steps of a small GPT-style transformer (decoder-only: token and position embeddings, pre-norm
blocks of causal self-attention and an MLP, a tied output head) with random weights, on the GPU, in PyTorch. No
downloads: the model is defined here and its weights are drawn on the device (so the recorder sees no multi-GB
host-to-device copy of them). Sized to several GB of device memory with the defaults (about 200 M parameters, AdamW
state, activations of batch 8 x 512 tokens). Deterministic inputs (fixed seeds); prints a "checksum" over the final
losses and a parameter sample, and the peak device memory.

    python3 gpt_train.py                # the sample trace: 3 steps
    python3 gpt_train.py --steps 20     # a longer run
"""
import argparse
import hashlib
import math
import os
import time

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


class Block(nn.Module):
    def __init__(self, d, heads, dev):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d, device=dev)
        self.qkv = nn.Linear(d, 3 * d, device=dev)
        self.proj = nn.Linear(d, d, device=dev)
        self.ln2 = nn.LayerNorm(d, device=dev)
        self.fc = nn.Linear(d, 4 * d, device=dev)
        self.out = nn.Linear(4 * d, d, device=dev)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class Gpt(nn.Module):
    def __init__(self, vocab, ctx, d, layers, heads, dev):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, device=dev)
        self.pos = nn.Embedding(ctx, d, device=dev)
        self.blocks = nn.ModuleList([Block(d, heads, dev) for _ in range(layers)])
        self.ln = nn.LayerNorm(d, device=dev)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        for blk in self.blocks:
            x = blk(x)
        return self.ln(x) @ self.tok.weight.t()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--d", type=int, default=1024)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--vocab", type=int, default=16384)
    ap.add_argument("--ctx", type=int, default=512)
    ap.add_argument("--batch", type=int, default=8)
    a = ap.parse_args()
    dev = torch.device("cuda")
    torch.manual_seed(1234)
    torch.cuda.manual_seed(1234)
    model = Gpt(a.vocab, a.ctx, a.d, a.layers, a.heads, dev)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    g = torch.Generator(device=dev).manual_seed(99)
    losses = []
    t0 = time.time()
    for _ in range(a.steps):
        idx = torch.randint(0, a.vocab, (a.batch, a.ctx + 1), device=dev, generator=g)
        logits = model(idx[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, a.vocab), idx[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    torch.cuda.synchronize()
    dt = time.time() - t0
    h = hashlib.sha256()
    for v in losses:
        h.update(("%.4f" % v).encode())
    print("parameters %d (%.2f GB fp32), steps %d, %.2f s, losses %s, peak device memory %.2f GB" % (
        params, params * 4 / 1e9, a.steps, dt, " ".join("%.4f" % v for v in losses),
        torch.cuda.max_memory_allocated() / 1e9))
    print("expected initial loss about ln(vocab) = %.3f" % math.log(a.vocab))
    print("checksum", h.hexdigest()[:16])


if __name__ == "__main__":
    main()
