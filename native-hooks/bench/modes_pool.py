#!/usr/bin/env python3
"""i15-final: pool the rounds of bench/steady_modes.py runs (their "round R MODE: RATE it/s" lines; several processes
one after the other in a file, as bench/modes_gpu_bench.sh leaves them concatenated) into one share of a mode against
a reference, per process, per file and over all files:

    modes_pool.py FILE:MODE/REF [FILE:MODE/REF ...]

Each round's share is 100 * rate(MODE) / rate(REF) of that round; the figures are the median with its 95% interval
(bench/steady_turns.py's median_interval). Different files may name the measured mode differently (FILE:pool/pass,
FILE:startup/pass)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from steady_turns import median_interval  # noqa: E402

ROUND = re.compile(r"round (\d+) (\w+): ([\d.]+) it/s")


def processes(path):
    """the rounds of each process in the file: a list of {(round, mode): rate}; a process starts where a round-1 mode
    comes again"""
    procs, cur = [], None
    with open(path) as f:
        for line in f:
            m = ROUND.match(line)
            if not m:
                continue
            key = (int(m.group(1)), m.group(2))
            if cur is None or key in cur:
                cur = {}
                procs.append(cur)
            cur[key] = float(m.group(3))
    return procs


def shares(proc, mode, ref):
    rounds = sorted({r for r, _ in proc})
    return [100 * proc[(r, mode)] / proc[(r, ref)] for r in rounds if (r, mode) in proc and (r, ref) in proc]


def main(argv):
    if not argv:
        sys.exit(__doc__)
    pooled = []
    for arg in argv:
        path, _, pair = arg.rpartition(":")
        mode, _, ref = pair.partition("/")
        if not path or not mode or not ref:
            sys.exit("modes_pool.py: %r is not FILE:MODE/REF" % arg)
        if not os.path.isfile(path):
            sys.exit("modes_pool.py: no such file: %s" % path)
        procs = processes(path)
        per = [shares(p, mode, ref) for p in procs]
        rounds = [x for s in per for x in s]
        if not rounds:
            sys.exit("modes_pool.py: %s has no round with both %s and %s" % (path, mode, ref))
        pooled += rounds
        print("%s: %s/%s, %d processes, %d rounds: median %.1f%% (95%% interval %.1f-%.1f); per process %s" % (
            path, mode, ref, len(procs), len(rounds), *median_interval(rounds),
            " ".join("%.1f" % median_interval(s)[0] for s in per if s)))
    if len(argv) > 1:
        print("pooled: %d rounds: median %.1f%% (95%% interval %.1f-%.1f)" % (len(pooled), *median_interval(pooled)))


if __name__ == "__main__":
    main(sys.argv[1:])
