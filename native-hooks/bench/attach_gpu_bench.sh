#!/bin/bash
# What live attach adds per launch on a real GPU: launch_bench.cu (empty kernel, host ns per launch, median of
# batches) under the recorder writing its file only (PHOS_ATTACH=0), and with its attach socket and one reader that
# reads everything or one that never reads. Settings alternate, ROUNDS times; prints each run's median and the
# median over runs. GPU timing as the recorder's default (CUPTI when it loads).
#   bash native-hooks/bench/attach_gpu_bench.sh [ROUNDS] [LAUNCHES] [BATCHES]     (needs nvcc and a GPU)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
B=$HERE/../build
ROUNDS=${1:-5} LAUNCHES=${2:-1000} BATCHES=${3:-300}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda-13.0}
T=$(mktemp -d /tmp/phos-attach-gpu.XXXX)
mkdir -m 700 "$T/xdg"
"$CUDA_HOME/bin/nvcc" -O2 -arch=sm_90 -o "$T/launch_bench" "$HERE/launch_bench.cu"
reader() {   # reader MODE PIDFILE: connects to the process's socket as soon as it exists; reads all, or nothing
  python3 - "$1" "$T/xdg/phos" <<'PY'
import os, socket, sys, time
mode, d = sys.argv[1], sys.argv[2]
t0 = time.time()
while time.time() - t0 < 20:
    socks = [f for f in os.listdir(d)] if os.path.isdir(d) else []
    if socks:
        break
    time.sleep(0.001)
s = socket.socket(socket.AF_UNIX); s.connect(os.path.join(d, socks[0]))
n = 0
if mode == "read":
    while True:
        b = s.recv(1 << 20)
        if not b: break
        n += len(b)
else:
    while os.path.exists(os.path.join(d, socks[0])): time.sleep(0.05)
print("reader %s: %d bytes" % (mode, n), file=sys.stderr)
PY
}
run() {  # run NAME ENV...
  local name=$1; shift
  rm -rf "$T/xdg/phos"
  case $name in
    reading) reader read & rp=$! ;;
    stalled) reader stall & rp=$! ;;
    *) rp= ;;
  esac
  r=$(env "$@" XDG_RUNTIME_DIR="$T/xdg" PHOS_TRACE_OUT="$T/$name.phos" LD_PRELOAD="$B/libphos_recorder.so" \
      "$T/launch_bench" "$LAUNCHES" "$BATCHES" | sed -n 's/.*median \([0-9.]*\) ns.*/\1/p')
  [ -n "$rp" ] && wait $rp
  echo "$name $r"
}
for i in $(seq "$ROUNDS"); do
  run fileonly PHOS_ATTACH=0
  run noreader PHOS_ATTACH=1
  run reading PHOS_ATTACH=1
  run stalled PHOS_ATTACH=1
  echo "none $("$T/launch_bench" "$LAUNCHES" "$BATCHES" | sed -n 's/.*median \([0-9.]*\) ns.*/\1/p')"
done | tee "$T/runs.txt"
python3 - "$T/runs.txt" <<'PY'
import statistics, sys
r = {}
for l in open(sys.argv[1]):
    k, v = l.split()
    r.setdefault(k, []).append(float(v))
m = {k: statistics.median(v) for k, v in r.items()}
print("launch_bench medians over %d runs (ns per launch): %s" % (len(r["fileonly"]), ", ".join("%s %.1f" % kv for kv in m.items())))
for k in ("noreader", "reading", "stalled"):
    print("  attach %-9s over file only: %+.1f ns" % (k, m[k] - m["fileonly"]))
print("  recorder file only over no recorder: %+.1f ns" % (m["fileonly"] - m["none"]))
PY
