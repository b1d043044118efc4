#!/bin/bash
# i15-timing GPU run: sampled timing by gated CUDA events corrected by an in-pair probe (rec_probe.c) against plain,
# the recorder with timing off and full CUPTI timing. One command on the GPU machine, repository root:
#     bash native-hooks/bench/timing_probe_gpu_bench.sh NATIVE_HOOKS_DIR OUTDIR
# A. one diagnosis run (PHOS_TIMING_BOTH=1): each sampled launch timed by CUPTI *and* by gated events with the probe
#    behind it; PHOS_TIMING_DIAG lists per launch the raw span, the probe span, CUPTI's duration of the kernel and of
#    the probe kernel. The median CUPTI duration of the probe kernel is the constant PHOS_TIMING_PROBE_NS of part B
#    (the probe kernel's own duration on this GPU model; the method's own runs never load CUPTI).
# B. bench/steady_loop.py (torch_train.py's loop; WINDOWS windows of ITERS iterations after 30 warm-up, median per
#    process) pinned with taskset to CPUS, ROUNDS interleaved rounds of plain / off / full / probe; round 1's traces
#    of full and probe (with the probe run's PHOS_TIMING_DIAG) go to OUTDIR/traces.tar for
#    bench/timing_probe_analyse.py. PNS=864 skips part A and uses that probe duration.
set -u
ROOT=$(pwd); SRC=$1; OUTD=$2; mkdir -p "$OUTD"
ROUNDS=${ROUNDS:-4}; WINDOWS=${WINDOWS:-4}; ITERS=${ITERS:-120}; CPUS=${CPUS:-2-5}
. "$(dirname "$0")/steady_bench_lib.sh"
LOOP_TIMEOUT=90
steady_setup i15-timing "$SRC"

# A. CUPTI and gated events with the probe on the same launches (skipped when PNS, the probe kernel's duration, is given)
if [ -z "${PNS:-}" ]; then
(export LD_PRELOAD=$L PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$W/keep/both.phos PHOS_TIMING_SAMPLE=1 PHOS_TIMING_BOTH=1 \
    PHOS_TIMING_WINDOW=0 PHOS_TIMING_PROBE=1 PHOS_TIMING_DIAG=$W/keep/both.csv PHOS_DEBUG=1; loop) > "$W/both.out" 2> "$W/both.err"
PNS=$(python3 - "$W/keep/both.csv" <<'PY'
import csv, statistics, sys
v = [int(r["probe_cupti_ns"]) for r in csv.DictReader(open(sys.argv[1])) if int(r["probe_cupti_ns"]) > 0]
print(int(statistics.median(v)) if v else 0)
PY
)
{ echo "both: $(tail -1 "$W/both.out")"; grep -i "probe\|gate\|CUPTI" "$W/both.err" | head -8
  echo "probe kernel, CUPTI duration (median): ${PNS} ns -> PHOS_TIMING_PROBE_NS"; } | tee "$OUTD/diag.txt"
else echo "part A skipped: PHOS_TIMING_PROBE_NS=$PNS" | tee "$OUTD/diag.txt"; fi

# B. throughput rounds, configurations interleaved
env_of() {
  case $1 in
    plain) echo "";;
    off) echo "LD_PRELOAD=$L PHOS_TIMING=0";;
    full) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=0";;
    probe) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_SOURCE=events PHOS_TIMING_PROBE=1 PHOS_TIMING_PROBE_NS=$PNS";;
  esac
}
for r in $(seq 1 "$ROUNDS"); do
  for c in plain off full probe; do
    tr=$W/t.phos; extra=""
    if [ "$r" = 1 ]; then tr=$W/keep/$c.phos; [ "$c" = probe ] && extra="PHOS_TIMING_DIAG=$W/keep/probe.csv PHOS_DEBUG=1"; fi
    out=$( (export $(env_of $c) $extra PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$tr; loop) 2>"$W/s_${c}_$r.err")
    echo "round $r $c: $(echo "$out" | sed -n 's/^steady \([0-9.]*\) it\/s.*/\1/p') it/s [$(echo "$out" | sed -n 's/^windows //p')]"
    rm -f "$W/t.phos"
  done
done | tee "$OUTD/rounds.txt"
{ grep -i "probe\|gate\|bias" "$W/s_probe_1.err" | head -6; for c in off full probe; do echo "-- $c stderr"; tail -2 "$W/s_${c}_1.err"; done; } >> "$OUTD/diag.txt"
tar cf "$OUTD/traces.tar" -C "$W/keep" . 2>/dev/null
python3 - "$OUTD/rounds.txt" <<'PY' | tee -a "$OUTD/rounds.txt"
import re, statistics, sys
v = {}
for l in open(sys.argv[1]):
    m = re.match(r"round (\d+) (\w+): ([0-9.]+) it/s", l)
    if m: v.setdefault(m.group(2), []).append(float(m.group(3)))
med = {k: statistics.median(x) for k, x in v.items()}
for k, x in v.items():
    per = "" if k == "plain" or "plain" not in v else ", per round %s%% of plain" % [round(100 * a / b, 1) for a, b in zip(x, v["plain"])]
    print("summary %s: median %.1f it/s, range %.1f-%.1f, %s%s%s" % (k, med[k], min(x), max(x), x,
          "" if k == "plain" or "plain" not in med else ", %.1f%% of plain" % (100 * med[k] / med["plain"]), per))
PY
ls -la "$OUTD"; echo "== done $(date -u +%H:%M:%SZ)"
