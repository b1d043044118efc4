#!/usr/bin/env bash
# Packs the live C/R checks for the GPU machine (run here, before the GPU call):  releng/gpu/pack-live.sh
# -> .gpu/live/ (ignored by git, about 35 MB): jre.tgz (jlink runtime), phos-live.jar (trace, speculation, cr and live
#    cores), lib/ (equinox.common, zstd-jni, JCuda and its natives) and live.sh. Then carry [".gpu/live"] and run
#    `bash .gpu/live/live.sh ...` (see releng/gpu/live.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
releng/gpu/pack-instrument.sh >/dev/null
D=.gpu/live
rm -rf "$D"; mkdir -p "$D/lib"
cp releng/gpu/target/instrument/phos-instrument.jar "$D/phos-live.jar"
cp releng/gpu/target/instrument/lib/*.jar .gpu/jcuda-12.0.0.jar .gpu/jcuda-natives-12.0.0-linux-x86_64.jar "$D/lib/"
cp .gpu/jre.tgz "$D/"
cp releng/gpu/live.sh "$D/"
du -sh "$D"
