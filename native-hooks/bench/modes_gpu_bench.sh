#!/bin/bash
# i15-base GPU run: what recording a launch costs, inside one process (bench/steady_modes.py switches the recorder's
# PHOS_DIAG_SKIP window by window), in PROCS processes one after the other. Repository root of the GPU machine:
#     bash native-hooks/bench/modes_gpu_bench.sh OUTDIR
# MODES: the --mode arguments (the first is the reference); ROUNDS, ITERS, WARMUP; CPUS pins the process; ENVX adds
# settings of the recorder (default PHOS_TIMING=0).
set -u
ROOT=$(pwd); OUTD=$1; mkdir -p "$OUTD"
PROCS=${PROCS:-3}; ROUNDS=${ROUNDS:-30}; ITERS=${ITERS:-150}; WARMUP=${WARMUP:-40}; CPUS=${CPUS:-2-5}
MODES=${MODES:-none=2 now=0 noparams=1 arena=32 arenant=8}
ENVX=${ENVX:-PHOS_TIMING=0}
. "$(dirname "$0")/steady_bench_lib.sh"
steady_setup i15-modes "$ROOT/native-hooks"
margs=(); for m in $MODES; do margs+=(--mode "$m"); done
for p in $(seq 1 "$PROCS"); do
  env LD_PRELOAD="$L" PHOS_TRACE_OUT="$W/modes$p.phos" $ENVX taskset -c "$CPUS" timeout 500 \
      python3 "$NH/bench/steady_modes.py" --rounds "$ROUNDS" --iters "$ITERS" --warmup "$WARMUP" "${margs[@]}" \
      > "$OUTD/modes$p.txt" 2> "$OUTD/modes$p.err"
  echo "== process $p (exit $?)"; grep -v "^round" "$OUTD/modes$p.txt"; tail -2 "$OUTD/modes$p.err"
  rm -f "$W/modes$p.phos"
done
echo "== done $(date -u +%H:%M:%SZ)"
