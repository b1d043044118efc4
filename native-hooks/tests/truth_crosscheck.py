#!/usr/bin/env python3
"""Compares the two ground truths of one recorded run: the SASS-level sanitizer tool's observed accesses and the PTX
instrumentation's (releng/gpu/instrument.sh), per (launch, allocation): read and written ranges must be identical.

    python3 truth_crosscheck.py SANITIZER_FILE PTX_FILE

Either file may be a side file or a whole trace holding observed accesses; only the records of tool "sanitizer" are
taken from the first and of tool "ptx-instrument" from the second. Pairs only one tool observed are listed (the
sanitizer tool cannot observe graph-node launches) and fail the check unless --allow-ptx-only is given; pairs both
observed must agree. With --ptx-launches-only, sanitizer records of launches the PTX instrumentation has no record
for (kernels without PTX, such as cuBLAS's or cuRAND's, which it does not replay) are left out and counted. Exit 1 on
any difference.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import phos_read  # noqa: E402


def pairs(trace, tool):
    out = {}
    for a in trace.observed:
        if a.get("tool") != tool:
            continue
        ranges = tuple(tuple((r.get("begin", 0), r.get("end", 0)) for r in (a.get(k) or [])) for k in ("read", "written"))
        out[(a.get("launch_index", 0), a.get("allocation", 0))] = ranges
    return out


def main(argv):
    allow = "--allow-ptx-only" in argv
    ptx_launches_only = "--ptx-launches-only" in argv
    files = [a for a in argv[1:] if not a.startswith("--")]
    if len(files) != 2:
        print(__doc__)
        return 2
    s = pairs(phos_read.read_trace(files[0]), "sanitizer")
    p = pairs(phos_read.read_trace(files[1]), "ptx-instrument")
    if ptx_launches_only:
        replayed = {k[0] for k in p}
        left = {k for k in s if k[0] not in replayed}
        print("truth_crosscheck: %d sanitizer pairs of %d launches without PTX records left out"
              % (len(left), len({k[0] for k in left})))
        s = {k: v for k, v in s.items() if k not in left}
    both = set(s) & set(p)
    same = sum(1 for k in both if s[k] == p[k])
    only_s = sorted(set(s) - set(p))
    only_p = sorted(set(p) - set(s))
    for k in sorted(k for k in both if s[k] != p[k]):
        print("  differ    launch %d allocation 0x%x: sanitizer %s, ptx-instrument %s" % (k[0], k[1], s[k], p[k]))
    for k in only_s:
        print("  sanitizer only: launch %d allocation 0x%x %s" % (k[0], k[1], s[k]))
    for k in only_p:
        print("  ptx-instrument only: launch %d allocation 0x%x %s" % (k[0], k[1], p[k]))
    ok = same == len(both) and not only_s and (allow or not only_p) and both
    print("truth_crosscheck: %d (launch, allocation) pairs observed by both, %d identical; %d sanitizer only, "
          "%d ptx-instrument only: %s" % (len(both), same, len(only_s), len(only_p), "ok" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, phos_read.DecodeError) as e:
        print("truth_crosscheck: %s" % e)
        sys.exit(1)
