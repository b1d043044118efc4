#!/usr/bin/env bash
# PTX instrumentation ground truth on the GPU machine (which has no JVM: a jlink runtime is carried).
# Prepare here:  releng/gpu/pack-instrument.sh
# One GPU call (the `run` tool) carrying [".gpu", "releng/gpu/target"] (about 45 MB) with the command:
#   releng/gpu/instrument.sh --selftest                 # sample PTX kernels, known truth; prints SELFTEST PASS/FAIL
#   releng/gpu/instrument.sh TRACE.phos                 # writes $OUT/<name>.observed.phos; a TRACE with a
#                                                       # <name>-expected.json beside it is checked against it
#   releng/gpu/instrument.sh --selftest TRACE.phos ...  # both, in one call
# Each run prints the observed accesses and a CSV of plain vs instrumented kernel time per kernel; stdout is also
# saved as $OUT/<name>.log so the results come back with the call's files.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/phos-instrument-out}; mkdir -p "$OUT"
[ -x /tmp/jre/bin/java ] || tar xzf .gpu/jre.tgz -C /tmp || { echo "instrument.sh: cannot unpack .gpu/jre.tgz (carry .gpu)"; exit 2; }
LIB=releng/gpu/target/instrument
[ -f $LIB/phos-instrument.jar ] || { echo "instrument.sh: $LIB/phos-instrument.jar missing (run releng/gpu/pack-instrument.sh here and carry releng/gpu/target)"; exit 2; }
CP="$LIB/phos-instrument.jar:$LIB/lib/*:.gpu/jcuda-12.0.0.jar:.gpu/jcuda-natives-12.0.0-linux-x86_64.jar"
JAVA=(/tmp/jre/bin/java --enable-native-access=ALL-UNNAMED -Xmx8g -cp "$CP" org.phos.workbench.live.InstrumentMain)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
status=0
[ $# -gt 0 ] || set -- --selftest
for arg in "$@"; do
  if [ "$arg" = "--selftest" ]; then
    "${JAVA[@]}" --selftest sample-traces/programs/ptx/ptx_kernels.ptx "$OUT/selftest.observed.phos" 2>&1 | tee "$OUT/selftest.log"
  else
    name=$(basename "$arg" .phos)
    "${JAVA[@]}" "$arg" "$OUT/$name.observed.phos" 2>&1 | tee "$OUT/$name.log"
  fi
  rc=${PIPESTATUS[0]}; echo "instrument.sh: $arg -> exit $rc"; [ $rc -eq 0 ] || status=$rc
  expected="$(dirname "$arg")/$(basename "$arg" .phos)-expected.json"
  if [ "$arg" != "--selftest" ] && [ $rc -eq 0 ] && [ -f "$expected" ]; then
    # a trace whose program wrote its real accesses (the CUDA C suite): every launch must match them
    python3 native-hooks/tests/sanitizer_check.py suite "$arg" "$OUT/$name.observed.phos" "$expected" ptx-instrument \
      2>&1 | tee -a "$OUT/$name.log"
    rc=${PIPESTATUS[0]}; echo "instrument.sh: $arg against $expected -> exit $rc"; [ $rc -eq 0 ] || status=$rc
  fi
done
exit $status
