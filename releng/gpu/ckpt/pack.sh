#!/usr/bin/env bash
# Packs the GPU check of `workbench attach PID --checkpoint` (ckpt.sh): run here, in a worktree or the main tree.
#     releng/gpu/ckpt/pack.sh [DEST]   (DEST default: /work/main/.gpu/i14-ckpt; about 3 MB)
# phos.jar: trace, speculation, cr, cr.charts, analysis, live and cli compiled together; lib/: equinox.common,
# JFreeChart, JCuda (classes only: the command line registers `live`), zstd-jni for linux-x86_64; the helper's and the
# target's sources; ckpt.sh. The JRE travels as .gpu/jre.tgz.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=${1:-/work/main/.gpu/i14-ckpt}
JAVA_HOME="${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-*-jdk-amd64 2>/dev/null | sort -V | tail -n1)}"
M2=~/.m2/repository
jar() { ls $M2/$1 2>/dev/null | sort -V | tail -n1; }
rm -rf "$D"; mkdir -p "$D/lib" "$D/classes"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cp "$(jar 'org/eclipse/platform/org.eclipse.equinox.common/*/*.jar')" "$M2/org/jfree/jfreechart/1.5.6/jfreechart-1.5.6.jar" \
  "$M2/org/jfree/org.jfree.svg/5.0.7/org.jfree.svg-5.0.7.jar" "$M2/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar" "$D/lib/"
Z=$(jar 'com/github/luben/zstd-jni/1.5.7-6/*.jar')
mkdir -p "$T/z" && (cd "$T/z" && unzip -q "$Z" -x 'aix/*' 'darwin/*' 'freebsd/*' 'linux/aarch64/*' 'linux/arm/*' \
  'linux/i386/*' 'linux/loongarch64/*' 'linux/mips64/*' 'linux/ppc64/*' 'linux/ppc64le/*' 'linux/riscv64/*' \
  'linux/s390x/*' 'win/*' && "$JAVA_HOME/bin/jar" --create --file "$D/lib/zstd-jni-1.5.7-6.jar" .)
ANN=$(jar 'org/eclipse/jdt/org.eclipse.jdt.annotation/*/*.jar')
srcs=()
for b in trace.core speculation.core cr.core cr.charts analysis.core live cli; do
  while IFS= read -r f; do srcs+=("$f"); done < <(find "bundles/org.phos.workbench.$b/src" -name '*.java')
done
"$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$D/classes" -cp "$D/lib/*:$ANN" "${srcs[@]}"
for b in trace.core speculation.core cr.core cr.charts analysis.core live cli; do
  (cd "bundles/org.phos.workbench.$b/src" && find . -type f ! -name '*.java' -exec cp --parents {} "$D/classes/" \;)
done
"$JAVA_HOME/bin/jar" --create --file "$D/phos.jar" -C "$D/classes" .
rm -rf "$D/classes"
cp native-hooks/live/driver_checkpoint.c releng/gpu/ckpt/ckpt_target.cu releng/gpu/ckpt/ckpt.sh "$D/"
du -sh "$D"
