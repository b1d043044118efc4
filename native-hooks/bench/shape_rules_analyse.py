#!/usr/bin/env python3
"""i15-shapes: what other launch-shape rules would have observed, computed from a recorded trace (its launches'
parameter bytes and layouts, its allocations), without a GPU.

    shape_rules_analyse.py TRACE.phos [STEPS]

Replays the sanitizer tool's selection (PHOS_SANITIZER_SHAPES=2) over the trace's launches in order under several
rules and prints, per rule: launches observed, argument shapes, launches not observed at the cap, and how many
observations (and distinct modules with one) fall after the first of STEPS equal parts of the launches (default 3:
a training run's later steps; an observation there in a module already judged makes the tool patch it again, the
expensive part on the H100, docs/benchmarks.md i15-shapes). The rules:
  dims            function + grid + block (the i15-cost rule)
  args capC       + argument shape (sanitizer/phos_sanitizer_shape.h), at most C argument shapes per dims shape
  stableV capC    as args, but a scalar word that has taken V distinct values among a dims shape's argument shapes
                  stops counting (a counter or an RNG offset), pointer words as before
  scalars capC    as args, but a pointer word counts only as "a pointer into an allocation" (no aliasing, no offset
                  class): PyTorch's caching allocator packs tensors into shared segments, so which segment a tensor
                  lands in, and whether two tensors share one, is the allocator's placement, not the program's
  scalars-stableV the two together
The `args cap8` line should equal the tool's own summary for the run that recorded the trace (a check of this replica).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import phos_read as pr  # noqa: E402


def launches_with_allocs(t):
    """(event index, launch, sorted allocation list at that time) for every launch, allocations from alloc/free events"""
    live = {}
    out = []
    ranges = []
    dirty = True
    for i, e in enumerate(t.events):
        if "alloc" in e:
            a = e["alloc"]
            live[a.get("address", 0)] = a.get("size", 0)
            dirty = True
        elif "free" in e:
            live.pop(e["free"].get("address", 0), None)
            dirty = True
        elif "launch" in e:
            if dirty:
                ranges = sorted((b, b + s) for b, s in live.items() if s)
                dirty = False
            out.append((i, e["launch"], ranges))
    return out


def find(ranges, v):
    lo, hi = 0, len(ranges)
    while lo < hi:
        m = (lo + hi) // 2
        if ranges[m][0] <= v:
            lo = m + 1
        else:
            hi = m
    if lo == 0:
        return -1
    return lo - 1 if v < ranges[lo - 1][1] else -1


def words(params, layout, ranges):
    """the launch's argument-shape items: ('P', pos, alias id, inside) and ('V', pos, value), as the tool scans them"""
    items = []
    seen = []
    whole = not layout
    if whole:
        layout = [{"offset": 0, "size": len(params)}]
    for k, p in enumerate(layout):
        o, end = p.get("offset", 0), p.get("offset", 0) + p.get("size", 0)
        end = min(end, len(params))
        if not whole and end - o < 8:   # a parameter under 8 bytes: one scalar
            items.append(("V", o, int.from_bytes(params[o:end], "little")))
            continue
        while o < end:
            if o % 8 == 0 and o + 8 <= end:
                v = int.from_bytes(params[o:o + 8], "little")
                a = find(ranges, v) if v else -1
                if a >= 0:
                    if a not in seen:
                        seen.append(a)
                    items.append(("P", o, min(seen.index(a), 15), v != ranges[a][0]))
                else:
                    items.append(("V", o, v))
                o += 8
            else:
                items.append(("B", o, params[o]))
                o += 1
    return items


def simulate(t, rule, cap, stable_v, steps):
    per_dims = {}          # dims key -> {"shapes": {key: observed}, "values": {pos: set}, "masked": set}
    observed, capped, late, late_mods = 0, 0, 0, set()
    ls = launches_with_allocs(t)
    first_part = len(ls) / steps
    for n, (i, l, ranges) in enumerate(ls):
        f = l.get("function", 0)
        dk = (f, l.get("grid_x"), l.get("grid_y"), l.get("grid_z"), l.get("block_x"), l.get("block_y"), l.get("block_z"))
        d = per_dims.setdefault(dk, {"shapes": {}, "values": {}, "masked": set(), "dims_obs": 0})
        if rule == "dims":
            key = ()
        else:
            fn = t.functions.get(f, {})
            items = words(l.get("params", b""), fn.get("params", []), ranges)
            if rule in ("scalars", "scalars-stable"):
                items = [("P", it[1]) if it[0] == "P" else it for it in items]
            if rule in ("stable", "scalars-stable"):
                key = tuple(("M", it[1]) if it[0] == "V" and it[1] // 4 in d["masked"] else it for it in items)
            else:
                key = tuple(items)
        sh = d["shapes"]
        if key not in sh:
            if rule != "dims" and len(sh) >= cap:
                capped += 1
                continue
            sh[key] = 0
            if rule in ("stable", "scalars-stable"):   # count each scalar word's distinct values over the dims shape's argument shapes
                for it in key:
                    if it[0] == "V":
                        vals = d["values"].setdefault(it[1] // 4, set())
                        vals.add(it[2])
                        if len(vals) >= stable_v:
                            d["masked"].add(it[1] // 4)
        if sh[key] < 2:
            sh[key] += 1
            observed += 1
            if n >= first_part:
                late += 1
                late_mods.add(t.functions.get(f, {}).get("module", 0))
    nshapes = sum(len(d["shapes"]) for d in per_dims.values())
    return {"observed": observed, "dims": len(per_dims), "argument_shapes": 0 if rule == "dims" else nshapes,
            "capped": capped, "late_observed": late, "late_modules": len(late_mods), "launches": len(ls)}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = sys.argv[1]
    if not os.path.exists(path):
        sys.exit("shape_rules_analyse.py: %s: no such trace" % path)
    steps = int(sys.argv[2]) if len(sys.argv) == 3 else 3
    t = pr.read_trace(path)
    print("%s: %d launches, parts of the run: %d" % (path, sum(1 for e in t.events if "launch" in e), steps))
    print("%-20s %9s %7s %10s %8s %14s %12s" % ("rule", "observed", "dims", "arg shapes", "capped", "late observed",
                                                 "late modules"))
    for name, rule, cap, v in (("dims", "dims", 0, 0), ("args cap8", "args", 8, 0), ("args cap4", "args", 4, 0),
                               ("args cap2", "args", 2, 0), ("stable3 cap8", "stable", 8, 3),
                               ("stable2 cap8", "stable", 8, 2), ("scalars cap8", "scalars", 8, 0),
                               ("scalars-stable2 cap8", "scalars-stable", 8, 2)):
        r = simulate(t, rule, cap, v, steps)
        print("%-20s %9d %7d %10d %8d %14d %12d" % (name, r["observed"], r["dims"], r["argument_shapes"], r["capped"],
                                                     r["late_observed"], r["late_modules"]))


if __name__ == "__main__":
    main()
