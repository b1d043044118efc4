#!/usr/bin/env bash
# Packs the live experiment test and the 8-40 GB size sweep (issue #13, branch i13-live2) for the GPU machine:
#     releng/gpu/pack-live-exp.sh DEST          (DEST: a folder the GPU call carries, e.g. /work/main/.gpu/i13-live2)
# -> DEST (about 30 MB): jre.tar.xz (jlink runtime with java.desktop for the charts, xz: it and the tracked tree
#    must stay under the call's 64 MiB), phos-live.jar and lib/ (releng/gpu/pack-live.sh's), tests.jar (the tagged
#    test ExperimentLiveCommandTest, CliRun and the JUnitSelect runner) with junit/ (JUnit 5 jars), native/, fonts/,
#    fontlibs/ and live-exp.sh. Then one GPU call (kind nvidia-h100-x1) carrying [".gpu/i13-live2"] runs
#     bash .gpu/i13-live2/live-exp.sh [test] [sweep ALLOC:ROUNDS:DRIVER_ROUNDS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
DEST=${1:?usage: pack-live-exp.sh DEST}
mkdir -p "$DEST"; DEST=$(cd "$DEST" && pwd)
JAVA_HOME="${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-*-jdk-amd64 2>/dev/null | sort -V | tail -n1)}"
M2=~/.m2/repository
bash releng/gpu/pack-live.sh >/dev/null
P=.gpu/live
rm -rf "$DEST"; mkdir -p "$DEST/junit"
cp -r "$P/phos-live.jar" "$P/lib" "$P/native" "$P/fonts" "$P/fontlibs" "$DEST/"
for j in org/junit/jupiter/junit-jupiter-api/5.12.2/junit-jupiter-api-5.12.2.jar \
  org/junit/jupiter/junit-jupiter-engine/5.12.2/junit-jupiter-engine-5.12.2.jar \
  org/junit/platform/junit-platform-launcher/1.12.2/junit-platform-launcher-1.12.2.jar \
  org/junit/platform/junit-platform-engine/1.12.2/junit-platform-engine-1.12.2.jar \
  org/junit/platform/junit-platform-commons/1.12.2/junit-platform-commons-1.12.2.jar \
  org/opentest4j/opentest4j/1.3.0/opentest4j-1.3.0.jar org/apiguardian/apiguardian-api/1.1.2/apiguardian-api-1.1.2.jar; do
  cp "$M2/$j" "$DEST/junit/"
done
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$T/classes" -cp "$DEST/phos-live.jar:$DEST/lib/*:$DEST/junit/*" \
  releng/gpu/junit/JUnitSelect.java bundles/org.phos.workbench.cli.tests/src/org/phos/workbench/cli/CliRun.java \
  bundles/org.phos.workbench.cli.tests/src/org/phos/workbench/cli/simulate/ExperimentLiveCommandTest.java
"$JAVA_HOME/bin/jar" --create --file "$DEST/tests.jar" -C "$T/classes" .
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.desktop,java.logging,java.xml,java.management,jdk.unsupported,jdk.zipfs \
  --strip-debug --compress=zip-0 --no-header-files --no-man-pages --output "$T/jre"
(cd "$T" && tar cf - jre | xz -6 -T2 > "$DEST/jre.tar.xz")
cp releng/gpu/live-exp.sh "$DEST/"
du -sh "$DEST"
