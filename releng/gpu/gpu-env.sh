# Sourced by the recording scripts of releng/gpu (GPU machine): `gpu_setup NAME DEFAULT_OUTDIR [OUTDIR]` sets ROOT,
# OUTDIR (with an instrument/ folder), WORK (/tmp/phos-NAME-work, emptied), P (the sample programs), B (native-hooks'
# build folder), NVCC, CUDA_HOME and SANITIZER_HOME, prints the run's header and builds the recorder and the sanitizer
# tool; it exits when the build fails. `fresh_outputs DIR NAME` and `child_traces DIR NAME`: see below.
gpu_setup() {
  local name=$1 default_out=$2
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  OUTDIR=${3:-${OUT:-$default_out}}
  mkdir -p "$OUTDIR/instrument"
  WORK=/tmp/phos-$name-work
  rm -rf "$WORK"; mkdir -p "$WORK"
  P=$ROOT/sample-traces/programs
  B=$ROOT/native-hooks/build
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
  SANITIZER_HOME=${SANITIZER_HOME:-$CUDA_HOME/compute-sanitizer}
  echo "== $name $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  make -s -C "$ROOT/native-hooks" all sanitizer CUDA_HOME="$CUDA_HOME" SANITIZER_HOME="$SANITIZER_HOME" NVCC="$NVCC" \
    || { echo "build failed"; exit 1; }
}

# The recorder never truncates a trace that a live process writes: a child process that initialises CUDA under the
# same PHOS_TRACE_OUT (a compile worker, a helper) records to NAME.PID.phos, and the sanitizer tool's side file follows
# it (NAME.PID.phos.observed.phos); a finished trace of an earlier run is replaced (native-hooks/README.md, "Output
# file"). fresh_outputs DIR NAME removes what an earlier run left under NAME, so that neither a stale side file nor a
# stale child trace passes for this run's; child_traces DIR NAME lists this run's child traces, one line each.
fresh_outputs() {
  rm -f "$1/$2.phos" "$1/$2.phos.observed.phos" "$1/$2".[0-9]*.phos "$1/$2".[0-9]*.phos.observed.phos
}
child_traces() {
  local f
  for f in "$1/$2".[0-9]*.phos; do
    [ -e "$f" ] && echo "$2: a child process recorded its own trace: $f"
  done
  return 0
}
