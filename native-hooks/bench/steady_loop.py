#!/usr/bin/env python3
"""i15-cost2: the training loop of sample-traces/programs/pytorch/torch_train.py (same model, data and steps),
measured in WINDOWS windows of ITERS iterations after WARMUP iterations, in one process: prints each window's it/s
and their median, so one process gives a steady-state figure with its own spread.

    steady_loop.py --windows 6 --iters 150 --warmup 30

i15-settle: with --turns the process is one player of bench/steady_turns.py: it prints "ready" once the model is
built, then reads commands from standard input, one per line, and answers each on standard output: "warm" runs the
warm-up ("ok SECONDS"), "win" one window of --iters iterations ("rate IT/S" and,
i15-base, each thread group's CPU time and run-queue wait per iteration from /proc/self/task/*/schedstat: "cpu main=US
autograd=US writer=US other=US wait main=US ..."), "end" prints the final loss and exits.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sample-traces", "programs", "pytorch"))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from torch_train import SmallCNN  # noqa: E402


def build(batch):
    """the model, data and optimiser of torch_train.py; returns step(it), one training iteration"""
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.benchmark = False
    dev = torch.device("cuda")
    model = SmallCNN().to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(1)
    data = torch.randn(4, batch, 3, 32, 32, generator=g)
    labels = torch.randint(0, 10, (4, batch), generator=g)

    def step(it):
        x = data[it % 4].to(dev, non_blocking=True)
        y = labels[it % 4].to(dev, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--windows", type=int, default=6)
    ap.add_argument("--iters", type=int, default=150)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--turns", action="store_true", help="take commands on standard input (bench/steady_turns.py)")
    a = ap.parse_args()
    if a.windows < 1 or a.iters < 1 or a.warmup < 0:
        sys.exit("steady_loop.py: --windows and --iters must be >= 1, --warmup >= 0")
    step = build(a.batch)

    it = 0
    if a.turns:
        turns(a, step)
        return
    for _ in range(a.warmup):
        step(it); it += 1
    rates = []
    total_t = 0.0
    for _ in range(a.windows):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(a.iters):
            loss = step(it); it += 1
        torch.cuda.synchronize()
        dt = time.perf_counter() - t0
        total_t += dt
        rates.append(a.iters / dt)
    print("windows %s it/s" % " ".join("%.1f" % r for r in rates))
    # i15-burst: all windows together (a cost that falls into some windows only, as a timing burst, counts in full)
    print("overall %.1f it/s (%d iterations in %.3f s)" % (a.windows * a.iters / total_t, a.windows * a.iters, total_t))
    print("steady %.1f it/s (median of %d windows of %d iterations), final loss %.6f" % (statistics.median(rates), a.windows, a.iters, loss.item()))


GROUPS = ("main", "autograd", "writer", "other")


def group_of(tid, comm):
    """i15-base: the thread groups whose CPU time the turns report: the Python thread, PyTorch's autograd threads,
    the recorder's writer thread (named phos-writer), the rest (the driver's threads, ...)."""
    if tid == os.getpid():
        return "main"
    if comm.startswith("pt_autograd"):
        return "autograd"
    if comm == "phos-writer":
        return "writer"
    return "other"


def thread_times():
    """CPU and run-queue wait nanoseconds per thread group, summed over the process's threads now."""
    cpu, wait = dict.fromkeys(GROUPS, 0), dict.fromkeys(GROUPS, 0)
    for t in os.listdir("/proc/self/task"):
        try:
            with open("/proc/self/task/%s/comm" % t) as f:
                comm = f.read().strip()
            with open("/proc/self/task/%s/schedstat" % t) as f:
                run, rq, _ = f.read().split()
        except (OSError, ValueError):   # a thread that ended meanwhile, or a kernel without schedstat
            continue
        g = group_of(int(t), comm)
        cpu[g] += int(run)
        wait[g] += int(rq)
    return cpu, wait


def turns(a, step):
    """i15-settle: one window per "win" command; the other players wait meanwhile (bench/steady_turns.py)."""
    def say(msg):
        sys.stdout.write(msg + "\n")
        sys.stdout.flush()
    say("ready")
    it, loss = 0, None
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "warm":
            t0 = time.perf_counter()
            for _ in range(a.warmup):
                loss = step(it); it += 1
            torch.cuda.synchronize()
            say("ok %.3f" % (time.perf_counter() - t0))
        elif cmd == "win":
            torch.cuda.synchronize()
            c0, w0 = thread_times()
            t0 = time.perf_counter()
            for _ in range(a.iters):
                loss = step(it); it += 1
            torch.cuda.synchronize()
            dt = time.perf_counter() - t0
            c1, w1 = thread_times()
            per = lambda x1, x0: " ".join("%s=%.2f" % (g, (x1[g] - x0[g]) / 1e3 / a.iters) for g in GROUPS)
            say("rate %.3f cpu %s wait %s" % (a.iters / dt, per(c1, c0), per(w1, w0)))
        elif cmd == "end":
            say("end %d iterations, final loss %.6f" % (it, loss.item() if loss is not None else float("nan")))
            return
        else:
            say("error unknown command %r" % cmd)


if __name__ == "__main__":
    main()
