#!/usr/bin/env bash
# i15-alloc: records the PyTorch and Triton sample programs with PyTorch's caching-allocator block events
# (PHOS_TORCH_ALLOC=1, native-hooks/torch/phos_torch_alloc.cpp) under the recorder + the SASS-level sanitizer tool
# (every launch observed), and measures what the tracker costs per allocator call. One command on the GPU machine, from
# a folder holding a copy of native-hooks/ (NH, default the repository's):
#     NH=.gpu/i15-alloc/native-hooks bash .gpu/i15-alloc/record-alloc-samples.sh OUTDIR
# Writes OUTDIR/pytorch-train-alloc.phos and triton-ops-alloc.phos with their .observed.phos side files
# (merge them here with `./workbench merge-observed`), OUTDIR/torch_alloc_bench.txt, OUTDIR/record.log.
# The sanitizer tool gets the block events too (phos_sanitizer_allocator_block): its ground truth is then one hull
# per allocator block instead of one per allocation (PHOS_SANITIZER_BLOCKS=0: per allocation, as before).
# SKIP_BENCH=1 leaves the cost measurement out.
# Each program also runs once without any tool: its printed checksum must not change. Module images over
# LIMIT bytes (default 262144) are stored without their bytes, to keep the traces under 2.5 MB.
set -u
ROOT=$(pwd)
NH=$(cd "${NH:-$ROOT/native-hooks}" && pwd)
OUTDIR=${1:-${OUT:-/tmp/phos-alloc-out}}
LIMIT=${LIMIT:-262144}
mkdir -p "$OUTDIR"
WORK=/tmp/phos-alloc-work
rm -rf "$WORK"; mkdir -p "$WORK"
P=$ROOT/sample-traces/programs
B=$NH/build
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
SANITIZER_HOME=${SANITIZER_HOME:-$CUDA_HOME/compute-sanitizer}
export PYTHONUNBUFFERED=1
echo "== record-alloc-samples $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, "cxx11 abi", torch._C._GLIBCXX_USE_CXX11_ABI)'
TORCH_DIR=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))')
echo "== build"
t0=$(date +%s)
make -s -C "$NH" all sanitizer CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$SANITIZER_HOME" NVCC="$NVCC" -j8 || { echo "build failed"; exit 1; }
make -s -C "$NH" torch-alloc TORCH_DIR="$TORCH_DIR" CUDA_HOME="$CUDA_HOME" 2>"$WORK/shim.err" \
  || { echo "shim with C++20 failed:"; tail -5 "$WORK/shim.err"; make -s -C "$NH" torch-alloc TORCH_DIR="$TORCH_DIR" CUDA_HOME="$CUDA_HOME" TORCH_STD=c++17; } \
  || { echo "shim build failed"; exit 1; }
ls -la "$B/libphos_recorder.so" "$B/libphos_sanitizer.so" "$B/libphos_torch_alloc.so"; echo "build $(( $(date +%s) - t0 )) s"
status=0
cd "$WORK"
plain() {
  local name=$1; shift
  PLAIN=$("$@" 2>"$WORK/$name.plain.err" | tee "$WORK/$name.plain.out" | awk '/^checksum/{print $2}')
  [ -n "$PLAIN" ] || { echo "$name: plain run printed no checksum:"; tail -20 "$WORK/$name.plain.err"; status=1; }
}
record() {
  local name=$1 limit=$2; shift 2
  rm -f "$OUTDIR/$name.phos" "$OUTDIR/$name.phos.observed.phos"
  local t=$(date +%s.%N)
  local got=$(env LD_PRELOAD="$B/libphos_recorder.so:$B/libphos_sanitizer.so" PHOS_TORCH_ALLOC=1 PHOS_DEBUG=1 \
    PHOS_SANITIZER_DEBUG=1 PHOS_MODULE_IMAGE_LIMIT=$limit PHOS_TRACE_OUT="$OUTDIR/$name.phos" "$@" \
    2>"$WORK/$name.err" | tee "$WORK/$name.out" | awk '/^checksum/{print $2}')
  echo "$name: $(awk "BEGIN{print $(date +%s.%N)-$t}") s"
  grep -E 'PHOS_TORCH_ALLOC|allocator|trace closed|phos-sanitizer.*(observed|wrote|launches)' "$WORK/$name.err" | tail -6
  echo "$name: checksum plain ${PLAIN:-none}, recorded ${got:-none}: $([ -n "$got" ] && [ "$PLAIN" = "$got" ] && echo equal || echo DIFFERENT)"
  [ -n "$got" ] && [ "$PLAIN" = "$got" ] || { status=1; tail -15 "$WORK/$name.err"; }
  [ -s "$OUTDIR/$name.phos.observed.phos" ] || { echo "$name: no sanitizer side file"; status=1; }
  ls -la "$OUTDIR/$name.phos"*
}
TT="$P/pytorch/torch_train.py"
plain pytorch-train-alloc python3 "$TT" --iters 8
record pytorch-train-alloc "$LIMIT" python3 "$TT" --iters 8
if [ "$(stat -c %s "$OUTDIR/pytorch-train-alloc.phos")" -gt 2400000 ]; then record pytorch-train-alloc 65536 python3 "$TT" --iters 8; fi
plain triton-ops-alloc python3 "$P/triton/triton_ops.py"
record triton-ops-alloc "$LIMIT" python3 "$P/triton/triton_ops.py"
if [ "$(stat -c %s "$OUTDIR/triton-ops-alloc.phos")" -gt 2400000 ]; then record triton-ops-alloc 65536 python3 "$P/triton/triton_ops.py"; fi
# the recorder and the tracker alone (no sanitizer): the program's output must not change either
got=$(env LD_PRELOAD="$B/libphos_recorder.so" PHOS_TORCH_ALLOC=1 PHOS_TRACE_OUT="$WORK/rec-only.phos" python3 "$TT" --iters 8 \
  2>"$WORK/rec-only.err" | awk '/^checksum/{print $2}')
PLAIN=$(awk '/^checksum/{print $2}' "$WORK/pytorch-train-alloc.plain.out")
echo "pytorch-train (recorder + tracker only): checksum plain $PLAIN, recorded ${got:-none}: $([ "$PLAIN" = "$got" ] && echo equal || echo DIFFERENT)"
[ "$PLAIN" = "$got" ] || status=1
for f in "$OUTDIR"/*-alloc.phos; do python3 "$NH/tools/phos_read.py" "$f" | grep -E 'allocator|events|launch/|coverage' | head -12; done

if [ "${SKIP_BENCH:-0}" = 1 ]; then echo "== done (exit $status; no benchmark: SKIP_BENCH=1)"; exit $status; fi
echo "== tracker cost: $NH/bench/torch_alloc_bench.py under the recorder, PHOS_TORCH_ALLOC=0 and =1 alternating (3 rounds), and plain"
BENCH=$OUTDIR/torch_alloc_bench.txt
: >"$BENCH"
N=${BENCH_N:-200000}
python3 "$NH/bench/torch_alloc_bench.py" "$N" | sed 's/^/plain /' >>"$BENCH"
for r in 1 2 3; do
  for a in 0 1; do
    env LD_PRELOAD="$B/libphos_recorder.so" PHOS_TORCH_ALLOC=$a PHOS_TRACE_OUT="$WORK/bench-$a.phos" \
      python3 "$NH/bench/torch_alloc_bench.py" "$N" 2>>"$WORK/bench.err" | sed "s/^/tracker$a /" >>"$BENCH"
  done
done
cat "$BENCH"
python3 - "$BENCH" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    rows.setdefault(p[0], []).append(float(p[4]))
m = {k: statistics.median(v) for k, v in rows.items()}
print("medians ns/iteration:", {k: round(v, 1) for k, v in m.items()})
if "tracker0" in m and "tracker1" in m:
    print("tracker cost: %.1f ns per iteration, %.1f ns per allocator call (3 calls per iteration)" % (
        m["tracker1"] - m["tracker0"], (m["tracker1"] - m["tracker0"]) / 3))
PY
python3 "$NH/tools/phos_read.py" "$WORK/bench-1.phos" | grep -E 'allocator|events' | head -8
echo "== done (exit $status)"
exit $status
