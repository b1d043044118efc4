#!/usr/bin/env bash
# The opening figure of issue #11: time from opening TRACE in the workbench to the first painted Launches table,
# against the command line's load of the same file, and the heap of both. Alternates, RUNS times:
#   cli (product flags)   one cold TraceReader.read in a fresh JVM with the workbench's JVM flags (G1, FLAGS)
#   cli (cli flags)       the same with the command line's own flags (-XX:+UseParallelGC, FLAGS)
#   workbench             ./workbench snapshot TRACE --view launches (the product, G1, FLAGS)
# Usage: releng/dev/opening-figure.sh TRACE [RUNS=3] [FLAGS=-Xmx8g]   (needs the product built: ./workbench builds it)
# Large traces: run under `flock /tmp/phos-bench.lock` on a shared machine.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TRACE="$1"; RUNS="${2:-3}"; FLAGS="${3:--Xmx8g}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
PRODUCT="$ROOT/releng/org.phos.workbench.product/target/products/org.phos.workbench.product/linux/gtk/x86_64/phoenix-workbench"
cp=""
for j in "$ROOT"/bundles/org.phos.workbench.{trace.core,speculation.core,analysis.core}/target/org.phos.workbench.*-SNAPSHOT.jar \
         "$PRODUCT"/plugins/{org.eclipse.equinox.common_,org.eclipse.jdt.annotation_,com.github.luben.zstd-jni_,org.objectweb.asm_}*.jar; do
  case "$j" in *-sources.jar) continue ;; esac
  [ -f "$j" ] && cp="$cp:$j"
done
out="$(mktemp -d)"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $(uptime)"
for i in $(seq "$RUNS"); do
  # shellcheck disable=SC2086
  "$JAVA" $FLAGS --enable-native-access=ALL-UNNAMED -cp "${cp#:}" "$ROOT/releng/dev/LoadTime.java" "$TRACE" | sed 's/^cli:/cli (product flags: G1 '"$FLAGS"'):/'
  # shellcheck disable=SC2086
  "$JAVA" -XX:+UseParallelGC $FLAGS --enable-native-access=ALL-UNNAMED -cp "${cp#:}" "$ROOT/releng/dev/LoadTime.java" "$TRACE" | sed 's/^cli:/cli (cli flags: ParallelGC '"$FLAGS"'):/'
  PHOS_VMARGS="$FLAGS ${PHOS_VMARGS:-}" PHOS_DATA="${PHOS_DATA:-$out/data}" "$ROOT/workbench" snapshot "$TRACE" --view launches --out "$out/png" 2>&1 | grep '^snapshot: .*\(painted\|heap\)' || true
done
echo "after: $(uptime)"
rm -rf "$out"
