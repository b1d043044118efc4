/*
 * The driver's own stop-the-world checkpoint of a running process (what NVIDIA's cuda-checkpoint calls), timed per
 * phase. A separate process on purpose: a process cannot checkpoint itself, and the workbench's JVM must not load
 * libcuda. libcuda.so.1 is opened at run time (dlopen), so a machine without a driver, or a driver without the
 * checkpoint API, gets a line saying so instead of a loader error.
 *
 * Two ways to call it:
 *   phos_driver_checkpoint PID
 *       the live engine's anchor (LiveCrEngine, mode driver-checkpoint, docs/live-cr.md): lock, checkpoint, restore,
 *       unlock; prints one line "driver-checkpoint pid P lock_ms L checkpoint_ms C restore_ms R unlock_ms U" and exits
 *       0, or a line "driver-checkpoint failed: CALL -> CODE NAME" and exits 1.
 *   phos_driver_checkpoint --steps STEP[,STEP...] [--timeout-ms MS] PID
 *       the workbench's protocol (attach --checkpoint, the live trace's Checkpoint actions; parsed by
 *       org.phos.workbench.cr.core.process.DriverCheckpointProtocol): STEP is lock, checkpoint, restore, unlock or
 *       state. One line per fact on stdout, flushed at once, times on CLOCK_MONOTONIC (the trace's host clock):
 *         phos-checkpoint 1 pid P driver V
 *         state NAME                          (running, locked, checkpointed, failed; "state ? CODE NAME" refused)
 *                                             (before the first step unless it is "state", and after every step)
 *         begin STEP t_ns T [recovery]
 *         end STEP ok t_ns T ms M
 *         end STEP refused t_ns T ms M code C NAME
 *         stall ms M                          (first lock begin to the unlock end: what the process waited)
 *         done ok|refused
 *         error TEXT                          (the helper could not reach the driver; exit 3)
 *       The steps stop at the first refusal. If this call locked the process and a later step is refused while the
 *       process is still LOCKED, it unlocks it again ("begin unlock ... recovery"): a process left LOCKED hangs in its
 *       next CUDA call (../../../shared/notes/cuda.md, section 7). Exit 0 all steps done, 1 refused, 2 usage,
 *       3 no driver.
 * Build: make -C native-hooks (build/phos_driver_checkpoint); on a GPU machine also
 *        gcc -O2 -I$CUDA_HOME/include -o phos_driver_checkpoint driver_checkpoint.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda.h>

typedef CUresult (*init_t)(unsigned);
typedef CUresult (*ver_t)(int *);
typedef CUresult (*name_t)(CUresult, const char **);
typedef CUresult (*state_t)(int, CUprocessState *);
typedef CUresult (*lock_t)(int, CUcheckpointLockArgs *);
typedef CUresult (*ckpt_t)(int, CUcheckpointCheckpointArgs *);
typedef CUresult (*rest_t)(int, CUcheckpointRestoreArgs *);
typedef CUresult (*unlock_t)(int, CUcheckpointUnlockArgs *);

static struct {
    init_t init;
    ver_t version;
    name_t error_name;
    state_t get_state;
    lock_t lock;
    ckpt_t checkpoint;
    rest_t restore;
    unlock_t unlock;
} drv;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static const char *err_name(CUresult r) {
    const char *n = NULL;
    if (drv.error_name) drv.error_name(r, &n);
    return n ? n : "CUDA_ERROR_?";
}

/* opens libcuda.so.1 and finds the entry points; NULL, or the text of what is missing */
static const char *load_driver(char *why, size_t n) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, n, "no CUDA driver on this machine: cannot load libcuda.so.1 (%s)", dlerror());
        return why;
    }
    drv.init = (init_t)dlsym(h, "cuInit");
    drv.version = (ver_t)dlsym(h, "cuDriverGetVersion");
    drv.error_name = (name_t)dlsym(h, "cuGetErrorName");
    drv.get_state = (state_t)dlsym(h, "cuCheckpointProcessGetState");
    drv.lock = (lock_t)dlsym(h, "cuCheckpointProcessLock");
    drv.checkpoint = (ckpt_t)dlsym(h, "cuCheckpointProcessCheckpoint");
    drv.restore = (rest_t)dlsym(h, "cuCheckpointProcessRestore");
    drv.unlock = (unlock_t)dlsym(h, "cuCheckpointProcessUnlock");
    if (!drv.init) {
        snprintf(why, n, "libcuda.so.1 has no cuInit: not a CUDA driver");
        return why;
    }
    if (!drv.get_state || !drv.lock || !drv.checkpoint || !drv.restore || !drv.unlock) {
        snprintf(why, n, "this CUDA driver has no checkpoint API (cuCheckpointProcess*, drivers 550 and later): "
                         "update the driver");
        return why;
    }
    return NULL;
}

static const char *state_name(CUprocessState s) {
    switch (s) {
    case CU_PROCESS_STATE_RUNNING: return "running";
    case CU_PROCESS_STATE_LOCKED: return "locked";
    case CU_PROCESS_STATE_CHECKPOINTED: return "checkpointed";
    case CU_PROCESS_STATE_FAILED: return "failed";
    default: return "unknown";
    }
}

/* prints the process's state; returns it, or -1 when the driver did not say */
static int print_state(int pid) {
    CUprocessState s = CU_PROCESS_STATE_RUNNING;
    CUresult r = drv.get_state(pid, &s);
    if (r) {
        printf("state ? %d %s\n", (int)r, err_name(r));
        return -1;
    }
    printf("state %s\n", state_name(s));
    return (int)s;
}

/* one step, timed; prints begin/end; returns its CUresult */
static CUresult run_step(int pid, const char *step, unsigned timeout_ms, int recovery, double *ms_out,
                         int64_t *begin_ns, int64_t *end_ns) {
    int64_t t0 = now_ns();
    printf("begin %s t_ns %lld%s\n", step, (long long)t0, recovery ? " recovery" : "");
    fflush(stdout);
    CUresult r;
    if (!strcmp(step, "lock")) {
        CUcheckpointLockArgs a;
        memset(&a, 0, sizeof a);
        a.timeoutMs = timeout_ms;
        r = drv.lock(pid, &a);
    } else if (!strcmp(step, "checkpoint")) {
        r = drv.checkpoint(pid, NULL);
    } else if (!strcmp(step, "restore")) {
        r = drv.restore(pid, NULL);
    } else {
        r = drv.unlock(pid, NULL);
    }
    int64_t t1 = now_ns();
    double ms = (t1 - t0) / 1e6;
    if (r == CUDA_SUCCESS) {
        printf("end %s ok t_ns %lld ms %.3f\n", step, (long long)t1, ms);
    } else {
        printf("end %s refused t_ns %lld ms %.3f code %d %s\n", step, (long long)t1, ms, (int)r, err_name(r));
    }
    if (ms_out) *ms_out = ms;
    if (begin_ns) *begin_ns = t0;
    if (end_ns) *end_ns = t1;
    return r;
}

static int valid_step(const char *s) {
    return !strcmp(s, "lock") || !strcmp(s, "checkpoint") || !strcmp(s, "restore") || !strcmp(s, "unlock") ||
           !strcmp(s, "state");
}

static int protocol(int pid, char *steps, unsigned timeout_ms) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    char why[512];
    if (load_driver(why, sizeof why)) {
        printf("error %s\n", why);
        return 3;
    }
    CUresult r = drv.init(0); /* without it every cuCheckpoint call returns CUDA_ERROR_NOT_INITIALIZED */
    if (r) {
        printf("error the CUDA driver did not initialize in the helper: cuInit -> %d %s\n", (int)r, err_name(r));
        return 3;
    }
    int version = 0;
    if (drv.version) drv.version(&version);
    printf("phos-checkpoint 1 pid %d driver %d\n", pid, version);
    if (strncmp(steps, "state", 5)) print_state(pid); /* the state before the first step */
    int locked_here = 0, refused = 0;
    int64_t stall_begin = -1, stall_end = -1;
    for (char *save = NULL, *s = strtok_r(steps, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
        if (!strcmp(s, "state")) {
            if (print_state(pid) < 0) {
                refused = 1;
                break;
            }
            continue;
        }
        int64_t b, e;
        r = run_step(pid, s, timeout_ms, 0, NULL, &b, &e);
        if (!strcmp(s, "lock") && r == CUDA_SUCCESS) {
            locked_here = 1;
            if (stall_begin < 0) stall_begin = b;
        }
        if (!strcmp(s, "unlock") && r == CUDA_SUCCESS) stall_end = e;
        int st = print_state(pid);
        if (r != CUDA_SUCCESS) {
            refused = 1;
            if (locked_here && st == CU_PROCESS_STATE_LOCKED && strcmp(s, "unlock")) {
                if (run_step(pid, "unlock", 0, 1, NULL, NULL, &e) == CUDA_SUCCESS) stall_end = e;
                print_state(pid);
            }
            break;
        }
    }
    if (stall_begin >= 0 && stall_end >= stall_begin) printf("stall ms %.3f\n", (stall_end - stall_begin) / 1e6);
    printf("done %s\n", refused ? "refused" : "ok");
    return refused ? 1 : 0;
}

/* the live engine's one-line form (unchanged output) */
static int anchor(int pid) {
    char why[512];
    if (load_driver(why, sizeof why)) {
        printf("driver-checkpoint failed: %s\n", why);
        return 1;
    }
    CUresult r = drv.init(0);
    if (r) {
        printf("driver-checkpoint failed: cuInit -> %d %s\n", (int)r, err_name(r));
        return 1;
    }
    CUcheckpointLockArgs lock;
    memset(&lock, 0, sizeof lock);
    lock.timeoutMs = 20000;
    double t0 = now_ns() / 1e6;
    if ((r = drv.lock(pid, &lock))) {
        printf("driver-checkpoint failed: cuCheckpointProcessLock -> %d %s\n", (int)r, err_name(r));
        return 1;
    }
    double t1 = now_ns() / 1e6;
    if ((r = drv.checkpoint(pid, NULL))) {
        drv.unlock(pid, NULL);
        printf("driver-checkpoint failed: cuCheckpointProcessCheckpoint (unlocked again) -> %d %s\n", (int)r,
               err_name(r));
        return 1;
    }
    double t2 = now_ns() / 1e6;
    if ((r = drv.restore(pid, NULL))) {
        printf("driver-checkpoint failed: cuCheckpointProcessRestore (the process stays checkpointed) -> %d %s\n",
               (int)r, err_name(r));
        return 1;
    }
    double t3 = now_ns() / 1e6;
    if ((r = drv.unlock(pid, NULL))) {
        printf("driver-checkpoint failed: cuCheckpointProcessUnlock -> %d %s\n", (int)r, err_name(r));
        return 1;
    }
    double t4 = now_ns() / 1e6;
    printf("driver-checkpoint pid %d lock_ms %.3f checkpoint_ms %.3f restore_ms %.3f unlock_ms %.3f\n", pid, t1 - t0,
           t2 - t1, t3 - t2, t4 - t3);
    return 0;
}

static int usage(const char *argv0, const char *why) {
    fprintf(stderr, "%s: %s\nusage: %s PID\n       %s --steps lock,checkpoint,restore,unlock|state [--timeout-ms MS] PID\n",
            argv0, why, argv0, argv0);
    return 2;
}

static int parse_pid(const char *s) {
    char *end = NULL;
    long v = strtol(s, &end, 10);
    return (end && !*end && v > 0 && v < (1L << 30)) ? (int)v : -1;
}

int main(int argc, char **argv) {
    if (argc == 2) {
        int pid = parse_pid(argv[1]);
        return pid > 0 ? anchor(pid) : usage(argv[0], "PID must be a positive number");
    }
    char *steps = NULL;
    long timeout_ms = 10000;
    int pid = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            steps = argv[++i];
        } else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc) {
            char *end = NULL;
            timeout_ms = strtol(argv[++i], &end, 10);
            if (!end || *end || timeout_ms < 0) return usage(argv[0], "--timeout-ms takes milliseconds (0: none)");
        } else if (pid < 0 && (pid = parse_pid(argv[i])) > 0) {
            continue;
        } else {
            return usage(argv[0], "unexpected argument");
        }
    }
    if (!steps || pid <= 0) return usage(argv[0], "give --steps and a PID");
    char copy[256];
    snprintf(copy, sizeof copy, "%s", steps);
    for (char *save = NULL, *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save))
        if (!valid_step(s)) return usage(argv[0], "a step is lock, checkpoint, restore, unlock or state");
    return protocol(pid, steps, (unsigned)timeout_ms);
}
