# Shared set-up of the GPU scripts that time bench/steady_loop.py under recorder configurations
# (timing_probe_gpu_bench.sh, timing_burst_gpu_bench.sh). Sourced, after ROOT, WINDOWS, ITERS and CPUS are set:
#     steady_setup TAG NATIVE_HOOKS_DIR
# copies NATIVE_HOOKS_DIR to /tmp/TAG-nh and builds the recorder there (L), makes the work folder /tmp/TAG-work (W,
# with W/keep for the traces kept), prints the run's header line (date, GPU, driver, torch) and defines `loop`, the
# measured process (LOOP_CMD replaces it for a dry run on the CPU; LOOP_TIMEOUT seconds at most, default 120).
steady_setup() {
  local tag=$1 src=$2
  export PYTHONUNBUFFERED=1
  W=/tmp/$tag-work; rm -rf "$W"; mkdir -p "$W/keep"
  NH=/tmp/$tag-nh; rm -rf "$NH"; cp -r "$src" "$NH"; rm -rf "$NH/build"
  echo "== $tag $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null) nproc $(nproc)"
  python3 -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -1
  make -s -C "$NH" -j8 build/libphos_recorder.so > "$W/build.log" 2>&1
  L=$NH/build/libphos_recorder.so
  [ -f "$L" ] || { echo "recorder build failed"; tail "$W/build.log"; exit 1; }
  SL=$NH/bench/steady_loop.py
  export PYTHONPATH=$ROOT/sample-traces/programs/pytorch
}
loop() {
  if [ -n "${LOOP_CMD:-}" ]; then $LOOP_CMD
  else taskset -c "$CPUS" timeout "${LOOP_TIMEOUT:-120}" python3 "$SL" --windows "$WINDOWS" --iters "$ITERS" --warmup 30; fi
}
