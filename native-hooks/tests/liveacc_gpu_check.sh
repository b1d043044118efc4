#!/bin/bash
# i14-liveacc GPU check (one command on the GPU machine, repository root: bash native-hooks/tests/liveacc_gpu_check.sh):
# the sanitizer tool + the recorder on a real CUDA program (cuda_suite, then torch_train.py --iters 4) while a reader
# saves the live stream; the stream's observed accesses (handed over live) are compared with the side file, launch for
# launch (liveacc_compare.py). Output under $OUT (default /tmp/i14la-out).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUTDIR=${OUT:-/tmp/i14la-out}; mkdir -p "$OUTDIR"
NH=$ROOT/native-hooks; B=$NH/build
echo "== i14-liveacc $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
SANITIZER_HOME=${SANITIZER_HOME:-$CUDA_HOME/compute-sanitizer}
echo "nvcc: $($NVCC --version | tail -1); compute-sanitizer: $("$SANITIZER_HOME/compute-sanitizer" --version | tail -1)"
t0=$(date +%s)
make -s -C "$NH" all sanitizer PATCH_ARCH="-gencode arch=compute_90,code=sm_90" CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$SANITIZER_HOME" NVCC="$NVCC" >"$OUTDIR/build.log" 2>&1 || { echo "build failed"; tail -30 "$OUTDIR/build.log"; exit 1; }
W=/tmp/i14la; rm -rf $W; mkdir -p $W/xdg; chmod 700 $W/xdg
$NVCC -O2 -arch=sm_90 -o $W/cuda_suite "$ROOT/sample-traces/programs/cuda_suite.cu" || { echo "cuda_suite build failed"; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
run() {  # NAME CMD...: the program under recorder + tool, a reader saving its live stream
  local name=$1; shift
  rm -rf $W/xdg/phos
  python3 "$HERE/liveacc_reader.py" $W/xdg/phos "$OUTDIR/$name.stream.phos" 180 >"$OUTDIR/$name.reader.log" 2>&1 &
  local rp=$!
  local s=$(date +%s.%N)
  env LD_PRELOAD="$B/libphos_recorder.so:$B/libphos_sanitizer.so" XDG_RUNTIME_DIR=$W/xdg PHOS_DEBUG=1 \
      PHOS_SANITIZER_DEBUG=1 PHOS_MODULE_IMAGE_LIMIT=1048576 PHOS_TRACE_OUT="$OUTDIR/$name.phos" "$@" \
      >"$OUTDIR/$name.out" 2>"$OUTDIR/$name.err"
  echo "$name: exit $?, $(awk "BEGIN{print $(date +%s.%N)-$s}") s"
  wait $rp
  cat "$OUTDIR/$name.reader.log"
  grep -v "flush (\|live hand-over\|UserWarning\|warn" "$OUTDIR/$name.err" | grep "phos-sanitizer\]\|attach" | tail -8
  grep -c "live hand-over" "$OUTDIR/$name.err" | sed 's/^/hand-over calls (debug lines): /'
  ls -la "$OUTDIR/$name".*phos
  python3 "$HERE/liveacc_compare.py" "$OUTDIR/$name.stream.phos" "$OUTDIR/$name.phos.observed.phos" "$OUTDIR/$name.phos"
}
run cuda-suite $W/cuda_suite $W/expected.json
cd $W && run torch-train timeout 70 python3 "$ROOT/sample-traces/programs/pytorch/torch_train.py" --iters 4
echo "== done in $(( $(date +%s) - t0 )) s"
