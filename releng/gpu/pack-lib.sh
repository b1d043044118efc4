# Shared by the pack scripts of releng/gpu (sourced, never run): what every GPU pack needs, the same way.
#   pack_env                 JAVA_HOME (the newest Temurin unless set), M2, and m2jar PATTERN (newest match in ~/.m2)
#   pack_zstd DIR            zstd-jni into DIR with the linux/amd64 natives only (the whole jar carries 18 platforms,
#                            7 MB; the GPU call's 64 MiB must hold the tracked tree and the carried packs)
#   pack_libs DIR            what the command line needs at run time: equinox.common, JFreeChart, JFreeSVG, JCuda's
#                            classes and its driver and runtime natives for linux-x86_64, and zstd-jni (pack_zstd)
#   pack_cli_jar JAR LIBDIR  the command line's bundles (trace.core, speculation.core, cr.core, cr.charts,
#                            analysis.core, live, cli) compiled together against LIBDIR (pack_libs) with their
#                            resources, into JAR; its main classes are those of the bundles
#                            (org.phos.workbench.cli.Main, org.phos.workbench.live.InstrumentMain, ...)
PACK_CLI_BUNDLES=(trace.core speculation.core cr.core cr.charts analysis.core live cli)

pack_env() {
  JAVA_HOME="${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-*-jdk-amd64 2>/dev/null | sort -V | tail -n1)}"
  M2=~/.m2/repository
}

m2jar() { ls $M2/$1 2>/dev/null | sort -V | tail -n1; }

pack_zstd() {
  local dir=$1 t
  t=$(mktemp -d)
  (cd "$t" && unzip -q "$(m2jar 'com/github/luben/zstd-jni/1.5.7-6/*.jar')" -x 'aix/*' 'darwin/*' 'freebsd/*' \
    'linux/aarch64/*' 'linux/arm/*' 'linux/i386/*' 'linux/loongarch64/*' 'linux/mips64/*' 'linux/ppc64/*' \
    'linux/ppc64le/*' 'linux/riscv64/*' 'linux/s390x/*' 'win/*' \
    && "$JAVA_HOME/bin/jar" --create --file "$t/zstd-jni-1.5.7-6.jar" .)
  mv "$t/zstd-jni-1.5.7-6.jar" "$dir/"
  rm -rf "$t"
}

pack_libs() {
  local dir=$1 t
  mkdir -p "$dir"
  cp "$(m2jar 'org/eclipse/platform/org.eclipse.equinox.common/*/*.jar')" "$M2/org/jfree/jfreechart/1.5.6/jfreechart-1.5.6.jar" \
    "$M2/org/jfree/org.jfree.svg/5.0.7/org.jfree.svg-5.0.7.jar" "$M2/org/jcuda/jcuda/12.0.0/jcuda-12.0.0.jar" "$dir/"
  t=$(mktemp -d)
  (cd "$t" && unzip -q "$M2/org/jcuda/jcuda-natives/12.0.0/jcuda-natives-12.0.0-linux-x86_64.jar" \
    'lib/libJCudaDriver-*' 'lib/libJCudaRuntime-*' 'META-INF/MANIFEST.MF' \
    && "$JAVA_HOME/bin/jar" --create --file "$t/jcuda-natives-12.0.0-linux-x86_64.jar" lib)
  mv "$t/jcuda-natives-12.0.0-linux-x86_64.jar" "$dir/"
  rm -rf "$t"
  pack_zstd "$dir"
}

pack_cli_jar() {
  local jar=$1 libdir=$2 classes b f srcs=()
  classes=$(mktemp -d)
  for b in "${PACK_CLI_BUNDLES[@]}"; do
    while IFS= read -r f; do srcs+=("$f"); done < <(find "bundles/org.phos.workbench.$b/src" -name '*.java')
  done
  "$JAVA_HOME/bin/javac" --release 21 -nowarn -d "$classes" \
    -cp "$libdir/*:$(m2jar 'org/eclipse/jdt/org.eclipse.jdt.annotation/*/*.jar')" "${srcs[@]}"
  for b in "${PACK_CLI_BUNDLES[@]}"; do
    (cd "bundles/org.phos.workbench.$b/src" && find . -type f ! -name '*.java' -exec cp --parents {} "$classes/" \;)
  done
  "$JAVA_HOME/bin/jar" --create --file "$jar" -C "$classes" .
  rm -rf "$classes"
}
