#!/bin/bash
# i15-cost second GPU run: sampled timing by CUDA events (PHOS_TIMING_SOURCE=events) and by the CUPTI window with a
# large N, against plain and full CUPTI timing; ROUNDS interleaved rounds of torch_train.py --iters 300 --warmup 30.
#     bash native-hooks/bench/sampling_gpu_bench2.sh NATIVE_HOOKS_DIR OUTDIR
set -u
ROOT=$(pwd); SRC=$1; OUTD=$2; mkdir -p "$OUTD"
ROUNDS=${ROUNDS:-3}; ITERS=${ITERS:-300}; WARMUP=${WARMUP:-30}
W=/tmp/i15-work2; rm -rf "$W"; mkdir -p "$W"
NH=/tmp/i15-nh2; rm -rf "$NH"; cp -r "$SRC" "$NH"; rm -rf "$NH/build"
make -s -C "$NH" -j8 all > "$W/build.log" 2>&1 || { echo build failed; tail "$W/build.log"; }
B=$NH/build; TT=$ROOT/sample-traces/programs/pytorch/torch_train.py
its() { awk '/it\/s/{for(i=1;i<=NF;i++) if($i=="it/s,") print $(i-1)}'; }
echo "== $(date -u +%H:%M:%SZ) $(nvidia-smi --query-gpu=name --format=csv,noheader)"
for r in $(seq 1 "$ROUNDS"); do
  for cfg in plain full events window512 off; do
    case $cfg in
      plain) pre=""; extra="";;
      full) pre=$B/libphos_recorder.so; extra="PHOS_TIMING_SAMPLE=0";;
      events) pre=$B/libphos_recorder.so; extra="PHOS_TIMING_SOURCE=events";;
      window512) pre=$B/libphos_recorder.so; extra="PHOS_TIMING_NMIN=512 PHOS_TIMING_NMAX=512";;
      off) pre=$B/libphos_recorder.so; extra="PHOS_TIMING=0";;
    esac
    tr=$W/t_$cfg.phos; [ "$r" = 1 ] || tr=$W/t_${cfg}_$r.phos
    v=$(timeout 120 env ${pre:+LD_PRELOAD=$pre} $extra PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$tr python3 "$TT" --iters "$ITERS" --warmup "$WARMUP" 2>"$W/a_$cfg.err" | its)
    echo "round $r $cfg: ${v:-none} it/s"
    [ "$r" = 1 ] || rm -f "$tr"
  done
done | tee "$OUTD/timing_rounds2.txt"
python3 - "$OUTD/timing_rounds2.txt" <<'PY' | tee -a "$OUTD/timing_rounds2.txt"
import re, statistics, sys
v = {}
for l in open(sys.argv[1]):
    m = re.match(r"round \d+ (\w+): ([0-9.]+) it/s", l)
    if m: v.setdefault(m.group(1), []).append(float(m.group(2)))
med = {k: statistics.median(x) for k, x in v.items()}
print("summary: medians " + ", ".join("%s %.1f it/s (%s)" % (k, med[k], x) for k, x in v.items()))
for k in med:
    if k != "plain" and "plain" in med: print("%s: %.1f%% of plain" % (k, 100 * med[k] / med["plain"]))
PY
for c in events window512; do
  python3 "$NH/bench/sampling_analyse.py" timing "$W/t_full.phos" "$W/t_$c.phos" > "$OUTD/timing_analysis_$c.json" 2>&1
  python3 - "$OUTD/timing_analysis_$c.json" "$c" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(sys.argv[2], "timed launches: full %s, sampled %s" % (r["full"], {k: r["sampled"][k] for k in ("launches", "timed")}))
for k in ("sampled_run_vs_full_run", "policy_on_full_run"):
    x = r[k]; print("  %s: %d kernels, %d within 5%%; %d kernels >= 1%% of GPU time, %d of them within 5%%; total %.2f vs %.2f ms (%+.2f%%), time-weighted |err| %.2f%%" % (
        x["what"], x["kernels"], x["within_5pct"], x["kernels_ge_1pct_time"], x["ge_1pct_within_5pct"], x["total_full_ms"], x["total_est_ms"], 100 * x["total_err"], 100 * x["time_weighted_abs_err"]))
PY
done
# first-K-only estimate (N = infinity) from the full trace: what a window with a huge N would give
python3 - "$W/t_full.phos" <<'PY'
import sys, statistics; sys.path.insert(0, "/tmp/i15-nh2/bench"); import sampling_analyse as sa
import phos_read as pr
lf = sa.launches(pr.read_trace(sys.argv[1])); seen = {}; mask = []
for _, s, _ in lf:
    c = seen.get(s, 0); seen[s] = c + 1; mask.append(c < 3)
x = sa.compare(sa.estimate(lf), sa.estimate(lf, mask), "first 3 launches of each shape only")
print("%s: %d kernels, %d within 5%%; >=1%%: %d, %d within; total err %+.2f%%, weighted |err| %.2f%%" % (x["what"], x["kernels"], x["within_5pct"], x["kernels_ge_1pct_time"], x["ge_1pct_within_5pct"], 100 * x["total_err"], 100 * x["time_weighted_abs_err"]))
PY
echo "== done $(date -u +%H:%M:%SZ)"
