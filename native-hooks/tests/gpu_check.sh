#!/bin/bash
# GPU check of the recorder, one command on the GPU machine (from the repository root):
#     bash native-hooks/tests/gpu_check.sh [OUTDIR] 2>&1 | tee gpu_check.log
# Builds the recorder and the sample programs, records each sample program (CUDA C suite, PTX via the driver API,
# PyTorch training, JCuda), runs each again without the recorder to compare outputs, asserts what each program knows
# about its trace (tests/gpu_check.py), then measures the interception cost (launch_bench) and PyTorch throughput
# with and without the recorder. Writes to OUTDIR (default $OUT, else /tmp/phos-gpu-out): the traces,
# cuda-suite-expected.json, checksums.txt, bench.txt.
# The JCuda part needs a Java runtime and the JCuda jars in .gpu/ (jre.tgz, jcuda-12.0.0.jar,
# jcuda-natives-12.0.0-linux-x86_64.jar, JCudaJacobi.class); it is skipped, and reported as failed, without them.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=${1:-${OUT:-/tmp/phos-gpu-out}}
mkdir -p "$OUTDIR"
WORK=/tmp/phos-gpu-work
rm -rf "$WORK"; mkdir -p "$WORK"
BENCH=$OUTDIR/bench.txt
: >"$OUTDIR/checksums.txt"
export PYTHONUNBUFFERED=1
P=$ROOT/sample-traces/programs
REC=$ROOT/native-hooks/build/libphos_recorder.so

echo "== gpu_check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
[ -d /usr/local/cuda-13.0/include ] && CUDA_HOME=/usr/local/cuda-13.0
echo "nvcc: $($NVCC --version | tail -1); CUDA_HOME=$CUDA_HOME; python: $(python3 -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__)')"
LIBCUDA=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
[ -n "$LIBCUDA" ] || LIBCUDA=$(python3 -c 'import ctypes.util; print(ctypes.util.find_library("cuda") or "")')
echo "libcuda: $LIBCUDA"

echo "== build"
make -s -C "$ROOT/native-hooks" clean all CUDA_HOME="$CUDA_HOME" || { echo "recorder build failed"; exit 1; }
$NVCC -O2 -arch=sm_90 -o "$WORK/cuda_suite" "$P/cuda_suite.cu" &
$NVCC -O2 -arch=sm_90 -o "$WORK/launch_bench" "$ROOT/native-hooks/bench/launch_bench.cu" &
gcc -O2 -I"$CUDA_HOME/include" -o "$WORK/ptx_driver" "$P/ptx/ptx_driver.c" "$LIBCUDA" || echo "ptx_driver build failed"
wait
JAVA=""
if [ -f "$ROOT/.gpu/jre.tgz" ]; then tar xzf "$ROOT/.gpu/jre.tgz" -C "$WORK" && JAVA=$WORK/jre/bin/java; fi
JCP="$ROOT/.gpu/jcuda-12.0.0.jar:$ROOT/.gpu/jcuda-natives-12.0.0-linux-x86_64.jar:$ROOT/.gpu"
ls -la "$WORK"

# run NAME TRACE [env...] -- CMD...: once plain, once recorded; records both checksums
run() {
  local name=$1 trace=$2; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "== $name: $*"
  local t0=$(date +%s.%N)
  local plain=$( "$@" 2>"$WORK/$name.plain.err" | tee "$WORK/$name.plain.out" | awk '/^checksum/{print $2}')
  local t1=$(date +%s.%N)
  local rec=$(env LD_PRELOAD="$REC" PHOS_DEBUG=1 PHOS_TRACE_OUT="$OUTDIR/$trace" "${envs[@]}" "$@" 2>"$WORK/$name.rec.err" | tee "$WORK/$name.rec.out" | awk '/^checksum/{print $2}')
  local t2=$(date +%s.%N)
  cat "$WORK/$name.rec.out"; grep "^\[phos\]" "$WORK/$name.rec.err"; grep -v "^\[phos\]" "$WORK/$name.rec.err" | tail -3
  echo "$name ${plain:-none} ${rec:-none}" >>"$OUTDIR/checksums.txt"
  printf '%s: plain %.1f s, recorded %.1f s, trace %s bytes, checksums %s / %s\n' "$name" "$(awk "BEGIN{print $t1-$t0}")" "$(awk "BEGIN{print $t2-$t1}")" \
    "$(stat -c %s "$OUTDIR/$trace" 2>/dev/null || echo none)" "${plain:-none}" "${rec:-none}"
}

cd "$WORK"
run cuda_suite cuda-suite.phos -- ./cuda_suite "$WORK/expected.json"
cp "$WORK/expected.json" "$OUTDIR/cuda-suite-expected.json"
run ptx_driver ptx-driver.phos -- ./ptx_driver "$P/ptx/ptx_kernels.ptx"
run torch pytorch-train.phos PHOS_MODULE_IMAGE_LIMIT=1048576 -- python3 "$P/pytorch/torch_train.py" --iters 8
if [ "$(stat -c %s "$OUTDIR/pytorch-train.phos")" -gt 15000000 ]; then
  echo "pytorch trace too big, recording again without module images"
  env LD_PRELOAD="$REC" PHOS_TRACE_OUT="$OUTDIR/pytorch-train.phos" PHOS_MODULE_IMAGE_LIMIT=0 python3 "$P/pytorch/torch_train.py" --iters 8
fi
if [ -n "$JAVA" ]; then
  run jcuda jcuda-jacobi.phos -- "$JAVA" -cp "$JCP" JCudaJacobi "$P/jcuda/jacobi.ptx"
else
  echo "no Java runtime in .gpu/: JCuda sample skipped"
fi
for f in "$OUTDIR"/*.phos; do python3 "$ROOT/native-hooks/tools/phos_read.py" "$f"; done

echo "== assertions"
python3 "$ROOT/native-hooks/tests/gpu_check.py" "$OUTDIR"
status=$?

echo "== interception cost (launch_bench: median host ns per launch, empty kernel)" | tee "$BENCH"
# configurations: plain (no recorder), cupti (timing on, default source), events (timing on, CUDA events), off (PHOS_TIMING=0);
# to see what the CUPTI cost is made of: act (activity records without the driver callbacks) and cb (the callbacks
# without activity records); neither times anything (docs/benchmarks.md, "Recorder")
recenv() {
  case $1 in
    plain) echo "" ;;
    cupti) echo "LD_PRELOAD=$REC PHOS_TRACE_OUT=/tmp/bench-%p.phos PHOS_MODULE_IMAGE_LIMIT=0" ;;
    events) echo "LD_PRELOAD=$REC PHOS_TRACE_OUT=/tmp/bench-%p.phos PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TIMING_SOURCE=events" ;;
    off) echo "LD_PRELOAD=$REC PHOS_TRACE_OUT=/tmp/bench-%p.phos PHOS_MODULE_IMAGE_LIMIT=0 PHOS_TIMING=0" ;;
    act) echo "LD_PRELOAD=$REC PHOS_TRACE_OUT=/tmp/bench-%p.phos PHOS_MODULE_IMAGE_LIMIT=0 PHOS_CUPTI_CB=0" ;;
    cb) echo "LD_PRELOAD=$REC PHOS_TRACE_OUT=/tmp/bench-%p.phos PHOS_MODULE_IMAGE_LIMIT=0 PHOS_CUPTI_KINDS=0" ;;
  esac
}
for round in 1 2 3 4 5; do
  for cfg in plain cupti act cb events off; do
    echo "round $round $cfg: $(env $(recenv $cfg) ./launch_bench 1000 60)" | tee -a "$BENCH"
  done
done
echo "== PyTorch throughput (torch_train.py --iters 500 --warmup 30)" | tee -a "$BENCH"
for round in 1 2 3 4; do
  for cfg in plain cupti off; do
    echo "round $round $cfg: $(env $(recenv $cfg) python3 "$P/pytorch/torch_train.py" --iters 500 --warmup 30 2>/dev/null | head -1)" | tee -a "$BENCH"
  done
done
ls -la /tmp/bench-*.phos | tail -3
python3 - "$BENCH" <<'EOF2' | tee -a "$BENCH"
import re, statistics, sys
lines = open(sys.argv[1]).read().splitlines()
def med(cfg, pat, marker):
    vals = [float(m.group(1)) for l in lines if l.startswith("round") and (" %s:" % cfg) in l and marker in l for m in [re.search(pat, l)] if m]
    return statistics.median(vals) if vals else float("nan")
cfgs = ("plain", "cupti", "act", "cb", "events", "off")
ns = {c: med(c, r"median ([0-9.]+) ns", "launch_bench") for c in cfgs}
its = {c: med(c, r"([0-9.]+) it/s", "it/s") for c in cfgs}
print("summary: launch median ns: " + ", ".join("%s %.1f (%+.1f)" % (c, ns[c], ns[c] - ns["plain"]) for c in cfgs if ns[c] == ns[c]))
print("summary: pytorch it/s: " + ", ".join("%s %.1f (%.1f%%)" % (c, its[c], 100 * its[c] / its["plain"]) for c in cfgs if its[c] == its[c]))
EOF2
echo "== done (assertions exit $status)"
exit $status
