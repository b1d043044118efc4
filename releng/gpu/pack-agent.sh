#!/usr/bin/env bash
# Packs the JCuda agent's GPU check for the GPU machine (run here, after the agent bundle was built:
# ./mvnw -o -B -q -pl target-platform,bundles/org.phos.workbench.trace.core,bundles/org.phos.workbench.live.agent package):
#   releng/gpu/pack-agent.sh
# -> .gpu/agent/{phos-jcuda-agent.jar, agent-check.jar, lib/*.jar} (about 1 MB) and, when missing, .gpu/jre.tgz,
#    .gpu/jcuda*.jar and .gpu/JCudaJacobi.class. Then one GPU call carries [".gpu"] and runs
#    bash releng/gpu/jcuda-agent.sh (see its header).
set -euo pipefail
cd "$(dirname "$0")/../.."
. releng/gpu/pack-lib.sh
pack_env
AGENT=bundles/org.phos.workbench.live.agent/target/phos-jcuda-agent.jar
[ -f "$AGENT" ] || { echo "pack-agent.sh: $AGENT is missing: build the agent bundle first" >&2; exit 1; }
OUT=.gpu/agent
rm -rf "$OUT"; mkdir -p "$OUT/classes" "$OUT/lib"
cp "$AGENT" "$OUT/"
cp "$(m2jar 'org/eclipse/platform/org.eclipse.equinox.common/*/*.jar')" "$OUT/lib/"
pack_zstd "$OUT/lib"
ANN=$(m2jar 'org/eclipse/jdt/org.eclipse.jdt.annotation/*/*.jar')
[ -f .gpu/jcuda-12.0.0.jar ] || cp $M2/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar .gpu/
[ -f .gpu/jcuda-natives-12.0.0-linux-x86_64.jar ] || cp $M2/org/jcuda/jcuda-natives/12.0.0/jcuda-natives-12.0.0-linux-x86_64.jar .gpu/
[ -f .gpu/JCudaJacobi.class ] || "$JAVA_HOME/bin/javac" --release 21 -cp .gpu/jcuda-12.0.0.jar -d .gpu sample-traces/programs/jcuda/JCudaJacobi.java
[ -f .gpu/jre.tgz ] || ../shared/gpu/make-jre.sh .gpu/jre.tgz
srcs=()
while IFS= read -r f; do srcs+=("$f"); done < <(find bundles/org.phos.workbench.trace.core/src -name '*.java')
srcs+=(bundles/org.phos.workbench.live.agent.tests/src/org/phos/workbench/live/agent/tests/JCudaJacobiSitesCheck.java)
"$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$OUT/classes" -cp "$OUT/lib/*:$ANN" "${srcs[@]}"
"$JAVA_HOME/bin/jar" --create --file "$OUT/agent-check.jar" -C "$OUT/classes" .
rm -rf "$OUT/classes"
du -sh "$OUT" .gpu
