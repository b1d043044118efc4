#!/usr/bin/env bash
# Cross-checks the two ground-truth tools on the PTX sample programs (ptx_driver, JCudaJacobi): records each under the
# recorder with the SASS-level sanitizer tool in the same process (its side file is keyed to the recorder's launch
# ids), replays the new trace with the PTX instrumentation (releng/gpu/instrument.sh), and requires both tools to
# report the same read and written ranges for every (launch, allocation) (native-hooks/tests/truth_crosscheck.py).
# One command on the GPU machine (repository root), carrying [".gpu", "releng/gpu/target"] after
# releng/gpu/pack-instrument.sh here:
#     bash releng/gpu/record-both-truths.sh [OUTDIR]
# Writes OUTDIR/<name>.phos, <name>.phos.observed.phos (sanitizer) and instrument/<name>.observed.phos (PTX); a trace
# with both truths is `./workbench merge-observed OUTDIR/<name>.phos OUTDIR/<name>.phos.observed.phos
# OUTDIR/instrument/<name>.observed.phos --out FILE` (the committed samples keep their own recordings, whose GPU
# times were taken without the sanitizer's instrumentation slowing the kernels). Each program also runs once without
# any tool: its printed checksum must not change.
set -u
. "$(dirname "$0")/gpu-env.sh"
gpu_setup record-both-truths /tmp/phos-both-truths "${1:-}"
LIBCUDA=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
gcc -O2 -I"$CUDA_HOME/include" -o "$WORK/ptx_driver" "$P/ptx/ptx_driver.c" "$LIBCUDA" || { echo "ptx_driver build failed"; exit 1; }
tar xzf "$ROOT/.gpu/jre.tgz" -C "$WORK" || { echo "no .gpu/jre.tgz (carry .gpu)"; exit 1; }
JCP="$ROOT/.gpu/jcuda-12.0.0.jar:$ROOT/.gpu/jcuda-natives-12.0.0-linux-x86_64.jar:$ROOT/.gpu"
status=0
cd "$WORK"
# record NAME -- CMD...: plain, then under recorder + sanitizer tool; checksums compared
record() {
  local name=$1; shift 2
  local plain both
  fresh_outputs "$OUTDIR" "$name"
  plain=$("$@" 2>"$WORK/$name.plain.err" | awk '/^checksum/{print $2}')
  both=$(env LD_PRELOAD="$B/libphos_recorder.so:$B/libphos_sanitizer.so" PHOS_DEBUG=1 PHOS_SANITIZER_DEBUG=1 PHOS_PAYLOAD_LIMIT=1g \
    PHOS_TRACE_OUT="$OUTDIR/$name.phos" "$@" 2>"$WORK/$name.err" | awk '/^checksum/{print $2}')
  grep -E '^\[phos\]|phos-sanitizer' "$WORK/$name.err" | grep -v 'flush (' | tail -6
  echo "$name: checksum plain ${plain:-none}, recorder + sanitizer ${both:-none}: $([ -n "$plain" ] && [ "$plain" = "$both" ] && echo equal || echo DIFFERENT)"
  [ -n "$plain" ] && [ "$plain" = "$both" ] || status=1
  [ -s "$OUTDIR/$name.phos.observed.phos" ] || { echo "$name: no sanitizer side file"; status=1; }
  child_traces "$OUTDIR" "$name"
}
record ptx-driver -- ./ptx_driver "$P/ptx/ptx_kernels.ptx"
record jcuda-jacobi -- "$WORK/jre/bin/java" -cp "$JCP" JCudaJacobi "$P/jcuda/jacobi.ptx"
cd "$ROOT"
env OUT="$OUTDIR/instrument" bash releng/gpu/instrument.sh "$OUTDIR/ptx-driver.phos" "$OUTDIR/jcuda-jacobi.phos" \
  > "$OUTDIR/instrument.log" 2>&1 || status=1
grep -E 'device:|replayed|TOTAL|wrote|exit' "$OUTDIR/instrument.log"
rm -f "$OUTDIR"/instrument/*.log # their text is in instrument.log (fewer files to bring back)
for name in ptx-driver jcuda-jacobi; do
  echo "== $name: sanitizer truth vs PTX instrumentation truth"
  python3 native-hooks/tests/truth_crosscheck.py "$OUTDIR/$name.phos.observed.phos" \
    "$OUTDIR/instrument/$name.observed.phos" || status=1
done
echo "== done (exit $status)"
exit $status
