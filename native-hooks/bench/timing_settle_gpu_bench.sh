#!/bin/bash
# i15-settle GPU run: the PHOS_TIMING_SAMPLE=startup preset whose first burst lasts until the launch shapes settle
# (PHOS_TIMING_FIRST_BURST_MS, the preset's default since i15-settle) against the earlier preset (first burst of 1024
# launches, later first launches timed one by one: FIRST_BURST_MS=0), the recorder with timing off, every launch timed
# by CUPTI, and plain. One command on the GPU machine, repository root:
#     bash native-hooks/bench/timing_settle_gpu_bench.sh OUTDIR
# Throughput: bench/steady_turns.py (torch_train.py's loop, the processes taking turns window by window; SETS sets of
# WINDOWS windows of ITERS iterations after WARMUP). Accuracy: bench/timing_probe_analyse.py on the first KEEP sets'
# traces: each startup run against the fully timed run of its own set and of the other set, and the two fully timed
# runs against each other (the run-to-run floor of the 5% criterion).
set -u
ROOT=$(pwd); OUTD=$1; mkdir -p "$OUTD"
SETS=${SETS:-3}; WINDOWS=${WINDOWS:-40}; ITERS=${ITERS:-150}; WARMUP=${WARMUP:-40}; CPUS=${CPUS:-2-5}; KEEP=${KEEP:-2}
. "$(dirname "$0")/steady_bench_lib.sh"
steady_setup i15-settle "$ROOT/native-hooks"
B=$NH/bench
python3 "$B/steady_turns.py" --sets "$SETS" --windows "$WINDOWS" --iters "$ITERS" --warmup "$WARMUP" --cpus "$CPUS" \
    --keep "$W/keep" --keep-sets "$KEEP" \
    --config plain "" \
    --config off "LD_PRELOAD=$L PHOS_TIMING=0" \
    --config full "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=0 PHOS_MODULE_IMAGE_LIMIT=0" \
    --config startup "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_MODULE_IMAGE_LIMIT=0" \
    --config startup0 "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_TIMING_FIRST_BURST_MS=0 PHOS_MODULE_IMAGE_LIMIT=0" \
    > "$OUTD/turns.txt" 2> "$OUTD/turns.err"
echo "turns exit $?"; grep -v "^set .* window" "$OUTD/turns.txt"; tail -3 "$OUTD/turns.err"
cd "$W/keep" || exit 1
ls -la
python3 - <<'PY' | tee "$OUTD/bursts.txt"
import glob, sys
sys.path.insert(0, "/tmp/i15-settle-nh/tools")
import phos_read as pr
for f in sorted(glob.glob("*.phos")):
    t = pr.read_trace(f)
    ls = [e["launch"] for e in t.events if "launch" in e]
    cup = [i for i, l in enumerate(ls) if l.get("gpu_start_ns", 0) > 0]
    e = t.end or {}
    print("%s: %d launches, %d with GPU time, first burst ends at launch %s; TraceEnd bursts %s, %.3f s in bursts; policy %s"
          % (f, len(ls), len(cup), next((cup[i] for i in range(len(cup) - 1) if cup[i + 1] != cup[i] + 1), cup[-1] if cup else None),
             e.get("timing_bursts"), e.get("timing_burst_ns", 0) / 1e9,
             {k: v for k, v in (t.header.get("timing_sampling") or {}).items() if "burst" in k or k == "first_launches"}))
PY
A=$B/timing_probe_analyse.py
for pair in "full.set1 startup.set1" "full.set2 startup.set2" "full.set2 startup.set1" "full.set1 startup.set2" \
            "full.set1 startup0.set1" "full.set2 startup0.set2" "full.set1 full.set2"; do
  set -- $pair
  [ -f "$1.phos" ] && [ -f "$2.phos" ] || continue
  echo "== accuracy: $2 against $1"
  python3 "$A" "$1.phos" "$2.phos" --json "$OUTD/acc_$2_vs_$1.json" 2>&1 | head -12
  python3 -c 'import json,sys; x=json.load(open(sys.argv[1]))["variants"][0]
for r in x["rows"]:
    if abs(r["err"]) > 0.05: print("  outside 5%%: %-60s %+.1f%% (%.2f%% of GPU time, %d launches, %d timed)" % (r["kernel"][:60], 100*r["err"], 100*r["share"], r["launches"], r["timed"]))' "$OUTD/acc_$2_vs_$1.json"
done | tee "$OUTD/accuracy.txt"
echo "== done $(date -u +%H:%M:%SZ)"
