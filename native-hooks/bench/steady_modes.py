#!/usr/bin/env python3
"""i15-base: what recording a launch costs, measured inside one process, so that the difference between processes
(±4% in i15-settle's turns) does not enter. Runs the loop of bench/steady_loop.py under the recorder (LD_PRELOAD) and
switches the recorder's diagnosis setting (PHOS_DIAG_SKIP, through phos_recorder_diag) window by window:

    LD_PRELOAD=libphos_recorder.so PHOS_TIMING=0 steady_modes.py [--rounds R] [--iters I] [--warmup N] \
        --mode none=2 --mode now=0 --mode arena=32 ...

Each round runs one window of I iterations per mode, in an order that rotates every round. The first mode is the
reference: each window of another mode is set against the reference window of the same round. Prints a line per
window (rate and, per thread group, CPU microseconds per iteration) and per mode the median share of the reference
with a 95% interval, and the median CPU time per iteration of the program's threads (main + autograd) and of the
recorder's writer thread, with the differences from the reference (CPU: also the median of the per-round differences)."""
import argparse
import ctypes
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import steady_loop as sl  # noqa: E402  (imports torch)
from steady_turns import median_interval  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--iters", type=int, default=150)
    ap.add_argument("--warmup", type=int, default=40)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--mode", action="append", required=True, metavar="NAME=SKIP",
                    help="a window setting: PHOS_DIAG_SKIP value SKIP under the name NAME; the first is the reference")
    a = ap.parse_args()
    modes = []
    for m in a.mode:
        name, _, v = m.partition("=")
        if not name or not v.isdigit():
            sys.exit("steady_modes.py: --mode %r is not NAME=SKIP (SKIP a number)" % m)
        modes.append((name, int(v)))
    if len({n for n, _ in modes}) != len(modes) or a.rounds < 1 or a.iters < 1:
        sys.exit("steady_modes.py: the modes need distinct names; --rounds and --iters must be >= 1")
    try:
        diag = ctypes.CDLL(None).phos_recorder_diag
    except AttributeError:
        sys.exit("steady_modes.py: phos_recorder_diag not found: run under the recorder (LD_PRELOAD=.../libphos_recorder.so)")
    diag.argtypes, diag.restype = [ctypes.c_int], ctypes.c_int
    step = sl.build(a.batch)
    it = 0
    for _ in range(a.warmup):
        step(it); it += 1
    sl.torch.cuda.synchronize()
    rate = {n: {} for n, _ in modes}
    cpu = {n: [] for n, _ in modes}
    for r in range(a.rounds):
        k = r % len(modes)
        for name, skip in modes[k:] + modes[:k]:
            diag(skip)
            sl.torch.cuda.synchronize()
            c0, _ = sl.thread_times()
            t0 = time.perf_counter()
            for _ in range(a.iters):
                step(it); it += 1
            sl.torch.cuda.synchronize()
            dt = time.perf_counter() - t0
            c1, _ = sl.thread_times()
            per = {g: (c1[g] - c0[g]) / 1e3 / a.iters for g in sl.GROUPS}
            rate[name][r] = a.iters / dt
            cpu[name].append(per)
            print("round %d %s: %.3f it/s cpu %s" % (r + 1, name, a.iters / dt,
                                                     " ".join("%s=%.2f" % (g, per[g]) for g in sl.GROUPS)), flush=True)
    diag(0)
    ref = modes[0][0]
    print("== one process, %d rounds of %d iterations per mode (warm-up %d); reference %s" % (a.rounds, a.iters, a.warmup, ref))
    prog = {n: statistics.median([c["main"] + c["autograd"] for c in cpu[n]]) for n, _ in modes}
    wr = {n: statistics.median([c["writer"] for c in cpu[n]]) for n, _ in modes}
    for n, skip in modes:
        line = "mode %s (PHOS_DIAG_SKIP=%d): median %.1f it/s; program threads %.1f us/iteration, writer %.1f" % (
            n, skip, statistics.median(rate[n].values()), prog[n], wr[n])
        if n != ref:
            m, lo, hi = median_interval([100 * rate[n][r] / rate[ref][r] for r in range(a.rounds)])
            d = [cpu[n][r]["main"] + cpu[n][r]["autograd"] - cpu[ref][r]["main"] - cpu[ref][r]["autograd"] for r in range(a.rounds)]
            dm, dlo, dhi = median_interval(d)
            line += ("; share of %s per round: median %.1f%% (95%% interval %.1f-%.1f); program threads %+.1f us per "
                     "iteration (per round: median %+.1f, 95%% interval %+.1f..%+.1f), writer %+.1f") % (
                ref, m, lo, hi, prog[n] - prog[ref], dm, dlo, dhi, wr[n] - wr[ref])
        print(line, flush=True)


if __name__ == "__main__":
    main()
