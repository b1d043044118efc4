#!/usr/bin/env python3
"""i15-burst: pools the rounds of several timing_burst_gpu_bench.sh calls (standard library).

    timing_rounds_pool.py [--as RUN:CONFIG=NAME ...] ROUNDS.txt ...

Each round's configurations are set against the same round's plain run (overall rate: all windows' iterations over
their time); per configuration the median of these per-round shares over every call, with their count and range.
--as renames a configuration of one call (RUN counts the files from 1; 0: every call), for calls that ran one policy under another
name."""
import re
import statistics
import sys


def parse_pool_args(argv, prog):
    """[--as RUN:NAME=NEW ...] FILE ...: the renames, keyed (RUN, NAME) (RUN counts the files from 1; 0: every file),
    and the files"""
    alias, files = {}, []
    it = iter(argv)
    for a in it:
        if a == "--as":
            m = re.match(r"(\d+):(\S+)=(\S+)$", next(it, ""))
            if not m:
                sys.exit("%s: --as wants RUN:NAME=NEW" % prog)
            alias[(int(m.group(1)), m.group(2))] = m.group(3)
        else:
            files.append(a)
    return alias, files


def pooled_shares(files, alias, row, prog):
    """name -> [(run, % of plain)] over the files; row(line) gives (group key, configuration, rate) or None, and each
    configuration is set against the plain rate of its own group (a round, a turn)"""
    pool = {}
    for run, path in enumerate(files, 1):
        groups = {}
        try:
            lines = open(path).read().splitlines()
        except OSError as e:
            sys.exit("%s: cannot read %s: %s" % (prog, path, e))
        for line in lines:
            r = row(line)
            if r:
                groups.setdefault(r[0], {})[r[1]] = r[2]
        for d in groups.values():
            for c, v in d.items():
                if c != "plain" and "plain" in d:
                    name = alias.get((run, c), alias.get((0, c), c))
                    pool.setdefault(name, []).append((run, 100 * v / d["plain"]))
    return pool


def round_row(line):
    m = re.match(r"round (\d+) (\w+): [0-9.]* it/s overall ([0-9.]+)", line)
    return (int(m.group(1)), m.group(2), float(m.group(3))) if m else None


def main(argv):
    alias, files = parse_pool_args(argv, "timing_rounds_pool.py")
    if not files:
        sys.exit(__doc__)
    pool = pooled_shares(files, alias, round_row, "timing_rounds_pool.py")
    for k, v in sorted(pool.items(), key=lambda kv: -statistics.median(x for _, x in kv[1])):
        xs = sorted(x for _, x in v)
        print("%-14s %2d rounds in call(s) %s: median %.1f%% of plain (range %.1f-%.1f)"
              % (k, len(xs), ",".join(str(r) for r in sorted({r for r, _ in v})), statistics.median(xs), xs[0], xs[-1]))


if __name__ == "__main__":
    main(sys.argv[1:])
