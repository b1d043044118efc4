#!/usr/bin/env python3
"""i15-cost: what sampled GPU timing and sampled sanitizer observation give, from traces (standard library only).

  sampling_analyse.py timing FULL.phos SAMPLED.phos      per-kernel GPU time: full timing vs the sampled estimate
  sampling_analyse.py coverage TRACE.phos SIDE.phos      distinct kernels of the trace and how many were observed

The sampled estimate of a kernel's GPU time is the one the workbench uses: per launch shape (function, grid, block)
the mean duration of its timed launches times its launches; a shape without a timed launch takes the kernel's mean.
"timing" also applies the recorder's policy to FULL itself (first K per shape, then 1 in N by random draws, N = the
sampled trace's median observed interval), which isolates the sampling error from run-to-run differences.
"""
import json
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import phos_read as pr  # noqa: E402


def launches(t):
    out = []
    for e in t.events:
        l = e.get("launch")
        if l is None or l.get("kind", 0) == 3:      # graph nodes carry no GPU times
            continue
        f = t.functions.get(l.get("function", 0), {})
        name = f.get("demangled_name") or f.get("mangled_name") or "?"
        shape = (name, l.get("grid_x", 0), l.get("grid_y", 0), l.get("grid_z", 0), l.get("block_x", 0), l.get("block_y", 0), l.get("block_z", 0))
        d = l.get("gpu_end_ns", 0) - l.get("gpu_start_ns", 0) if l.get("gpu_start_ns") else None
        out.append((name, shape, d))
    return out


def estimate(ls, timed_mask=None):
    """kernel -> (estimated total ns, launches, timed launches)"""
    by_shape, by_kernel, count_shape, count_kernel = {}, {}, {}, {}
    for i, (k, s, d) in enumerate(ls):
        count_shape[s] = count_shape.get(s, 0) + 1
        count_kernel[k] = count_kernel.get(k, 0) + 1
        if d is not None and (timed_mask is None or timed_mask[i]):
            by_shape.setdefault(s, []).append(d)
            by_kernel.setdefault(k, []).append(d)
    est = {}
    for s, n in count_shape.items():
        k = s[0]
        src = by_shape.get(s) or by_kernel.get(k)
        tot, cnt, tim = est.get(k, (0.0, 0, 0))
        est[k] = (tot + (statistics.fmean(src) * n if src else 0.0), cnt + n, tim + len(by_shape.get(s, [])))
    return est


def compare(ref, est, label):
    total = sum(v[0] for v in ref.values())
    rows, within, big, big_within = [], 0, 0, 0
    for k, (t, n, _) in sorted(ref.items(), key=lambda kv: -kv[1][0]):
        e = est.get(k, (0.0, 0, 0))
        err = (e[0] - t) / t if t else 0.0
        share = t / total if total else 0.0
        rows.append({"kernel": k[:90], "share": round(share, 4), "full_ms": round(t / 1e6, 3), "est_ms": round(e[0] / 1e6, 3),
                     "err": round(err, 4), "launches": n, "timed": e[2]})
        within += abs(err) <= 0.05
        if share >= 0.01:
            big += 1
            big_within += abs(err) <= 0.05
    tot_est = sum(v[0] for v in est.values())
    return {"what": label, "kernels": len(ref), "within_5pct": within, "kernels_ge_1pct_time": big,
            "ge_1pct_within_5pct": big_within, "total_full_ms": round(total / 1e6, 2), "total_est_ms": round(tot_est / 1e6, 2),
            "total_err": round((tot_est - total) / total, 4) if total else 0,
            "time_weighted_abs_err": round(sum(abs(r["err"]) * r["share"] for r in rows), 4), "rows": rows[:25]}


def timing(full_path, sampled_path):
    F, S = pr.read_trace(full_path), pr.read_trace(sampled_path)
    lf, ls = launches(F), launches(S)
    ref = est_full = estimate(lf)
    res = {"full": {"launches": len(lf), "timed": sum(d is not None for _, _, d in lf)},
           "sampled": {"launches": len(ls), "timed": sum(d is not None for _, _, d in ls),
                       "policy": S.header.get("timing_sampling")}}
    res["sampled_run_vs_full_run"] = compare(ref, estimate(ls), "sampled run's estimate vs the full-timing run")
    # the same policy applied to the full run's own durations (no run-to-run difference)
    pol = S.header.get("timing_sampling") or {}
    K = pol.get("first_launches", 3)
    frac = max(1e-9, (res["sampled"]["timed"] / max(1, res["sampled"]["launches"])))
    N = max(1, round(1 / frac))
    rng = random.Random(15)
    seen, mask = {}, []
    for _, s, _ in lf:
        c = seen.get(s, 0)
        seen[s] = c + 1
        mask.append(c < K or rng.random() < 1.0 / N)
    res["policy_on_full_run"] = compare(est_full, estimate(lf, mask), "policy (K=%d, 1 in %d) applied to the full run" % (K, N))
    res["policy_on_full_run"]["timed"] = sum(mask)
    return res


def coverage(trace_path, side_path):
    T, S = pr.read_trace(trace_path), pr.read_trace(side_path)
    idx_launch = {}
    for i, e in enumerate(T.events):
        l = e.get("launch")
        if l is not None:
            f = T.functions.get(l.get("function", 0), {})
            idx_launch[i] = f.get("mangled_name") or "?"
    observed = set()
    for c in S.coverage:
        observed.update(c["observed"])
    with_acc = {a.get("launch_index") for a in S.observed}
    kernels = set(idx_launch.values())
    obs_kernels = {idx_launch[i] for i in observed if i in idx_launch}
    return {"launches": len(idx_launch), "observed_launches": len(observed & set(idx_launch)),
            "launches_with_accesses": len(with_acc), "accesses_outside_coverage": len(with_acc - observed),
            "distinct_kernels": len(kernels), "kernels_observed": len(obs_kernels),
            "kernels_not_observed": sorted(k[:90] for k in kernels - obs_kernels),
            "policy": [c.get("policy") for c in S.coverage], "launches_seen_by_tool": [c.get("launches_seen") for c in S.coverage]}


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("timing", "coverage"):
        sys.exit(__doc__)
    r = timing(sys.argv[2], sys.argv[3]) if sys.argv[1] == "timing" else coverage(sys.argv[2], sys.argv[3])
    json.dump(r, sys.stdout, indent=1)
    print()
