#!/usr/bin/env python3
"""Checks of the SASS-level tool's side files (native-hooks/sanitizer), run by sanitizer_check.sh on the GPU machine.

    python3 sanitizer_check.py suite TRACE SIDE EXPECTED.json [TOOL]  # CUDA C suite: observed == real accesses
    python3 sanitizer_check.py torch TRACE SIDE                         # PyTorch: cuBLAS/PyTorch kernels observed, keyed
TOOL is the observing tool whose records SIDE holds: "sanitizer" (default; SIDE is the tool's side file) or
"ptx-instrument" (SIDE is the trace written by releng/gpu/instrument.sh, the PTX replay's ground truth). The sanitizer
tool cannot observe the kernel nodes of a graph launch (they share one callback-data slot): for it an unobserved
graph-node launch is reported as "skip" and left out of the exact count, an observed one is checked like any other.
Prints one "ok"/"FAIL"/"skip" line per assertion and "sanitizer_check <part>: N passed, M failed"; exit 1 on any
failure.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import phos_read  # noqa: E402

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
    print("  %s %s" % ("ok   " if cond else "FAIL ", what))
    return cond


def load_pair(trace_path, side_path, tool="sanitizer"):
    t = phos_read.read_trace(trace_path)
    s = phos_read.read_trace(side_path)
    check(not s.warnings, "side file %s loads without warnings %s" % (os.path.basename(side_path), s.warnings))
    if tool == "sanitizer":
        check(s.header and s.header.get("recorder") == "phos-sanitizer", "side file header names phos-sanitizer")
        check(not s.events and not s.functions and not s.modules, "side file holds observed accesses only")
        check(all(a.get("tool") == "sanitizer" for a in s.observed), "every record says tool 'sanitizer' (%d records)" % len(s.observed))
        records = s.observed
    else:
        check(len(s.events) == len(t.events), "%s: the instrumented trace holds the trace's %d events (%d)" % (tool, len(t.events), len(s.events)))
        records = [a for a in s.observed if a.get("tool") == tool]
        check(bool(records), "%d records of tool '%s' (of %d)" % (len(records), tool, len(s.observed)))
    launches = [i for i, e in enumerate(t.events) if "launch" in e]
    by_launch = collections.defaultdict(dict)
    for a in records:
        by_launch[a.get("launch_index", 0)][a.get("allocation", 0)] = a
    stray = sorted(set(by_launch) - set(launches))
    check(not stray, "every launch_index is the event index of a Launch in the trace (stray: %s)" % stray[:5])
    return t, s, launches, by_launch


def rng(a, key):
    r = a.get(key) or []
    return (r[0].get("begin", 0), r[0].get("end", 0)) if r else None


def suite(trace_path, side_path, expected_path, tool="sanitizer"):
    import json
    x = json.load(open(expected_path))
    t, s, launches, obs = load_pair(trace_path, side_path, tool)
    allocs = [(a["address"], a["address"] + a["size"], a["name"]) for a in x["allocations"]]

    def owner(addr):
        for b, e, n in allocs:
            if b <= addr < e:
                return b, n
        return None, None

    def hulls(ranges):
        h = {}
        for b, e in ranges:
            base, _ = owner(b)
            lo, hi = h.get(base, (b, e))
            h[base] = (min(lo, b), max(hi, e))
        return h

    names = {a: n for a, _, n in allocs}
    check(len(launches) == len(x["launches"]), "%d launches in the trace, %d expected" % (len(launches), len(x["launches"])))
    exact = 0
    unobservable = 0
    for el, ev_index in zip(x["launches"], launches):
        want_r, want_w = hulls(el["reads"]), hulls(el["writes"])
        got = obs.get(ev_index, {})
        if tool == "sanitizer" and el.get("graph_node") and not got:
            unobservable += 1
            print("  skip  launch %d (event %d) %s: graph-node launch, not observed by the sanitizer tool (its known "
                  "limit)" % (el["index"], ev_index, el["kernel"]))
            continue
        got_r = {b: rng(a, "read") for b, a in got.items() if rng(a, "read")}
        got_w = {b: rng(a, "written") for b, a in got.items() if rng(a, "written")}
        fmt = lambda h: "{%s}" % ", ".join("%s+[%d,%d)" % (names.get(b, hex(b or 0)), r[0] - (b or 0), r[1] - (b or 0)) for b, r in sorted(h.items(), key=lambda kv: kv[0] or 0))
        ok = got_r == want_r and got_w == want_w
        exact += ok
        check(ok, "launch %d (event %d) %s: observed reads %s writes %s%s" % (
            el["index"], ev_index, el["kernel"], fmt(got_r), fmt(got_w),
            "" if ok else "; expected reads %s writes %s" % (fmt(want_r), fmt(want_w))))
        n_threads = el["grid"][0] * el["block"][0]
        counts = sum(a.get("read_count", 0) + a.get("write_count", 0) for a in got.values())
        check(counts > 0, "launch %d: %d accesses counted (%d threads)" % (el["index"], counts, n_threads))
    check(exact == len(x["launches"]) - unobservable, "suite: %d of %d launches observed exactly as constructed%s"
          % (exact, len(x["launches"]), " (%d graph-node launches not observable by this tool)" % unobservable
             if unobservable else ""))


def torch(trace_path, side_path):
    t, s, launches, obs = load_pair(trace_path, side_path)
    fn = {f["id"]: f.get("mangled_name", "") for f in t.functions.values()}
    dem = {f["id"]: f.get("demangled_name", "") or f.get("mangled_name", "") for f in t.functions.values()}
    allocs = [(e["alloc"].get("address", 0), e["alloc"].get("address", 0) + e["alloc"].get("size", 0)) for e in t.events if "alloc" in e]
    keyed = [i for i in launches if i in obs]
    check(len(keyed) >= 0.95 * len(launches), "%d of %d launches have observed accesses" % (len(keyed), len(launches)))
    per_kernel = collections.Counter()
    for i in keyed:
        per_kernel[dem.get(t.events[i]["launch"].get("function", 0), "?")] += 1
    cublas = [k for k in per_kernel if any(w in k.lower() for w in ("gemm", "cutlass", "cublas", "xmma", "sm90"))]
    aten = [k for k in per_kernel if "at::native" in k or "at::" in k]
    cudnn = [k for k in per_kernel if "cudnn" in k.lower() or "conv" in k.lower()]
    check(bool(cublas), "cuBLAS/CUTLASS GEMM kernels observed: %d kinds, e.g. %s" % (len(cublas), [k[:90] for k in cublas[:3]]))
    check(bool(aten), "PyTorch (at::native) kernels observed: %d kinds, e.g. %s" % (len(aten), [k[:90] for k in aten[:3]]))
    print("  info  convolution/cuDNN kernels observed: %d kinds, e.g. %s" % (len(cudnn), [k[:90] for k in cudnn[:3]]))
    inside = outside = overflow = 0
    bad = []
    for i in keyed:
        for base, a in obs[i].items():
            if base == 0:
                overflow += 1
                continue
            seg = [(b, e) for b, e in allocs if b == base]
            if not seg:
                outside += 1
                bad.append((i, hex(base)))
                continue
            b, e = seg[0]
            for key in ("read", "written"):
                r = rng(a, key)
                if r and not (b <= r[0] < r[1] <= e):
                    bad.append((i, hex(base), key, r))
            inside += 1
    check(not bad, "every observed allocation is a recorded Alloc and its ranges lie inside it (%d records; bad %s)" % (inside, bad[:3]))
    print("  info  %d records in the overflow slot (accesses outside every device allocation: module globals, "
          "host memory the tool was not told about)" % overflow)
    writes = sum(1 for i in keyed for a in obs[i].values() if a.get("write_count"))
    check(writes > 0, "%d launch/allocation pairs written" % writes)
    print("  info  top kernels by observed launches:")
    for k, c in per_kernel.most_common(8):
        print("        %4d  %s" % (c, k[:110]))


def main(argv):
    if len(argv) >= 5 and argv[1] == "suite":
        suite(argv[2], argv[3], argv[4], argv[5] if len(argv) > 5 else "sanitizer")
    elif len(argv) >= 4 and argv[1] == "torch":
        torch(argv[2], argv[3])
    else:
        print(__doc__)
        return 2
    print("sanitizer_check %s: %d passed, %d failed" % (argv[1], passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, phos_read.DecodeError) as e:
        print("sanitizer_check: %s" % e)
        sys.exit(1)
