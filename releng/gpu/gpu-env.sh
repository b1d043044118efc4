# Sourced by the recording scripts of releng/gpu (GPU machine): `gpu_setup NAME DEFAULT_OUTDIR [OUTDIR]` sets ROOT,
# OUTDIR (with an instrument/ folder), WORK (/tmp/phos-NAME-work, emptied), P (the sample programs), B (native-hooks'
# build folder), NVCC, CUDA_HOME and SANITIZER_HOME, prints the run's header and builds the recorder and the sanitizer
# tool; it exits when the build fails.
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
