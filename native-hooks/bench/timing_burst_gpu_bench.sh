#!/bin/bash
# i15-burst GPU run: sampled timing by bursts of CUPTI kernel records (PHOS_TIMING_BURST) against plain, the recorder
# with timing off, every launch timed by CUPTI, and the in-pair probe of i15-timing. One command on the GPU machine,
# repository root:
#     bash native-hooks/bench/timing_burst_gpu_bench.sh OUTDIR
# bench/steady_loop.py (torch_train.py's loop; WINDOWS windows of ITERS iterations after 30 warm-up) pinned with
# taskset to CPUS; ROUNDS rounds, the configurations interleaved in a rotating order (round r starts at configuration
# r). Per process both the median of its windows and its overall rate (all windows' iterations over their time: what
# a burst that falls into one window costs counts in full). Round 1's traces of full, burst and probe go to
# OUTDIR/traces.tar for bench/timing_probe_analyse.py FULL.phos METHOD.phos.
set -u
ROOT=$(pwd); OUTD=$1; mkdir -p "$OUTD"
ROUNDS=${ROUNDS:-8}; WINDOWS=${WINDOWS:-4}; ITERS=${ITERS:-300}; CPUS=${CPUS:-2-5}; PNS=${PNS:-864}
CONFIGS=${CONFIGS:-plain off full burst probe}
. "$(dirname "$0")/steady_bench_lib.sh"
steady_setup i15-burst "$ROOT/native-hooks"
env_of() {
  case $1 in
    plain) echo "";;
    off) echo "LD_PRELOAD=$L PHOS_TIMING=0";;
    full) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=0";;
    burst) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_BURST=${BURST:-1024} PHOS_TIMING_DUTY=${DUTY:-20}";;
    burst5) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_BURST=${BURST:-1024} PHOS_TIMING_DUTY=50";;
    startup) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_BURST=${BURST:-1024} PHOS_TIMING_DUTY=1 PHOS_TIMING_BURST_GAP_MS=0";;   # one burst at the start, then each shape's first launches
    startup10) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_BURST=${BURST:-1024} PHOS_TIMING_DUTY=1 PHOS_TIMING_BURST_GAP_MS=0 PHOS_TIMING_FIRST=10";;
    startup20) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_BURST=${BURST:-1024} PHOS_TIMING_DUTY=1 PHOS_TIMING_BURST_GAP_MS=0 PHOS_TIMING_FIRST=20";;
    idle) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_BURST=${BURST:-1024} PHOS_TIMING_DUTY=1";;   # diagnosis: CUPTI subscribed, one burst at start
    probe) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_SOURCE=events PHOS_TIMING_PROBE=1 PHOS_TIMING_PROBE_NS=$PNS";;
  esac
}
set -- $CONFIGS; NC=$#; CS=("$@")
for r in $(seq 1 "$ROUNDS"); do
  for k in $(seq 0 $((NC - 1))); do
    c=${CS[$(( (k + r - 1) % NC ))]}
    tr=$W/t.phos; extra=""
    if [ "$r" = 1 ]; then tr=$W/keep/$c.phos; extra="PHOS_DEBUG=1"; fi
    out=$( (export $(env_of $c) $extra PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$tr; loop) 2>"$W/s_${c}_$r.err")
    echo "round $r $c: $(echo "$out" | sed -n 's/^steady \([0-9.]*\) it\/s.*/\1/p') it/s overall $(echo "$out" | sed -n 's/^overall \([0-9.]*\) it\/s.*/\1/p') [$(echo "$out" | sed -n 's/^windows //p')]"
    rm -f "$W/t.phos"
  done
done | tee "$OUTD/rounds.txt"
for c in $CONFIGS; do echo "-- $c stderr (round 1)"; grep -i "burst\|CUPTI\|timing\|probe" "$W/s_${c}_1.err" | head -5; tail -2 "$W/s_${c}_1.err"; done > "$OUTD/diag.txt"
tar cf "$OUTD/traces.tar" -C "$W/keep" . 2>/dev/null
python3 - "$OUTD/rounds.txt" <<'PY' | tee -a "$OUTD/rounds.txt"
import re, statistics, sys
for key, rx in (("median of windows", r"round (\d+) (\w+): ([0-9.]+) it/s"), ("overall", r"round (\d+) (\w+): [0-9.]+ it/s overall ([0-9.]+)")):
    v = {}
    for l in open(sys.argv[1]):
        m = re.match(rx, l)
        if m: v.setdefault(m.group(2), []).append(float(m.group(3)))
    if "plain" not in v: continue
    med = {k: statistics.median(x) for k, x in v.items()}
    print("== %s" % key)
    for k, x in v.items():
        if k == "plain":
            print("summary %s %s: median %.1f it/s, range %.1f-%.1f" % (key, k, med[k], min(x), max(x))); continue
        per = [a / b for a, b in zip(x, v["plain"])]
        print("summary %s %s: median %.1f it/s = %.1f%% of plain; median of per-round shares %.1f%% (%s)" % (key, k, med[k],
              100 * med[k] / med["plain"], 100 * statistics.median(per), ", ".join("%.1f" % (100 * p) for p in per)))
PY
ls -la "$OUTD"; echo "== done $(date -u +%H:%M:%SZ)"
