#!/usr/bin/env bash
# What keeps the driver's Lock from a process that uses CUPTI, and the checkpoint of a process recorded with the
# recorder's DEFAULT timing (CUPTI) through `workbench attach PID --checkpoint` (issue #14, branch i14-cupti).
# Prepare here: releng/gpu/cupti/pack.sh (-> .gpu/i14-cupti: the command-line jar, this branch's native-hooks sources,
# the probe, the target, this script). One GPU call carrying [".gpu/i14-cupti", ".gpu/jre.tgz"]:
#     bash .gpu/i14-cupti/cupti.sh
# Parts (everything in $OUT/summary.txt, logs in $OUT/logs.tgz):
#   matrix     cupti_probe CONFIG RELEASE (none, loaded, ts, subscribe, callbacks, activity, full; full released by
#              flush, disable, unsub, finalize): the helper's lock,checkpoint,restore,unlock on it, the Lock's answer
#   reference  ckpt_target MIB 500 10 alone
#   rec-cupti  the same under the recorder with its default timing, `attach --save` beside, then after 1.5 s
#              `attach PID --checkpoint` (prepare, lock, checkpoint, restore, unlock, done), then --steps lock and
#              --steps checkpoint,restore,unlock (prepare hold / done); results compared with the reference, and the
#              trace's TimingGaps and the launches timed in them
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/phos-cupti-out}; mkdir -p "$OUT"
W=/tmp/phos-cupti-work; rm -rf "$W"; mkdir -p "$W/xdg" "$W/logs"; chmod 700 "$W/xdg"
L=$W/logs
S=$OUT/summary.txt
MIB=${1:-2048}
say() { echo "$@" | tee -a "$S"; }
say "== cupti $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total,persistence_mode --format=csv,noheader | tee -a "$S"
( [ -x /tmp/jre/bin/java ] || tar xzf "$ROOT/.gpu/jre.tgz" -C /tmp ) &
JP=$!
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
CUPTI_LIB=$(dirname "$(find -L "$CUDA_HOME"/ -name 'libcupti.so*' 2>/dev/null | head -1)")
( make -s -j16 -C "$HERE/native-hooks" all CUDA_HOME="$CUDA_HOME" >"$L/make.log" 2>&1 || echo "recorder build failed" >> "$S" ) &
MP=$!
"$NVCC" -O2 -arch=sm_90 -o "$W/cupti_probe" "$HERE/cupti_probe.cu" -lcupti -ldl -L"$CUPTI_LIB" -Xlinker -rpath="$CUPTI_LIB" > "$L/nvcc-probe.log" 2>&1 || { cat "$L/nvcc-probe.log"; exit 2; }
"$NVCC" -O2 -arch=sm_90 -o "$W/ckpt_target" "$HERE/ckpt_target.cu" || exit 2
wait $MP; wait $JP
REC=$HERE/native-hooks/build/libphos_recorder.so
HELPER=$HERE/native-hooks/build/phos_driver_checkpoint
ls -la "$REC" "$HELPER" | tee -a "$S"
WB=(/tmp/jre/bin/java -Djava.awt.headless=true -cp "$HERE/phos.jar:$HERE/lib/*" org.phos.workbench.cli.Main)
H=(--helper "$HELPER")
export XDG_RUNTIME_DIR=$W/xdg
wait_line() { for _ in $(seq 1 400); do grep -q "^$2" "$1" 2>/dev/null && break; sleep 0.02; done; awk -v p="^$2" '$0 ~ p {print $2; exit}' "$1"; }

say "-- matrix: cupti_probe CONFIG RELEASE, then the helper's lock,checkpoint,restore,unlock"
probe() { # CONFIG RELEASE
  local n="$1-$2"
  timeout 30 "$W/cupti_probe" "$1" "$2" 40 25 > "$L/p-$n.log" 2>&1 &
  local pp=$! pid
  pid=$(wait_line "$L/p-$n.log" ready)
  if [ "$2" = keep ]; then sleep 0.3; else wait_line "$L/p-$n.log" released > /dev/null; fi
  "$HELPER" --steps lock,checkpoint,restore,unlock --timeout-ms 5000 "$pid" > "$L/h-$n.log" 2>&1
  wait $pp; local rc=$?
  local lock; lock=$(grep '^end lock' "$L/h-$n.log" | sed 's/ t_ns [0-9]*//')
  say "$(printf '%-10s %-9s lock: %-60s %s; probe exit %d, %s iterations, %s%s' "$1" "$2" "$lock" "$(tail -1 "$L/h-$n.log")" $rc \
     "$(grep -c '^iter' "$L/p-$n.log")" "$(grep '^records' "$L/p-$n.log")" "$(grep -h '^reenabled\|^cupti error' "$L/p-$n.log" | tr '\n' ' ' | sed 's/^/; /')")"
}
for c in none loaded ts subscribe callbacks activity full; do probe $c keep; done
for r in flush disable unsub finalize; do probe full $r; done
probe activity disable

say "-- reference"
t0=$(date +%s%N); "$W/ckpt_target" "$MIB" 500 10 > "$L/ref.log" 2>&1; t1=$(date +%s%N)
say "reference run $(( (t1 - t0) / 1000000 )) ms, $(grep big "$L/ref.log")"
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
wb() { local log=$1; shift; "${WB[@]}" "$@" > "$log" 2>&1; echo "exit $?" >> "$log"; cat "$log" >> "$S"; }
run_rec() { # NAME ENV...
  local name=$1; shift
  say "-- $name ($*)"
  env "$@" LD_PRELOAD="$REC" PHOS_TRACE_OUT="$OUT/$name.phos" PHOS_DEBUG=1 timeout 90 "$W/ckpt_target" "$MIB" 500 10 > "$L/$name.log" 2>"$L/$name.err" &
  local tp=$! pid ap
  pid=$(wait_line "$L/$name.log" ready); say "target pid $pid"
  sleep 0.3
  timeout 100 "${WB[@]}" attach "$pid" --save "$OUT/live-$name.phos" --interval-ms 1000 > "$L/$name-attach.log" 2>&1 &
  ap=$!
  sleep 1.2
  wb "$L/$name-full.log" attach "$pid" --checkpoint "${H[@]}"
  sleep 0.4
  wb "$L/$name-lock.log" attach "$pid" --checkpoint --steps lock "${H[@]}"
  sleep 0.3
  wb "$L/$name-rest.log" attach "$pid" --checkpoint --steps checkpoint,restore,unlock "${H[@]}"
  wait $tp; say "target exit $?"
  wait $ap; tail -2 "$L/$name-attach.log" | tee -a "$S"
  grep -h "GPU timing\|checkpoint-\|CUPTI:" "$L/$name.err" | tee -a "$S"
  compare "$name" "$L/$name.log"
  python3 - "$OUT/$name.phos" "$HERE/native-hooks/tools" <<'PY' | tee -a "$S"
import sys; sys.path.insert(0, sys.argv[2]); import phos_read as pr
t = pr.read_trace(sys.argv[1]); gaps = t.end.get("timing_gaps", [])
ev = [e for e in t.events if "launch" in e]
timed = lambda e: 0 < e["launch"].get("gpu_start_ns", 0) < e["launch"].get("gpu_end_ns", 0)
print("trace: %d launches, %d with GPU times; timing gaps: %s" % (len(ev), sum(map(timed, ev)),
      ["%.1f-%.1f ms %s (%s)" % (g["start_ns"] / 1e6, g["end_ns"] / 1e6, g["source"], g["reason"]) for g in gaps]))
for g in gaps:
    ins = [e for e in ev if g["start_ns"] <= e["host_ns"] <= g["end_ns"]]
    print("  gap %.1f ms: %d launches issued in it, %d with GPU times (CUDA events)" % ((g["end_ns"] - g["start_ns"]) / 1e6, len(ins), sum(map(timed, ins))))
PY
}
run_rec rec-cupti
tar czf "$OUT/logs.tgz" -C "$W" logs
say "== end $(date -u +%H:%M:%SZ)"
