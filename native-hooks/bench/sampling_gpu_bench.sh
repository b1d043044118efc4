#!/bin/bash
# i15-cost GPU run (H100): sampled GPU timing and sampled sanitizer observation, measured in interleaved rounds, and
# the Triton sample re-recorded with its PTX. One command on the GPU machine, repository root:
#     bash native-hooks/bench/sampling_gpu_bench.sh [NATIVE_HOOKS_DIR] [OUTDIR]
# A. PyTorch loop (sample-traces/programs/pytorch/torch_train.py --iters $ITERS --warmup $WARMUP), ROUNDS rounds of
#    plain / recorder with every launch timed (PHOS_TIMING_SAMPLE=0) / recorder with sampled timing (default);
#    it/s medians; per-kernel GPU time of round 1's two traces compared (bench/sampling_analyse.py timing).
# B. The same loop (--iters $SITERS --warmup $SWARMUP), SROUNDS rounds of plain / recorder + sanitizer tool observing
#    each launch shape twice (PHOS_SANITIZER_SHAPES=2): it/s and whole-run wall time; coverage of round 1
#    (bench/sampling_analyse.py coverage).
# C. triton_ops.py under recorder + sanitizer (every launch observed) as record-python-samples.sh does, with the
#    recorder's Triton PTX lookup: triton-ops.phos + .observed.phos into OUTDIR.
set -u
ROOT=$(pwd)
SRC=${1:-$ROOT/native-hooks}
OUTD=${2:-${OUT:-/tmp/i15-out}}
mkdir -p "$OUTD"
ROUNDS=${ROUNDS:-3}; ITERS=${ITERS:-300}; WARMUP=${WARMUP:-30}
SROUNDS=${SROUNDS:-2}; SITERS=${SITERS:-100}; SWARMUP=${SWARMUP:-10}
W=/tmp/i15-work; rm -rf "$W"; mkdir -p "$W"
NH=/tmp/i15-nh; rm -rf "$NH"; cp -r "$SRC" "$NH"; rm -rf "$NH/build"
export PYTHONUNBUFFERED=1
P=$ROOT/sample-traces/programs
TT=$P/pytorch/torch_train.py
echo "== i15-cost GPU run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1 | tail -1
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
SANITIZER_HOME=${SANITIZER_HOME:-$CUDA_HOME/compute-sanitizer}
t0=$(date +%s)
make -s -C "$NH" -j8 all sanitizer CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$SANITIZER_HOME" NVCC="$NVCC" \
  PATCH_ARCH="-gencode arch=compute_90,code=sm_90" > "$W/build.log" 2>&1 || { echo "build failed"; tail -30 "$W/build.log"; }
echo "build: $(( $(date +%s) - t0 )) s; $(ls "$NH/build" | tr '\n' ' ')"
B=$NH/build
its() { awk '/it\/s/{for(i=1;i<=NF;i++) if($i=="it/s,") print $(i-1)}'; }
ck() { awk '/^checksum/{print $2}' "$1"; }

# ---- A. timing: quick check that the CUPTI window times the launches it picks, else fall back to events
SAMPLED_ENV="PHOS_TIMING_SAMPLE=1"
timeout 60 env LD_PRELOAD=$B/libphos_recorder.so PHOS_DEBUG=1 PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$W/probe.phos \
  python3 "$TT" --iters 20 > "$W/probe.out" 2> "$W/probe.err"
grep '^\[phos\]' "$W/probe.err" | grep -iv 'module' | tail -5
python3 - "$W/probe.phos" > "$W/probe.txt" <<'PY'
import sys; sys.path.insert(0, "/tmp/i15-nh/tools"); import phos_read as pr
t = pr.read_trace(sys.argv[1]); ls = [e["launch"] for e in t.events if "launch" in e]
print(len(ls), sum(1 for l in ls if l.get("gpu_start_ns")), t.header.get("timing_sampling"))
PY
cat "$W/probe.txt"
read nl nt _ < "$W/probe.txt"
if [ "${nt:-0}" -lt 20 ]; then echo "CUPTI window timed too few launches (${nt:-0}): sampled runs use CUDA events"; SAMPLED_ENV="PHOS_TIMING_SAMPLE=1 PHOS_TIMING_SOURCE=events"; fi
echo "== A. PyTorch throughput, $ROUNDS rounds of plain / full timing / sampled timing (--iters $ITERS --warmup $WARMUP)"
for r in $(seq 1 "$ROUNDS"); do
  for cfg in plain full sampled; do
    case $cfg in
      plain) pre=""; extra="";;
      full) pre=$B/libphos_recorder.so; extra="PHOS_TIMING_SAMPLE=0";;
      sampled) pre=$B/libphos_recorder.so; extra="$SAMPLED_ENV";;
    esac
    tr=$W/t_$cfg.phos; [ "$r" = 1 ] || tr=$W/t_${cfg}_$r.phos
    v=$(timeout 120 env ${pre:+LD_PRELOAD=$pre} $extra PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$tr python3 "$TT" --iters "$ITERS" --warmup "$WARMUP" 2>"$W/a_$cfg.err" | tee "$W/a_$cfg.out" | its)
    echo "round $r $cfg: ${v:-none} it/s checksum $(ck "$W/a_$cfg.out")"
    [ "$r" = 1 ] || rm -f "$tr"
  done
done | tee "$OUTD/timing_rounds.txt"
python3 - "$OUTD/timing_rounds.txt" <<'PY' | tee -a "$OUTD/timing_rounds.txt"
import re, statistics, sys
v = {}
for l in open(sys.argv[1]):
    m = re.match(r"round \d+ (\w+): ([0-9.]+) it/s", l)
    if m: v.setdefault(m.group(1), []).append(float(m.group(2)))
med = {k: statistics.median(x) for k, x in v.items()}
print("summary: medians " + ", ".join("%s %.1f it/s (%s)" % (k, med[k], x) for k, x in v.items()))
for k in ("full", "sampled"):
    if k in med and "plain" in med: print("%s: %.1f%% of plain" % (k, 100 * med[k] / med["plain"]))
PY
python3 "$NH/bench/sampling_analyse.py" timing "$W/t_full.phos" "$W/t_sampled.phos" > "$OUTD/timing_analysis.json" 2>&1
python3 - "$OUTD/timing_analysis.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("timed launches: full %s, sampled %s" % (r["full"], {k: r["sampled"][k] for k in ("launches", "timed")}))
for k in ("sampled_run_vs_full_run", "policy_on_full_run"):
    x = r[k]; print("%s: %d kernels, %d within 5%%; %d kernels >= 1%% of GPU time, %d of them within 5%%; total %.2f vs %.2f ms (%+.2f%%), time-weighted |err| %.2f%%" % (
        x["what"], x["kernels"], x["within_5pct"], x["kernels_ge_1pct_time"], x["ge_1pct_within_5pct"], x["total_full_ms"], x["total_est_ms"], 100 * x["total_err"], 100 * x["time_weighted_abs_err"]))
PY
grep '^\[phos\]' "$W/a_sampled.err" | grep -iv module | tail -3

# ---- B. sanitizer observing each launch shape twice
echo "== B. sanitizer, $SROUNDS rounds of plain / recorder + tool with PHOS_SANITIZER_SHAPES=2 (--iters $SITERS --warmup $SWARMUP)"
for r in $(seq 1 "$SROUNDS"); do
  for cfg in plain shapes; do
    s0=$(date +%s.%N)
    if [ $cfg = plain ]; then
      v=$(timeout 120 python3 "$TT" --iters "$SITERS" --warmup "$SWARMUP" 2>"$W/b_plain.err" | tee "$W/b_plain.out" | its)
      o=$W/b_plain.out
    else
      tr=$W/s_$r.phos
      v=$(timeout 200 env LD_PRELOAD=$B/libphos_recorder.so:$B/libphos_sanitizer.so PHOS_SANITIZER_SHAPES=2 PHOS_MODULE_IMAGE_LIMIT=0 \
          PHOS_TRACE_OUT=$tr python3 "$TT" --iters "$SITERS" --warmup "$SWARMUP" 2>"$W/b_shapes.err" | tee "$W/b_shapes.out" | its)
      o=$W/b_shapes.out
    fi
    s1=$(date +%s.%N)
    echo "round $r $cfg: ${v:-none} it/s, whole run $(awk "BEGIN{printf \"%.2f\", $s1-$s0}") s, checksum $(ck "$o")"
    [ $cfg = shapes ] && grep 'phos-sanitizer' "$W/b_shapes.err" | tail -4 | sed 's/^/    /'
  done
done | tee "$OUTD/sanitizer_rounds.txt"
python3 "$NH/bench/sampling_analyse.py" coverage "$W/s_1.phos" "$W/s_1.phos.observed.phos" > "$OUTD/sanitizer_coverage.json" 2>&1
head -c 1500 "$OUTD/sanitizer_coverage.json"; echo
cp "$W/s_1.phos" "$OUTD/pytorch-train-shapes.phos" 2>/dev/null; cp "$W/s_1.phos.observed.phos" "$OUTD/pytorch-train-shapes.phos.observed.phos" 2>/dev/null

# ---- C. Triton sample with its PTX
echo "== C. triton-ops re-recorded (recorder + sanitizer, every launch observed)"
rm -rf ~/.triton/cache
PLAIN=$(timeout 150 python3 "$P/triton/triton_ops.py" 2>"$W/tr_plain.err" | tee "$W/tr_plain.out" | awk '/^checksum/{print $2}')
rm -rf ~/.triton/cache   # compiled again under the recorder, as in a fresh process
got=$(timeout 200 env LD_PRELOAD=$B/libphos_recorder.so:$B/libphos_sanitizer.so PHOS_DEBUG=1 PHOS_MODULE_IMAGE_LIMIT=1048576 \
  PHOS_TRACE_OUT=$OUTD/triton-ops.phos python3 "$P/triton/triton_ops.py" 2>"$W/tr.err" | tee "$W/tr.out" | awk '/^checksum/{print $2}')
echo "triton-ops: checksum plain ${PLAIN:-none}, recorded ${got:-none}"
grep -E 'PTX from|phos-sanitizer.*observed' "$W/tr.err" | head -20
python3 "$NH/tools/phos_read.py" "$OUTD/triton-ops.phos" | head -40
ls -la "$OUTD"; ls ~/.triton/cache | head -3; ls ~/.triton/cache/* | head -12
echo "== done $(date -u +%H:%M:%SZ), $(( $(date +%s) - t0 )) s"
