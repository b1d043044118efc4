#!/usr/bin/env bash
# The live experiment test and the 8-40 GB size sweep (issue #13) on the GPU machine (no JVM there: a jlink runtime
# travels in the pack). Prepare here: releng/gpu/pack-live-exp.sh DEST; one GPU call carrying DEST runs, from the
# repository root:
#     bash DEST/live-exp.sh [test] [sweep ALLOC:ROUNDS:DRIVER_ROUNDS...]
#   test     the JUnit test tagged gpu ExperimentLiveCommandTest#runsAnExperimentLiveOnTheGpuAndOpensItFromItsFiles:
#            `experiment new pytorch-train.phos live-gpu --policy 'stop-the-world;soft-cow:chunk=4MiB' --at launch:300
#            --live` on the GPU, then the experiment opened, listed and shown from its files
#   pair ALLOC BUDGET MACHINE   workbench live soft-cow (chunk 4 MiB) on the ALLOC trace at launch 2000 with the
#            default 14 GiB copy-on-write budget and with BUDGET: the live/simulated timeline pair and metrics.csv
#   sweep    LiveMain sweep: the machine calibrated, then per generated trace (seed 21, 4,000 launches, ALLOC live
#            allocations: 610 -> 7.9 GB, 1250 -> 16.2 GB, 1900 -> 25.5 GB, 3300 -> 39.7 GB at launch 2000) ROUNDS
#            interleaved rounds of none / stop-the-world / soft-cow / on-demand-restore and DRIVER_ROUNDS driver
#            checkpoints (cuCheckpointProcess*), and the simulated twins on the calibrated machine; soft-cow's budget
#            is COW_BUDGET (default auto: free device memory at the instant less 2 GiB; simulated: the machine's
#            device memory less the bytes live at the instant less 2 GiB)
# Writes $OUT/gpu-test.log, live-sweep.log, live-sweep.csv. Exit status 1 if a part failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/phos-live-exp-out}; mkdir -p "$OUT"
WORK=/tmp/phos-live-exp-work; rm -rf "$WORK"; mkdir -p "$WORK"
if [ ! -x /tmp/jre/bin/java ]; then
  (cd /tmp && { tar xJf "$HERE/jre.tar.xz" 2>/dev/null || python3 -c "import tarfile,sys; tarfile.open(sys.argv[1]).extractall('/tmp')" "$HERE/jre.tar.xz"; }) \
    || { echo "live-exp.sh: cannot unpack $HERE/jre.tar.xz"; exit 2; }
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
LIBCUDA=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
HELPER=$WORK/phos_driver_checkpoint
gcc -O2 -I"$CUDA_HOME/include" -o "$HELPER" "$HERE/native/driver_checkpoint.c" "$LIBCUDA" \
  || { echo "live-exp.sh: the driver-checkpoint helper did not build: the driver anchor is left out"; HELPER=""; }
mkdir -p "$WORK/fccache"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' "$HERE/fonts" \
  "$WORK/fccache" > "$WORK/fonts.conf"
export FONTCONFIG_FILE=$WORK/fonts.conf
ldconfig -p | grep -q 'libfontconfig.so.1 ' || export LD_LIBRARY_PATH=$HERE/fontlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CP="$HERE/phos-live.jar:$HERE/lib/*"
# COW_BUDGET: the sweep's soft-cow copy-on-write budget, live and simulated (auto, or bytes such as 14GiB; i13-cow)
JVM=(/tmp/jre/bin/java --enable-native-access=ALL-UNNAMED -Xmx24g -Djava.awt.headless=true -Dphos.repo="$ROOT"
  -Dphos.driverCheckpoint="$HELPER" -Dphos.cowBudget="${COW_BUDGET:-auto}")
echo "== live-exp $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
free -g | head -2
status=0
[ $# -gt 0 ] || set -- test sweep 610:3:1 1250:3:1 3300:1:1 1900:2:1
part() { # NAME LIMIT_S LOG CMD...
  local name=$1 limit=$2 log=$3; shift 3
  local t0=$SECONDS
  timeout "$limit" "$@" 2>&1 | grep -v '^WARNING: ' | tee "$OUT/$log"
  local rc=${PIPESTATUS[0]}; echo "live-exp.sh: $name -> exit $rc ($((SECONDS - t0)) s)"; [ $rc -eq 0 ] || status=1
}
while [ $# -gt 0 ]; do
  case "$1" in
    test)
      part gpu-test 100 gpu-test.log "${JVM[@]}" -cp "$HERE/tests.jar:$CP:$HERE/junit/*" JUnitSelect \
        'org.phos.workbench.cli.simulate.ExperimentLiveCommandTest#runsAnExperimentLiveOnTheGpuAndOpensItFromItsFiles'
      shift ;;
    sweep)
      shift; specs=()
      while [ $# -gt 0 ] && [[ "$1" == *:* ]]; do specs+=("$1"); shift; done
      part sweep "${SWEEP_LIMIT:-250}" live-sweep.log "${JVM[@]}" -cp "$CP" org.phos.workbench.live.LiveMain sweep \
        "$WORK" "${specs[@]}"
      cp "$WORK/live-sweep.csv" "$OUT/" 2>/dev/null ;;
    pair)
      # the live/simulated timeline pair of soft-cow on the ALLOC trace, with the default 14 GiB copy-on-write budget
      # and with BUDGET (the sweep's soft-cow stall past 16 GB is budget fallbacks): workbench live, machine MACHINE
      A=$2; B=$3; M=$4; shift 4
      G=$WORK/gen-pair-a$A.phos
      part pair-generate 30 pair-generate.log "${JVM[@]}" -cp "$CP" org.phos.workbench.cli.Main generate --launches 4000 \
        --allocations "$A" --observed-every 1 --seed 21 --out "$G"
      for budget in 14GiB "$B"; do
        part "pair-$budget" 90 "pair-$budget.log" "${JVM[@]}" -cp "$CP" org.phos.workbench.cli.Main live "$G" \
          --policy "soft-cow:chunk=4MiB,budget=$budget" --at launch:2000 --machine "$M" --out "$WORK/pair-$budget"
        mkdir -p "$OUT/pair-$budget"
        cp "$WORK/pair-$budget"/{metrics.csv,manifest.json,*.png} "$OUT/pair-$budget/" 2>/dev/null
      done ;;
    *) echo "live-exp.sh: unknown part $1"; exit 2 ;;
  esac
done
exit $status
