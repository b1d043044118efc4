#!/usr/bin/env bash
# Packs the GPU check of `workbench attach PID --checkpoint` (ckpt.sh): run here, in a worktree or the main tree.
#     releng/gpu/ckpt/pack.sh [DEST]   (DEST default: /work/main/.gpu/i14-ckpt; about 3 MB)
# phos.jar and lib/: the command line and its libraries (releng/gpu/pack-lib.sh); the helper's and the target's
# sources; ckpt.sh. The JRE travels as .gpu/jre.tgz.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=${1:-/work/main/.gpu/i14-ckpt}
. releng/gpu/pack-lib.sh
pack_env
rm -rf "$D"; mkdir -p "$D"
pack_libs "$D/lib"
pack_cli_jar "$D/phos.jar" "$D/lib"
cp native-hooks/live/driver_checkpoint.c releng/gpu/ckpt/ckpt_target.cu releng/gpu/ckpt/ckpt.sh "$D/"
du -sh "$D"
