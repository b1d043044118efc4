#include "recorder.h"

/* ------------------------------------------------------------------ GPU timing through CUDA events */
typedef CUresult (*pfn_evcreate)(CUevent *, unsigned);
typedef CUresult (*pfn_ctxget)(CUcontext *);
typedef CUresult (*pfn_iscap)(CUstream, CUstreamCaptureStatus *);
typedef CUresult (*pfn_strcreate)(CUstream *, unsigned);
typedef CUresult (*pfn_ptrattr)(void *, CUpointer_attribute, CUdeviceptr);
static pfn_evcreate p_evcreate;
pfn_evrecord p_evrecord;
pfn_evq p_evquery, p_evsync;
pfn_evel p_evel;
static pfn_ctxget p_ctxget;
pfn_ctxset p_ctxset;
static pfn_iscap p_iscap;
static pfn_strcreate p_strcreate;
static pfn_ptrattr p_ptrattr;

atomic_int timing_state; /* 0 untried, 1 ready, -1 off */
CUcontext timing_ctx;
CUstream ref_stream;
CUevent ref_event;
uint64_t ref_mono;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static CUevent *pool;
static size_t pool_n, pool_cap;
static void gate_setup(void);

int timing_setup(void) {
    pthread_mutex_lock(&pool_mu);
    if (atomic_load(&timing_state) == 0) {
        int ok = 0;
        OWN(p_evcreate, pfn_evcreate, "cuEventCreate");
        OWN(p_evrecord, pfn_evrecord, "cuEventRecord");
        OWN(p_evquery, pfn_evq, "cuEventQuery");
        OWN(p_evsync, pfn_evq, "cuEventSynchronize");
        OWN(p_evel, pfn_evel, "cuEventElapsedTime_v2");
        OWN(p_evel, pfn_evel, "cuEventElapsedTime");
        OWN(p_ctxget, pfn_ctxget, "cuCtxGetCurrent");
        OWN(p_ctxset, pfn_ctxset, "cuCtxSetCurrent");
        OWN(p_strcreate, pfn_strcreate, "cuStreamCreate");
        int no_ctx = p_ctxget && (p_ctxget(&timing_ctx) != CUDA_SUCCESS || !timing_ctx);
        if (p_evcreate && p_evrecord && p_evquery && p_evsync && p_evel && p_ctxget && p_ctxset && p_strcreate && !no_ctx &&
            p_strcreate(&ref_stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS &&
            p_evcreate(&ref_event, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
            p_evrecord(ref_event, ref_stream) == CUDA_SUCCESS && p_evsync(ref_event) == CUDA_SUCCESS) {
            ref_mono = mono_ns();
            ok = 1;
            gate_setup();
        }
        if (ok || !no_ctx || !atomic_load(&timing_epoch)) {
            atomic_store(&timing_state, ok ? 1 : -1);
            DBG("GPU timing %s", ok ? "on" : "unavailable");
        }   /* else a context went and none is current yet: the next timed call tries again */
    }
    pthread_mutex_unlock(&pool_mu);
    return atomic_load(&timing_state) == 1;
}

atomic_uint timing_epoch;
static uint64_t contexts_left;

/* The context event timing lives in is about to go (cuCtxDestroy, cuDevicePrimaryCtxReset: a JCuda program that
   creates and destroys one per run, cudaDeviceReset): its pooled events, the reference stream and event, the gate's
   host word and the probe's module go with it, and using any of them afterwards crashed the program (SIGSEGV in
   cuEventRecord, H100, the third JCudaJacobi round). First the writer encodes everything issued so far while those
   events are still valid (the flush the fatal-signal handler uses, at most 2 s), then timing forgets them and starts
   again, set up in whatever context is current at the next timed call. c NULL: the context may be the one. */
void timing_context_ending(CUcontext c) {
    if (atomic_load(&timing_state) != 1 || (c && c != timing_ctx)) return;
    if (atomic_load(&g_state) == 1) {
        uint64_t r = atomic_fetch_add(&flush_req, 1) + 1;
        wakeup_writer();
        for (int i = 0; i < 2000 && atomic_load(&flush_ack) < r; i++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    pthread_mutex_lock(&pool_mu);
    if (atomic_load(&timing_state) == 1 && (!c || c == timing_ctx)) {
        timing_gate_on = 0;
        timing_probe_on = 0;
        pool_n = 0;   /* not destroyed: they go with their context */
        timing_ctx = NULL;
        contexts_left++;
        atomic_fetch_add(&timing_epoch, 1);
        atomic_store(&timing_state, 0);
        DBG("GPU timing by events leaves its context (%llu so far): set up again at the next timed call",
            (unsigned long long)contexts_left);
    }
    pthread_mutex_unlock(&pool_mu);
}

CUevent pool_get(void) {
    CUevent e = NULL;
    pthread_mutex_lock(&pool_mu);
    if (pool_n) e = pool[--pool_n];
    pthread_mutex_unlock(&pool_mu);
    if (!e && p_evcreate(&e, CU_EVENT_DEFAULT) != CUDA_SUCCESS) e = NULL;
    return e;
}
void pool_put(CUevent e) {
    if (!e) return;
    pthread_mutex_lock(&pool_mu);
    if (pool_n == pool_cap) {
        size_t nc = pool_cap ? pool_cap * 2 : 256;
        CUevent *np = realloc(pool, nc * sizeof *np);
        if (np) { pool = np; pool_cap = nc; }
    }
    if (pool_n < pool_cap) pool[pool_n++] = e;
    pthread_mutex_unlock(&pool_mu);
}

/* ---- CUPTI timing source: a driver-API callback notes each launch/copy/set's correlation id in a thread-local;
 * activity records (kernel, memcpy, memset) bring GPU start/end for that id, collected by the writer */
atomic_int cupti_ready;
__thread uint32_t t_corr;
int64_t cupti_offset;  /* CLOCK_MONOTONIC - CUPTI timestamp */
pthread_mutex_t corr_mu = PTHREAD_MUTEX_INITIALIZER;
kvmap corr_times;      /* correlation id -> start (val), end (ptr) */
CUptiResult (*c_flush)(uint32_t);
static CUptiResult (*c_next)(uint8_t *, size_t, CUpti_Activity **);
uint64_t cupti_records, cupti_matched;

static void CUPTIAPI cupti_cb(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data) {
    const CUpti_CallbackData *cd = data;
    if (cd->callbackSite == CUPTI_API_ENTER) t_corr = cd->correlationId;
}
static size_t cupti_buf_bytes = 4u << 20;   /* PHOS_CUPTI_BUF */
uint64_t cupti_flush_ns = 20000000ull; /* PHOS_CUPTI_FLUSH_MS: the writer asks CUPTI for records at most this often */
static void CUPTIAPI cupti_buf_req(uint8_t **buf, size_t *size, size_t *maxrec) {
    *size = cupti_buf_bytes;
    *buf = aligned_alloc(8, *size);
    *maxrec = 0;
}
static void CUPTIAPI cupti_buf_done(CUcontext ctx, uint32_t sid_, uint8_t *buf, size_t size, size_t valid) {
    CUpti_Activity *rec = NULL;
    pthread_mutex_lock(&corr_mu);
    while (valid && c_next(buf, valid, &rec) == CUPTI_SUCCESS) {
        uint64_t st = 0, en = 0;
        uint32_t corr = 0;
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            CUpti_ActivityKernel10 *k = (CUpti_ActivityKernel10 *)rec; st = k->start; en = k->end; corr = k->correlationId;
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            CUpti_ActivityMemcpy6 *m = (CUpti_ActivityMemcpy6 *)rec; st = m->start; en = m->end; corr = m->correlationId;
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            CUpti_ActivityMemset4 *m = (CUpti_ActivityMemset4 *)rec; st = m->start; en = m->end; corr = m->correlationId;
        }
        if (corr && st) {
            kv_t *e = kv_put(&corr_times, corr);
            if (e) {
                if (!e->val || st < e->val) e->val = st;  /* several records for one call: the span of all */
                if (en > (uint64_t)(uintptr_t)e->ptr) e->ptr = (void *)(uintptr_t)en;
            }
            cupti_records++;
        }
    }
    pthread_mutex_unlock(&corr_mu);
    free(buf);
}

static const char *cupti_paths[] = {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so.13",
    "/usr/local/cuda-13.0/lib64/libcupti.so.13", "/usr/local/cuda-13.0/lib/libcupti.so.13",
    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", NULL};

static uint32_t burst_len, burst_duty_pm;   /* i15-burst: PHOS_TIMING_BURST, PHOS_TIMING_DUTY (below) */
static uint64_t burst_max_ns, burst_gap_max_ns;   /* i15-burst: PHOS_TIMING_BURST_MS, PHOS_TIMING_BURST_GAP_MS */
static uint64_t burst_first_max_ns;   /* i15-settle: PHOS_TIMING_FIRST_BURST_MS, 0: the first burst is like the others */
static int release_after_first;       /* i15-settle: PHOS_TIMING_RELEASE, CUPTI released once the first burst ends */
atomic_int cupti_retired;             /* i15-settle: it was (the writer did it); not a checkpoint's release */
int timing_copies_retired;            /* i15-settle: PHOS_TIMING_RELEASE_COPIES=1: copies and sets still timed (events) */
static atomic_int cupti_retire_due;
/* the CUPTI window of sampled timing (i15-cost, below): what it switches */
static CUptiResult (*c_enable)(CUpti_ActivityKind), (*c_disable)(CUpti_ActivityKind);
static CUptiResult (*c_encb)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
static CUpti_SubscriberHandle c_sub;
static uint32_t launch_cbids[256];   /* i15-burst: with bursts also the copies' and sets' */
static int n_launch_cbids;
static CUptiResult (*c_unsub)(CUpti_SubscriberHandle), (*c_final)(void);   /* i14-cupti */
static CUptiResult (*c_endom)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
static int c_kinds;   /* the activity kinds cupti_init enabled (PHOS_CUPTI_KINDS bits) */

/* called on the writer thread; on success operations issued from now on are timed through CUPTI */
void cupti_init(void) {
    if (!cfg.timing || cfg.timing_source == 2) return;
    n_launch_cbids = 0;   /* again after a checkpoint (cupti_resume) */
    void *h = NULL;
    const char *env = getenv("PHOS_CUPTI");
    if (env && *env) h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    for (int i = 0; !h && cupti_paths[i]; i++) h = dlopen(cupti_paths[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) { DBG("CUPTI not found: timing by CUDA events"); return; }
    dlsym_fn d = real_dlsym();
    CUptiResult (*reg)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) = d(h, "cuptiActivityRegisterCallbacks");
    CUptiResult (*enable)(CUpti_ActivityKind) = d(h, "cuptiActivityEnable");
    CUptiResult (*sub)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *) = d(h, "cuptiSubscribe");
    CUptiResult (*encb)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId) = d(h, "cuptiEnableCallback");
    CUptiResult (*cbname)(CUpti_CallbackDomain, uint32_t, const char **) = d(h, "cuptiGetCallbackName");
    c_unsub = d(h, "cuptiUnsubscribe");   /* i14-cupti: what checkpoint-prepare releases */
    c_endom = d(h, "cuptiEnableDomain");
    c_final = d(h, "cuptiFinalize");
    CUptiResult (*ts)(uint64_t *) = d(h, "cuptiGetTimestamp");
    c_flush = d(h, "cuptiActivityFlushAll");
    c_next = d(h, "cuptiActivityGetNextRecord");
    CUptiResult (*latency)(uint8_t) = d(h, "cuptiActivityEnableLatencyTimestamps");
    CUptiResult (*period)(uint32_t) = d(h, "cuptiActivityFlushPeriod");
    CUptiResult (*drvapi)(CUpti_CallbackId, uint8_t) = d(h, "cuptiActivityEnableDriverApi");
    CUpti_SubscriberHandle sh;
    if (!reg || !enable || !sub || !encb || !cbname || !ts || !c_flush || !c_next) { DBG("CUPTI incomplete"); return; }
    /* diagnosis knobs (docs/benchmarks.md, "Recorder"): PHOS_CUPTI_CB=0 leaves the driver callbacks off and
       PHOS_CUPTI_KINDS=0 the activity kinds (either way nothing is timed: they measure what each part costs);
       PHOS_CUPTI_KINDS=1 kernels only; PHOS_CUPTI_DRIVER=1 adds DRIVER activity records for the same calls;
       PHOS_CUPTI_LATENCY=0|1 calls cuptiActivityEnableLatencyTimestamps; PHOS_CUPTI_PERIOD=ms cuptiActivityFlushPeriod */
    int want_cb = (int)phos_env_u64("PHOS_CUPTI_CB", 1), kinds = (int)phos_env_u64("PHOS_CUPTI_KINDS", 7);
    int want_drv = (int)phos_env_u64("PHOS_CUPTI_DRIVER", 0);
    cupti_buf_bytes = (size_t)phos_env_u64("PHOS_CUPTI_BUF", 4u << 20);
    if (cupti_buf_bytes < 65536) cupti_buf_bytes = 65536;
    cupti_flush_ns = phos_env_u64("PHOS_CUPTI_FLUSH_MS", 20) * 1000000ull;
    if (sub(&sh, cupti_cb, NULL) != CUPTI_SUCCESS) { DBG("CUPTI subscribe failed (another subscriber?): timing by CUDA events"); return; }
    const char *lat = getenv("PHOS_CUPTI_LATENCY");
    if (lat && *lat && latency && latency((uint8_t)atoi(lat)) != CUPTI_SUCCESS) DBG("cuptiActivityEnableLatencyTimestamps failed");
    uint64_t per = phos_env_u64("PHOS_CUPTI_PERIOD", 0);
    if (per && period && period((uint32_t)per) != CUPTI_SUCCESS) DBG("cuptiActivityFlushPeriod failed");
    CUptiResult (*setattr)(CUpti_ActivityAttribute, size_t *, void *) = d(h, "cuptiActivitySetAttribute");
    const char *pin = getenv("PHOS_CUPTI_PINNED");   /* diagnosis: 1 = CUPTI's record buffers in pinned host memory */
    if (pin && *pin && setattr) {
        uint8_t v = (uint8_t)atoi(pin);
        size_t sz = sizeof v;
        if (setattr(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, &sz, &v) != CUPTI_SUCCESS) DBG("CUPTI pinned attribute failed");
    }
    uint64_t devbuf = phos_env_u64("PHOS_CUPTI_DEVBUF", 0);   /* diagnosis: CUPTI's device buffer size per context */
    if (devbuf && setattr) {
        size_t v = (size_t)devbuf, sz = sizeof v;
        if (setattr(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &sz, &v) != CUPTI_SUCCESS) DBG("CUPTI device buffer attribute failed");
    }
    /* sampled timing (i15-cost): kernel records and launch callbacks only inside the window of a timed launch */
    timing_sample_init();
    int windowed = tsp.sampled && (kinds & 1) && want_cb && (int)phos_env_u64("PHOS_TIMING_WINDOW", 1);
    int burst = windowed && burst_len;   /* i15-burst: copies and sets, their records and callbacks, in the bursts too */
    c_enable = enable;
    c_disable = d(h, "cuptiActivityDisable");
    c_encb = encb;
    c_sub = sh;
    if (windowed && !c_disable) windowed = burst = 0;
    if (reg(cupti_buf_req, cupti_buf_done) != CUPTI_SUCCESS || ((kinds & 1) && !windowed && enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) ||
        ((kinds & 2) && !burst && enable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS) ||
        ((kinds & 4) && !burst && enable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS)) {
        DBG("CUPTI activity enable failed: timing by CUDA events");
        return;
    }
    int n = 0, nd = 0;
    for (uint32_t cb = 1; cb < CUPTI_DRIVER_TRACE_CBID_SIZE; cb++) {
        const char *nm = NULL;
        if (cbname(CUPTI_CB_DOMAIN_DRIVER_API, cb, &nm) != CUPTI_SUCCESS || !nm) continue;
        int is_launch = !strncmp(nm, "cuLaunch", 8) && strncmp(nm, "cuLaunchHostFunc", 16);
        if (is_launch || !strncmp(nm, "cuMemcpy", 8) || !strncmp(nm, "cuMemset", 8)) {
            int in_win = windowed && (is_launch || burst);
            if (in_win) {
                if (n_launch_cbids < (int)(sizeof launch_cbids / sizeof *launch_cbids)) launch_cbids[n_launch_cbids++] = cb;
                else windowed = burst = in_win = 0;   /* cannot happen with CUDA 13's list; then every callback stays on */
            }
            if (want_cb && !in_win && encb(1, sh, CUPTI_CB_DOMAIN_DRIVER_API, cb) == CUPTI_SUCCESS) n++;
            if (want_drv && drvapi && drvapi(cb, 1) == CUPTI_SUCCESS) nd++;
        }
    }
    if (nd) DBG("CUPTI DRIVER activity records for %d driver calls", nd);
    if (!want_cb || !(kinds & 1)) DBG("CUPTI diagnosis setting: callbacks %d, activity kinds %d: launches are not timed", want_cb, kinds);
    int64_t best = INT64_MAX, off = 0;
    for (int i = 0; i < 5; i++) {
        uint64_t a = mono_ns(), c = 0;
        ts(&c);
        uint64_t b = mono_ns();
        if ((int64_t)(b - a) < best) { best = (int64_t)(b - a); off = (int64_t)((a + b) / 2) - (int64_t)c; }
    }
    cupti_offset = off;
    if (!windowed && n_launch_cbids) {   /* the cbid list overflowed: time every launch through permanent callbacks */
        for (int i = 0; i < n_launch_cbids; i++) encb(1, sh, CUPTI_CB_DOMAIN_DRIVER_API, launch_cbids[i]);
        enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        if (kinds & 2) enable(CUPTI_ACTIVITY_KIND_MEMCPY);
        if (kinds & 4) enable(CUPTI_ACTIVITY_KIND_MEMSET);
        n_launch_cbids = 0;
    }
    cupti_windowed = windowed;
    cupti_burst = burst;
    c_kinds = kinds;
    if (burst) DBG("sampled GPU timing: CUPTI records and callbacks only in bursts of %u launches (%d callbacks); copies and sets "
                   "between bursts timed by CUDA events", burst_len, n_launch_cbids);
    else if (windowed) DBG("sampled GPU timing: kernel activity records only in the windows of timed launches (%d launch callbacks)", n_launch_cbids);
    atomic_store(&cupti_ready, 1);
    DBG("GPU timing by CUPTI activity records (%d driver callbacks)", n);
}

/* work issued to a stream that is being captured is not executed: it is not an event of the trace */
int stream_capturing(CUstream st) {
    if (!atomic_load_explicit(&g_capturing, memory_order_relaxed)) return 0;
    OWN(p_iscap, pfn_iscap, "cuStreamIsCapturing");
    CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
    if (p_iscap && p_iscap(st, &cs) == CUDA_SUCCESS) return cs != CU_STREAM_CAPTURE_STATUS_NONE;
    return 0;
}

/* is this address device memory (or managed)? 1 device, 0 host, -1 unknown */
int is_device_ptr(uint64_t p) {
    OWN(p_ptrattr, pfn_ptrattr, "cuPointerGetAttribute");
    if (!p_ptrattr) return -1;
    unsigned int t = 0;
    if (p_ptrattr(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)p) != CUDA_SUCCESS) return 0;
    return (t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED) ? 1 : 0;
}
int copy_kind(int sdev, int ddev) {
    if (sdev < 0 || ddev < 0) return 6; /* DEFAULT */
    if (!sdev && ddev) return 1;
    if (sdev && !ddev) return 2;
    if (sdev && ddev) return 3;
    return 4;
}

/* ------------------------------------------------------------------ sampled GPU timing (i15-cost)
 * Timing every launch costs CUPTI's activity record (+1 to +2.5 us a launch, docs/benchmarks.md "Recorder"). With
 * PHOS_TIMING_SAMPLE=1 (off by default: measured in docs/benchmarks.md, block i15-cost) only a sample of launches is timed: the first PHOS_TIMING_FIRST launches of every
 * launch shape (function + grid + block) and afterwards each launch with probability 1/N, drawn per launch (a
 * Bernoulli draw: a loop that launches a kernel k times per iteration cannot alias with N, as a fixed 1-in-N counter
 * would). N adapts to the launch rate: every 1024 launches it is set so that the timed launches' extra host time
 * (measured) stays within PHOS_TIMING_BUDGET per mille of the time between launches, clamped to
 * [PHOS_TIMING_NMIN, PHOS_TIMING_NMAX]. With CUPTI the kernel activity kind (and the launch callbacks that give the
 * correlation id) are switched on only around a timed launch ("window"); copies and memsets stay timed always. The
 * policy is written into the TraceHeader (field 40, docs/trace-format.md); a launch was timed iff it carries GPU times. */
struct ts_policy tsp;
static pthread_once_t tsp_once = PTHREAD_ONCE_INIT;
static void tsp_init(void) {
    /* i15-burst, i15-settle: PHOS_TIMING_SAMPLE=startup: CUPTI's records for one burst at the start that lasts until
       the launch shapes settle (1024 launches in a row past each shape's first 10, at most 10 s), then CUPTI released
       for good: later shapes' first 10 launches timed by CUDA events, copies and sets untimed (measured on the H100,
       docs/benchmarks.md blocks i15-burst and i15-settle); each knob below still overrides */
    const char *sv = getenv("PHOS_TIMING_SAMPLE");
    int startup = sv && !strcmp(sv, "startup");
    tsp.sampled = startup || (int)phos_env_u64("PHOS_TIMING_SAMPLE", 0) != 0;   /* off by default: docs/benchmarks.md i15-cost */
    tsp.first = (uint32_t)phos_env_u64("PHOS_TIMING_FIRST", startup ? 10 : 3);
    tsp.nmin = (uint32_t)phos_env_u64("PHOS_TIMING_NMIN", 16);
    tsp.nmax = (uint32_t)phos_env_u64("PHOS_TIMING_NMAX", 1024);
    tsp.budget_pm = (uint32_t)phos_env_u64("PHOS_TIMING_BUDGET", 10);
    timing_both = (int)phos_env_u64("PHOS_TIMING_BOTH", 0) != 0;   /* i15-timing: diagnosis, rec_probe.c */
    if (tsp.nmin < 1) tsp.nmin = 1;
    if (tsp.nmax < tsp.nmin) tsp.nmax = tsp.nmin;
    atomic_store(&tsp.interval, tsp.nmin);
    burst_len = (uint32_t)phos_env_u64("PHOS_TIMING_BURST", startup ? 1024 : 0);   /* i15-burst */
    burst_duty_pm = (uint32_t)phos_env_u64("PHOS_TIMING_DUTY", startup ? 1 : 20);
    burst_max_ns = phos_env_u64("PHOS_TIMING_BURST_MS", 50) * 1000000ull;
    if (!burst_max_ns) burst_max_ns = 1000000ull;
    burst_gap_max_ns = phos_env_u64("PHOS_TIMING_BURST_GAP_MS", startup ? 0 : 1000) * 1000000ull;
    if (!burst_gap_max_ns) burst_gap_max_ns = UINT64_MAX;   /* 0: no cap (PHOS_TIMING_DUTY alone) */
    if (burst_duty_pm < 1) burst_duty_pm = 1;
    if (burst_duty_pm > 1000) burst_duty_pm = 1000;
    burst_first_max_ns = phos_env_u64("PHOS_TIMING_FIRST_BURST_MS", startup ? 10000 : 0) * 1000000ull;   /* i15-settle */
    release_after_first = burst_len && (int)phos_env_u64("PHOS_TIMING_RELEASE", startup ? 1 : 0) != 0;
    timing_copies_retired = (int)phos_env_u64("PHOS_TIMING_RELEASE_COPIES", 0) != 0;
}
void timing_sample_init(void) { pthread_once(&tsp_once, tsp_init); }

/* launch shapes: a lock-free open-addressing table of (key, launches so far); a full table shares one counter */
#define SHAPES (1u << 16)
static struct { _Atomic uint64_t key; atomic_uint count; } shapes[SHAPES];
static atomic_uint shape_overflow;
static atomic_uint_fast64_t ts_launches, ts_window_start, ts_cost_ns, ts_cost_n;
uint64_t ts_timed, ts_shapes;
static __thread uint64_t t_rng;

static atomic_uint *shape_counter(const void *fn, const unsigned *dims) {
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)(uintptr_t)fn;
    for (int i = 0; i < 6; i++) h = (h ^ dims[i]) * 0x100000001b3ull;
    h = (h ^ (h >> 29)) | 1;
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t j = (uint32_t)(h + i * 0x9E3779B9u) & (SHAPES - 1);
        uint64_t k = atomic_load_explicit(&shapes[j].key, memory_order_acquire);
        if (k == h) return &shapes[j].count;
        if (!k) {
            uint64_t z = 0;
            if (atomic_compare_exchange_strong(&shapes[j].key, &z, h)) { __atomic_fetch_add(&ts_shapes, 1, __ATOMIC_RELAXED); return &shapes[j].count; }
            if (z == h) return &shapes[j].count;
        }
    }
    return &shape_overflow;
}

/* the interval N for the launch rate and measured cost of a timed launch, every 1024 launches */
static void adapt_interval(void) {
    uint64_t now = mono_ns(), was = atomic_exchange(&ts_window_start, now);
    uint64_t n = atomic_load(&ts_cost_n), cost = n ? atomic_load(&ts_cost_ns) / n : 0;
    if (!was || now <= was || !n) return;
    double gap = (double)(now - was) / 1024.0;                 /* ns between launches */
    double want = (double)cost * 1000.0 / ((double)tsp.budget_pm * gap);   /* 1 in N keeps cost/N <= budget*gap */
    uint32_t N = want < tsp.nmin ? tsp.nmin : want > tsp.nmax ? tsp.nmax : (uint32_t)(want + 0.999);
    atomic_store(&tsp.interval, N);
}

/* i15-burst: begin
 * Burst sampling (PHOS_TIMING_BURST=B, with CUPTI): instead of switching CUPTI's kernel records on and off around
 * single launches (whose cost was measured far above what the 1-in-N saves, docs/benchmarks.md block i15-cost), the
 * window is held open for B consecutive launches (or PHOS_TIMING_BURST_MS, default 50 ms, whichever ends first: a
 * burst over the slow first launches of a process, or in a program that launches rarely, stays short), every launch
 * of the burst timed by CUPTI's own kernel record, and the next burst starts once the time since this one ended is
 * (1000 - D) / D times what the burst lasted (PHOS_TIMING_DUTY=D per mille of wall time inside bursts, default 20),
 * but at most PHOS_TIMING_BURST_GAP_MS (default 1000: a burst stretched by the slow first launches of a process must
 * not keep the steady state untimed for seconds; measured on the H100, docs/benchmarks.md block i15-burst). The first
 * timed launch with CUPTI ready opens the first burst.
 * Launches of a shape's first PHOS_TIMING_FIRST outside a burst are timed with a window of their own, as before;
 * there is no 1-in-N draw. A steady loop is thus timed by whole iterations, every kernel of it in each burst. */
atomic_int timing_burst_on;
static atomic_int burst_left;
static _Atomic uint64_t burst_next;   /* mono ns: no burst before */
static uint64_t burst_t0;
static pthread_mutex_t burst_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t ts_bursts, ts_burst_ns;

/* 1: this launch is one of a burst (the burst holds a reference on the CUPTI window); seen: launches before it, c:
   launches of its shape before it. Between bursts the clock is read only every 64th launch: a burst starts at most 63
   launches late.
   i15-settle: with PHOS_TIMING_FIRST_BURST_MS=T the first burst lasts until the program's launch shapes settle: a
   launch still among its shape's first PHOS_TIMING_FIRST launches starts its B launches again, so the burst ends B
   launches after the last such launch, or after T ms. A warm-up is thus timed whole by CUPTI's records, and no
   shape of it needs windows of its own for its first launches (docs/benchmarks.md block i15-settle). The next burst
   waits as if this one had lasted at most PHOS_TIMING_BURST_MS. */
static atomic_int burst_first = 1;   /* the first burst is not over */
static int burst_step(uint64_t seen, unsigned c) {
    if (atomic_load_explicit(&timing_burst_on, memory_order_acquire)) {
        int first = burst_first_max_ns && atomic_load_explicit(&burst_first, memory_order_relaxed);
        if (first && c < tsp.first) atomic_store_explicit(&burst_left, (int)burst_len, memory_order_relaxed);
        if (atomic_fetch_sub_explicit(&burst_left, 1, memory_order_acq_rel) > 0 &&
            mono_ns() - burst_t0 < (first ? burst_first_max_ns : burst_max_ns)) return 1;
        pthread_mutex_lock(&burst_mu);
        if (atomic_load(&timing_burst_on)) {
            uint64_t now = mono_ns(), d = now - burst_t0, dd = d < burst_max_ns ? d : burst_max_ns;
            atomic_store(&timing_burst_on, 0);
            uint64_t gap = dd * (1000 - burst_duty_pm) / burst_duty_pm;
            atomic_store(&burst_next, now + (gap < burst_gap_max_ns ? gap : burst_gap_max_ns));
            if (release_after_first && atomic_load(&burst_first)) {   /* i15-settle: no burst after it; the writer releases */
                atomic_store(&burst_next, UINT64_MAX);
                atomic_store(&cupti_retire_due, 1);
            }
            atomic_store(&burst_first, 0);
            ts_bursts++;
            ts_burst_ns += d;
            cupti_window(0);
        }
        pthread_mutex_unlock(&burst_mu);
        return 0;
    }
    if (seen & 63) return 0;
    uint64_t now = mono_ns();
    if (now < atomic_load_explicit(&burst_next, memory_order_relaxed)) return 0;
    int on = 0;
    pthread_mutex_lock(&burst_mu);
    if (!atomic_load(&timing_burst_on) && now >= atomic_load(&burst_next) && atomic_load_explicit(&cupti_ready, memory_order_acquire)) {
        if (cupti_window(1)) {
            burst_t0 = now;
            atomic_store(&burst_left, (int)burst_len - 1);
            atomic_store(&timing_burst_on, 1);
            on = 1;
        } else {
            cupti_window(0);
            atomic_store(&burst_next, now + 1000000000ull);   /* records could not be switched on: try again in 1 s */
        }
    }
    pthread_mutex_unlock(&burst_mu);
    return on;
}
/* TraceEnd fields 22-23: the bursts there were and the wall time inside them (a burst still open counts to now) */
void timing_burst_end(pbuf *end) {
    if (!tsp.sampled || !burst_len) return;
    int open = atomic_load(&timing_burst_on);
    pb_u64(end, 22, ts_bursts + (open ? 1 : 0));
    pb_u64(end, 23, ts_burst_ns + (open ? mono_ns() - burst_t0 : 0));
}
/* i15-burst: end */

int timing_sample_launch(const void *fn, const unsigned *dims) {
    timing_sample_init();
    if (!tsp.sampled) return 1;
    uint64_t seen = atomic_fetch_add_explicit(&ts_launches, 1, memory_order_relaxed);
    unsigned c = atomic_fetch_add_explicit(shape_counter(fn, dims), 1, memory_order_relaxed);
    if (atomic_load_explicit(&cupti_retired, memory_order_relaxed)) {   /* i15-settle: only first launches, by events */
        if (c < tsp.first) __atomic_fetch_add(&ts_timed, 1, __ATOMIC_RELAXED);
        return c < tsp.first;
    }
    if (burst_len && cupti_windowed && atomic_load_explicit(&cupti_ready, memory_order_acquire)) {   /* i15-burst */
        int timed = burst_step(seen, c) || c < tsp.first;
        if (timed) __atomic_fetch_add(&ts_timed, 1, __ATOMIC_RELAXED);
        return timed;
    }
    if ((seen & 1023) == 1023) adapt_interval();
    int timed = c < tsp.first;
    if (!timed) {
        if (!t_rng) t_rng = (mono_ns() ^ (uint64_t)(uintptr_t)&t_rng) | 1;
        t_rng ^= t_rng << 13; t_rng ^= t_rng >> 7; t_rng ^= t_rng << 17;
        timed = (t_rng % atomic_load_explicit(&tsp.interval, memory_order_relaxed)) == 0;
    }
    if (timed) __atomic_fetch_add(&ts_timed, 1, __ATOMIC_RELAXED);
    return timed;
}
void timing_sample_cost(uint64_t ns) {
    atomic_fetch_add_explicit(&ts_cost_ns, ns, memory_order_relaxed);
    atomic_fetch_add_explicit(&ts_cost_n, 1, memory_order_relaxed);
    if (atomic_load_explicit(&ts_cost_n, memory_order_relaxed) > 4096) { atomic_store(&ts_cost_ns, ns * 64); atomic_store(&ts_cost_n, 64); }
}

/* TraceHeader.timing_sampling (field 40): the policy; absent in traces that time every launch (older recorders) */
void timing_sample_header(pbuf *h) {
    timing_sample_init();
    if (!cfg.timing) return;
    pbuf s = {0};
    pb_u64(&s, 1, tsp.sampled ? 1 : 0);
    pb_u64(&s, 2, tsp.first);
    pb_u64(&s, 3, tsp.nmin);
    pb_u64(&s, 4, tsp.nmax);
    pb_u64(&s, 5, tsp.budget_pm);
    pb_str(&s, 6, "function+grid+block");
    if (tsp.sampled && burst_len && cfg.timing_source != 2) {   /* i15-burst: fields 27-28 */
        pb_u64(&s, 27, burst_len);
        pb_u64(&s, 28, burst_duty_pm);
        pb_u64(&s, 29, burst_max_ns / 1000000ull);
        pb_u64(&s, 30, burst_gap_max_ns == UINT64_MAX ? 0 : burst_gap_max_ns / 1000000ull);
        if (burst_first_max_ns) pb_u64(&s, 31, burst_first_max_ns / 1000000ull);   /* i15-settle */
        if (release_after_first) pb_u64(&s, 32, 1);
    }
    timing_probe_header(&s);   /* i15-timing: fields 20-25, how event-timed GPU times were estimated (rec_probe.c) */
    pb_msg(h, 40, &s);
    pb_free(&s);
}

/* CUPTI window: kernel activity records and launch callbacks on only while a timed launch is being issued */
static pthread_mutex_t win_mu = PTHREAD_MUTEX_INITIALIZER;
static int win_open_n;
int cupti_windowed;   /* 1 when CUPTI times launches only inside windows */
int cupti_burst;      /* i15-burst: 1 when CUPTI times only inside bursts (launches, copies and sets) */
static int win_ok = 1;
int cupti_window(int open) {
    pthread_mutex_lock(&win_mu);
    if (open ? win_open_n++ == 0 : --win_open_n == 0) {
        for (int i = 0; i < n_launch_cbids; i++) c_encb(open, c_sub, CUPTI_CB_DOMAIN_DRIVER_API, launch_cbids[i]);
        CUptiResult r = open ? c_enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) : c_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        if (cupti_burst) {   /* i15-burst: copies' and sets' records too (enabled, they slow every launch: docs/benchmarks.md) */
            if (c_kinds & 2) { if (open) c_enable(CUPTI_ACTIVITY_KIND_MEMCPY); else c_disable(CUPTI_ACTIVITY_KIND_MEMCPY); }
            if (c_kinds & 4) { if (open) c_enable(CUPTI_ACTIVITY_KIND_MEMSET); else c_disable(CUPTI_ACTIVITY_KIND_MEMSET); }
        }
        if (open && r != CUPTI_SUCCESS && win_ok) { win_ok = 0; DBG("CUPTI kernel activity could not be switched on for a timed launch (%d): launches untimed", (int)r); }
        if (open) win_ok = r == CUPTI_SUCCESS;
    }
    int ok = win_ok;
    pthread_mutex_unlock(&win_mu);
    return ok;
}

/* i14-cupti: begin
 * CUPTI and the driver's checkpoint: on the H100 (driver 580) cuCheckpointProcessLock refuses a process that records
 * with CUPTI activity records (801 CUDA_ERROR_NOT_SUPPORTED; measured, docs/gpu-checks.md blocks i14-ckpt and
 * i14-cupti). A reader on the attach socket asks for "checkpoint-prepare" before the Lock (rec_stream.c): operations
 * issued from then on are timed by CUDA events (t_begin falls back to them when cupti_ready is 0), CUPTI's buffered
 * records are flushed, its activity kinds switched off, the subscriber removed and CUPTI finalized
 * (PHOS_CKPT_RELEASE=disable|unsub|finalize stops earlier, for the diagnosis). "checkpoint-done" sets CUPTI up again.
 * Each such interval is a TimingGap in TraceEnd (field 5, docs/trace-format.md): the launches in it carry GPU times
 * from CUDA events, and launches whose CUPTI records had not come when CUPTI was released stay without GPU times. */
atomic_int cupti_released;
static pthread_mutex_t gap_mu = PTHREAD_MUTEX_INITIALIZER;
#define MAX_GAPS 256
static struct { uint64_t t0, t1; int released; } gaps[MAX_GAPS];
static int n_gaps;
uint64_t cupti_lost;   /* operations whose CUPTI records did not come before the release: written untimed */

/* 0: CUPTI released (what in `done`); 1: nothing to release (timing by events or off); -1: failed (why).
   retire (i15-settle): for good, after the first burst (PHOS_TIMING_RELEASE), not for a checkpoint: always finalized,
   and checkpoint-done does not set it up again */
static int cupti_release_as(char *what, size_t n, int retire) {
    if (!atomic_load(&cupti_ready)) {
        snprintf(what, n, atomic_load(&cupti_released) ? "already released" : atomic_load(&cupti_retired) ?
                 "CUPTI released after the first timing burst: timing by CUDA events" : "no CUPTI in this process: timing by CUDA events");
        return 1;
    }
    const char *m = retire ? NULL : getenv("PHOS_CKPT_RELEASE");
    int mode = (m && !strcmp(m, "disable")) ? 1 : (m && !strcmp(m, "unsub")) ? 2 : 3;
    atomic_store(&cupti_ready, 0);       /* new operations: CUDA events */
    atomic_store(retire ? &cupti_retired : &cupti_released, 1);
    for (int i = 0; i < 100; i++) {      /* a timed launch inside its CUPTI window finishes it first */
        pthread_mutex_lock(&win_mu);
        int open = win_open_n;
        pthread_mutex_unlock(&win_mu);
        if (!open) break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    struct timespec ts = {0, 2000000};   /* calls between t_begin and t_end note their correlation id */
    nanosleep(&ts, NULL);
    int bad = 0;
    if (c_flush && c_flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != CUPTI_SUCCESS) bad |= 1;
    if (c_disable) {
        if ((c_kinds & 1) && !cupti_windowed) c_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        if (cupti_windowed) c_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        if (c_kinds & 2) c_disable(CUPTI_ACTIVITY_KIND_MEMCPY);
        if (c_kinds & 4) c_disable(CUPTI_ACTIVITY_KIND_MEMSET);
    } else bad |= 2;
    if (mode >= 2) {
        if (c_endom) c_endom(0, c_sub, CUPTI_CB_DOMAIN_DRIVER_API);
        if (!c_unsub || c_unsub(c_sub) != CUPTI_SUCCESS) bad |= 4;
    }
    if (mode >= 3 && (!c_final || c_final() != CUPTI_SUCCESS)) bad |= 8;
    pthread_mutex_lock(&gap_mu);
    if (n_gaps < MAX_GAPS) { gaps[n_gaps].t0 = mono_ns(); gaps[n_gaps].t1 = 0; gaps[n_gaps].released = retire ? 2 : 1; n_gaps++; }
    pthread_mutex_unlock(&gap_mu);
    snprintf(what, n, "cupti %s%s%s%s%s", mode == 1 ? "flushed,kinds-off" : mode == 2 ? "flushed,kinds-off,unsubscribed" :
             "flushed,kinds-off,unsubscribed,finalized", (bad & 1) ? " (flush failed)" : "", (bad & 2) ? " (no cuptiActivityDisable)" : "",
             (bad & 4) ? " (unsubscribe failed)" : "", (bad & 8) ? " (finalize failed)" : "");
    DBG("%s: %s; operations from now on timed by CUDA events", retire ? "first timing burst over" : "checkpoint-prepare", what);
    return 0;
}
int cupti_release(char *what, size_t n) { return cupti_release_as(what, n, 0); }
/* i15-settle: the writer's turn (rec_writer.c), once the first burst is over with PHOS_TIMING_RELEASE=1 */
void cupti_retire_poll(void) {
    if (!atomic_load_explicit(&cupti_retire_due, memory_order_relaxed) || !atomic_exchange(&cupti_retire_due, 0)) return;
    char what[256];
    cupti_release_as(what, sizeof what, 1);
}

/* after the checkpoint: CUPTI timing again; what: "cupti" or why not */
int cupti_resume(char *what, size_t n) {
    if (!atomic_load(&cupti_released)) { snprintf(what, n, "nothing to resume"); return 1; }
    pthread_mutex_lock(&gap_mu);
    if (n_gaps && !gaps[n_gaps - 1].t1) gaps[n_gaps - 1].t1 = mono_ns();
    pthread_mutex_unlock(&gap_mu);
    cupti_init();
    atomic_store(&cupti_released, 0);
    int ok = atomic_load(&cupti_ready);
    snprintf(what, n, ok ? "cupti" : "events (CUPTI could not be set up again)");
    DBG("checkpoint-done: GPU timing by %s", what);
    return ok ? 0 : -1;
}

/* TraceEnd field 5: TimingGap {1 start, 2 end (trace clock, ns), 3 source of the GPU times in it} */
void timing_gaps_end(pbuf *end) {
    pbuf g = {0};
    pthread_mutex_lock(&gap_mu);
    for (int i = 0; i < n_gaps; i++) {
        pb_reset(&g);
        pb_u64(&g, 1, gaps[i].t0 - g_start_mono);
        pb_u64(&g, 2, (gaps[i].t1 ? gaps[i].t1 : mono_ns()) - g_start_mono);
        pb_str(&g, 3, "events");
        pb_str(&g, 4, gaps[i].released == 2 ? "CUPTI released after the first timing burst" : "checkpoint");
        pb_msg(end, 5, &g);
    }
    pthread_mutex_unlock(&gap_mu);
    pb_free(&g);
}
/* i14-cupti: end */

/* ------------------------------------------------------------------ stream gate for event timing (i15-cost2)
 * Events around a launch on a CPU-bound loop measure the host's submission gap too: the GPU reaches the start event
 * as soon as it is queued and waits there for the kernel (docs/benchmarks.md, block i15-cost: +104%). With sampled
 * event timing each timed launch is gated: cuStreamWaitValue32 on a word of host-mapped pinned memory is queued
 * before the start event, and after the end event is recorded a plain host store opens it, so start event, kernel and
 * end event are all queued when the GPU reaches them and the span is the kernel's own plus the events' own cost. That
 * cost (PHOS_TIMING_EVENT_BIAS: "auto" measures the median span of 31 gated empty event pairs at setup, a number in
 * ns sets it, 0 keeps the raw span) is taken off by the writer. PHOS_TIMING_GATE=0 switches the gate off. The word
 * only grows (a cyclic >= compare); with several threads one thread's store may open another's gate a little early.
 * The gate cannot deadlock the stream: what is queued behind it is two event records and one launch, and the host
 * thread that opens it does not wait for the GPU in between. */
typedef CUresult (*pfn_hostalloc)(void **, size_t, unsigned);
typedef CUresult (*pfn_hostdptr)(CUdeviceptr *, void *, unsigned);
typedef CUresult (*pfn_waitv32)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
static pfn_waitv32 p_waitv32;
static uint32_t *gate_word;
static CUdeviceptr gate_dptr;
static _Atomic uint32_t gate_seq;
int timing_gate_on;
int64_t timing_event_bias_ns;
static atomic_int gate_failed;

uint32_t timing_gate_close(CUstream st) {
    uint32_t v = atomic_fetch_add_explicit(&gate_seq, 1, memory_order_relaxed) + 1;
    if (!v) v = atomic_fetch_add_explicit(&gate_seq, 1, memory_order_relaxed) + 1;   /* 0 means "not gated" */
    CUresult r = p_waitv32(st, gate_dptr, v, CU_STREAM_WAIT_VALUE_GEQ);
    if (r != CUDA_SUCCESS) {
        if (!atomic_exchange(&gate_failed, 1)) DBG("cuStreamWaitValue32 failed (%d): this launch is timed ungated", (int)r);
        return 0;
    }
    return v;
}
void timing_gate_open(uint32_t v) {
    uint32_t cur = __atomic_load_n(gate_word, __ATOMIC_RELAXED);
    while ((int32_t)(v - cur) > 0 && !__atomic_compare_exchange_n(gate_word, &cur, v, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {}
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* under pool_mu, from timing_setup, with timing_ctx current */
static void gate_setup(void) {
    timing_sample_init();
    if (!tsp.sampled || cfg.timing_source == 1 || !phos_env_u64("PHOS_TIMING_GATE", 1)) return;
    pfn_hostalloc halloc = (pfn_hostalloc)own_real("cuMemHostAlloc");
    pfn_hostdptr hdptr = (pfn_hostdptr)own_real("cuMemHostGetDevicePointer_v2");
    if (!hdptr) hdptr = (pfn_hostdptr)own_real("cuMemHostGetDevicePointer");
    p_waitv32 = (pfn_waitv32)own_real("cuStreamWaitValue32_v2");
    if (!p_waitv32) p_waitv32 = (pfn_waitv32)own_real("cuStreamWaitValue32");
    void *hp = NULL;
    if (!halloc || !hdptr || !p_waitv32 || halloc(&hp, 64, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP) != CUDA_SUCCESS || !hp ||
        hdptr(&gate_dptr, hp, 0) != CUDA_SUCCESS) {
        DBG("stream gate unavailable (cuMemHostAlloc/cuMemHostGetDevicePointer/cuStreamWaitValue32): event timing ungated");
        return;
    }
    gate_word = hp;
    *gate_word = 0;
    /* the events' own span: gated empty pairs on the reference stream */
    const char *bs = getenv("PHOS_TIMING_EVENT_BIAS");
    int64_t bias = 0;
    if (bs && *bs && strcmp(bs, "auto")) bias = (int64_t)strtoll(bs, NULL, 10);
    else {
        CUevent a = NULL, b = NULL;
        int64_t sp[31];
        int n = 0;
        if (p_evcreate(&a, CU_EVENT_DEFAULT) == CUDA_SUCCESS && p_evcreate(&b, CU_EVENT_DEFAULT) == CUDA_SUCCESS) {
            for (int i = 0; i < 31; i++) {
                uint32_t v = timing_gate_close(ref_stream);
                if (!v) break;
                int ok = p_evrecord(a, ref_stream) == CUDA_SUCCESS && p_evrecord(b, ref_stream) == CUDA_SUCCESS;
                timing_gate_open(v);
                float ms = 0;
                if (!ok || p_evsync(b) != CUDA_SUCCESS || p_evel(&ms, a, b) != CUDA_SUCCESS) break;
                sp[n++] = (int64_t)((double)ms * 1e6);
            }
        }
        if (n < 31) { DBG("stream gate: calibration failed after %d pairs: event timing ungated", n); return; }
        qsort(sp, (size_t)n, sizeof *sp, cmp_i64);
        bias = sp[n / 2];
        DBG("stream gate: gated empty event pair spans min %lld, median %lld, max %lld ns", (long long)sp[0], (long long)sp[n / 2], (long long)sp[n - 1]);
    }
    timing_event_bias_ns = bias < 0 ? 0 : bias;
    timing_gate_on = 1;
    timing_probe_setup();   /* i15-timing */
    DBG("sampled event timing: launches gated by cuStreamWaitValue32, event bias %lld ns", (long long)timing_event_bias_ns);
}
