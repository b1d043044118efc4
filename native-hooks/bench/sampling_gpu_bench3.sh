#!/bin/bash
# i15-cost2 GPU run: sampled timing by CUDA events with each timed launch's stream gated (cuStreamWaitValue32 on a
# host-mapped word, opened after the end event is recorded; rec_timing.c), against plain, full CUPTI timing and the
# recorder with timing off. One command on the GPU machine, repository root:
#     bash native-hooks/bench/sampling_gpu_bench3.sh NATIVE_HOOKS_DIR OUTDIR
# A. launch_bench.cu (empty kernel, host ns per launch, median of 60 batches of 1000): plain / recorder timing off /
#    full CUPTI / sampled gated events, LROUNDS interleaved rounds.
# B. bench/steady_loop.py (torch_train.py's loop; WINDOWS windows of ITERS iterations after 30 warm-up, median per
#    process) pinned with taskset to CPUS, ROUNDS interleaved rounds of plain / full / gated / off; round 1's traces
#    of full and gated, and one gated run with the event bias left on (PHOS_TIMING_EVENT_BIAS=0), go to OUTDIR/traces.tar
#    for bench/sampling_analyse.py timing.
set -u
ROOT=$(pwd); SRC=$1; OUTD=$2; mkdir -p "$OUTD"
ROUNDS=${ROUNDS:-3}; WINDOWS=${WINDOWS:-4}; ITERS=${ITERS:-120}; LROUNDS=${LROUNDS:-2}; CPUS=${CPUS:-2-5}
export PYTHONUNBUFFERED=1
W=/tmp/i15c2-work; rm -rf "$W"; mkdir -p "$W/keep"
NH=/tmp/i15c2-nh; rm -rf "$NH"; cp -r "$SRC" "$NH"; rm -rf "$NH/build"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
echo "== i15-cost2 $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) nproc $(nproc)"
python3 -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -1
make -s -C "$NH" -j8 build/libphos_recorder.so > "$W/build.log" 2>&1 & 
"$NVCC" -O2 -arch=sm_90 -o "$W/launch_bench" "$NH/bench/launch_bench.cu" > "$W/nvcc.log" 2>&1 &
wait
L=$NH/build/libphos_recorder.so
[ -f "$L" ] || { echo "recorder build failed"; tail "$W/build.log"; exit 1; }
env_of() {
  case $1 in
    plain) echo "";;
    full) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=0";;
    gated) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_SOURCE=events";;
    off) echo "LD_PRELOAD=$L PHOS_TIMING=0";;
    gatedraw) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=1 PHOS_TIMING_SOURCE=events PHOS_TIMING_EVENT_BIAS=0 PHOS_DEBUG=1";;
  esac
}
if [ -x "$W/launch_bench" ]; then
  for r in $(seq 1 "$LROUNDS"); do
    for c in plain off full gated; do
      v=$(env $(env_of $c) PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$W/lb.phos taskset -c "$CPUS" timeout 60 "$W/launch_bench" 1000 60 2>>"$W/lb.err")
      echo "launch round $r $c: $v"
    done
  done | tee "$OUTD/launch.txt"
else echo "nvcc failed"; tail -3 "$W/nvcc.log"; fi
SL=$NH/bench/steady_loop.py
export PYTHONPATH=$ROOT/sample-traces/programs/pytorch
for r in $(seq 1 "$ROUNDS"); do
  for c in plain full gated off; do
    tr=$W/t.phos; [ "$r" = 1 ] && tr=$W/keep/$c.phos
    out=$(env $(env_of $c) PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$tr taskset -c "$CPUS" timeout 90 python3 "$SL" --windows "$WINDOWS" --iters "$ITERS" --warmup 30 2>"$W/s_$c.err")
    echo "round $r $c: $(echo "$out" | sed -n 's/^steady \([0-9.]*\) it\/s.*/\1/p') it/s [$(echo "$out" | sed -n 's/^windows //p')]"
    rm -f "$W/t.phos"
  done
done | tee "$OUTD/rounds.txt"
env $(env_of gatedraw) PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$W/keep/gatedraw.phos taskset -c "$CPUS" timeout 90 python3 "$SL" --windows "$WINDOWS" --iters "$ITERS" --warmup 30 > "$W/raw.out" 2> "$W/raw.err"
{ cat "$W/raw.out"; grep -i "gate\|bias" "$W/raw.err" | head -5; for c in full gated off; do echo "-- $c stderr"; tail -3 "$W/s_$c.err"; done; } > "$OUTD/debug.txt"
tar cf "$OUTD/traces.tar" -C "$W/keep" . 2>/dev/null
python3 - "$OUTD/rounds.txt" <<'PY' | tee -a "$OUTD/rounds.txt"
import re, statistics, sys
v = {}
for l in open(sys.argv[1]):
    m = re.match(r"round (\d+) (\w+): ([0-9.]+) it/s", l)
    if m: v.setdefault(m.group(2), []).append(float(m.group(3)))
med = {k: statistics.median(x) for k, x in v.items()}
for k, x in v.items():
    print("summary %s: median %.1f it/s, range %.1f-%.1f, %s%s" % (k, med[k], min(x), max(x), x,
          "" if k == "plain" or "plain" not in med else ", %.1f%% of plain" % (100 * med[k] / med["plain"])))
PY
ls -la "$OUTD"; echo "== done $(date -u +%H:%M:%SZ)"
