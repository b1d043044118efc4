#!/usr/bin/env bash
# Records sample-traces/programs/cublas/cublas_shapes.py (cuBLAS GEMMs over 41 products, issue #15 i15-cublas) under
# recorder + SASS-level sanitizer tool in one process, every launch observed, module images over 64 KiB kept as hash
# and size only (the trace stays under 2 MB). One command on the GPU machine (repository root):
#     bash releng/gpu/record-cublas-shapes.sh [OUTDIR]
# Writes OUTDIR/cublas-shapes.phos and its side file cublas-shapes.phos.observed.phos; the program runs once without
# any tool first and its printed checksum must not change under the tools. Merge here with
#     ./workbench merge-observed OUTDIR/cublas-shapes.phos OUTDIR/cublas-shapes.phos.observed.phos \
#         --out sample-traces/cublas-shapes.phos
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
t0=$SECONDS
plain=$(python3 "$PROG" 2>"$WORK/plain.err" | tee "$WORK/plain.out" | awk '/^checksum/{print $2}')
cat "$WORK/plain.out"; echo "plain run: $((SECONDS - t0)) s"
[ -n "$plain" ] || { echo "plain run printed no checksum"; tail -20 "$WORK/plain.err"; status=1; }
fresh_outputs "$OUTDIR" cublas-shapes
t0=$SECONDS
got=$(env LD_PRELOAD="$B/libphos_recorder.so:$B/libphos_sanitizer.so" PHOS_DEBUG=1 PHOS_SANITIZER_DEBUG=1 \
  PHOS_MODULE_IMAGE_LIMIT=65536 PHOS_TRACE_OUT="$OUTDIR/cublas-shapes.phos" python3 "$PROG" \
  2>"$WORK/rec.err" | tee "$WORK/rec.out" | awk '/^checksum/{print $2}')
echo "recorded run: $((SECONDS - t0)) s"
grep -E '^\[phos\]|phos-sanitizer' "$WORK/rec.err" | grep -v 'flush (\|module .* loaded' | tail -8
echo "cublas-shapes (rec+san): checksum plain ${plain:-none}, recorded ${got:-none}: $([ -n "$got" ] && [ "$plain" = "$got" ] && echo equal || echo DIFFERENT)"
[ -n "$got" ] && [ "$plain" = "$got" ] || { status=1; tail -15 "$WORK/rec.err"; }
[ -s "$OUTDIR/cublas-shapes.phos.observed.phos" ] || { echo "no sanitizer side file"; status=1; }
child_traces "$OUTDIR" cublas-shapes
ls -la "$OUTDIR"
python3 "$ROOT/native-hooks/tools/phos_read.py" "$OUTDIR/cublas-shapes.phos" 2>&1 | head -8
echo "== done (exit $status)"
exit $status
