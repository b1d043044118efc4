/*
 * The driver's own stop-the-world checkpoint of a running process (what NVIDIA's cuda-checkpoint calls), timed per
 * phase: the anchor live C/R is measured against (docs/live-cr.md). The live engine (LiveCrEngine, mode
 * driver-checkpoint) runs it on its own process id at the checkpoint instant, with the device drained:
 *     phos_driver_checkpoint PID
 * prints one line "driver-checkpoint pid P lock_ms L checkpoint_ms C restore_ms R unlock_ms U" and exits 0, or a
 * line naming the failing call and exits 1. Every failure after the lock unlocks the process again: a process left
 * LOCKED hangs in its next CUDA call (../../../shared/notes/cuda.md, section 7).
 * Build (GPU machine): gcc -O2 -I$CUDA_HOME/include -o phos_driver_checkpoint driver_checkpoint.c -lcuda
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cuda.h>

static double ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int failed(const char *call, CUresult r) {
  const char *name = NULL;
  cuGetErrorName(r, &name);
  printf("driver-checkpoint failed: %s -> %d %s\n", call, (int) r, name ? name : "?");
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PID\n", argv[0]);
    return 2;
  }
  int pid = atoi(argv[1]);
  CUresult r = cuInit(0); /* without it every cuCheckpoint call returns CUDA_ERROR_NOT_INITIALIZED */
  if (r) return failed("cuInit", r);
  CUcheckpointLockArgs lock = {0};
  lock.timeoutMs = 20000;
  double t0 = ms();
  if ((r = cuCheckpointProcessLock(pid, &lock))) return failed("cuCheckpointProcessLock", r);
  double t1 = ms();
  if ((r = cuCheckpointProcessCheckpoint(pid, NULL))) {
    cuCheckpointProcessUnlock(pid, NULL);
    return failed("cuCheckpointProcessCheckpoint (unlocked again)", r);
  }
  double t2 = ms();
  if ((r = cuCheckpointProcessRestore(pid, NULL))) {
    return failed("cuCheckpointProcessRestore (the process stays checkpointed)", r);
  }
  double t3 = ms();
  if ((r = cuCheckpointProcessUnlock(pid, NULL))) return failed("cuCheckpointProcessUnlock", r);
  double t4 = ms();
  printf("driver-checkpoint pid %d lock_ms %.3f checkpoint_ms %.3f restore_ms %.3f unlock_ms %.3f\n", pid, t1 - t0,
         t2 - t1, t3 - t2, t4 - t3);
  return 0;
}
