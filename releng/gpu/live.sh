#!/usr/bin/env bash
# Live checkpoint/restore on the GPU machine (no JVM there: a jlink runtime travels in .gpu/live).
# Prepare here:  releng/gpu/pack-live.sh        (-> .gpu/live: runtime, jars, native sources, this script)
# One GPU call (the `run` tool, kind nvidia-h100-x1) carrying [".gpu/live"], from the repository root:
#     bash .gpu/live/live.sh [calibrate R] [checks RUNS] [figures ROUNDS ALLOCATIONS] [cli]
#   (no arguments: calibrate 5 checks 24 figures 5 1000 cli)
#   calibrate R           the simulator's machine knobs measured (median of R): $OUT/machine.txt, a spec for --machine
#   checks RUNS           the surrogate kernel's bytes vs its Java twin; RUNS randomized runs (seeds 1..RUNS, every 5th
#                         with a planted mis-speculation) over generated traces and the sample traces: each concurrent
#                         image must equal, bitwise, the stop-the-world image of the same instant; then two driver
#                         checkpoints whose restored buffers must equal the image before them
#   figures R A           pinned D2H bandwidth, then R interleaved rounds of none / stop-the-world / soft-cow on a
#                         generated trace keeping A allocations live (A=1000: about 10 GB), then R rounds of the
#                         driver's checkpoint (cuCheckpointProcess*, native-hooks/live/driver_checkpoint.c); medians
#   cli                   `workbench live` (the command-line tool's Main) on pytorch-train.phos and on the figures'
#                         generated trace (soft-cow, stop-the-world, on-demand-restore), with the calibrated machine:
#                         $OUT/cli-live.tgz
# Writes $OUT/*.log, live-figures.csv, machine.txt, cli-live.tgz. Exit status 1 if a part failed.
# The JUnit twins are LiveCrEngineTest#concurrentImagesEqualOnTheGpu and LiveCommandTest#runsLiveBesideTheSimulation
# (tag "gpu"); releng/gpu/run-all.sh runs this script as its part "live".
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/phos-live-out}; mkdir -p "$OUT"
WORK=/tmp/phos-live-work; rm -rf "$WORK"; mkdir -p "$WORK"
[ -x /tmp/jre/bin/java ] || tar xzf "$HERE/jre.tgz" -C /tmp || { echo "live.sh: cannot unpack $HERE/jre.tgz"; exit 2; }
CP="$HERE/phos-live.jar:$HERE/lib/*"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
LIBCUDA=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
HELPER=$WORK/phos_driver_checkpoint
gcc -O2 -I"$CUDA_HOME/include" -o "$HELPER" "$HERE/native/driver_checkpoint.c" "$LIBCUDA" \
  || { echo "live.sh: the driver-checkpoint helper did not build: the driver anchor is left out"; HELPER=""; }
# charts: a font through our own fontconfig file; the carried fontconfig library only where the machine has none
mkdir -p "$WORK/fccache"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' "$HERE/fonts" \
  "$WORK/fccache" > "$WORK/fonts.conf"
export FONTCONFIG_FILE=$WORK/fonts.conf
ldconfig -p | grep -q 'libfontconfig.so.1 ' || export LD_LIBRARY_PATH=$HERE/fontlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
JVM=(/tmp/jre/bin/java --enable-native-access=ALL-UNNAMED -Xmx24g -Djava.awt.headless=true -Dphos.driverCheckpoint="$HELPER" -cp "$CP")
echo "== live $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
status=0
S=$ROOT/sample-traces
[ $# -gt 0 ] || set -- calibrate 5 checks 24 figures 5 1000 cli
part() { # NAME LIMIT_S LOG CMD...
  local name=$1 limit=$2 log=$3; shift 3
  timeout "$limit" "$@" 2>&1 | tee "$OUT/$log"
  local rc=${PIPESTATUS[0]}; echo "live.sh: $name -> exit $rc"; [ $rc -eq 0 ] || status=1
}
while [ $# -gt 0 ]; do
  case "$1" in
    calibrate)
      part calibrate 120 calibrate.log "${JVM[@]}" org.phos.workbench.live.LiveMain calibrate "$WORK" "$2"
      cp "$WORK/machine.txt" "$OUT/" 2>/dev/null; shift 2 ;;
    checks)
      part checks 300 live-checks.log "${JVM[@]}" org.phos.workbench.live.LiveMain checks "$WORK" "$2" \
        "$S/ptx-driver.phos" "$S/jcuda-jacobi.phos" "$S/cuda-suite.phos" "$S/cupy-ops.phos" "$S/pytorch-train.phos"
      shift 2 ;;
    figures)
      part figures 300 live-figures.log "${JVM[@]}" org.phos.workbench.live.LiveMain figures "$WORK" "$2" "$3"
      cp "$WORK/live-figures.csv" "$OUT/" 2>/dev/null; shift 3 ;;
    cli)
      M=$(cat "$WORK/machine.txt" 2>/dev/null || echo h100)
      G=$(ls "$WORK"/gen-s21-*.phos 2>/dev/null | head -1)
      if [ -z "$G" ]; then # the figures' workload, made by the command-line tool with the same options
        G=$WORK/gen-s21-a1000-o1.phos
        "${JVM[@]}" org.phos.workbench.cli.Main generate --launches 4000 --allocations 1000 --observed-every 1 \
          --seed 21 --out "$G" || G=""
      fi
      {
        part cli-torch 120 cli-torch.log "${JVM[@]}" org.phos.workbench.cli.Main live "$S/pytorch-train.phos" \
          --policy soft-cow --at launch:300 --machine "$M" --out "$WORK/cli/pytorch-train"
        [ -n "$G" ] && part cli-gen 180 cli-gen.log "${JVM[@]}" org.phos.workbench.cli.Main live "$G" \
          --policy soft-cow --at launch:2000 --machine "$M" --out "$WORK/cli/generated"
        [ -n "$G" ] && part cli-gen-stw 180 cli-gen-stw.log "${JVM[@]}" org.phos.workbench.cli.Main live "$G" \
          --policy stop-the-world --at launch:2000 --machine "$M" --out "$WORK/cli/generated-stw"
        [ -n "$G" ] && part cli-gen-restore 180 cli-gen-restore.log "${JVM[@]}" org.phos.workbench.cli.Main live \
          "$G" --policy on-demand-restore --at launch:2000 --machine "$M" --out "$WORK/cli/generated-restore"
      }
      cat "$OUT"/cli-*.log > "$WORK/cli/cli.log"; rm -f "$OUT"/cli-*.log
      tar czf "$OUT/cli-live.tgz" -C "$WORK" cli; shift ;;
    *) echo "live.sh: unknown part $1"; exit 2 ;;
  esac
done
ls -la "$OUT"
exit $status
