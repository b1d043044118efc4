#!/bin/bash
# i15-shapes GPU run (H100): the sampled sanitizer tool with argument shapes (PHOS_SANITIZER_SHAPES=2, default
# PHOS_SANITIZER_ARG_SHAPES=8, safe unpatching) against the plain program, on gpt_train.py (default arguments) and
# torch_train.py (--iters 100 --warmup 10), in interleaved rounds; then the tool observing every launch on gpt_train.
# One command on the GPU machine, repository root:
#     bash native-hooks/bench/shapes_gpu_bench.sh [NATIVE_HOOKS_DIR] [OUTDIR] [SECONDS_BUDGET]
# Whole-run wall time (process start to exit) per run; checksums; the tool's summary lines; coverage of each sampled
# run (bench/sampling_analyse.py coverage); the sampled runs' traces and side files into OUTDIR (for merge-observed
# and validate on the workstation). Parts are skipped when the budget (default 190 s) would be exceeded.
set -u
ROOT=$(pwd)
SRC=${1:-$ROOT/native-hooks}
OUTD=${2:-${OUT:-/tmp/i15s-out}}
BUDGET=${3:-190}
mkdir -p "$OUTD"
ROUNDS=${ROUNDS:-2}
W=/tmp/i15s-work; rm -rf "$W"; mkdir -p "$W"
NH=/tmp/i15s-nh; rm -rf "$NH"; cp -r "$SRC" "$NH"; rm -rf "$NH/build"
export PYTHONUNBUFFERED=1
P=$ROOT/sample-traces/programs/pytorch
echo "== i15-shapes GPU run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -1
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
SANITIZER_HOME=${SANITIZER_HOME:-$CUDA_HOME/compute-sanitizer}
make -s -C "$NH" -j8 build/libphos_recorder.so sanitizer CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$SANITIZER_HOME" NVCC="$NVCC" \
  PATCH_ARCH="-gencode arch=compute_90,code=sm_90" > "$W/build.log" 2>&1 || { echo "build failed"; tail -30 "$W/build.log"; exit 1; }
echo "build: ${SECONDS} s"
B=$NH/build
ck() { awk '/^checksum/{print $2}' "$1"; }
# run NAME CONFIG PROGRAM ARGS...: one whole run, its wall time and checksum on one line
run() {
  local name=$1 cfg=$2; shift 2
  local tr=$W/$name.phos s0 s1 v
  s0=$(date +%s.%N)
  case $cfg in
    plain) timeout 120 python3 "$@" > "$W/$name.out" 2> "$W/$name.err";;
    shapes) timeout 120 env LD_PRELOAD=$B/libphos_recorder.so:$B/libphos_sanitizer.so PHOS_SANITIZER_SHAPES=2 \
              PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TRACE_OUT=$tr python3 "$@" > "$W/$name.out" 2> "$W/$name.err";;
    full) timeout "${FULL_LIMIT:-60}" env LD_PRELOAD=$B/libphos_recorder.so:$B/libphos_sanitizer.so PHOS_MODULE_IMAGE_LIMIT=0 \
              PHOS_TRACE_OUT=$tr python3 "$@" > "$W/$name.out" 2> "$W/$name.err";;
  esac
  local rc=$?
  s1=$(date +%s.%N)
  echo "$name $cfg: whole run $(awk "BEGIN{printf \"%.2f\", $s1-$s0}") s, exit $rc, checksum $(ck "$W/$name.out") $(grep -o 'it/s[^,]*, [0-9.]* it/s\|[0-9.]* it/s' "$W/$name.out" | tail -1)"
  [ "$cfg" = plain ] || grep 'phos-sanitizer' "$W/$name.err" | grep -v 'host time' | tail -4 | sed 's/^/    /'
}
cov() {   # coverage of a sampled run, and its files into OUTDIR
  python3 "$NH/bench/sampling_analyse.py" coverage "$W/$1.phos" "$W/$1.phos.observed.phos" > "$OUTD/$1.coverage.json" 2>&1
  python3 - "$OUTD/$1.coverage.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
    print("    coverage: %d of %d launches observed, %d of %d distinct kernels observed, %d launches with accesses outside the coverage; not observed: %s" % (
        r["observed_launches"], r["launches"], r["kernels_observed"], r["distinct_kernels"], r["accesses_outside_coverage"], r["kernels_not_observed"][:5]))
except Exception as e:
    print("    coverage: unreadable (%s)" % e)
PY
  cp "$W/$1.phos" "$OUTD/" 2>/dev/null; cp "$W/$1.phos.observed.phos" "$OUTD/" 2>/dev/null
}

echo "== gpt_train.py (defaults), $ROUNDS rounds of plain / sampled (shapes)"
for r in $(seq 1 "$ROUNDS"); do
  run gpt_plain_$r plain "$P/gpt_train.py"
  run gpt_shapes_$r shapes "$P/gpt_train.py"
  [ "$r" = 1 ] && cov gpt_shapes_1
done 2>&1 | tee "$OUTD/gpt_rounds.txt"
echo "elapsed ${SECONDS} s"
if [ "$SECONDS" -lt $((BUDGET - 60)) ]; then
  echo "== torch_train.py --iters 100 --warmup 10, $ROUNDS rounds of plain / sampled (shapes)"
  for r in $(seq 1 "$ROUNDS"); do
    run tt_plain_$r plain "$P/torch_train.py" --iters 100 --warmup 10
    run tt_shapes_$r shapes "$P/torch_train.py" --iters 100 --warmup 10
    [ "$r" = 1 ] && cov tt_shapes_1
  done 2>&1 | tee "$OUTD/torch_rounds.txt"
fi
echo "elapsed ${SECONDS} s"
left=$((BUDGET - SECONDS - 5))
if [ "$left" -gt 20 ]; then
  echo "== gpt_train.py under the tool observing every launch (limit $left s)"
  FULL_LIMIT=$left run gpt_full full "$P/gpt_train.py" 2>&1 | tee "$OUTD/gpt_full.txt"
fi
echo "elapsed ${SECONDS} s"
python3 - "$OUTD" <<'PY'
import glob, re, statistics, sys, os
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*_rounds.txt"))):
    v = {}
    for l in open(f):
        m = re.match(r"(\w+?)_(plain|shapes)_\d+ \w+: whole run ([0-9.]+) s, exit 0, checksum (\w+)", l)
        if m: v.setdefault(m.group(2), []).append((float(m.group(3)), m.group(4)))
    if "plain" in v and "shapes" in v:
        p, s = statistics.median(x for x, _ in v["plain"]), statistics.median(x for x, _ in v["shapes"])
        same = len({c for _, c in v["plain"] + v["shapes"]}) == 1
        print("%s: plain median %.2f s %s, sampled median %.2f s %s: %.2fx; checksums %s" % (
            os.path.basename(f), p, [x for x, _ in v["plain"]], s, [x for x, _ in v["shapes"]], s / p, "all equal" if same else "DIFFER"))
PY
