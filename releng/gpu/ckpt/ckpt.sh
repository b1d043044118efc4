#!/usr/bin/env bash
# The driver's checkpoint of a running, recording CUDA process, from `workbench attach PID --checkpoint`, on the GPU
# machine (issue #14, branch i14-ckpt). Prepare here: releng/gpu/ckpt/pack.sh (-> .gpu/i14-ckpt: the command-line
# jar and libraries, the helper's and the target's sources, this script). One GPU call carrying
# [".gpu/i14-ckpt", ".gpu/jre.tgz"], from the repository root:   bash .gpu/i14-ckpt/ckpt.sh [MIB]
# Parts (logs under $OUT):
#   1 reference: ckpt_target MIB 700 10 alone (no recorder, no checkpoint): ref.log
#   2 recorded: the same under the phos recorder (live attach socket on); `attach --list`; `attach PID --save` in the
#     background; after 1.5 s `attach PID --checkpoint` (lock, checkpoint, restore, unlock), then the steps one call
#     at a time (--steps lock; --steps state; --steps checkpoint,restore,unlock); its per-iteration checksums must
#     equal the reference's, its big buffer intact: rec.log, ckpt-*.log, compare.txt
#   3 refusals: a process holding managed memory (expected 801, unlocked again, the process goes on); a process that
#     never used CUDA: refusal-*.log
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/phos-ckpt-out}; mkdir -p "$OUT"
W=/tmp/phos-ckpt-work; rm -rf "$W"; mkdir -p "$W/xdg"; chmod 700 "$W/xdg"
MIB=${1:-2048}
echo "== ckpt $(date -u +%Y-%m-%dT%H:%M:%SZ)" | tee "$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,persistence_mode --format=csv,noheader | tee -a "$OUT/summary.txt"
[ -x /tmp/jre/bin/java ] || tar xzf "$ROOT/.gpu/jre.tgz" -C /tmp || { echo "cannot unpack .gpu/jre.tgz"; exit 2; }
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
make -s -j16 -C "$ROOT/native-hooks" all CUDA_HOME="$CUDA_HOME" >"$OUT/make.log" 2>&1 || { echo "recorder build failed"; cat "$OUT/make.log"; }
REC=$ROOT/native-hooks/build/libphos_recorder.so
gcc -O2 -I"$CUDA_HOME/include" -o "$W/phos_driver_checkpoint" "$HERE/driver_checkpoint.c" -ldl || exit 2
"$NVCC" -O2 -arch=sm_90 -o "$W/ckpt_target" "$HERE/ckpt_target.cu" || exit 2
WB=(/tmp/jre/bin/java -Djava.awt.headless=true -cp "$HERE/phos.jar:$HERE/lib/*" org.phos.workbench.cli.Main)
H=(--helper "$W/phos_driver_checkpoint")
export XDG_RUNTIME_DIR=$W/xdg
wait_ready() { for _ in $(seq 1 300); do grep -q '^ready ' "$1" 2>/dev/null && break; sleep 0.05; done; awk '/^ready /{print $2; exit}' "$1"; }

echo "-- 1 reference" | tee -a "$OUT/summary.txt"
t0=$(date +%s%N); "$W/ckpt_target" "$MIB" 700 10 > "$OUT/ref.log" 2>&1; t1=$(date +%s%N)
echo "reference run $(( (t1 - t0) / 1000000 )) ms, $(tail -2 "$OUT/ref.log" | head -1)" | tee -a "$OUT/summary.txt"

echo "-- 2 recorded + checkpoint" | tee -a "$OUT/summary.txt"
LD_PRELOAD=$REC PHOS_TRACE_OUT=$OUT/target.phos timeout 90 "$W/ckpt_target" "$MIB" 700 10 > "$OUT/rec.log" 2>"$OUT/rec.err" &
TP=$!
PID=$(wait_ready "$OUT/rec.log"); echo "target pid $PID (launcher $TP)" | tee -a "$OUT/summary.txt"
sleep 0.3
"${WB[@]}" attach --list 2>&1 | tee "$OUT/attach-list.log"
timeout 100 "${WB[@]}" attach "$PID" --save "$OUT/live.phos" --interval-ms 500 > "$OUT/attach-save.log" 2>&1 &
AP=$!
sleep 1.5
"${WB[@]}" attach "$PID" --checkpoint "${H[@]}" > "$OUT/ckpt-full.log" 2>&1; echo "exit $?" >> "$OUT/ckpt-full.log"
cat "$OUT/ckpt-full.log" | tee -a "$OUT/summary.txt"
sleep 0.5
for s in lock state checkpoint,restore,unlock; do
  "${WB[@]}" attach "$PID" --checkpoint --steps "$s" "${H[@]}" > "$OUT/ckpt-steps-$s.log" 2>&1; echo "exit $?" >> "$OUT/ckpt-steps-$s.log"
  cat "$OUT/ckpt-steps-$s.log" | tee -a "$OUT/summary.txt"
  sleep 0.3
done
wait $TP; echo "target exit $?" | tee -a "$OUT/summary.txt"
wait $AP; tail -3 "$OUT/attach-save.log" | tee -a "$OUT/summary.txt"
python3 - "$OUT/ref.log" "$OUT/rec.log" <<'PY' | tee "$OUT/compare.txt" | tee -a "$OUT/summary.txt"
import sys
def read(p):
    it, t, other = {}, [], []
    for l in open(p):
        w = l.split()
        if w and w[0] == "iter": it[int(w[1])] = w[3]; t.append(int(w[5]))
        elif w: other.append(l.strip())
    return it, t, other
r, _, ro = read(sys.argv[1]); c, t, co = read(sys.argv[2])
same = sum(1 for k in r if c.get(k) == r[k])
gaps = sorted(((b - a) / 1e6, i) for i, (a, b) in enumerate(zip(t, t[1:])))
print("iterations equal to the reference: %d of %d (recorded run has %d)" % (same, len(r), len(c)))
print("reference end: %s; recorded end: %s" % ([x for x in ro if x.startswith("big")], [x for x in co if x.startswith("big")]))
print("largest gaps between iterations (ms, after iteration): %s" % ", ".join("%.1f@%d" % g for g in gaps[::-1][:3]))
print("median gap %.2f ms" % gaps[len(gaps) // 2][0])
PY

echo "-- 3 refusals" | tee -a "$OUT/summary.txt"
LD_PRELOAD=$REC PHOS_TRACE_OUT=$OUT/managed.phos timeout 30 "$W/ckpt_target" 64 300 10 managed > "$OUT/managed.log" 2>&1 &
MP=$!
PID=$(wait_ready "$OUT/managed.log"); sleep 0.5
"${WB[@]}" attach "$PID" --checkpoint "${H[@]}" > "$OUT/refusal-managed.log" 2>&1; echo "exit $?" >> "$OUT/refusal-managed.log"
cat "$OUT/refusal-managed.log" | tee -a "$OUT/summary.txt"
wait $MP; echo "managed target exit $? ($(grep -c '^iter' "$OUT/managed.log") iterations, $(tail -2 "$OUT/managed.log" | head -1))" | tee -a "$OUT/summary.txt"
sleep 30 & SP=$!
"${WB[@]}" attach "$SP" --checkpoint "${H[@]}" > "$OUT/refusal-nocuda.log" 2>&1; echo "exit $?" >> "$OUT/refusal-nocuda.log"
cat "$OUT/refusal-nocuda.log" | tee -a "$OUT/summary.txt"
kill $SP 2>/dev/null
"${WB[@]}" attach 999999 --checkpoint "${H[@]}" > "$OUT/refusal-gone.log" 2>&1; echo "exit $?" >> "$OUT/refusal-gone.log"
cat "$OUT/refusal-gone.log" | tee -a "$OUT/summary.txt"
echo "== end $(date -u +%H:%M:%SZ)" | tee -a "$OUT/summary.txt"
