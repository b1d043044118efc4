#!/usr/bin/env bash
# GPU check of the JCuda agent (issue 14), on the GPU machine from the repository root, after releng/gpu/pack-agent.sh
# here and with carry [".gpu"]:
#     bash releng/gpu/jcuda-agent.sh [OUTDIR]
# Builds the recorder, runs JCudaJacobi plain, then under the recorder with -javaagent:phos-jcuda-agent.jar, compares
# the checksums and checks with JCudaJacobiSitesCheck (the same check as the JUnit test JCudaAgentGpuTest, tag "gpu")
# that every launch carries its Java line and the module is named by where the program loaded it.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=${1:-${OUT:-/tmp/phos-agent-out}}
mkdir -p "$OUTDIR"
WORK=/tmp/phos-agent-work
rm -rf "$WORK"; mkdir -p "$WORK"
P=$ROOT/sample-traces/programs
G=$ROOT/.gpu
[ -f "$G/agent/phos-jcuda-agent.jar" ] || { echo "jcuda-agent: .gpu/agent not packed (releng/gpu/pack-agent.sh)"; exit 1; }
echo "== jcuda-agent $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
make -s -C "$ROOT/native-hooks" all CUDA_HOME="$CUDA_HOME" || { echo "recorder build failed"; exit 1; }
REC=$ROOT/native-hooks/build/libphos_recorder.so
tar xzf "$G/jre.tgz" -C "$WORK" && JAVA=$WORK/jre/bin/java
JCP="$G/jcuda-12.0.0.jar:$G/jcuda-natives-12.0.0-linux-x86_64.jar:$G"
cd "$WORK"
echo "== plain"
"$JAVA" -cp "$JCP" JCudaJacobi "$P/jcuda/jacobi.ptx" | tee plain.out
TRACE=$OUTDIR/jcuda-agent.phos
rm -f "$TRACE" "$TRACE.java-sites"
echo "== recorder + agent"
env LD_PRELOAD="$REC" PHOS_TRACE_OUT="$TRACE" "$JAVA" -javaagent:"$G/agent/phos-jcuda-agent.jar" -cp "$JCP" JCudaJacobi \
  "$P/jcuda/jacobi.ptx" 2>agent.err | tee agent.out
grep -v '^\[phos\]' agent.err | head -5
status=0
a=$(grep '^checksum' plain.out); b=$(grep '^checksum' agent.out)
if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "results unchanged: $a"; else echo "RESULTS DIFFER: '$a' vs '$b'"; status=1; fi
echo "side file: $(wc -l <"$TRACE.java-sites") lines; first launch line: $(grep -m1 '^L' "$TRACE.java-sites")"
"$JAVA" -cp "$G/agent/agent-check.jar:$G/agent/lib/*" org.phos.workbench.live.agent.tests.JCudaJacobiSitesCheck \
  "$TRACE" "$P/jcuda/JCudaJacobi.java" || status=1
echo "jcuda-agent: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
exit $status
