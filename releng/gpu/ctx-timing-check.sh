#!/bin/bash
# Kept as run on 2026-11-26 (docs/gpu-checks.md block lead-2026-11-26); carry [".gpu/lead" or this file, ".gpu/i14-jsites", ".gpu/jre.tgz", ".gpu/jcuda-12.0.0.jar"] after releng/gpu/pack-attach-sites.sh.
# Lead's second GPU call: JCudaJacobi x3 and x5 rounds (a context created and destroyed per round) under the recorder
# with event timing, after the fix (rec_timing.c timing_context_ending), with and without the agent; timed launches per
# round; and the same under injection (CUDA_INJECTION64_PATH).
set -u
ROOT=$(pwd); G=$ROOT/.gpu; K=$G/i14-jsites; O=${OUT:-/tmp/lead-out}; mkdir -p $O
W=/tmp/lead-work; rm -rf $W; mkdir -p $W
echo "== lead GPU call 2 $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc); CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
make -s -C $ROOT/native-hooks all CUDA_HOME="$CUDA_HOME" > $W/build.log 2>&1 || { echo build failed; tail -20 $W/build.log; }
REC=$ROOT/native-hooks/build/libphos_recorder.so
tar xzf $G/jre.tgz -C $W && JAVA=$W/jre/bin/java
JCP="$G/jcuda-12.0.0.jar:$K/jcuda-natives-12.0.0-linux-x86_64.jar:$K/classes"
PTX=$ROOT/sample-traces/programs/jcuda/jacobi.ptx
touch $W/gate
j() {
  local name=$1 rounds=$2; shift 2
  (cd $W && timeout 90 env "$@" $JAVA -XX:ErrorFile=$O/hs_err_$name.log $AGENT -cp "$JCP" AttachGate $W/gate $rounds $PTX > $W/$name.out 2> $W/$name.err)
  local rc=$?
  echo "$name: exit $rc, checksum lines $(grep -c -i checksum $W/$name.out), distinct checksums: $(grep -i checksum $W/$name.out | sort -u | tr '\n' ' ')"
  grep -i 'leaves its context\|error\|fault' $W/$name.err | head -3 | sed 's/^/    /'
}
per_round() { python3 -c "
import sys; sys.path.insert(0,'$ROOT/native-hooks/tools'); import phos_read as pr
t=pr.read_trace('$1')
ev=[e['launch'] for e in t.events if e.get('launch')]
print('   ', len(ev), 'launches;', ', '.join('round %d: %d of %d timed, median %d ns' % (r//66+1, sum(1 for l in ev[r:r+66] if l.get('gpu_start_ns')), len(ev[r:r+66]), sorted(l.get('gpu_end_ns',0)-l.get('gpu_start_ns',0) for l in ev[r:r+66])[len(ev[r:r+66])//2]) for r in range(0,len(ev),66)))
print('    warnings:', t.warnings[:3])
"; }
AGENT=""
j plain5 5 X=1
j ev3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/ev3.phos PHOS_TIMING_SOURCE=events PHOS_DEBUG=1; per_round $W/ev3.phos
j ev5 5 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/ev5.phos PHOS_TIMING_SOURCE=events; per_round $W/ev5.phos
j cupti3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/cu3.phos; per_round $W/cu3.phos
j inj3 3 CUDA_INJECTION64_PATH=$REC PHOS_TRACE_OUT=$W/inj3.phos PHOS_DEBUG=1; per_round $W/inj3.phos
AGENT="-javaagent:$K/phos-jcuda-agent.jar"
j ev_agent3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/ea3.phos PHOS_TIMING_SOURCE=events; per_round $W/ea3.phos
j sampled3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/sa3.phos PHOS_TIMING_SOURCE=events PHOS_TIMING_SAMPLE=1 PHOS_TIMING_PROBE=1; per_round $W/sa3.phos
cp $W/ev3.phos $W/ev3.out $W/ev3.err $O/ 2>/dev/null
echo "elapsed $SECONDS s"
