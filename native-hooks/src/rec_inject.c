#include "recorder.h"

/* ------------------------------------------------------------------ loading by CUDA_INJECTION64_PATH (issue 16)
 * The driver dlopens the library named by CUDA_INJECTION64_PATH during the first cuInit and calls its
 * InitializeInjection. The library is then not preloaded: the program's calls never reach the exported names or the
 * dlsym override, and cudart has already taken its entry points from cuGetProcAddress. What does see every call is
 * CUPTI's driver-API callback: the recorder subscribes (one subscriber per process), enables the callback ids of the
 * entry points it wraps (tools/gen_inject.py, from CUPTI's generated_cuda_meta.h), and
 *  - at the entry of a timed call (launch, copy, set) records the start CUDA event on the call's stream;
 *  - at the exit of each wrapped call invokes the very wrapper the preloaded recorder uses, with the call's arguments
 *    (its outputs already filled in), while hook_real() hands that wrapper a stand-in for the real entry point that
 *    returns the call's result: the call is not made twice, and the event is the one a preloaded recorder writes.
 * The arguments are those the call was made with: the parameter struct is copied at the entry, because the driver may
 * rewrite it during the call (on the H100, cuStreamAddCallback's callback and data read at the exit were the driver's
 * own trampoline and record, not the program's).
 * Calls the recorder makes from inside a callback (names, layouts, pointer classes, timing events) raise callbacks
 * of their own; a thread-local depth ignores them. The writer thread's calls are ignored as always (t_internal).
 * GPU timing is by CUDA events: the CUPTI timing source would need a second CUPTI subscriber. */
int g_inject;
__thread int t_replay;
__thread CUresult t_replay_result;
__thread CUevent t_pre_e0;
static __thread int t_in_cb;
/* parameter structs copied at the entry of the calls in progress on this thread, matched at the exit by correlation id */
#define STASH_DEPTH 4
#define STASH_BYTES 256
typedef struct { uint32_t corr; CUpti_CallbackId cbid; uint8_t buf[STASH_BYTES]; } stash_t;
static __thread stash_t t_stash[STASH_DEPTH];
static __thread int t_stash_n;

#include "rec_inject_calls.h"

static CUresult replay_stub(void) { return t_replay_result; }
/* every wrapper's "real" entry point during a replay; called through a pointer of the wrapped function's type, whose
   arguments it ignores (the SysV x86-64 and AArch64 calling conventions let a callee ignore its arguments) */
void *replay_real(void) { return (void *)replay_stub; }

static CUptiResult (*c_encb)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
static CUpti_SubscriberHandle c_sub;
static atomic_uint_fast64_t inject_calls;

static void CUPTIAPI inject_cb(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data) {
    (void)ud;
    if (dom != CUPTI_CB_DOMAIN_DRIVER_API || t_internal || t_in_cb) return;
    const CUpti_CallbackData *cd = data;
    if (atomic_load_explicit(&g_state, memory_order_relaxed) >= 2) return;
    t_in_cb = 1;
    if (cd->callbackSite == CUPTI_API_ENTER) {
        size_t psz = inject_params_size(cbid);
        if (psz && psz <= STASH_BYTES && cd->functionParams && t_stash_n < STASH_DEPTH) {
            stash_t *s = &t_stash[t_stash_n++];
            s->corr = cd->correlationId;
            s->cbid = cbid;
            memcpy(s->buf, cd->functionParams, psz);
        }
        /* a context that goes takes event timing's events with it: leave it now, while they are valid (the
           wrapper replayed at the exit would be too late) */
        if (cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2 && cd->functionParams)
            timing_context_ending(((const cuCtxDestroy_v2_params *)cd->functionParams)->ctx);
        else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2)
            timing_context_ending(NULL);
        CUstream st = NULL;
        if (t_pre_e0) { pool_put(t_pre_e0); t_pre_e0 = NULL; }
        if (cfg.timing && !atomic_load_explicit(&g_capturing, memory_order_relaxed) && inject_stream(cbid, cd->functionParams, &st)) {
            if (atomic_load(&g_state) == 0) ensure_started();
            int ts = atomic_load_explicit(&timing_state, memory_order_acquire);
            if (ts == 0) ts = timing_setup() ? 1 : -1;
            if (ts == 1) {
                CUevent e = pool_get();
                if (e && p_evrecord(e, st) != CUDA_SUCCESS) { pool_put(e); e = NULL; }
                t_pre_e0 = e;
            }
        }
    } else {
        t_replay = 1;
        t_replay_result = cd->functionReturnValue ? *(const CUresult *)cd->functionReturnValue : CUDA_SUCCESS;
        const void *params = cd->functionParams;
        /* the copy made at the entry of this very call (the innermost one with its correlation id) */
        for (int i = t_stash_n - 1; i >= 0; i--)
            if (t_stash[i].corr == cd->correlationId && t_stash[i].cbid == cbid) {
                params = t_stash[i].buf;
                t_stash_n = i;   /* it and anything left above it (calls that never reached their exit) */
                break;
            }
        if (inject_replay(cbid, params)) atomic_fetch_add(&inject_calls, 1);
        t_replay = 0;
        if (t_pre_e0) { pool_put(t_pre_e0); t_pre_e0 = NULL; }   /* a timed call that was not recorded */
    }
    t_in_cb = 0;
}

static const char *cupti_names[] = {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so.13",
    "/usr/local/cuda-13.0/lib64/libcupti.so.13", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", NULL};

/* the driver's entry into the library; returns 1 when the recorder is subscribed, 0 otherwise (it then stays inert
   and says why) */
EXPORT int InitializeInjection(void) {
    if (g_inject) return 1;
    if (getenv("PHOS_DISABLE") && atoi(getenv("PHOS_DISABLE"))) { atomic_store(&g_state, 3); return 0; }
    cfg.debug = (int)phos_env_u64("PHOS_DEBUG", 0);
    void *h = NULL;
    const char *env = getenv("PHOS_CUPTI");
    if (env && *env) h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    for (int i = 0; !h && cupti_names[i]; i++) h = dlopen(cupti_names[i], RTLD_NOW | RTLD_LOCAL);
    dlsym_fn d = real_dlsym();
    CUptiResult (*sub)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *) = (h && d) ? d(h, "cuptiSubscribe") : NULL;
    c_encb = (h && d) ? d(h, "cuptiEnableCallback") : NULL;
    if (!sub || !c_encb) {
        fprintf(stderr, "[phos] loaded by CUDA_INJECTION64_PATH but CUPTI (libcupti.so.13; PHOS_CUPTI=path) was not found: "
                "recording off, CUDA calls pass through unrecorded\n");
        atomic_store(&g_state, 3);
        return 0;
    }
    CUptiResult r = sub(&c_sub, inject_cb, NULL);
    if (r != CUPTI_SUCCESS) {
        fprintf(stderr, "[phos] loaded by CUDA_INJECTION64_PATH but CUPTI refused a subscriber (error %d: another tool such as "
                "Nsight holds it?): recording off, CUDA calls pass through unrecorded\n", (int)r);
        atomic_store(&g_state, 3);
        return 0;
    }
    int n = 0;
    for (size_t i = 0; i < sizeof inject_cbids / sizeof *inject_cbids; i++)
        if (c_encb(1, c_sub, CUPTI_CB_DOMAIN_DRIVER_API, inject_cbids[i]) == CUPTI_SUCCESS) n++;
        else DBG("injection: callback for %s could not be enabled", inject_names[i]);
    g_inject = 1;
    DBG("loaded by CUDA_INJECTION64_PATH: CUPTI driver callbacks for %d of %zu wrapped entry points%s%s", n,
        sizeof inject_cbids / sizeof *inject_cbids, *INJECT_MISSING ? "; without a callback id: " : "", INJECT_MISSING);
    return 1;
}

/* tests: whether the recorder runs in injection mode and how many calls it replayed */
EXPORT int phos_recorder_injected(void) { return g_inject; }
EXPORT uint64_t phos_recorder_injected_calls(void) { return atomic_load(&inject_calls); }
