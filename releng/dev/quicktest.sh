#!/usr/bin/env bash
# Developer loop without Maven: compiles the named bundles (and their .tests) with javac against jars from
# ~/.m2 and runs their JUnit 5 tests with the console launcher. The real build is Tycho (./workbench test).
#   releng/dev/quicktest.sh org.phos.workbench.trace.core [more bundles...] [-- junit console args]
set -euo pipefail
cd "$(dirname "$0")/../.."
JAVA_HOME="${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-*-jdk-amd64 2>/dev/null | sort -V | tail -n1)}"
M2=~/.m2/repository
jar() { ls $M2/$1 2>/dev/null | sort -V | tail -n1; }
CP="$(jar 'org/eclipse/platform/org.eclipse.equinox.common/*/*.jar'):$(jar 'org/eclipse/jdt/org.eclipse.jdt.annotation/*/*.jar'):$(jar 'com/github/luben/zstd-jni/1.5.7-6/*.jar'):$(jar 'org/ow2/asm/asm/9.8/asm-9.8.jar')"
# QUICKTEST_EXTRA_CP: more jars (colon-separated) for bundles with other dependencies, e.g. the JCuda jar for
# org.phos.workbench.live: QUICKTEST_EXTRA_CP=$(ls ~/.m2/repository/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar)
CP="$CP:$(jar 'org/jfree/jfreechart/1.5.6/jfreechart-1.5.6.jar'):$(jar 'org/jfree/org.jfree.svg/*/*.jar')"
[ -n "${QUICKTEST_EXTRA_CP:-}" ] && CP="$CP:$QUICKTEST_EXTRA_CP"
JUNIT=$(jar 'org/junit/platform/junit-platform-console-standalone/1.12.2/*.jar')
OUT=${QUICKTEST_OUT:-/tmp/quicktest.$USER}
bundles=(); extra=()
while [ $# -gt 0 ]; do [ "$1" = "--" ] && { shift; extra=("$@"); break; }; bundles+=("$1"); shift; done
rm -rf "$OUT"; mkdir -p "$OUT/main" "$OUT/test"
srcs=(); tsrcs=()
for b in "${bundles[@]}"; do
  [ -d "bundles/$b/src" ] && while IFS= read -r f; do srcs+=("$f"); done < <(find "bundles/$b/src" -name '*.java')
  [ -d "bundles/$b.tests/src" ] && while IFS= read -r f; do tsrcs+=("$f"); done < <(find "bundles/$b.tests/src" -name '*.java')
done
"$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$OUT/main" -cp "$CP" "${srcs[@]}"
for b in "${bundles[@]}"; do [ -d "bundles/$b/src" ] && (cd "bundles/$b/src" && find . -type f ! -name '*.java' -exec cp --parents {} "$OUT/main/" \;); done
[ ${#tsrcs[@]} -eq 0 ] && { echo "no tests"; exit 0; }
"$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$OUT/test" -cp "$CP:$OUT/main:$JUNIT" "${tsrcs[@]}"
exec "$JAVA_HOME/bin/java" -Dphos.repo="$PWD" -jar "$JUNIT" execute -cp "$CP:$OUT/main:$OUT/test" --scan-class-path "$OUT/test" \
  --exclude-tag gpu --disable-banner --details=summary "${extra[@]}"
