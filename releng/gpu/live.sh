#!/usr/bin/env bash
# Live checkpoint/restore on the GPU machine (no JVM there: a jlink runtime travels in .gpu/live).
# Prepare here:  releng/gpu/pack-live.sh        (-> .gpu/live: runtime, JCuda, the workbench's core jars, this script)
# One GPU call (the `run` tool, kind nvidia-h100-x1) carrying [".gpu/live"] with the command:
#     bash .gpu/live/live.sh [checks RUNS] [figures ROUNDS ALLOCATIONS]
#   checks RUNS           the surrogate kernel's bytes vs its Java twin; RUNS randomized runs (seeds 1..RUNS, every 5th
#                         with a planted mis-speculation) over generated traces and the sample traces: each concurrent
#                         image must equal, bitwise, the stop-the-world image of the same instant
#   figures R A           pinned D2H bandwidth, then R interleaved rounds of none / stop-the-world / soft-cow on a
#                         generated trace keeping A allocations live (A=1000: about 12 GB); medians
# Writes $OUT/live-checks.log, $OUT/live-figures.log and $OUT/live-figures.csv. Exit status 1 if a check failed.
# The JUnit twin of `checks` is LiveCrEngineTest#concurrentImagesEqualOnTheGpu (tag "gpu").
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/phos-live-out}; mkdir -p "$OUT"
WORK=/tmp/phos-live-work; rm -rf "$WORK"; mkdir -p "$WORK"
[ -x /tmp/jre/bin/java ] || tar xzf "$HERE/jre.tgz" -C /tmp || { echo "live.sh: cannot unpack $HERE/jre.tgz"; exit 2; }
CP="$HERE/phos-live.jar:$HERE/lib/*"
JAVA=(/tmp/jre/bin/java --enable-native-access=ALL-UNNAMED -Xmx24g -cp "$CP" org.phos.workbench.live.LiveMain)
echo "== live $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
status=0
[ $# -gt 0 ] || set -- checks 24 figures 5 1000
while [ $# -gt 0 ]; do
  case "$1" in
    checks)
      S=$ROOT/sample-traces
      "${JAVA[@]}" checks "$WORK" "$2" "$S/ptx-driver.phos" "$S/jcuda-jacobi.phos" "$S/cuda-suite.phos" \
        "$S/cupy-ops.phos" "$S/pytorch-train.phos" 2>&1 | tee "$OUT/live-checks.log"
      rc=${PIPESTATUS[0]}; echo "live.sh: checks -> exit $rc"; [ $rc -eq 0 ] || status=$rc; shift 2 ;;
    figures)
      "${JAVA[@]}" figures "$WORK" "$2" "$3" 2>&1 | tee "$OUT/live-figures.log"
      rc=${PIPESTATUS[0]}; cp "$WORK/live-figures.csv" "$OUT/" 2>/dev/null
      echo "live.sh: figures -> exit $rc"; [ $rc -eq 0 ] || status=$rc; shift 3 ;;
    *) echo "live.sh: unknown part $1"; exit 2 ;;
  esac
done
exit $status
