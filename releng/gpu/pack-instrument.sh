#!/usr/bin/env bash
# Packs the PTX instrumentation replay for the GPU machine (run here, before the GPU call):
#   releng/gpu/pack-instrument.sh
# -> releng/gpu/target/instrument/{phos-instrument.jar, lib/*.jar} (ignored by git; about 8 MB) and, when missing,
#    .gpu/jre.tgz (a jlink runtime, ../shared/gpu/make-jre.sh) and .gpu/jcuda*.jar (from ~/.m2).
# Then one GPU call carries .gpu and releng/gpu/target and runs releng/gpu/instrument.sh (see its header).
set -euo pipefail
cd "$(dirname "$0")/../.."
JAVA_HOME="${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-*-jdk-amd64 2>/dev/null | sort -V | tail -n1)}"
M2=~/.m2/repository
jar() { ls $M2/$1 2>/dev/null | sort -V | tail -n1; }
OUT=releng/gpu/target/instrument
rm -rf "$OUT"; mkdir -p "$OUT/classes" "$OUT/lib" .gpu
cp "$(jar 'org/eclipse/platform/org.eclipse.equinox.common/*/*.jar')" "$(jar 'com/github/luben/zstd-jni/1.5.7-6/*.jar')" "$OUT/lib/"
ANN=$(jar 'org/eclipse/jdt/org.eclipse.jdt.annotation/*/*.jar')
[ -f .gpu/jcuda-12.0.0.jar ] || cp $M2/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar .gpu/
[ -f .gpu/jcuda-natives-12.0.0-linux-x86_64.jar ] || cp $M2/org/jcuda/jcuda-natives/12.0.0/jcuda-natives-12.0.0-linux-x86_64.jar .gpu/
[ -f .gpu/jre.tgz ] || ../shared/gpu/make-jre.sh .gpu/jre.tgz
srcs=()
for b in org.phos.workbench.trace.core org.phos.workbench.speculation.core org.phos.workbench.cr.core org.phos.workbench.live; do
  while IFS= read -r f; do srcs+=("$f"); done < <(find "bundles/$b/src" -name '*.java')
done
"$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$OUT/classes" -cp "$OUT/lib/*:$ANN:.gpu/jcuda-12.0.0.jar" "${srcs[@]}"
"$JAVA_HOME/bin/jar" --create --file "$OUT/phos-instrument.jar" -C "$OUT/classes" .
rm -rf "$OUT/classes"
du -sh "$OUT" .gpu
