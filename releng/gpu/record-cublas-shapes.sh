#!/usr/bin/env bash
# Records sample-traces/programs/cublas/cublas_shapes.py (cuBLAS GEMMs over 41 products, issue #15 i15-cublas) under
# recorder + SASS-level sanitizer tool in one process, every launch observed, module images over 64 KiB kept as hash
# and size only (the trace stays under 2 MB). One command on the GPU machine (repository root):
#     bash releng/gpu/record-cublas-shapes.sh [OUTDIR [SET...]]
# SET is the program's --set: design (default; cublas-shapes.phos) and/or holdout (cublas-shapes-holdout.phos: the
# products the library table was not read from). Writes OUTDIR/NAME.phos and its side file NAME.phos.observed.phos;
# the program runs once without any tool first and its printed checksum must not change under the tools. Merge here:
#     ./workbench merge-observed OUTDIR/NAME.phos OUTDIR/NAME.phos.observed.phos --out sample-traces/NAME.phos
set -u
. "$(dirname "$0")/gpu-env.sh"
gpu_setup record-cublas-shapes /tmp/phos-cublas-shapes "${1:-}"
PROG=${PROG:-$P/cublas/cublas_shapes.py}
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cublas", torch._C._cuda_getCompiledVersion())'
python3 - <<'PY'
import importlib.metadata as m
for d in m.distributions():
    n = d.metadata["Name"] or ""
    if "cublas" in n.lower():
        print("package", n, d.version)
PY
export PYTHONUNBUFFERED=1
status=0
cd "$WORK"
record() { # record SET NAME
local set=$1 name=$2 plain got t0=$SECONDS
plain=$(python3 "$PROG" --set "$set" 2>"$WORK/$name.plain.err" | tee "$WORK/$name.plain.out" | awk '/^checksum/{print $2}')
cat "$WORK/$name.plain.out"; echo "plain run: $((SECONDS - t0)) s"
[ -n "$plain" ] || { echo "plain run printed no checksum"; tail -20 "$WORK/$name.plain.err"; status=1; }
fresh_outputs "$OUTDIR" "$name"
t0=$SECONDS
got=$(env LD_PRELOAD="$B/libphos_recorder.so:$B/libphos_sanitizer.so" PHOS_DEBUG=1 PHOS_SANITIZER_DEBUG=1 \
  PHOS_MODULE_IMAGE_LIMIT=65536 PHOS_TRACE_OUT="$OUTDIR/$name.phos" python3 "$PROG" --set "$set" \
  2>"$WORK/$name.err" | tee "$WORK/$name.out" | awk '/^checksum/{print $2}')
echo "recorded run: $((SECONDS - t0)) s"
grep -E '^\[phos\]|phos-sanitizer' "$WORK/$name.err" | grep -v 'flush (\|module .* loaded' | tail -8
echo "$name (rec+san): checksum plain ${plain:-none}, recorded ${got:-none}: $([ -n "$got" ] && [ "$plain" = "$got" ] && echo equal || echo DIFFERENT)"
[ -n "$got" ] && [ "$plain" = "$got" ] || { status=1; tail -15 "$WORK/$name.err"; }
[ -s "$OUTDIR/$name.phos.observed.phos" ] || { echo "$name: no sanitizer side file"; status=1; }
child_traces "$OUTDIR" "$name"
python3 "$ROOT/native-hooks/tools/phos_read.py" "$OUTDIR/$name.phos" 2>&1 | head -8
}
shift || true
for set in ${@:-design}; do
  case $set in design) record design cublas-shapes ;; holdout) record holdout cublas-shapes-holdout ;;
    *) echo "unknown set $set"; status=1 ;; esac
done
ls -la "$OUTDIR"
echo "== done (exit $status)"
exit $status
