#!/usr/bin/env bash
# Packs the i14-jsites GPU check (run here, after the agent and command-line bundles were built):
#   releng/gpu/pack-attach-sites.sh [DEST]      (DEST default /work/main/.gpu/i14-jsites when run from a worktree)
# -> DEST/{phos-jcuda-agent.jar, cli.jar, lib/*.jar, jcuda-natives-12.0.0-linux-x86_64.jar (driver and runtime only),
#    classes/ (AttachGate, JCudaJacobi), jcuda-attach-sites.sh}. The GPU call carries DEST, .gpu/jre.tgz and
#    .gpu/jcuda-12.0.0.jar.
set -euo pipefail
cd "$(dirname "$0")/../.."
. releng/gpu/pack-lib.sh
pack_env
DEST=${1:-.gpu/i14-jsites}
rm -rf "$DEST"; mkdir -p "$DEST/lib" "$DEST/classes"
cp bundles/org.phos.workbench.live.agent/target/phos-jcuda-agent.jar "$DEST/"
pack_libs "$DEST/lib"
pack_cli_jar "$DEST/cli.jar" "$DEST/lib"
mv "$DEST"/lib/jcuda-natives-12.0.0-linux-x86_64.jar "$DEST/"   # driver and runtime natives only (the 64 MiB limit)
rm -f "$DEST"/lib/jcuda-*.jar
"$JAVA_HOME/bin/javac" --release 21 -cp "$M2/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar" -d "$DEST/classes" \
  sample-traces/programs/jcuda/JCudaJacobi.java sample-traces/programs/jcuda/AttachGate.java
cp releng/gpu/jcuda-attach-sites.sh "$DEST/"
du -sh "$DEST"
