#!/usr/bin/env bash
# The PTX sample programs (ptx_driver, JCudaJacobi) recorded with every host-to-device payload captured
# (PHOS_PAYLOAD_LIMIT=1g: the PTX replay then has all of their inputs, docs/accuracy.md) and replayed with the PTX
# instrumentation (releng/gpu/instrument.sh). Two modes, one command on the GPU machine (repository root), carrying
# [".gpu", "releng/gpu/target"] after releng/gpu/pack-instrument.sh here (and JCudaJacobi.class compiled into .gpu):
#     bash releng/gpu/record-both-truths.sh [OUTDIR]            # cross-check of the two ground-truth tools
#     bash releng/gpu/record-both-truths.sh --samples [OUTDIR]  # the committed samples
# - cross-check: each program runs under the recorder with the SASS-level sanitizer tool in the same process (its
#   side file is keyed to the recorder's launch ids); both tools must report the same read and written ranges for
#   every (launch, allocation) (native-hooks/tests/truth_crosscheck.py). A trace with both truths is
#   `./workbench merge-observed OUTDIR/<name>.phos OUTDIR/<name>.phos.observed.phos OUTDIR/instrument/<name>.observed.phos --out FILE`.
# - --samples: the recorder alone, so the GPU times are the kernels' own (the sanitizer's instrumentation slows
#   them); the sample is `./workbench merge-observed OUTDIR/<name>.phos OUTDIR/instrument/<name>.observed.phos
#   --out sample-traces/<name>.phos`.
# Writes OUTDIR/<name>.phos, <name>.phos.observed.phos (sanitizer) and instrument/<name>.observed.phos (PTX). Each
# program also runs once without any tool: its printed checksum must not change.
set -u
MODE=both
[ "${1:-}" = "--samples" ] && { MODE=samples; shift; }
. "$(dirname "$0")/gpu-env.sh"
gpu_setup record-both-truths /tmp/phos-both-truths "${1:-}"
LIBCUDA=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
gcc -O2 -I"$CUDA_HOME/include" -o "$WORK/ptx_driver" "$P/ptx/ptx_driver.c" "$LIBCUDA" || { echo "ptx_driver build failed"; exit 1; }
tar xzf "$ROOT/.gpu/jre.tgz" -C "$WORK" || { echo "no .gpu/jre.tgz (carry .gpu)"; exit 1; }
# the runtime carried has no compiler: JCudaJacobi.class is compiled here, into .gpu (docs/gpu-checks.md)
[ -f "$ROOT/.gpu/JCudaJacobi.class" ] || { echo "no .gpu/JCudaJacobi.class (javac --release 21 -cp .gpu/jcuda-12.0.0.jar -d .gpu $P/jcuda/JCudaJacobi.java)"; exit 1; }
JCP="$ROOT/.gpu/jcuda-12.0.0.jar:$ROOT/.gpu/jcuda-natives-12.0.0-linux-x86_64.jar:$ROOT/.gpu"
PRELOAD="$B/libphos_recorder.so:$B/libphos_sanitizer.so" TOOLS="recorder + sanitizer"
[ $MODE = samples ] && PRELOAD="$B/libphos_recorder.so" TOOLS="recorder"
status=0
cd "$WORK"
# record NAME -- CMD...: plain, then under the tools with full payloads; checksums compared
record() {
  local name=$1; shift 2
  local plain rec
  fresh_outputs "$OUTDIR" "$name"
  plain=$("$@" 2>"$WORK/$name.plain.err" | awk '/^checksum/{print $2}')
  rec=$(env LD_PRELOAD="$PRELOAD" PHOS_DEBUG=1 PHOS_SANITIZER_DEBUG=1 PHOS_PAYLOAD_LIMIT=1g \
    PHOS_TRACE_OUT="$OUTDIR/$name.phos" "$@" 2>"$WORK/$name.err" | awk '/^checksum/{print $2}')
  grep -E '^\[phos\]|phos-sanitizer' "$WORK/$name.err" | grep -v 'flush (' | tail -6
  echo "$name: checksum plain ${plain:-none}, $TOOLS ${rec:-none}: $([ -n "$plain" ] && [ "$plain" = "$rec" ] && echo equal || echo DIFFERENT)"
  [ -n "$plain" ] && [ "$plain" = "$rec" ] || status=1
  if [ $MODE = both ] && [ ! -s "$OUTDIR/$name.phos.observed.phos" ]; then echo "$name: no sanitizer side file"; status=1; fi
  child_traces "$OUTDIR" "$name"
}
record ptx-driver -- ./ptx_driver "$P/ptx/ptx_kernels.ptx"
record jcuda-jacobi -- "$WORK/jre/bin/java" -cp "$JCP" JCudaJacobi "$P/jcuda/jacobi.ptx"
cd "$ROOT"
env OUT="$OUTDIR/instrument" bash releng/gpu/instrument.sh "$OUTDIR/ptx-driver.phos" "$OUTDIR/jcuda-jacobi.phos" \
  > "$OUTDIR/instrument.log" 2>&1 || status=1
grep -E 'device:|replayed|UNRELIABLE|TOTAL|wrote|exit' "$OUTDIR/instrument.log"
rm -f "$OUTDIR"/instrument/*.log # their text is in instrument.log (fewer files to bring back)
if [ $MODE = both ]; then
  for name in ptx-driver jcuda-jacobi; do
    echo "== $name: sanitizer truth vs PTX instrumentation truth"
    python3 native-hooks/tests/truth_crosscheck.py "$OUTDIR/$name.phos.observed.phos" \
      "$OUTDIR/instrument/$name.observed.phos" || status=1
  done
fi
echo "== done (exit $status)"
exit $status
