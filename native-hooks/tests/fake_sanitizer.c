/* i15-shapes: a FAKE Compute Sanitizer (libsanitizer-public.so for the CPU tests) under the real tool
 * (sanitizer/phos_sanitizer.c, built against tests/fake_sanitizer/sanitizer.h) over the fake libcuda.
 *
 * The fake libcuda calls fake_sanitizer_alloc / _launch / _stream_sync (found by dlsym) where the real driver raises
 * the Sanitizer API's callbacks: allocations, LAUNCH_BEGIN and LAUNCH_END inside the launch call, stream
 * synchronisations. "Device" memory is host memory; no code is patched and no record is written by the device, so a
 * run tells which launches the tool observed (its callback data), which modules it patched and unpatched, and when.
 *
 * In-flight model, the point of this library: a launch is issued after its LAUNCH_BEGIN callback returns, with the
 * module's code as it is then (patched or not), and stays in flight on its stream until that stream is synchronised
 * (cuStreamSynchronize or sanitizerStreamSynchronize). sanitizerUnpatchModule with an instrumented launch of the
 * module still in flight is counted as unsafe and printed: the real API documents nothing for that case, so the tool
 * must not do it. A launch the tool observed (it set callback data) that is issued with its module unpatched ran
 * without instrumentation: its observation is lost while the coverage lists it, counted as "lost observations".
 * FAKE_SANITIZER_HOLD_GRID=g: a launch with gridDim.x g is held between its LAUNCH_BEGIN callback and its issue until
 * FAKE_SANITIZER_HOLD_FOR (default 10) launches of other threads have been issued (or 2 s), as a thread preempted
 * inside cuLaunchKernel would be. At exit one line: "[fake-sanitizer] launches L, instrumented I, observed O,
 * patches P, unpatches U, unsafe unpatches N, lost observations X". */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include "sanitizer.h"

#define API __attribute__((visibility("default")))

static Sanitizer_CallbackFunc cb;
static void *cb_ud;
static int dom_on[8];
static pthread_mutex_t mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static struct { CUmodule m; int patched; } mods[64];
static int nmods;
typedef struct { Sanitizer_StreamHandle hs; CUmodule m; } flight_t;
static flight_t flight[4096];
static int nflight;
static __thread const void *t_data;   /* callback data the tool set for the launch in progress */
static __thread int t_data_set;
static uint64_t n_launch, n_instr, n_observed, n_patch, n_unpatch, n_unsafe, n_lost;

static int *patched_of(CUmodule m) {
    for (int i = 0; i < nmods; i++) if (mods[i].m == m) return &mods[i].patched;
    if (nmods == 64) return NULL;
    mods[nmods].m = m;
    mods[nmods].patched = 0;
    return &mods[nmods++].patched;
}
static Sanitizer_StreamHandle handle_of(CUstream s) { return (Sanitizer_StreamHandle)((uintptr_t)s + 0x10); }
static CUcontext fake_ctx(void) { return (CUcontext)(uintptr_t)0xC0; }

static void drain(Sanitizer_StreamHandle hs) {
    int k = 0;
    for (int i = 0; i < nflight; i++) if (flight[i].hs != hs) flight[k++] = flight[i];
    nflight = k;
}

static void report(void) {
    fprintf(stderr, "[fake-sanitizer] launches %llu, instrumented %llu, observed %llu, patches %llu, unpatches %llu, "
            "unsafe unpatches %llu, lost observations %llu\n", (unsigned long long)n_launch, (unsigned long long)n_instr,
            (unsigned long long)n_observed, (unsigned long long)n_patch, (unsigned long long)n_unpatch,
            (unsigned long long)n_unsafe, (unsigned long long)n_lost);
}

/* ---- called by the fake libcuda */
API void fake_sanitizer_alloc(uint64_t addr, uint64_t size) {
    if (!cb || !dom_on[SANITIZER_CB_DOMAIN_RESOURCE]) return;
    Sanitizer_ResourceMemoryData d = {fake_ctx(), addr, size, 0};
    cb(cb_ud, SANITIZER_CB_DOMAIN_RESOURCE, SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC, &d);
}

API void fake_sanitizer_launch(int end, void *f, void *mod, const char *name, const unsigned *dims, CUstream s) {
    if (!cb || !dom_on[SANITIZER_CB_DOMAIN_LAUNCH]) return;
    Sanitizer_LaunchData ld;
    memset(&ld, 0, sizeof ld);
    ld.context = fake_ctx();
    ld.module = (CUmodule)mod;
    ld.function = (CUfunction)f;
    ld.functionName = name;
    ld.gridDim_x = dims[0]; ld.gridDim_y = dims[1]; ld.gridDim_z = dims[2];
    ld.blockDim_x = dims[3]; ld.blockDim_y = dims[4]; ld.blockDim_z = dims[5];
    ld.hStream = ld.hApiStream = handle_of(s);
    ld.hLaunch = (Sanitizer_LaunchHandle)(uintptr_t)(n_launch + 1);
    if (!end) {
        t_data = NULL;
        t_data_set = 0;
        cb(cb_ud, SANITIZER_CB_DOMAIN_LAUNCH, SANITIZER_CBID_LAUNCH_BEGIN, &ld);
        const char *hg = getenv("FAKE_SANITIZER_HOLD_GRID");
        if (hg && *hg && (unsigned)atoi(hg) == dims[0]) {   /* held inside the launch call, before its issue */
            const char *hf = getenv("FAKE_SANITIZER_HOLD_FOR");
            uint64_t until = __atomic_load_n(&n_launch, __ATOMIC_SEQ_CST) + (uint64_t)(hf && *hf ? atoi(hf) : 10);
            for (int ms = 0; ms < 2000 && __atomic_load_n(&n_launch, __ATOMIC_SEQ_CST) < until; ms++) {
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
            }
        }
        /* issued now, with the module's code as it is after the callback */
        pthread_mutex_lock(&mu);
        __atomic_add_fetch(&n_launch, 1, __ATOMIC_SEQ_CST);
        int *p = patched_of(ld.module);
        if (p && *p) {
            n_instr++;
            if (nflight < 4096) flight[nflight++] = (flight_t){ld.hStream, ld.module};
        }
        if (t_data_set && t_data) {
            n_observed++;
            if (!(p && *p)) {
                n_lost++;
                fprintf(stderr, "[fake-sanitizer] LOST observation: a launch the tool observed was issued with module %p "
                        "unpatched\n", (void *)ld.module);
            }
        }
        pthread_mutex_unlock(&mu);
    } else {
        cb(cb_ud, SANITIZER_CB_DOMAIN_LAUNCH, SANITIZER_CBID_LAUNCH_END, &ld);
    }
}

API void fake_sanitizer_stream_sync(CUstream s) {
    pthread_mutex_lock(&mu);
    drain(handle_of(s));
    pthread_mutex_unlock(&mu);
    if (cb && dom_on[SANITIZER_CB_DOMAIN_SYNCHRONIZE]) {
        Sanitizer_SynchronizeData d = {fake_ctx(), handle_of(s)};
        cb(cb_ud, SANITIZER_CB_DOMAIN_SYNCHRONIZE, SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED, &d);
    }
}

/* ---- the Sanitizer API the tool calls */
API SanitizerResult sanitizerSubscribe(Sanitizer_SubscriberHandle *h, Sanitizer_CallbackFunc f, void *ud) {
    cb = f;
    cb_ud = ud;
    if (h) *h = (Sanitizer_SubscriberHandle)(uintptr_t)1;
    atexit(report);   /* registered before the tool's own atexit: runs after it */
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerEnableDomain(uint32_t on, Sanitizer_SubscriberHandle h, Sanitizer_CallbackDomain d) {
    (void)h;
    if ((unsigned)d < 8) dom_on[d] = (int)on;
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerAddPatchesFromFile(const char *f, CUcontext c) { (void)f; (void)c; return SANITIZER_SUCCESS; }
API SanitizerResult sanitizerPatchInstructions(Sanitizer_InstructionId i, CUmodule m, const char *n) {
    (void)i; (void)m; (void)n;
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerPatchModule(CUmodule m) {
    pthread_mutex_lock(&mu);
    int *p = patched_of(m);
    if (p) { *p = 1; n_patch++; }
    pthread_mutex_unlock(&mu);
    return p ? SANITIZER_SUCCESS : SANITIZER_ERROR_INVALID_PARAMETER;
}
API SanitizerResult sanitizerUnpatchModule(CUmodule m) {
    pthread_mutex_lock(&mu);
    int *p = patched_of(m);
    int inflight = 0;
    for (int i = 0; i < nflight; i++) inflight += flight[i].m == m;
    if (inflight) {
        n_unsafe++;
        fprintf(stderr, "[fake-sanitizer] UNSAFE unpatch of module %p: %d instrumented launches of it in flight\n", (void *)m, inflight);
    }
    if (p) { *p = 0; n_unpatch++; }
    pthread_mutex_unlock(&mu);
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerAlloc(CUcontext c, void **p, size_t n) {
    (void)c;
    *p = aligned_alloc(1u << 20, (n + (1u << 20) - 1) & ~(size_t)((1u << 20) - 1));
    return *p ? SANITIZER_SUCCESS : SANITIZER_ERROR_INVALID_PARAMETER;
}
API SanitizerResult sanitizerAllocHost(CUcontext c, void **p, size_t n) {
    (void)c;
    *p = malloc(n);
    return *p ? SANITIZER_SUCCESS : SANITIZER_ERROR_INVALID_PARAMETER;
}
API SanitizerResult sanitizerFree(CUcontext c, void *p) { (void)c; free(p); return SANITIZER_SUCCESS; }
API SanitizerResult sanitizerMemset(void *d, int v, size_t n, Sanitizer_StreamHandle s) { (void)s; memset(d, v, n); return SANITIZER_SUCCESS; }
API SanitizerResult sanitizerMemcpyHostToDeviceAsync(void *d, void *h, size_t n, Sanitizer_StreamHandle s) {
    (void)s;
    memcpy(d, h, n);
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerMemcpyDeviceToHost(void *h, void *d, size_t n, Sanitizer_StreamHandle s) {
    (void)s;
    memcpy(h, d, n);
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerStreamSynchronize(Sanitizer_StreamHandle s) {
    pthread_mutex_lock(&mu);
    drain(s);
    pthread_mutex_unlock(&mu);
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerSetLaunchCallbackData(Sanitizer_LaunchHandle l, CUfunction f, Sanitizer_StreamHandle s, const void *d) {
    (void)l; (void)f; (void)s;
    t_data = d;
    t_data_set = 1;
    return SANITIZER_SUCCESS;
}
API SanitizerResult sanitizerSetCallbackData(CUfunction f, const void *d) {
    (void)f;
    t_data = d;
    t_data_set = 1;
    return SANITIZER_SUCCESS;
}
