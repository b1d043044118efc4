#!/usr/bin/env python3
"""i15-burst: pools the rounds of several timing_burst_gpu_bench.sh calls (standard library).

    timing_rounds_pool.py [--as RUN:CONFIG=NAME ...] ROUNDS.txt ...

Each round's configurations are set against the same round's plain run (overall rate: all windows' iterations over
their time); per configuration the median of these per-round shares over every call, with their count and range.
--as renames a configuration of one call (RUN counts the files from 1), for calls that ran one policy under another
name."""
import re
import statistics
import sys


def main(argv):
    alias, files = {}, []
    it = iter(argv)
    for a in it:
        if a == "--as":
            m = re.match(r"(\d+):(\w+)=(\S+)$", next(it, ""))
            if not m:
                sys.exit("timing_rounds_pool.py: --as wants RUN:CONFIG=NAME")
            alias[(int(m.group(1)), m.group(2))] = m.group(3)
        else:
            files.append(a)
    if not files:
        sys.exit(__doc__)
    pool = {}
    for run, path in enumerate(files, 1):
        rows = {}
        try:
            lines = open(path).read().splitlines()
        except OSError as e:
            sys.exit("timing_rounds_pool.py: cannot read %s: %s" % (path, e))
        for line in lines:
            m = re.match(r"round (\d+) (\w+): [0-9.]* it/s overall ([0-9.]+)", line)
            if m:
                rows.setdefault(int(m.group(1)), {})[m.group(2)] = float(m.group(3))
        for d in rows.values():
            for c, v in d.items():
                if c != "plain" and "plain" in d:
                    pool.setdefault(alias.get((run, c), c), []).append((run, 100 * v / d["plain"]))
    for k, v in sorted(pool.items(), key=lambda kv: -statistics.median(x for _, x in kv[1])):
        xs = sorted(x for _, x in v)
        print("%-14s %2d rounds in call(s) %s: median %.1f%% of plain (range %.1f-%.1f)"
              % (k, len(xs), ",".join(str(r) for r in sorted({r for r, _ in v})), statistics.median(xs), xs[0], xs[-1]))


if __name__ == "__main__":
    main(sys.argv[1:])
