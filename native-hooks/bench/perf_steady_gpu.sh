#!/bin/bash
# i15-settle diagnosis: where the recorder's host time goes in bench/steady_loop.py (torch_train.py's loop), by CPU
# samples (perf record -e cpu-clock, after a delay that skips the process start and warm-up). perf is not installed on
# the GPU machine: PERF_TGZ is a packed perf with its libraries (perf/perf, perf/lib). Repository root:
#     PERF_TGZ=.gpu/perf.tgz bash native-hooks/bench/perf_steady_gpu.sh OUTDIR [CONFIG ...]
set -u
ROOT=$(pwd); OUTD=$1; shift; mkdir -p "$OUTD"
WINDOWS=${WINDOWS:-8}; ITERS=${ITERS:-500}; CPUS=${CPUS:-2-5}; DELAY_MS=${DELAY_MS:-12000}
. "$(dirname "$0")/steady_bench_lib.sh"
steady_setup i15-perf "$ROOT/native-hooks"
mkdir -p /tmp/i15-perf && tar xzf "$PERF_TGZ" -C /tmp/i15-perf
P() { LD_LIBRARY_PATH=/tmp/i15-perf/perf/lib /tmp/i15-perf/perf/perf "$@"; }
P --version || exit 1
[ $# -gt 0 ] || set -- plain off
for c in "$@"; do
  case $c in
    plain) e="";; off) e="LD_PRELOAD=$L PHOS_TIMING=0";; nolaunch) e="LD_PRELOAD=$L PHOS_TIMING=0 PHOS_DIAG_SKIP=2";;
    startupR) e="LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_TIMING_RELEASE=1";; *) echo "unknown $c"; continue;;
  esac
  (export $e PHOS_TRACE_OUT=$W/$c.phos; P record -q -e cpu-clock -F 4000 -D "$DELAY_MS" -o "$W/$c.data" -- \
     taskset -c "$CPUS" python3 "$SL" --windows "$WINDOWS" --iters "$ITERS" --warmup 40) > "$OUTD/$c.out" 2>&1
  echo "== $c: $(grep -E '^(overall|steady)' "$OUTD/$c.out" | tr '\n' ' ')"
  P report -i "$W/$c.data" --no-children --sort comm,dso 2>/dev/null | grep -v '^#' | grep '%' | head -15 > "$OUTD/$c.dso.txt"
  P report -i "$W/$c.data" --no-children --sort comm,dso,sym 2>/dev/null | grep -v '^#' | grep '%' | head -60 > "$OUTD/$c.sym.txt"
  P report -i "$W/$c.data" --no-children --sort tid 2>/dev/null | grep -v '^#' | grep '%' | head -12 > "$OUTD/$c.tid.txt"
  head -8 "$OUTD/$c.dso.txt"
done
echo "== done $(date -u +%H:%M:%SZ)"
