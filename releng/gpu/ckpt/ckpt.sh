#!/usr/bin/env bash
# The driver's checkpoint of a running CUDA process from `workbench attach PID --checkpoint`, on the GPU machine
# (issue #14, branch i14-ckpt). Prepare here: releng/gpu/ckpt/pack.sh (-> .gpu/i14-ckpt: the command-line jar and
# libraries, the helper's and the target's sources, this script). One GPU call carrying
# [".gpu/i14-ckpt", ".gpu/jre.tgz"], from the repository root:   bash .gpu/i14-ckpt/ckpt.sh [MIB]
# Parts (everything in $OUT/summary.txt, the logs in $OUT/logs.tgz):
#   reference   ckpt_target MIB 700 10 alone (no recorder, no checkpoint)
#   plain       the same, not recorded: after 1.5 s `attach PID --checkpoint` (lock, checkpoint, restore, unlock), then
#               the steps one call at a time (--steps lock; --steps state; --steps checkpoint,restore,unlock); its
#               per-iteration checksums must equal the reference's, its big buffer intact
#   rec-events  the same under the phos recorder timing with CUDA events (no CUPTI), `attach --save` streaming beside
#   rec-cupti   the same under the recorder with its default timing (CUPTI where it loads)
#   managed     a process holding managed memory (cuda.md section 7: refused, must be unlocked again)
#   nocuda      a process that never used CUDA; gone: a pid without a process
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/phos-ckpt-out}; mkdir -p "$OUT"
W=/tmp/phos-ckpt-work; rm -rf "$W"; mkdir -p "$W/xdg" "$W/logs"; chmod 700 "$W/xdg"
L=$W/logs
S=$OUT/summary.txt
MIB=${1:-2048}
say() { echo "$@" | tee -a "$S"; }
say "== ckpt $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total,persistence_mode --format=csv,noheader | tee -a "$S"
[ -x /tmp/jre/bin/java ] || tar xzf "$ROOT/.gpu/jre.tgz" -C /tmp || { echo "cannot unpack .gpu/jre.tgz"; exit 2; }
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
make -s -j16 -C "$ROOT/native-hooks" all CUDA_HOME="$CUDA_HOME" >"$L/make.log" 2>&1 || say "recorder build failed"
REC=$ROOT/native-hooks/build/libphos_recorder.so
gcc -O2 -I"$CUDA_HOME/include" -o "$W/phos_driver_checkpoint" "$HERE/driver_checkpoint.c" -ldl || exit 2
"$NVCC" -O2 -arch=sm_90 -o "$W/ckpt_target" "$HERE/ckpt_target.cu" || exit 2
WB=(/tmp/jre/bin/java -Djava.awt.headless=true -cp "$HERE/phos.jar:$HERE/lib/*" org.phos.workbench.cli.Main)
H=(--helper "$W/phos_driver_checkpoint")
export XDG_RUNTIME_DIR=$W/xdg
wait_ready() { for _ in $(seq 1 400); do grep -q '^ready ' "$1" 2>/dev/null && break; sleep 0.05; done; awk '/^ready /{print $2; exit}' "$1"; }
wb() { # LOG ARGS...: the command line tool, its output and exit code into LOG and the summary
  local log=$1; shift
  "${WB[@]}" "$@" > "$log" 2>&1; echo "exit $?" >> "$log"
  cat "$log" >> "$S"; cat "$log"
}
compare() { # NAME LOG
python3 - "$L/ref.log" "$2" "$1" <<'PY' | tee -a "$S"
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
print("%s: iterations equal to the reference: %d of %d (this run has %d); %s / reference %s" % (sys.argv[3], same, len(r), len(c),
      [x for x in co if x.startswith("big")], [x for x in ro if x.startswith("big")]))
print("%s: largest gaps between iterations (ms@after iteration): %s; median gap %.2f ms" % (sys.argv[3],
      ", ".join("%.1f@%d" % g for g in gaps[::-1][:4]), gaps[len(gaps) // 2][0]))
PY
}
checkpoint_run() { # NAME PRELOAD(yes|no) ENV...
  local name=$1 pre=$2; shift 2
  say "-- $name"
  local envs=("$@")
  if [ "$pre" = yes ]; then envs+=(LD_PRELOAD="$REC" PHOS_TRACE_OUT="$L/$name.phos"); fi
  env "${envs[@]}" timeout 90 "$W/ckpt_target" "$MIB" 700 10 > "$L/$name.log" 2>"$L/$name.err" &
  local tp=$! pid ap=""
  pid=$(wait_ready "$L/$name.log"); say "target pid $pid"
  if [ "$pre" = yes ]; then
    sleep 0.3
    timeout 100 "${WB[@]}" attach "$pid" --save "$OUT/live-$name.phos" --interval-ms 1000 > "$L/$name-attach.log" 2>&1 &
    ap=$!
  fi
  sleep 1.5
  wb "$L/$name-full.log" attach "$pid" --checkpoint "${H[@]}"
  sleep 0.5
  wb "$L/$name-lock.log" attach "$pid" --checkpoint --steps lock "${H[@]}"
  sleep 0.3
  wb "$L/$name-state.log" attach "$pid" --checkpoint --steps state "${H[@]}"
  sleep 0.3
  wb "$L/$name-rest.log" attach "$pid" --checkpoint --steps checkpoint,restore,unlock "${H[@]}"
  wait $tp; say "target exit $?"
  if [ -n "$ap" ]; then wait "$ap"; tail -2 "$L/$name-attach.log" | tee -a "$S"; fi
  compare "$name" "$L/$name.log"
}

say "-- reference"
t0=$(date +%s%N); "$W/ckpt_target" "$MIB" 700 10 > "$L/ref.log" 2>&1; t1=$(date +%s%N)
say "reference run $(( (t1 - t0) / 1000000 )) ms, $(grep big "$L/ref.log")"
checkpoint_run plain no
checkpoint_run rec-events yes PHOS_TIMING_SOURCE=events
checkpoint_run rec-cupti yes

say "-- managed (not recorded)"
timeout 30 "$W/ckpt_target" 64 300 10 managed > "$L/managed.log" 2>&1 &
MP=$!
PID=$(wait_ready "$L/managed.log"); sleep 0.5
wb "$L/managed-full.log" attach "$PID" --checkpoint "${H[@]}"
wait $MP; say "managed target exit $? ($(grep -c '^iter' "$L/managed.log") iterations, $(grep big "$L/managed.log"))"
say "-- nocuda / gone"
sleep 30 & SP=$!
wb "$L/nocuda.log" attach "$SP" --checkpoint "${H[@]}"
kill $SP 2>/dev/null
wb "$L/gone.log" attach 999999 --checkpoint --steps state "${H[@]}"
tar czf "$OUT/logs.tgz" -C "$W" logs
say "== end $(date -u +%H:%M:%SZ)"
