#!/bin/bash
# GPU check of issue 16 (docs/gpu-checks.md, block i16-rec), one command on the GPU machine:
#     bash native-hooks/tests/i16_gpu.sh [OUTDIR]
# Builds the recorder, records sample-traces/programs/hopper_extras.cu (CUDA arrays, host functions, a TMA kernel with
# two tensor maps, counted unrecorded calls) by LD_PRELOAD and by CUDA_INJECTION64_PATH, records the CUDA C suite by
# CUDA_INJECTION64_PATH, runs each program once more without the recorder to compare outputs, checks every trace
# against what the programs wrote about their calls (tests/hopper_check.py, gpu_check.py's suite checks), and times
# the launch path (launch_bench) plain, preloaded and injected.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=${1:-${OUT:-/tmp/phos-i16-out}}
mkdir -p "$OUTDIR/inject"
WORK=/tmp/phos-i16-work
rm -rf "$WORK"; mkdir -p "$WORK"
P=$ROOT/sample-traces/programs
REC=$ROOT/native-hooks/build/libphos_recorder.so
echo "== i16 gpu check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
CUDA_HOME=/usr/local/cuda-13.0
[ -d $CUDA_HOME ] || CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
NVCC=$CUDA_HOME/bin/nvcc
CUPTI=$(ls $CUDA_HOME/lib64/libcupti.so.13 $CUDA_HOME/extras/CUPTI/lib64/libcupti.so.13 2>/dev/null | head -1)
echo "nvcc: $($NVCC --version | tail -1); CUPTI: ${CUPTI:-not found}"
make -s -C "$ROOT/native-hooks" clean all CUDA_HOME="$CUDA_HOME" || { echo "recorder build failed"; exit 1; }
$NVCC -O2 -arch=sm_90 -o "$WORK/hopper_extras" "$P/hopper_extras.cu" -lcuda &
$NVCC -O2 -arch=sm_90 -o "$WORK/cuda_suite" "$P/cuda_suite.cu" &
$NVCC -O2 -arch=sm_90 -o "$WORK/launch_bench" "$ROOT/native-hooks/bench/launch_bench.cu" &
wait
cd "$WORK"
sum() { awk '/^checksum/{print $2}' "$1"; }
echo "== hopper_extras: plain, LD_PRELOAD, CUDA_INJECTION64_PATH"
./hopper_extras "$WORK/plain.json" >plain.out 2>plain.err; echo "plain rc=$? $(cat plain.out) $(tail -2 plain.err)"
env LD_PRELOAD="$REC" PHOS_DEBUG=1 PHOS_TRACE_OUT="$OUTDIR/hopper-extras.phos" ./hopper_extras "$OUTDIR/hopper-extras-expected.json" >pre.out 2>pre.err
echo "preload rc=$? $(cat pre.out)"; grep "^\[phos\]" pre.err; grep -v "^\[phos\]" pre.err | tail -3
env CUDA_INJECTION64_PATH="$REC" PHOS_CUPTI="$CUPTI" PHOS_DEBUG=1 PHOS_TRACE_OUT="$OUTDIR/hopper-extras-inject.phos" ./hopper_extras "$OUTDIR/hopper-extras-inject-expected.json" >inj.out 2>inj.err
echo "inject rc=$? $(cat inj.out)"; grep "^\[phos\]" inj.err; grep -v "^\[phos\]" inj.err | tail -3
# the injected run's addresses differ; its own expectations are checked against its own trace
python3 - "$OUTDIR/hopper-extras-inject-expected.json" "$OUTDIR/hopper-extras-expected.json" <<'EOF2'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
print("same layout in both runs:", sorted(a) == sorted(b))
EOF2
{ echo "hopper_extras $(sum plain.out) $(sum pre.out)"; echo "hopper_inject $(sum plain.out) $(sum inj.out)"; } >"$OUTDIR/checksums.txt"
echo "== cuda_suite: plain and CUDA_INJECTION64_PATH"
./cuda_suite "$WORK/suite-plain.json" >suite-plain.out 2>&1
env CUDA_INJECTION64_PATH="$REC" PHOS_CUPTI="$CUPTI" PHOS_DEBUG=1 PHOS_TRACE_OUT="$OUTDIR/inject/cuda-suite.phos" ./cuda_suite "$OUTDIR/inject/cuda-suite-expected.json" >suite-inj.out 2>suite-inj.err
echo "suite inject rc=$? $(grep checksum suite-inj.out)"; grep "^\[phos\]" suite-inj.err
echo "cuda_suite $(sum suite-plain.out) $(sum suite-inj.out)" >"$OUTDIR/inject/checksums.txt"
for f in "$OUTDIR"/*.phos "$OUTDIR"/inject/*.phos; do python3 "$ROOT/native-hooks/tools/phos_read.py" "$f"; done
echo "== assertions"
python3 "$ROOT/native-hooks/tests/hopper_check.py" "$OUTDIR" --suite "$OUTDIR/inject" --inject-expected "$OUTDIR/hopper-extras-inject-expected.json"
status=$?
echo "== launch path cost (launch_bench: median host ns per launch, empty kernel; timing by CUDA events in both recorders)"
for round in 1 2 3; do
  echo "round $round plain: $(./launch_bench 1000 20)"
  echo "round $round preload: $(env LD_PRELOAD=$REC PHOS_TRACE_OUT=/tmp/b-%p.phos PHOS_TIMING_SOURCE=events PHOS_MODULE_IMAGE_LIMIT=0 ./launch_bench 1000 20)"
  echo "round $round inject: $(env CUDA_INJECTION64_PATH=$REC PHOS_CUPTI=$CUPTI PHOS_TRACE_OUT=/tmp/b-%p.phos PHOS_MODULE_IMAGE_LIMIT=0 ./launch_bench 1000 20)"
  echo "round $round inject-notiming: $(env CUDA_INJECTION64_PATH=$REC PHOS_CUPTI=$CUPTI PHOS_TRACE_OUT=/tmp/b-%p.phos PHOS_TIMING=0 PHOS_MODULE_IMAGE_LIMIT=0 ./launch_bench 1000 20)"
done 2>&1 | tee "$OUTDIR/bench.txt"
ls -la /tmp/b-*.phos | tail -2
echo "== done (assertions exit $status)"
exit $status
