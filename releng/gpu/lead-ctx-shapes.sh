#!/bin/bash
# Kept as run on 2026-11-26 (docs/gpu-checks.md block lead-2026-11-26); carry [".gpu/lead" or this file, ".gpu/i14-jsites", ".gpu/jre.tgz", ".gpu/jcuda-12.0.0.jar"] after releng/gpu/pack-attach-sites.sh.
# Lead's GPU call: (1) the JCudaJacobi SIGSEGV of i14-jsites, by parts; (2) gpt_train --steps 20 twice plain (is it
# deterministic?); (3) the sampled sanitizer's opt-in shape variants on gpt_train.
set -u
ROOT=$(pwd); G=$ROOT/.gpu; K=$G/i14-jsites; O=${OUT:-/tmp/lead-out}; mkdir -p $O
W=/tmp/lead-work; rm -rf $W; mkdir -p $W
echo "== lead GPU call $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc); CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
NH=/tmp/lead-nh; rm -rf $NH; cp -r $ROOT/native-hooks $NH; rm -rf $NH/build
make -s -C $NH -j8 build/libphos_recorder.so sanitizer CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$CUDA_HOME/compute-sanitizer" NVCC="$NVCC" \
  PATCH_ARCH="-gencode arch=compute_90,code=sm_90" > $W/build.log 2>&1 || { echo build failed; tail -20 $W/build.log; }
B=$NH/build; REC=$B/libphos_recorder.so
tar xzf $G/jre.tgz -C $W && JAVA=$W/jre/bin/java
JCP="$G/jcuda-12.0.0.jar:$K/jcuda-natives-12.0.0-linux-x86_64.jar:$K/classes"
PTX=$ROOT/sample-traces/programs/jcuda/jacobi.ptx
touch $W/gate
j() { # NAME ROUNDS ENV... : JCudaJacobi ROUNDS times through AttachGate (gate already open)
  local name=$1 rounds=$2; shift 2
  (cd $W && timeout 60 env "$@" $JAVA -XX:ErrorFile=$O/hs_err_$name.log $AGENT -cp "$JCP" AttachGate $W/gate $rounds $PTX > $W/$name.out 2> $W/$name.err)
  local rc=$?
  echo "$name: exit $rc, checksums: $(grep -c -i checksum $W/$name.out) lines; last out: $(tail -1 $W/$name.out | cut -c1-100)"
  grep -v '^\[phos\] \(recording\|wrote\)' $W/$name.err | grep -i 'phos\|error\|fault\|#' | head -4 | sed 's/^/    /'
  ls $O/hs_err_$name.log >/dev/null 2>&1 && { echo "    hs_err:"; grep -A12 '^# Problematic frame\|^Current thread\|^Native frames' $O/hs_err_$name.log | head -30 | sed 's/^/    /'; }
}
echo "== (1) JCudaJacobi x3 rounds (context created and destroyed per round)"
AGENT=""
j plain3 3 X=1
j rec_events3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/e3.phos PHOS_TIMING_SOURCE=events
j rec_cupti3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/c3.phos
j rec_notiming3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/n3.phos PHOS_TIMING=0
AGENT="-javaagent:$K/phos-jcuda-agent.jar"
j rec_events_agent3 3 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/ea3.phos PHOS_TIMING_SOURCE=events
j rec_events_agent1 1 LD_PRELOAD=$REC PHOS_TRACE_OUT=$W/ea1.phos PHOS_TIMING_SOURCE=events
AGENT=""
for f in e3 c3 n3 ea3 ea1; do [ -f $W/$f.phos ] && echo "  $f.phos: $(python3 $NH/tools/phos_read.py $W/$f.phos 2>&1 | grep -i -m2 'launch\|warn' | tr '\n' ' ')"; done
cp $W/e3.phos $W/ea3.phos $O/ 2>/dev/null
echo "elapsed $SECONDS s"
P=$ROOT/sample-traces/programs/pytorch
ck() { awk '/^checksum/{print $2}' "$1"; }
r() { local name=$1; shift; local s0=$(date +%s.%N); timeout 120 env "$@" > $W/$name.out 2> $W/$name.err; local rc=$?; local s1=$(date +%s.%N)
  echo "$name: $(awk "BEGIN{printf \"%.2f\", $s1-$s0}") s, exit $rc, checksum $(ck $W/$name.out)"; grep 'phos-sanitizer' $W/$name.err | grep -v 'host time' | tail -2 | sed 's/^/    /'; }
echo "== (2) gpt_train --steps 20, plain, twice"
r g20a python3 $P/gpt_train.py --steps 20
r g20b python3 $P/gpt_train.py --steps 20
echo "elapsed $SECONDS s"
echo "== (3) gpt_train default: plain / sampled variants, 2 rounds"
S="LD_PRELOAD=$REC:$B/libphos_sanitizer.so PHOS_SANITIZER_SHAPES=2 PHOS_MODULE_IMAGE_LIMIT=0"
for k in 1 2; do
  r gplain_$k python3 $P/gpt_train.py
  r gany_$k $S PHOS_TRACE_OUT=$W/gany_$k.phos PHOS_SANITIZER_ARG_POINTERS=any python3 $P/gpt_train.py
  r gstable_$k $S PHOS_TRACE_OUT=$W/gstable_$k.phos PHOS_SANITIZER_ARG_POINTERS=any PHOS_SANITIZER_ARG_STABLE=4 python3 $P/gpt_train.py
  r gdef_$k $S PHOS_TRACE_OUT=$W/gdef_$k.phos python3 $P/gpt_train.py
  [ $SECONDS -gt 400 ] && break
done
python3 $NH/bench/sampling_analyse.py coverage $W/gany_1.phos $W/gany_1.phos.observed.phos 2>&1 | head -c 600; echo
cp $W/gany_1.phos $W/gany_1.phos.observed.phos $O/ 2>/dev/null
echo "elapsed $SECONDS s"
