#!/usr/bin/env python3
"""i15-timing: how well gated event timing with an in-pair probe estimates per-kernel GPU time (standard library).

    timing_probe_analyse.py FULL.phos METHOD.phos [METHOD_DIAG.csv] [--both BOTH.csv] [--json OUT.json]

FULL: every launch timed by CUPTI (the accuracy reference). When both runs made the same launch sequence, a second
line applies METHOD's choice of timed launches to FULL's own durations: the sampling error without the difference
between two processes (i15-settle). METHOD: sampled timing by gated events with the probe
(PHOS_TIMING_PROBE=1); METHOD_DIAG its PHOS_TIMING_DIAG file (one line per timed launch, in the trace's order), from
which other corrections of the same spans are computed: the raw span, the raw span minus a constant, the span minus
the probe span plus a constant. Per-kernel estimate and comparison as bench/sampling_analyse.py (per launch shape the
mean of its timed launches times its launches; kernels within 5% of FULL, the median and worst error).
BOTH.csv: a PHOS_TIMING_BOTH run's diagnosis file, where CUPTI and the gated events timed the same launches: prints
what the events measure beyond CUPTI's duration per launch, and how much of it the probe span explains.
"""
import csv
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import phos_read as pr  # noqa: E402
import sampling_analyse as sa  # noqa: E402


def read_diag(path):
    try:
        rows = list(csv.DictReader(open(path, newline="")))
    except OSError as e:
        sys.exit("timing_probe_analyse.py: cannot read the diagnosis file %s: %s" % (path, e))
    need = {"kernel", "span_ns", "probe_span_ns", "cupti_ns", "probe_cupti_ns"}
    if rows and not need <= set(rows[0]):
        sys.exit("timing_probe_analyse.py: %s is not a PHOS_TIMING_DIAG file (columns %s)" % (path, sorted(rows[0])))
    return [{k: (r[k] if k == "kernel" else int(r[k])) for k in need} | {"shape": tuple(int(r[c]) for c in
            ("grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z"))} for r in rows]


def errors(x):
    errs = sorted(abs(r["err"]) for r in x["rows_all"])
    return statistics.median(errs) if errs else 0.0, errs[-1] if errs else 0.0


def compare(ref, est, label):
    x = sa.compare(ref, est, label)
    # sa.compare keeps 25 rows; the median and worst need every kernel
    total = sum(v[0] for v in ref.values())
    x["rows_all"] = [{"kernel": k, "err": ((est.get(k, (0.0, 0, 0))[0] - t) / t) if t else 0.0, "share": t / total if total else 0}
                     for k, (t, n, _) in ref.items()]
    x["median_abs_err"], x["worst_abs_err"] = errors(x)
    worst = max(x["rows_all"], key=lambda r: abs(r["err"])) if x["rows_all"] else None
    x["worst_kernel"] = worst["kernel"][:70] if worst else ""
    x["worst_err"] = worst["err"] if worst else 0.0   # i15-settle: with its sign (worst_abs_err has none)
    x["outside_5pct"] = [{"kernel": r["kernel"][:90], "err": round(r["err"], 4), "share": round(r["share"], 5)}
                         for r in sorted(x["rows_all"], key=lambda r: -abs(r["err"])) if abs(r["err"]) > 0.05]   # i15-settle
    del x["rows_all"]
    return x


def line(x):
    return ("%-58s %2d of %d within 5%% (%d of %d with >= 1%% of GPU time); median |err| %.1f%%, worst %+.1f%% (%s); "
            "total %+.2f%%" % (x["what"], x["within_5pct"], x["kernels"], x["ge_1pct_within_5pct"], x["kernels_ge_1pct_time"],
                               100 * x["median_abs_err"], 100 * x.get("worst_err", x["worst_abs_err"]), x["worst_kernel"][:40], 100 * x["total_err"]))


def main():
    args = sys.argv[1:]
    both = out_json = None
    if "--both" in args:
        i = args.index("--both"); both = args[i + 1]; del args[i:i + 2]
    if "--json" in args:
        i = args.index("--json"); out_json = args[i + 1]; del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    for p in args[:2]:
        if not os.path.isfile(p):
            sys.exit("timing_probe_analyse.py: no such trace: %s" % p)
    F = sa.launches(pr.read_trace(args[0]))
    MT = pr.read_trace(args[1])
    M = sa.launches(MT)
    ref = sa.estimate(F)
    res = {"policy": MT.header.get("timing_sampling"), "launches": len(M), "timed": sum(d is not None for _, _, d in M), "variants": []}
    res["variants"].append(compare(ref, sa.estimate(M), "as recorded (%s)" % (MT.header.get("timing_sampling") or {}).get("event_correction", "?")))
    # i15-settle: the same launches timed, but with FULL's own durations: the sampling error alone, without the
    # difference between two processes (only when both ran the same launch sequence)
    if len(F) == len(M) and all(f[0] == m[0] and f[1] == m[1] for f, m in zip(F, M)):
        res["variants"].append(compare(ref, sa.estimate(F, [d is not None for _, _, d in M]),
                                       "its timed launches, FULL's durations (same process)"))
    if len(args) > 2:
        D = read_diag(args[2])
        timed = [i for i, (_, _, d) in enumerate(M) if d is not None]
        if len(timed) != len(D):
            print("note: %d timed launches, %d diagnosis lines: variants from the diagnosis file skipped" % (len(timed), len(D)))
        else:
            bad = sum(M[i][0][:20] != D[j]["kernel"][:20] and not D[j]["kernel"].startswith("_Z") for j, i in enumerate(timed))

            def variant(label, f):
                G = list(M)
                for j, i in enumerate(timed):
                    v = f(D[j])
                    G[i] = (M[i][0], M[i][1], v if v is not None and v > 0 else 1)
                res["variants"].append(compare(ref, sa.estimate(G), label))
            variant("raw gated span", lambda r: r["span_ns"])
            for c in (2000, 2400, 2800):
                variant("raw span - %d ns" % c, lambda r, c=c: r["span_ns"] - c)
            pr_ok = [r for r in D if r["probe_span_ns"] >= 0]
            if pr_ok:
                res["probe_span_median_ns"] = statistics.median(r["probe_span_ns"] for r in pr_ok)
                for p in sorted({0, 500, 800, 1000, 1200, (res["policy"] or {}).get("probe_kernel_ns", 0)}):
                    variant("span - probe span + %d ns" % p, lambda r, p=p: r["span_ns"] - r["probe_span_ns"] + p
                            if r["probe_span_ns"] >= 0 else None)
            if both:
                # what a CUPTI warm-up that learns each launch shape's event overhead would give (option 2 of the brief):
                # the per-shape mean of span - CUPTI from the BOTH run, taken off this run's raw spans
                Bd = [r for r in read_diag(both) if r["cupti_ns"] > 0 and r["span_ns"] >= 0]
                if Bd:
                    tab, allv = {}, [r["span_ns"] - r["cupti_ns"] for r in Bd]
                    for r in Bd:
                        tab.setdefault((r["kernel"],) + r["shape"], []).append(r["span_ns"] - r["cupti_ns"])
                    dflt = statistics.median(allv)
                    variant("raw span - per-shape bias learned with CUPTI (BOTH run)", lambda r: r["span_ns"] - statistics.fmean(
                        tab.get((r["kernel"],) + r["shape"], [dflt])))
                    variant("raw span - median bias learned with CUPTI (%.0f ns)" % dflt, lambda r: r["span_ns"] - dflt)
            res["diag_name_mismatches"] = bad
    for x in res["variants"]:
        print(line(x))
    if both:
        B = [r for r in read_diag(both) if r["cupti_ns"] > 0 and r["span_ns"] >= 0]
        res["both"] = both_report(B)
    if out_json:
        with open(out_json, "w") as f:
            json.dump(res, f, indent=1)


def both_report(B):
    """per launch, CUPTI and gated events on the same launch: what the span measures beyond CUPTI"""
    if not B:
        print("both: no launch with CUPTI and event times")
        return {}
    over = [r["span_ns"] - r["cupti_ns"] for r in B]
    P = [r for r in B if r["probe_span_ns"] >= 0]
    out = {"launches": len(B), "overhead_median_ns": statistics.median(over), "overhead_sd_ns": statistics.pstdev(over)}
    print("both: %d launches timed by CUPTI and gated events; span - CUPTI: median %.0f ns, sd %.0f ns" % (
        len(B), out["overhead_median_ns"], out["overhead_sd_ns"]))
    if P:
        ov = [r["span_ns"] - r["cupti_ns"] for r in P]
        ps = [r["probe_span_ns"] for r in P]
        pc = [r["probe_cupti_ns"] for r in P if r["probe_cupti_ns"] > 0]
        res = [r["span_ns"] - r["probe_span_ns"] - r["cupti_ns"] for r in P]
        out.update({"probe_span_median_ns": statistics.median(ps), "probe_cupti_median_ns": statistics.median(pc) if pc else None,
                    "residual_median_ns": statistics.median(res), "residual_sd_ns": statistics.pstdev(res),
                    "corr_overhead_probe": corr(ov, ps)})
        print("both: probe span median %.0f ns, probe kernel's CUPTI duration median %s ns; span - probe span - CUPTI: median %.0f, sd %.0f ns;"
              " correlation of (span - CUPTI) with the probe span %.2f" % (out["probe_span_median_ns"], out["probe_cupti_median_ns"],
                                                                           out["residual_median_ns"], out["residual_sd_ns"], out["corr_overhead_probe"]))
        by = {}
        for r in P:
            by.setdefault((r["kernel"][:40],) + r["shape"], []).append(r)
        print("%-40s %10s %8s %9s %9s %5s" % ("shape (heaviest 20)", "CUPTI ns", "span-CU", "probe", "resid", "n"))
        rows = []
        for s, rs in sorted(by.items(), key=lambda kv: -sum(r["cupti_ns"] for r in kv[1]))[:20]:
            row = (s[0], statistics.fmean(r["cupti_ns"] for r in rs), statistics.fmean(r["span_ns"] - r["cupti_ns"] for r in rs),
                   statistics.fmean(r["probe_span_ns"] for r in rs), statistics.fmean(r["span_ns"] - r["probe_span_ns"] - r["cupti_ns"] for r in rs), len(rs))
            rows.append(row)
            print("%-40s %10.0f %+8.0f %9.0f %+9.0f %5d  grid %s block %s" % (row + (s[1:4], s[4:7])))
        out["shapes"] = rows
    return out


def corr(a, b):
    if len(a) < 3 or statistics.pstdev(a) == 0 or statistics.pstdev(b) == 0:
        return 0.0
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / (len(a) * statistics.pstdev(a) * statistics.pstdev(b))


if __name__ == "__main__":
    main()
