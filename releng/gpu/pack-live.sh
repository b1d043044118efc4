#!/usr/bin/env bash
# Packs the live C/R checks and the `live` command for the GPU machine (run here, before the GPU call):
#     releng/gpu/pack-live.sh
# -> .gpu/live/ (ignored by git, about 40 MB): jre.tgz (jlink runtime with java.desktop, for the charts),
#    phos-live.jar and lib/ (the command line and its libraries: releng/gpu/pack-lib.sh),
#    native/ (the driver-checkpoint helper's and the surrogate kernels' sources), fonts/ and fontlibs/ (DejaVu Sans and
#    fontconfig, for the charts of `live` on a machine without them) and live.sh.
# Then one GPU call carrying [".gpu/live"] runs `bash .gpu/live/live.sh ...` (see releng/gpu/live.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
. releng/gpu/pack-lib.sh
pack_env
D=.gpu/live
rm -rf "$D"; mkdir -p "$D/native"
pack_libs "$D/lib"
pack_cli_jar "$D/phos-live.jar" "$D/lib"
../shared/gpu/make-jre.sh "$D/jre.tgz" java.desktop >/dev/null
cp native-hooks/live/*.c native-hooks/live/*.cu "$D/native/"
# charts need a font and fontconfig; the GPU machine may have neither (live.sh uses these only where it has none)
mkdir -p "$D/fonts" "$D/fontlibs"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$D/fonts/"
for l in libfontconfig.so.1 libfreetype.so.6 libexpat.so.1 libpng16.so.16 libbrotlidec.so.1 libbrotlicommon.so.1; do
  cp -L "/usr/lib/x86_64-linux-gnu/$l" "$D/fontlibs/" 2>/dev/null || cp -L "/lib/x86_64-linux-gnu/$l" "$D/fontlibs/"
done
cp releng/gpu/live.sh "$D/"
du -sh "$D"
