#!/usr/bin/env bash
# Packs the GPU check of CUPTI and the driver checkpoint (cupti.sh): releng/gpu/cupti/pack.sh [DEST]
# (DEST default /work/main/.gpu/i14-cupti): the command-line jar and libraries as releng/gpu/ckpt/pack.sh makes them,
# this branch's native-hooks sources (the GPU machine sees the main tree, not this branch), the probe and cupti.sh.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=${1:-/work/main/.gpu/i14-cupti}
bash releng/gpu/ckpt/pack.sh "$D" >/dev/null
rm -f "$D/ckpt.sh"
mkdir -p "$D/native-hooks"
cp -r native-hooks/Makefile native-hooks/src native-hooks/live native-hooks/tools "$D/native-hooks/"
find "$D/native-hooks" -name '__pycache__' -prune -exec rm -rf {} +
cp releng/gpu/cupti/cupti_probe.cu releng/gpu/cupti/cupti.sh "$D/"
du -sh "$D"
