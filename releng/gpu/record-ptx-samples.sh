#!/usr/bin/env bash
# Records the PTX sample programs (ptx_driver, JCudaJacobi) for sample-traces/ with their PTX-instrumentation truth,
# with every host-to-device payload captured (PHOS_PAYLOAD_LIMIT=1g), so that the replay that instruments them has
# all of their inputs and none of their launches is excluded as "inputs unknown" (docs/accuracy.md). The recorder runs
# alone (no sanitizer tool in the process), so the GPU times in the traces are the kernels' own.
# One command on the GPU machine (repository root), carrying [".gpu", "releng/gpu/target"] after
# releng/gpu/pack-instrument.sh here:
#     bash releng/gpu/record-ptx-samples.sh [OUTDIR]
# Writes OUTDIR/<name>.phos and OUTDIR/instrument/<name>.observed.phos; the sample is then made here with
# `./workbench merge-observed OUTDIR/<name>.phos OUTDIR/instrument/<name>.observed.phos --out sample-traces/<name>.phos`.
# Each program also runs once without the recorder: its printed checksum must not change.
set -u
. "$(dirname "$0")/gpu-env.sh"
gpu_setup record-ptx-samples /tmp/phos-ptx-samples "${1:-}"
LIBCUDA=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
gcc -O2 -I"$CUDA_HOME/include" -o "$WORK/ptx_driver" "$P/ptx/ptx_driver.c" "$LIBCUDA" || { echo "ptx_driver build failed"; exit 1; }
tar xzf "$ROOT/.gpu/jre.tgz" -C "$WORK" || { echo "no .gpu/jre.tgz (carry .gpu)"; exit 1; }
JCP="$ROOT/.gpu/jcuda-12.0.0.jar:$ROOT/.gpu/jcuda-natives-12.0.0-linux-x86_64.jar:$ROOT/.gpu"
# the runtime carried has no compiler: JCudaJacobi.class is compiled here, into .gpu (docs/gpu-checks.md)
[ -f "$ROOT/.gpu/JCudaJacobi.class" ] || { echo "no .gpu/JCudaJacobi.class (javac --release 21 -cp .gpu/jcuda-12.0.0.jar -d .gpu $P/jcuda/JCudaJacobi.java)"; exit 1; }
status=0
cd "$WORK"
# record NAME -- CMD...: plain, then under the recorder with full payloads; checksums compared
record() {
  local name=$1; shift 2
  local plain rec
  fresh_outputs "$OUTDIR" "$name"
  plain=$("$@" 2>"$WORK/$name.plain.err" | awk '/^checksum/{print $2}')
  rec=$(env LD_PRELOAD="$B/libphos_recorder.so" PHOS_DEBUG=1 PHOS_PAYLOAD_LIMIT=1g \
    PHOS_TRACE_OUT="$OUTDIR/$name.phos" "$@" 2>"$WORK/$name.err" | awk '/^checksum/{print $2}')
  grep -E '^\[phos\]' "$WORK/$name.err" | grep -v 'flush (' | tail -4
  echo "$name: checksum plain ${plain:-none}, recorded ${rec:-none}: $([ -n "$plain" ] && [ "$plain" = "$rec" ] && echo equal || echo DIFFERENT)"
  [ -n "$plain" ] && [ "$plain" = "$rec" ] || status=1
  child_traces "$OUTDIR" "$name"
}
record ptx-driver -- ./ptx_driver "$P/ptx/ptx_kernels.ptx"
record jcuda-jacobi -- "$WORK/jre/bin/java" -cp "$JCP" JCudaJacobi "$P/jcuda/jacobi.ptx"
cd "$ROOT"
env OUT="$OUTDIR/instrument" bash releng/gpu/instrument.sh "$OUTDIR/ptx-driver.phos" "$OUTDIR/jcuda-jacobi.phos" \
  > "$OUTDIR/instrument.log" 2>&1 || status=1
grep -E 'device:|replayed|zero-filled|inputs|TOTAL|wrote|exit' "$OUTDIR/instrument.log"
rm -f "$OUTDIR"/instrument/*.log
echo "== done (exit $status)"
exit $status
