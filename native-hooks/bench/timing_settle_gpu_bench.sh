#!/bin/bash
# i15-settle GPU run: the PHOS_TIMING_SAMPLE=startup preset whose first burst lasts until the launch shapes settle
# (PHOS_TIMING_FIRST_BURST_MS, the preset's default since i15-settle) against the earlier preset, the recorder with
# timing off, every launch timed by CUPTI, and plain; diagnosis configurations for what the recorder costs. One
# command on the GPU machine, repository root:
#     bash native-hooks/bench/timing_settle_gpu_bench.sh OUTDIR
# Throughput: bench/steady_turns.py (torch_train.py's loop, the processes taking turns window by window; SETS sets of
# WINDOWS windows of ITERS iterations after WARMUP; CONFIGS names them, below). Accuracy: bench/timing_probe_analyse.py
# on the first KEEP sets' traces, the pairs "REFERENCE METHOD" of PAIRS (NAME.setN), e.g. a startup run against the
# fully timed run of its own set and of the other set, and the two fully timed runs against each other (the
# run-to-run floor of the 5% criterion). NO_ASLR=1 (i15-base): the processes start with address randomisation off.
set -u
ROOT=$(pwd); OUTD=$1; mkdir -p "$OUTD"
SETS=${SETS:-3}; WINDOWS=${WINDOWS:-40}; ITERS=${ITERS:-150}; WARMUP=${WARMUP:-40}; CPUS=${CPUS:-2-5}; KEEP=${KEEP:-2}
CONFIGS=${CONFIGS:-plain off full startup startup0}
PAIRS=${PAIRS:-full.set1:startup.set1 full.set2:startup.set2 full.set2:startup.set1 full.set1:startup.set2 full.set1:startup0.set1 full.set2:startup0.set2 full.set1:full.set2}
. "$(dirname "$0")/steady_bench_lib.sh"
steady_setup i15-settle "$ROOT/native-hooks"
B=$NH/bench
echo "cpus $CPUS: $(for c in $(seq ${CPUS%-*} ${CPUS#*-}); do printf '%s:%s ' $c "$(cat /sys/devices/system/cpu/cpu$c/topology/thread_siblings_list 2>/dev/null)"; done)"
env_of() {
  local I="PHOS_MODULE_IMAGE_LIMIT=0"
  case $1 in
    plain) echo "";;
    plainB) echo "";;                                                  # control: a second process without the recorder
    off) echo "LD_PRELOAD=$L PHOS_TIMING=0";;
    off8) echo "LD_PRELOAD=$L PHOS_TIMING=0 CPUS=2-9";;              # diagnosis: the writer thread with more cores
    offnz) echo "LD_PRELOAD=$L PHOS_TIMING=0 PHOS_COMPRESS=0";;      # diagnosis: no compression in the writer
    disabled) echo "LD_PRELOAD=$L PHOS_DISABLE=1";;                  # diagnosis: the wrappers alone, nothing recorded
    pass) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_DIAG_SKIP=128";;   # i15-final: steady_modes.py's reference (every call passed through) from the start
    noparams) echo "LD_PRELOAD=$L PHOS_TIMING=0 PHOS_DIAG_SKIP=1";;  # diagnosis: launch events without parameter bytes
    nolaunch) echo "LD_PRELOAD=$L PHOS_TIMING=0 PHOS_DIAG_SKIP=2";;  # diagnosis: no launch events (all else recorded)
    offdrop) echo "LD_PRELOAD=$L PHOS_TIMING=0 PHOS_DIAG_SKIP=4";;   # diagnosis (i15-base): launch events made, dropped by the writer
    offold) echo "LD_PRELOAD=$L PHOS_TIMING=0 PHOS_DIAG_SKIP=8";;    # i15-base: launch events written as before i15-base (in place, malloc for parameters)
    startupold) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_DIAG_SKIP=8 $I";;   # i15-base: the preset, launch events as before i15-base
    full) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=0 $I";;
    startup) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup $I";;
    startup0) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_TIMING_FIRST_BURST_MS=0 $I";;
    startupR) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_TIMING_RELEASE=1 $I";;   # CUPTI released after the first burst
    startupRc) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_TIMING_RELEASE=1 PHOS_TIMING_RELEASE_COPIES=1 $I";;   # and copies timed by events after it
    offpoll) echo "LD_PRELOAD=$L PHOS_TIMING=0 PHOS_WRITER_POLL_MS=20";;   # diagnosis: the writer wakes 10x less often
    offidle) echo "LD_PRELOAD=$L PHOS_TIMING=0 PHOS_WRITER_IDLE=1";;      # diagnosis: the writer under SCHED_IDLE
    startupRi) echo "LD_PRELOAD=$L PHOS_TIMING_SAMPLE=startup PHOS_TIMING_RELEASE=1 PHOS_WRITER_POLL_MS=20 PHOS_WRITER_IDLE=1 $I";;
    *) echo "unknown configuration $1" >&2; exit 2;;
  esac
}
args=()
for c in $CONFIGS; do args+=(--config "$c" "$(env_of $c)"); done
python3 "$B/steady_turns.py" --sets "$SETS" --windows "$WINDOWS" --iters "$ITERS" --warmup "$WARMUP" --cpus "$CPUS" \
    --keep "$W/keep" --keep-sets "$KEEP" ${NO_ASLR:+--no-aslr} "${args[@]}" > "$OUTD/turns.txt" 2> "$OUTD/turns.err"
echo "turns exit $?"; grep -v "^set .* window" "$OUTD/turns.txt"; tail -3 "$OUTD/turns.err"
cd "$W/keep" || exit 1
ls -la | grep phos
python3 - "$NH/tools" <<'PY' | tee "$OUTD/bursts.txt"
import glob, sys
sys.path.insert(0, sys.argv[1])
import phos_read as pr
for f in sorted(glob.glob("startup*.phos")):
    t = pr.read_trace(f)
    ls = [e["launch"] for e in t.events if "launch" in e]
    cup = [i for i, l in enumerate(ls) if l.get("gpu_start_ns", 0) > 0]
    e = t.end or {}
    print("%s: %d launches, %d with GPU time, first burst ends at launch %s; TraceEnd bursts %s, %.3f s in bursts, gaps %s; policy %s"
          % (f, len(ls), len(cup), next((cup[i] for i in range(len(cup) - 1) if cup[i + 1] != cup[i] + 1), cup[-1] if cup else None),
             e.get("timing_bursts"), e.get("timing_burst_ns", 0) / 1e9, [g.get("reason") for g in e.get("timing_gaps", [])],
             {k: v for k, v in (t.header.get("timing_sampling") or {}).items() if "burst" in k or k == "first_launches"}))
PY
A=$B/timing_probe_analyse.py
for pair in $PAIRS; do
  ref=${pair%%:*}; m=${pair#*:}
  [ -f "$ref.phos" ] && [ -f "$m.phos" ] || continue
  echo "== accuracy: $m against $ref"
  python3 "$A" "$ref.phos" "$m.phos" --json "$OUTD/acc_${m}_vs_$ref.json" 2>&1 | head -12
  python3 -c 'import json,sys; x=json.load(open(sys.argv[1]))["variants"][0]
for r in x["outside_5pct"]: print("  outside 5%%: %-70s %+.1f%% (%.2f%% of GPU time)" % (r["kernel"][:70], 100*r["err"], 100*r["share"]))' "$OUTD/acc_${m}_vs_$ref.json"
done | tee "$OUTD/accuracy.txt"
for f in ${COPY_TRACES:-}; do cp "$f.phos" "$OUTD/" 2>/dev/null; done   # for analysis elsewhere
echo "== done $(date -u +%H:%M:%SZ)"
