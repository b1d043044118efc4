#!/usr/bin/env bash
# Packs the PTX instrumentation replay for the GPU machine (run here, before the GPU call):
#   releng/gpu/pack-instrument.sh
# -> releng/gpu/target/instrument/{phos-instrument.jar, lib/*.jar} (the command line and its libraries,
#    releng/gpu/pack-lib.sh; ignored by git; about 8 MB) and, when missing,
#    .gpu/jre.tgz (a jlink runtime, ../shared/gpu/make-jre.sh) and .gpu/jcuda*.jar (from ~/.m2).
# Then one GPU call carries .gpu and releng/gpu/target and runs releng/gpu/instrument.sh (see its header).
set -euo pipefail
cd "$(dirname "$0")/../.."
. releng/gpu/pack-lib.sh
pack_env
OUT=releng/gpu/target/instrument
rm -rf "$OUT"; mkdir -p "$OUT" .gpu
pack_libs "$OUT/lib"
pack_cli_jar "$OUT/phos-instrument.jar" "$OUT/lib"
[ -f .gpu/jcuda-12.0.0.jar ] || cp $M2/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar .gpu/
[ -f .gpu/jcuda-natives-12.0.0-linux-x86_64.jar ] || cp $M2/org/jcuda/jcuda-natives/12.0.0/jcuda-natives-12.0.0-linux-x86_64.jar .gpu/
[ -f .gpu/jre.tgz ] || ../shared/gpu/make-jre.sh .gpu/jre.tgz
du -sh "$OUT" .gpu
