#!/usr/bin/env bash
# Records the Triton and CuPy sample programs (sample-traces/programs/{triton,cupy}) with their ground truth.
# One command on the GPU machine (repository root), carrying [".gpu", "releng/gpu/target"] after
# releng/gpu/pack-instrument.sh here:
#     bash releng/gpu/record-python-samples.sh [OUTDIR]
# - triton-ops.phos: recorded under recorder + SASS-level sanitizer tool in one process (Triton loads cubins: only the
#   sanitizer can observe them), side file triton-ops.phos.observed.phos. Its GPU times are those of instrumented
#   kernels (as for pytorch-train.phos).
# - cupy-ops.phos: recorded under the recorder alone with CUPY_COMPILE_WITH_PTX=1 (CuPy's kernels load as PTX),
#   then replayed with the PTX instrumentation (releng/gpu/instrument.sh): instrument/cupy-ops.observed.phos.
#   A second recording under recorder + sanitizer (kept in the work folder, /tmp/phos-record-python-samples-work) has its two truths
#   cross-checked (native-hooks/tests/truth_crosscheck.py) on the launches both observe.
# Module images over 1 MiB (PyTorch's, which Triton's program loads too) are stored without their bytes, as for
# pytorch-train.phos, to keep the traces small.
# Each program also runs once without any tool: its printed checksum must not change.
set -u
. "$(dirname "$0")/gpu-env.sh"
gpu_setup record-python-samples /tmp/phos-python-samples "${1:-}"
python3 -c 'import torch, triton, cupy; print("torch", torch.__version__, "triton", triton.__version__, "cupy", cupy.__version__)'
status=0
cd "$WORK"
export CUPY_COMPILE_WITH_PTX=1 PYTHONUNBUFFERED=1
# run NAME TOOLS -- CMD...: TOOLS is "rec" (recorder) or "rec+san" (recorder + sanitizer tool); checksum compared
# with PLAIN (set by plain NAME -- CMD...)
plain() {
  local name=$1; shift 2
  PLAIN=$("$@" 2>"$WORK/$name.plain.err" | tee "$WORK/$name.plain.out" | awk '/^checksum/{print $2}')
  [ -n "$PLAIN" ] || { echo "$name: plain run printed no checksum:"; tail -20 "$WORK/$name.plain.err"; status=1; }
}
run() {
  local name=$1 tools=$2; shift 3
  local pre="$B/libphos_recorder.so" got
  [ "$tools" = "rec+san" ] && pre="$pre:$B/libphos_sanitizer.so"
  local dir=$OUTDIR
  [ "$name" = cupy-ops-sanitizer ] && dir=$WORK    # for the cross-check only
  fresh_outputs "$dir" "$name"
  got=$(env LD_PRELOAD="$pre" PHOS_DEBUG=1 PHOS_SANITIZER_DEBUG=1 PHOS_MODULE_IMAGE_LIMIT=1048576 PHOS_TRACE_OUT="$dir/$name.phos" "$@" \
    2>"$WORK/$name.err" | tee "$WORK/$name.out" | awk '/^checksum/{print $2}')
  grep -E '^\[phos\]|phos-sanitizer' "$WORK/$name.err" | grep -v 'flush (\|module .* loaded' | tail -6
  echo "$name ($tools): checksum plain ${PLAIN:-none}, recorded ${got:-none}: $([ -n "$got" ] && [ "$PLAIN" = "$got" ] && echo equal || echo DIFFERENT)"
  [ -n "$got" ] && [ "$PLAIN" = "$got" ] || { status=1; tail -15 "$WORK/$name.err"; }
  if [ "$tools" = "rec+san" ] && [ ! -s "$dir/$name.phos.observed.phos" ]; then echo "$name: no sanitizer side file"; status=1; fi
  child_traces "$dir" "$name"
}
plain triton-ops -- python3 "$P/triton/triton_ops.py"
run triton-ops rec+san -- python3 "$P/triton/triton_ops.py"
plain cupy-ops -- python3 "$P/cupy/cupy_ops.py"
run cupy-ops rec -- python3 "$P/cupy/cupy_ops.py"
run cupy-ops-sanitizer rec+san -- python3 "$P/cupy/cupy_ops.py"
for f in "$OUTDIR"/*.phos "$WORK"/*.phos; do python3 "$ROOT/native-hooks/tools/phos_read.py" "$f" 2>&1 | head -3; done
cd "$ROOT"
env OUT="$OUTDIR/instrument" bash releng/gpu/instrument.sh "$OUTDIR/cupy-ops.phos" "$WORK/cupy-ops-sanitizer.phos" \
  > "$OUTDIR/instrument.log" 2>&1 || status=1
grep -E 'device:|replayed|skipped|TOTAL|wrote|exit|note' "$OUTDIR/instrument.log" | head -40
rm -f "$OUTDIR"/instrument/*.log
echo "== cupy-ops-sanitizer: sanitizer truth vs PTX instrumentation truth"
python3 native-hooks/tests/truth_crosscheck.py --ptx-launches-only "$WORK/cupy-ops-sanitizer.phos.observed.phos" \
  "$OUTDIR/instrument/cupy-ops-sanitizer.observed.phos" || status=1
rm -f "$OUTDIR/instrument/cupy-ops-sanitizer.observed.phos"   # fewer files to bring back; the check's result is above
echo "== done (exit $status)"
exit $status
