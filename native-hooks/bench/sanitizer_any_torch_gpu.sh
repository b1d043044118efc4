#!/bin/bash
# i15-settle: the sampled sanitizer's PHOS_SANITIZER_ARG_POINTERS=any on torch_train.py (gpt_train was measured with it
# in block lead-2026-11-26; torch_train only with the default rule, alias). Whole runs, process start to exit,
# ROUNDS interleaved rounds of plain / any / alias; coverage of the first round's traces. Repository root, GPU machine:
#     bash native-hooks/bench/sanitizer_any_torch_gpu.sh OUTDIR
set -u
ROOT=$(pwd); O=$1; mkdir -p "$O"; ROUNDS=${ROUNDS:-3}
W=/tmp/i15-any-work; rm -rf $W; mkdir -p $W
echo "== i15-any $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc); CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
NH=/tmp/i15-any-nh; rm -rf $NH; cp -r $ROOT/native-hooks $NH; rm -rf $NH/build
make -s -C $NH -j8 build/libphos_recorder.so sanitizer CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$CUDA_HOME/compute-sanitizer" NVCC="$NVCC" \
  PATCH_ARCH="-gencode arch=compute_90,code=sm_90" > $W/build.log 2>&1 || { echo build failed; tail -20 $W/build.log; exit 1; }
B=$NH/build; P=$ROOT/sample-traces/programs/pytorch
S="LD_PRELOAD=$B/libphos_recorder.so:$B/libphos_sanitizer.so PHOS_SANITIZER_SHAPES=2 PHOS_MODULE_IMAGE_LIMIT=0"
r() { local name=$1; shift; local s0=$(date +%s.%N); timeout 120 env "$@" > $W/$name.out 2> $W/$name.err; local rc=$?; local s1=$(date +%s.%N)
  echo "$name: $(awk "BEGIN{printf \"%.2f\", $s1-$s0}") s, exit $rc, $(grep -m1 -i 'checksum\|loss' $W/$name.out | cut -c1-80)"
  grep 'phos-sanitizer' $W/$name.err | grep -v 'host time' | tail -1 | sed 's/^/    /'; }
for k in $(seq 1 "$ROUNDS"); do
  r plain_$k python3 $P/torch_train.py --iters 100 --warmup 10
  r any_$k $S PHOS_TRACE_OUT=$W/any_$k.phos PHOS_SANITIZER_ARG_POINTERS=any python3 $P/torch_train.py --iters 100 --warmup 10
  r alias_$k $S PHOS_TRACE_OUT=$W/alias_$k.phos python3 $P/torch_train.py --iters 100 --warmup 10
done | tee $O/rounds.txt
python3 - $O/rounds.txt <<'PY' | tee -a $O/rounds.txt
import re, statistics, sys
v = {}
for l in open(sys.argv[1]):
    m = re.match(r"(\w+)_(\d+): ([0-9.]+) s", l)
    if m: v.setdefault(m.group(1), {})[int(m.group(2))] = float(m.group(3))
for c in ("any", "alias"):
    rs = [v[c][k] / v["plain"][k] for k in sorted(v.get(c, {})) if k in v.get("plain", {})]
    if rs: print("summary %s: %s x plain per round, median %.2fx" % (c, ", ".join("%.2f" % x for x in rs), statistics.median(rs)))
PY
for c in any alias; do echo "== coverage $c round 1"; python3 $NH/bench/sampling_analyse.py coverage $W/${c}_1.phos $W/${c}_1.phos.observed.phos 2>&1 | head -c 700; echo; done | tee $O/coverage.txt
echo "== done $(date -u +%H:%M:%SZ)"
