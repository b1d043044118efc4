#!/usr/bin/env bash
# Packs the live C/R checks and the `live` command for the GPU machine (run here, before the GPU call):
#     releng/gpu/pack-live.sh
# -> .gpu/live/ (ignored by git, about 40 MB): jre.tgz (jlink runtime with java.desktop, for the charts),
#    phos-live.jar (trace, speculation, cr, cr.charts, analysis, live and cli bundles compiled together), lib/
#    (equinox.common, JFreeChart, JFreeSVG, JCuda, and JCuda's and zstd-jni's natives for linux-x86_64 only),
#    native/ (the driver-checkpoint helper's and the surrogate kernels' sources), fonts/ and fontlibs/ (DejaVu Sans and
#    fontconfig, for the charts of `live` on a machine without them) and live.sh.
# Then one GPU call carrying [".gpu/live"] runs `bash .gpu/live/live.sh ...` (see releng/gpu/live.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
JAVA_HOME="${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-*-jdk-amd64 2>/dev/null | sort -V | tail -n1)}"
M2=~/.m2/repository
jar() { ls $M2/$1 2>/dev/null | sort -V | tail -n1; }
D=.gpu/live
rm -rf "$D"; mkdir -p "$D/lib" "$D/native" "$D/classes"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cp "$(jar 'org/eclipse/platform/org.eclipse.equinox.common/*/*.jar')" "$M2/org/jfree/jfreechart/1.5.6/jfreechart-1.5.6.jar" \
  "$M2/org/jfree/org.jfree.svg/5.0.7/org.jfree.svg-5.0.7.jar" "$M2/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar" "$D/lib/"
# the natives jars slimmed to what linux-x86_64 and the driver API need
(cd "$T" && unzip -q "$M2/org/jcuda/jcuda-natives/12.0.0/jcuda-natives-12.0.0-linux-x86_64.jar" \
  'lib/libJCudaDriver-*' 'lib/libJCudaRuntime-*' 'META-INF/MANIFEST.MF' && \
  "$JAVA_HOME/bin/jar" --create --file "$OLDPWD/$D/lib/jcuda-natives-12.0.0-linux-x86_64.jar" lib)
Z=$(jar 'com/github/luben/zstd-jni/1.5.7-6/*.jar')
mkdir -p "$T/z" && (cd "$T/z" && unzip -q "$Z" -x 'aix/*' 'darwin/*' 'freebsd/*' 'linux/aarch64/*' 'linux/arm/*' \
  'linux/i386/*' 'linux/loongarch64/*' 'linux/mips64/*' 'linux/ppc64/*' 'linux/ppc64le/*' 'linux/riscv64/*' \
  'linux/s390x/*' 'win/*' && "$JAVA_HOME/bin/jar" --create --file "$OLDPWD/$D/lib/zstd-jni-1.5.7-6.jar" .)
ANN=$(jar 'org/eclipse/jdt/org.eclipse.jdt.annotation/*/*.jar')
srcs=()
for b in trace.core speculation.core cr.core cr.charts analysis.core live cli; do
  while IFS= read -r f; do srcs+=("$f"); done < <(find "bundles/org.phos.workbench.$b/src" -name '*.java')
done
"$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$D/classes" -cp "$D/lib/*:$ANN" "${srcs[@]}"
for b in trace.core speculation.core cr.core cr.charts analysis.core live cli; do
  (cd "bundles/org.phos.workbench.$b/src" && find . -type f ! -name '*.java' -exec cp --parents {} "$OLDPWD/$D/classes/" \;)
done
"$JAVA_HOME/bin/jar" --create --file "$D/phos-live.jar" -C "$D/classes" .
rm -rf "$D/classes"
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
