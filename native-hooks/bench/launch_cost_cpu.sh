#!/bin/bash
# i15-base: host time the recorder adds per launch on the CPU (fake driver, no GPU): build/fake_app "many" with
# FAKE_SPIN_NS of busy work between launches (so the writer keeps up, as in a GPU program) and FAKE_WIDE_PARAMS bytes
# of parameters, with no launch events (PHOS_DIAG_SKIP=2, the reference), launch events as before i15-base (8) and
# the current launch event (0); REPS rounds, the three settings in turn in each. From native-hooks/, after make:
#     bash bench/launch_cost_cpu.sh [N] [REPS] [WIDTHS]
set -u
N=${1:-100000}; REPS=${2:-7}; WIDTHS=${3:-40 600 2000}; SPIN=${SPIN:-3000}
L=$PWD/build/libphos_recorder.so; T=$(mktemp -d)
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), nproc $(nproc); $N launches, ${SPIN} ns of work between launches, $REPS rounds"
for w in $WIDTHS; do
  for r in $(seq "$REPS"); do
    for c in none:2 old:8 new:0; do
      n=${c%%:*}; s0=$(date +%s%N)
      env LD_PRELOAD="$L" LD_LIBRARY_PATH=build/fake PHOS_TRACE_OUT="$T/$n.phos" PHOS_TIMING=0 PHOS_DIAG_SKIP=${c#*:} \
          FAKE_WIDE_PARAMS="$w" FAKE_SPIN_NS="$SPIN" ./build/fake_app many /dev/null "$N" > /dev/null 2>&1 || echo "run failed: $n $w"
      echo "$w $n $(( ($(date +%s%N) - s0) / N ))"
    done
  done
done | python3 -c '
import sys, statistics as st, collections
d = collections.defaultdict(list)
for l in sys.stdin:
    w, n, ns = l.split(); d[(int(w), n)].append(int(ns))
for w in sorted({w for w, _ in d}):
    m = {n: st.median(d[(w, n)]) for n in ("none", "old", "new")}
    print("%5d-byte parameters: ns per launch, median: none %d, old %d (+%d), new %d (+%d); rounds: old %s, new %s" % (
        w, m["none"], m["old"], m["old"] - m["none"], m["new"], m["new"] - m["none"], d[(w, "old")], d[(w, "new")]))'
rm -rf "$T"
