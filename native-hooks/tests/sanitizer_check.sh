#!/bin/bash
# GPU check of the SASS-level tool (native-hooks/sanitizer), one command on the GPU machine (repository root):
#     set -o pipefail; bash native-hooks/tests/sanitizer_check.sh [OUTDIR] 2>&1 | tee OUTDIR/sanitizer_check.log
# Builds the recorder, the tool (libphos_sanitizer.so + phos_sanitizer_patch.fatbin) and the CUDA C suite; runs the
# suite under recorder + tool and compares every launch's observed accesses with the real ones the suite writes
# (cuda-suite-expected.json); runs the PyTorch sample under recorder + tool and checks that cuBLAS/PyTorch kernels are
# observed and keyed to the trace's launches; then measures the PyTorch loop's throughput plain, under the tool and
# under compute-sanitizer's memcheck (ROUNDS rounds alternating plain and tool, medians; ITERS/WARMUP iterations each;
# memcheck MEMCHECK_ROUNDS times with ITERS_MEMCHECK/MEMCHECK_WARMUP; SKIP_EVERY10=1 leaves out the every-10th runs; SKIP_SELECTED=1 the runs observing only SEL_KERNELS, default elementwise_kernel). Writes to OUTDIR (default $OUT, else /tmp/phos-san-out):
# cuda-suite-sanitizer.phos(+.observed.phos), cuda-suite-sanitizer-expected.json,
# pytorch-train-sanitizer.phos(+.observed.phos), sanitizer_bench.txt.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=${1:-${OUT:-/tmp/phos-san-out}}
mkdir -p "$OUTDIR"
WORK=/tmp/phos-san-work
rm -rf "$WORK"; mkdir -p "$WORK"
export PYTHONUNBUFFERED=1
P=$ROOT/sample-traces/programs
B=$ROOT/native-hooks/build
REC=$B/libphos_recorder.so
SAN=$B/libphos_sanitizer.so
BENCH=$OUTDIR/sanitizer_bench.txt
ROUNDS=${ROUNDS:-5}; ITERS=${ITERS:-100}; WARMUP=${WARMUP:-20}
MEMCHECK_ROUNDS=${MEMCHECK_ROUNDS:-1}; MEMCHECK_WARMUP=${MEMCHECK_WARMUP:-3}; ITERS_MEMCHECK=${ITERS_MEMCHECK:-20}

echo "== sanitizer_check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
SANITIZER_HOME=${SANITIZER_HOME:-$CUDA_HOME/compute-sanitizer}
echo "nvcc: $($NVCC --version | tail -1); CUDA_HOME=$CUDA_HOME; compute-sanitizer: $("$SANITIZER_HOME/compute-sanitizer" --version | tail -1)"

echo "== build"
make -s -C "$ROOT/native-hooks" all sanitizer CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$SANITIZER_HOME" NVCC="$NVCC" || { echo "build failed"; exit 1; }
$NVCC -O2 -arch=sm_90 -o "$WORK/cuda_suite" "$P/cuda_suite.cu" || { echo "cuda_suite build failed"; exit 1; }
ls -la "$SAN" "$B/phos_sanitizer_patch.fatbin"
status=0

cd "$WORK"
if [ "${SANITIZER_DIAG:-0}" = 1 ]; then
  echo "== diagnosis: cuda_suite under the tool alone, parts left out (PHOS_SANITIZER_SKIP)"
  for skip in mlagsp mp l "" ; do
    env LD_PRELOAD="$SAN" PHOS_SANITIZER_DEBUG=1 PHOS_SANITIZER_SKIP="$skip" PHOS_SANITIZER_OUT="$WORK/diag.observed.phos" \
        timeout 30 ./cuda_suite "$WORK/diag.json" >"$WORK/diag.out" 2>"$WORK/diag.err"
    echo "skip '$skip': exit $?, $(grep -c checksum "$WORK/diag.out") checksum lines; stderr: $(grep -v "flush (\|module .* loaded" "$WORK/diag.err" | tail -4 | tr '\n' '|')"
    grep "module .* loaded" "$WORK/diag.err" | head -2
  done
fi
echo "== cuda_suite under recorder + tool"
plain=$(./cuda_suite "$WORK/plain-expected.json" | awk '/^checksum/{print $2}')
t0=$(date +%s.%N)
env LD_PRELOAD="$REC:$SAN" PHOS_SANITIZER_DEBUG=1 PHOS_DEBUG=1 \
    PHOS_TRACE_OUT="$OUTDIR/cuda-suite-sanitizer.phos" ./cuda_suite "$OUTDIR/cuda-suite-sanitizer-expected.json" \
    >"$WORK/suite.out" 2>"$WORK/suite.err"
echo "exit $?, $(awk "BEGIN{print $(date +%s.%N)-$t0}") s"
cat "$WORK/suite.out"; grep -v "flush (" "$WORK/suite.err" | tail -20
inst=$(awk '/^checksum/{print $2}' "$WORK/suite.out")
echo "checksum plain $plain, recorder+tool $inst: $([ "$plain" = "$inst" ] && echo equal || echo DIFFERENT)"
[ "$plain" = "$inst" ] || status=1
if [ ! -s "$OUTDIR/cuda-suite-sanitizer.phos.observed.phos" ]; then echo "no side file: the tool failed, stopping"; exit 1; fi
python3 "$ROOT/native-hooks/tools/phos_read.py" "$OUTDIR/cuda-suite-sanitizer.phos.observed.phos" | head -5
python3 "$ROOT/native-hooks/tests/sanitizer_check.py" suite "$OUTDIR/cuda-suite-sanitizer.phos" \
    "$OUTDIR/cuda-suite-sanitizer.phos.observed.phos" "$OUTDIR/cuda-suite-sanitizer-expected.json" || status=1

echo "== PyTorch sample under recorder + tool (torch_train.py --iters 8)"
TT="$P/pytorch/torch_train.py"
plain=$(python3 "$TT" --iters 8 2>/dev/null | awk '/^checksum/{print $2}')
t0=$(date +%s.%N)
env LD_PRELOAD="$REC:$SAN" PHOS_SANITIZER_DEBUG=1 PHOS_DEBUG=1 PHOS_MODULE_IMAGE_LIMIT=1048576 \
    PHOS_TRACE_OUT="$OUTDIR/pytorch-train-sanitizer.phos" python3 "$TT" --iters 8 >"$WORK/torch.out" 2>"$WORK/torch.err"
echo "exit $?, $(awk "BEGIN{print $(date +%s.%N)-$t0}") s"
cat "$WORK/torch.out"; grep -v "flush (\|UserWarning\|warn" "$WORK/torch.err" | tail -12
inst=$(awk '/^checksum/{print $2}' "$WORK/torch.out")
echo "checksum plain $plain, recorder+tool $inst: $([ "$plain" = "$inst" ] && echo equal || echo DIFFERENT)"
[ "$plain" = "$inst" ] || status=1
ls -la "$OUTDIR"/pytorch-train-sanitizer.phos*
python3 "$ROOT/native-hooks/tests/sanitizer_check.py" torch "$OUTDIR/pytorch-train-sanitizer.phos" \
    "$OUTDIR/pytorch-train-sanitizer.phos.observed.phos" || status=1

if [ "${SANITIZER_CHECK_BENCH:-1}" = 0 ]; then echo "== done, throughput skipped (exit $status)"; exit $status; fi
# Throughput: this VM's plain throughput moves a lot between runs, so plain and tool runs alternate over ROUNDS rounds
# and medians are compared; memcheck runs MEMCHECK_ROUNDS times inside the first rounds (it is slow).
echo "== PyTorch loop throughput: $ROUNDS rounds alternating plain / tool (every launch observed) / tool every 10th launch / tool on selected kernels (lazy, eager patching) / memcheck" | tee "$BENCH"
its() { awk '/it\/s/{for(i=1;i<=NF;i++) if($i=="it/s,") print $(i-1)}'; }
for round in $(seq 1 "$ROUNDS"); do
  r=$(python3 "$TT" --iters "$ITERS" --warmup "$WARMUP" 2>/dev/null | its)
  echo "round $round plain: ${r:-none} it/s (--iters $ITERS --warmup $WARMUP)" | tee -a "$BENCH"
  r=$(env LD_PRELOAD="$SAN" PHOS_SANITIZER_OUT="$WORK/bench-%p.observed.phos" python3 "$TT" --iters "$ITERS" --warmup "$WARMUP" 2>"$WORK/bench_tool.err" | its)
  echo "round $round tool: ${r:-none} it/s (--iters $ITERS --warmup $WARMUP); $(grep phos-sanitizer "$WORK/bench_tool.err" | tail -2 | tr '\n' ' ')" | tee -a "$BENCH"
  if [ "${SKIP_EVERY10:-0}" != 1 ]; then
    r=$(env LD_PRELOAD="$SAN" PHOS_SANITIZER_EVERY=10 PHOS_SANITIZER_OUT="$WORK/bench10-%p.observed.phos" python3 "$TT" --iters "$ITERS" --warmup "$WARMUP" 2>/dev/null | its)
    echo "round $round tool10: ${r:-none} it/s (--iters $ITERS --warmup $WARMUP, PHOS_SANITIZER_EVERY=10)" | tee -a "$BENCH"
  fi
  if [ "${SKIP_SELECTED:-0}" != 1 ]; then
    # only the kernels matching SEL_KERNELS observed: their modules patched at their first launch (lazy, the default
    # with a filter), or every module patched as it loads (PHOS_SANITIZER_LAZY=0)
    for mode in lazy eager; do
      r=$(env LD_PRELOAD="$SAN" PHOS_SANITIZER_KERNELS="${SEL_KERNELS:-elementwise_kernel}" PHOS_SANITIZER_LAZY=$([ $mode = lazy ] && echo 1 || echo 0) \
            PHOS_SANITIZER_OUT="$WORK/benchsel-%p.observed.phos" python3 "$TT" --iters "$ITERS" --warmup "$WARMUP" 2>"$WORK/bench_sel.err" | its)
      echo "round $round toolsel_$mode: ${r:-none} it/s (--iters $ITERS --warmup $WARMUP, PHOS_SANITIZER_KERNELS=${SEL_KERNELS:-elementwise_kernel}); $(grep phos-sanitizer "$WORK/bench_sel.err" | tail -2 | tr '\n' ' ')" | tee -a "$BENCH"
    done
  fi
  if [ "$round" -le "$MEMCHECK_ROUNDS" ]; then
    t0=$(date +%s.%N)
    r=$(timeout "${MEMCHECK_TIMEOUT:-300}" "$SANITIZER_HOME/compute-sanitizer" --tool memcheck --print-limit 5 python3 "$TT" --iters "$ITERS_MEMCHECK" --warmup "$MEMCHECK_WARMUP" 2>"$WORK/memcheck.err" | tee "$WORK/memcheck.out" | its)
    echo "round $round memcheck: ${r:-none} it/s (--iters $ITERS_MEMCHECK --warmup $MEMCHECK_WARMUP), whole run $(awk "BEGIN{print $(date +%s.%N)-$t0}") s; $(grep "ERROR SUMMARY" "$WORK/memcheck.out" "$WORK/memcheck.err" | tail -1)" | tee -a "$BENCH"
  fi
done
python3 - "$BENCH" <<'EOF2' | tee -a "$BENCH"
import re, statistics, sys
lines = open(sys.argv[1]).read().splitlines()
def vals(cfg):
    return [float(m.group(1)) for l in lines if l.startswith("round ") and (" %s:" % cfg) in l for m in [re.search(r": ([0-9.]+) it/s", l)] if m]
med = {c: (statistics.median(vals(c)) if vals(c) else 0.0) for c in ("plain", "tool", "tool10", "toolsel_lazy", "toolsel_eager", "memcheck")}
sd = lambda c: med["plain"] / med[c] if med[c] else float("inf")
print("summary: medians it/s: " + ", ".join("%s %.1f (%d runs)" % (c, med[c], len(vals(c))) for c in med))
ok = med["tool"] and med["memcheck"] and sd("memcheck") / sd("tool") >= 5
print("summary: slowdown vs plain: tool %.2fx, tool every 10th %.2fx, memcheck %.1fx; tool is %.1fx cheaper than memcheck (target >= 5x): %s"
      % (sd("tool"), sd("tool10"), sd("memcheck"), sd("memcheck") / sd("tool") if med["tool"] and med["memcheck"] else float("nan"), "ok" if ok else "FAIL"))
print("summary: only the kernels of PHOS_SANITIZER_KERNELS observed: %.2fx with their modules patched at first use, %.2fx with every module patched as it loads"
      % (sd("toolsel_lazy"), sd("toolsel_eager")))
EOF2
grep -q "target >= 5x): ok" "$BENCH" || status=1
echo "== done (exit $status)"
exit $status
