#!/usr/bin/env bash
# GPU check of i14-jsites: Java call sites while attached. On the GPU machine from the repository root, after
# releng/gpu/pack-attach-sites.sh here, with carry [".gpu/i14-jsites", ".gpu/jre.tgz", ".gpu/jcuda-12.0.0.jar"]:
#     bash .gpu/i14-jsites/jcuda-attach-sites.sh [OUTDIR]
# JCudaJacobi (3 rounds, gated by AttachGate so that every launch comes after the attach) runs under the recorder with
# the JCuda agent while `workbench attach PID --save` runs from the packed command line; then the saved stream is paired
# with its saved side file (`workbench java-sites`), and the live counts are compared with that file pairing.
set -u
ROOT=$(pwd)
G=$ROOT/.gpu
K=$G/i14-jsites
OUTDIR=${1:-${OUT:-/tmp/phos-jsites-out}}
mkdir -p "$OUTDIR"
WORK=/tmp/phos-jsites-work
rm -rf "$WORK"; mkdir -p "$WORK"
echo "== jcuda-attach-sites $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
make -s -C "$ROOT/native-hooks" all CUDA_HOME="$CUDA_HOME" || { echo "recorder build failed"; exit 1; }
REC=$ROOT/native-hooks/build/libphos_recorder.so
tar xzf "$G/jre.tgz" -C "$WORK" && JAVA=$WORK/jre/bin/java
JCP="$G/jcuda-12.0.0.jar:$K/jcuda-natives-12.0.0-linux-x86_64.jar:$K/classes"
CLI=("$JAVA" --enable-native-access=ALL-UNNAMED -cp "$K/cli.jar:$K/lib/*:$G/jcuda-12.0.0.jar" org.phos.workbench.cli.Main)
TRACE=$OUTDIR/jacobi-attached.phos
SAVED=$OUTDIR/jacobi-live.phos
GATE=$WORK/gate
cd "$WORK"
env LD_PRELOAD="$REC" PHOS_TRACE_OUT="$TRACE" PHOS_TIMING_SOURCE=events "$JAVA" -javaagent:"$K/phos-jcuda-agent.jar" \
  -cp "$JCP" AttachGate "$GATE" 3 "$ROOT/sample-traces/programs/jcuda/jacobi.ptx" >prog.out 2>prog.err &
PID=$!
for i in $(seq 1 300); do grep -q '^ready' prog.out 2>/dev/null && break; sleep 0.1; done
echo "program: $(head -1 prog.out) (pid $PID)"
"${CLI[@]}" attach "$PID" --save "$SAVED" --interval-ms 250 >attach.out 2>attach.err &
APID=$!
for i in $(seq 1 300); do grep -q '^attached to process' attach.out 2>/dev/null && break; sleep 0.1; done
sleep 0.5
touch "$GATE"
wait $PID; echo "program exit $?"
wait $APID; echo "attach exit $?"
grep -v '^\[phos\]' prog.err | head -5
cat prog.out
echo "== workbench attach $PID --save (the rolling lines and the end)"
cat attach.out; head -5 attach.err
echo "== workbench java-sites on the saved stream (its saved side file)"
"${CLI[@]}" java-sites "$SAVED" 2>&1 | head -30
echo "== launches CSV of the saved stream (first rows)"
"${CLI[@]}" launches "$SAVED" --format csv 2>&1 | head -4
status=0
grep -q 'JCudaJacobi.main(JCudaJacobi.java:' attach.out || { echo "NO JAVA SITE in the rolling lines"; status=1; }
grep -q 'launches paired' attach.out || { echo "NO SUMMARY"; status=1; }
echo "jcuda-attach-sites: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
cp prog.out prog.err attach.out "$OUTDIR/" 2>/dev/null
exit $status
