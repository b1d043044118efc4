#!/usr/bin/env bash
# Second live batch on the GPU machine (issue #13, slice 2): soft recopy and repeated checkpoints checked bitwise, the
# GPT-style PyTorch sample recorded without instrumentation, and `workbench live` (with its live baseline) on it.
# Prepare here:  releng/gpu/pack-live.sh, then copy .gpu/live into the tree the GPU call sends and add this script and
#                sample-traces/programs/pytorch/gpt_train.py to it (see docs/live-cr.md, "Commands").
# One GPU call (kind nvidia-h100-x1), carrying the packed folder, from the repository root:
#     bash PACK/live2.sh [record] [latest RUNS] [cli] [save]      (no arguments: record latest 16 cli)
#   record        builds the recorder (native-hooks), runs gpt_train.py once plainly and once under the recorder
#                 (recorder only: CUPTI timing, no instrumentation; payloads capped at 4 KiB, module images over
#                 1 MiB without bytes): $OUT/gpt-train.phos; the printed checksums must be equal
#   latest RUNS   LiveMain latest: RUNS randomized recopy/repeated runs vs the stop-the-world image of each
#                 instant in the same replay (seeds 301..), RUNS recopies vs a second replay (seeds 401..)
#   cli           `workbench live` on gpt-train.phos (stop-the-world, soft-cow, soft-recopy) and on
#                 pytorch-train.phos (repeated), each with its live baseline: $OUT/cli-live2.tgz
#   save          `workbench live --save-as` on a copy of PACK/gpt-train.phos (soft-recopy; repeated every 250 ms
#                 from launch 300): the saved experiments, $OUT/experiments-h100.tgz, open on any machine
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-/tmp/phos-live2-out}; mkdir -p "$OUT"
WORK=/tmp/phos-live2-work; rm -rf "$WORK"; mkdir -p "$WORK"
# the runtime as pack-live.sh makes it (jre.tgz), or recompressed with xz (jre.txz) where the carry limit is tight
if [ ! -x /tmp/jre/bin/java ]; then
  if [ -f "$HERE/jre.txz" ]; then tar xJf "$HERE/jre.txz" -C /tmp; else tar xzf "$HERE/jre.tgz" -C /tmp; fi \
    || { echo "live2.sh: cannot unpack the runtime in $HERE"; exit 2; }
fi
CP="$HERE/phos-live.jar:$HERE/lib/*"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
mkdir -p "$WORK/fccache"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' "$HERE/fonts" \
  "$WORK/fccache" > "$WORK/fonts.conf"
export FONTCONFIG_FILE=$WORK/fonts.conf
ldconfig -p | grep -q 'libfontconfig.so.1 ' || export LD_LIBRARY_PATH=$HERE/fontlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
JVM=(/tmp/jre/bin/java --enable-native-access=ALL-UNNAMED -Xmx24g -Djava.awt.headless=true -cp "$CP")
echo "== live2 $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
status=0
S=$ROOT/sample-traces
# the calibrated H100 of docs/live-cr.md (18:30 UTC, same machine kind): not re-measured here to save device time
M=${MACHINE:-h100,d2h=55.15GB/s,h2d=55.16GB/s,d2d=1446.3GB/s,memset=3101.4GB/s,pageable-factor=0.203,copy-latency=2365ns,launch-latency=8516ns}
[ $# -gt 0 ] || set -- record latest 16 cli
part() { # NAME LIMIT_S LOG CMD...
  local name=$1 limit=$2 log=$3; shift 3
  local t0=$(date +%s)
  timeout "$limit" "$@" 2>&1 | tee "$OUT/$log"
  local rc=${PIPESTATUS[0]}; echo "live2.sh: $name -> exit $rc ($(( $(date +%s) - t0 )) s)"; [ $rc -eq 0 ] || status=1
}
GPT=$OUT/gpt-train.phos
while [ $# -gt 0 ]; do
  case "$1" in
    record)
      make -s -C "$ROOT/native-hooks" all CUDA_HOME="$CUDA_HOME" NVCC="$NVCC" > "$OUT/make.log" 2>&1 \
        || { echo "live2.sh: the recorder did not build"; tail -20 "$OUT/make.log"; status=1; }
      part gpt-plain 120 gpt-plain.log python3 "$HERE/gpt_train.py"
      rm -f "$GPT"
      part gpt-record 150 gpt-record.log env LD_PRELOAD="$ROOT/native-hooks/build/libphos_recorder.so" PHOS_DEBUG=1 \
        PHOS_PAYLOAD_LIMIT=4096 PHOS_MODULE_IMAGE_LIMIT=1048576 PHOS_TRACE_OUT="$GPT" python3 "$HERE/gpt_train.py"
      a=$(awk '/^checksum/{print $2}' "$OUT/gpt-plain.log"); b=$(awk '/^checksum/{print $2}' "$OUT/gpt-record.log")
      echo "gpt-train: checksums plain ${a:-none} / recorded ${b:-none}: $([ -n "$a" ] && [ "$a" = "$b" ] && echo equal || echo DIFFERENT)"
      ls -la "$GPT" 2>/dev/null; python3 "$ROOT/native-hooks/tools/phos_read.py" "$GPT" 2>&1 | head -5
      shift ;;
    latest)
      part latest 200 live-latest.log "${JVM[@]}" org.phos.workbench.live.LiveMain latest "$WORK" "$2" \
        "$S/ptx-driver.phos" "$S/jcuda-jacobi.phos" "$S/cuda-suite.phos" "$S/cupy-ops.phos" "$S/pytorch-train.phos"
      shift 2 ;;
    cli)
      mkdir -p "$WORK/cli"
      if [ -s "$GPT" ]; then
        for p in stop-the-world soft-cow soft-recopy; do
          part "cli-gpt-$p" 100 "cli-gpt-$p.log" "${JVM[@]}" org.phos.workbench.cli.Main live "$GPT" --policy "$p" \
            --machine "$M" --out "$WORK/cli/gpt-train-$p"
        done
      fi
      part cli-torch-repeated 100 cli-torch-repeated.log "${JVM[@]}" org.phos.workbench.cli.Main live \
        "$S/pytorch-train.phos" --policy repeated:interval=300ms --at launch:100 --machine "$M" \
        --out "$WORK/cli/pytorch-train-repeated"
      cat "$OUT"/cli-*.log > "$WORK/cli/cli.log"; rm -f "$OUT"/cli-*.log
      find "$WORK/cli" -name '*.json' -size +2M -delete   # timelines of big runs: the CSVs and charts stay
      tar czf "$OUT/cli-live2.tgz" -C "$WORK" cli; shift ;;
    save)
      # live runs saved as experiments beside a copy of the sample (it must be writable), brought back whole
      mkdir -p "$WORK/exp" "$WORK/cli2"
      if [ -f "$HERE/gpt-train.phos" ]; then cp "$HERE/gpt-train.phos" "$WORK/exp/"
      else # not carried (the carry limit): recorded again, as in part record; brought back beside the experiments
        [ -f "$ROOT/native-hooks/build/libphos_recorder.so" ] || make -s -C "$ROOT/native-hooks" all \
          CUDA_HOME="$CUDA_HOME" NVCC="$NVCC" > "$OUT/make.log" 2>&1
        part gpt-record-again 150 gpt-record-again.log env LD_PRELOAD="$ROOT/native-hooks/build/libphos_recorder.so" \
          PHOS_PAYLOAD_LIMIT=4096 PHOS_MODULE_IMAGE_LIMIT=1048576 PHOS_TRACE_OUT="$WORK/exp/gpt-train.phos" \
          python3 "$HERE/gpt_train.py"
      fi
      part cli-gpt-recopy-save 100 cli-gpt-recopy-save.log "${JVM[@]}" org.phos.workbench.cli.Main live \
        "$WORK/exp/gpt-train.phos" --policy soft-recopy --machine "$M" --out "$WORK/cli2/gpt-train-soft-recopy" \
        --save-as recopy-h100
      part cli-gpt-repeated-save 150 cli-gpt-repeated-save.log "${JVM[@]}" org.phos.workbench.cli.Main live \
        "$WORK/exp/gpt-train.phos" --policy repeated:interval=250ms --at launch:300 --machine "$M" \
        --out "$WORK/cli2/gpt-train-repeated" --save-as repeated-h100
      tar czf "$OUT/experiments-h100.tgz" -C "$WORK/exp" . ; ls -la "$OUT/experiments-h100.tgz"; shift ;;
    *) echo "live2.sh: unknown part $1"; exit 2 ;;
  esac
done
ls -la "$OUT"
exit $status
