#!/usr/bin/env python3
"""i15-cost2: what gated event timing measures beyond the kernel, from two traces of the same loop (standard library).

    gate_bias_analyse.py FULL.phos GATED.phos [BIAS_NS ...]

FULL: every launch timed by CUPTI (PHOS_TIMING_SAMPLE=0); GATED: sampled timing by gated events, best recorded with
PHOS_TIMING_EVENT_BIAS=0 (raw spans). Prints, for the 20 launch shapes with the most GPU time, the median duration in
both runs and their difference, then for each BIAS_NS (default 0 1000 1200 1600 2000 2400) the per-kernel estimate of
GATED with that many ns taken off every timed span (at most half of it, as the recorder does) against FULL: kernels
within 5%, total error, time-weighted error (sampling_analyse.py's estimate and comparison).
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import phos_read as pr  # noqa: E402
import sampling_analyse as sa  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for p in sys.argv[1:3]:
        if not os.path.isfile(p):
            sys.exit("gate_bias_analyse.py: no such trace: %s" % p)
    try:
        biases = [int(b) for b in sys.argv[3:]] or [0, 1000, 1200, 1600, 2000, 2400]
    except ValueError:
        sys.exit("gate_bias_analyse.py: BIAS_NS must be integers (ns): %s" % " ".join(sys.argv[3:]))
    F = sa.launches(pr.read_trace(sys.argv[1]))
    G = sa.launches(pr.read_trace(sys.argv[2]))
    fs, gs = {}, {}
    for _, s, d in F:
        if d is not None:
            fs.setdefault(s, []).append(d)
    for _, s, d in G:
        if d is not None:
            gs.setdefault(s, []).append(d)
    if not fs or not gs:
        sys.exit("gate_bias_analyse.py: a trace has no timed launches (FULL %d shapes, GATED %d)" % (len(fs), len(gs)))
    print("%-52s %10s %10s %8s %6s" % ("launch shape (kernel)", "full ns", "gated ns", "diff", "timed"))
    diffs = []
    for s in sorted(fs, key=lambda s: -sum(fs[s]))[:20]:
        if s in gs:
            a, b = statistics.median(fs[s]), statistics.median(gs[s])
            diffs.append(b - a)
            print("%-52s %10.0f %10.0f %+8.0f %6d" % (s[0][:52], a, b, b - a, len(gs[s])))
    if diffs:
        print("median of the differences: %+.0f ns" % statistics.median(diffs))
    ref = sa.estimate(F)
    for b in biases:
        Gb = [(k, s, (max(d - b, d / 2) if d is not None else None)) for k, s, d in G]
        x = sa.compare(ref, sa.estimate(Gb), "gated - %d ns" % b)
        print("%s: %d of %d kernels within 5%%, %d of %d with >= 1%% of GPU time; total %+.2f%%; time-weighted |err| %.2f%%" % (
            x["what"], x["within_5pct"], x["kernels"], x["ge_1pct_within_5pct"], x["kernels_ge_1pct_time"], 100 * x["total_err"],
            100 * x["time_weighted_abs_err"]))


if __name__ == "__main__":
    main()
