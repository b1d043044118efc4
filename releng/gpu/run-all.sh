#!/usr/bin/env bash
# Every GPU check of the project, in one command on the GPU machine (repository root):
#     bash releng/gpu/run-all.sh [OUTDIR] 2>&1 | tee OUTDIR/run-all.log
# Prepare here first: releng/gpu/pack-instrument.sh (packs .gpu/jre.tgz, the JCuda jars and the replay jar), then
# carry [".gpu", "releng/gpu/target"] to the GPU machine (the `device` tool's `run`, about 45 MB).
#  1. native-hooks/tests/gpu_check.sh      the recorder: records every sample program, asserts what each knows
#                                          about its trace, outputs bitwise equal, interception cost, PyTorch ratio
#  2. native-hooks/tests/sanitizer_check.sh  the SASS-level tool: observed accesses vs the suite's by-construction
#                                          truth, PyTorch kernels observed, cost vs compute-sanitizer memcheck
#  3. releng/gpu/instrument.sh --selftest  PTX instrumentation + JCuda replay (the same check as the JUnit test
#                                          GpuReplayTest tagged "gpu"), then the sample traces with PTX (the CUDA C
#                                          suite's from its fatbin), the suite checked against its by-construction
#                                          truth, graph-node launches included
#  4. releng/gpu/record-both-truths.sh   the sanitizer tool and the PTX instrumentation on the same runs of the PTX
#                                          samples must report identical accesses
#  5. releng/gpu/record-python-samples.sh  the Triton and CuPy samples recorded (outputs unchanged) with their
#                                          truth; CuPy's PTX truth cross-checked with the sanitizer's
#  6. .gpu/live/live.sh                    live C/R (issue 13): calibration, randomized bitwise checks of concurrent
#                                          checkpoints, figures, the driver's checkpoint, `workbench live`; packed by
#                                          releng/gpu/pack-live.sh into .gpu/live (about 45 MB: with the other parts'
#                                          carry it passes the 64 MiB limit, so it usually runs in its own call with
#                                          carry [".gpu/live"]: bash .gpu/live/live.sh; skipped here when not packed)
# Exit status: non-zero if any part failed. CI has no GPU: these never run in ./workbench test.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=${1:-${OUT:-/tmp/phos-gpu-all}}
mkdir -p "$OUTDIR"/recorder "$OUTDIR"/sanitizer "$OUTDIR"/instrument "$OUTDIR"/both-truths "$OUTDIR"/python
cd "$ROOT"
status=0
part() { local name=$1; shift; echo "===== $name: $*"; "$@"; local rc=$?; echo "===== $name: exit $rc"; [ $rc -eq 0 ] || status=1; }
part recorder bash native-hooks/tests/gpu_check.sh "$OUTDIR/recorder"
part sanitizer bash native-hooks/tests/sanitizer_check.sh "$OUTDIR/sanitizer"
part instrument env OUT="$OUTDIR/instrument" bash releng/gpu/instrument.sh --selftest sample-traces/ptx-driver.phos sample-traces/jcuda-jacobi.phos sample-traces/cuda-suite.phos
part both-truths bash releng/gpu/record-both-truths.sh "$OUTDIR/both-truths"
part python-samples bash releng/gpu/record-python-samples.sh "$OUTDIR/python"
# i13-live: begin
if [ -f .gpu/live/live.sh ]; then part live env OUT="$OUTDIR/live" bash .gpu/live/live.sh
else echo "===== live: skipped (.gpu/live not packed: releng/gpu/pack-live.sh)"; fi
# i13-live: end
# i14-agent: begin
if [ -f .gpu/agent/phos-jcuda-agent.jar ]; then part jcuda-agent bash releng/gpu/jcuda-agent.sh "$OUTDIR/jcuda-agent"
else echo "===== jcuda-agent: skipped (.gpu/agent not packed: releng/gpu/pack-agent.sh)"; fi
# i14-agent: end
echo "run-all: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
exit $status
