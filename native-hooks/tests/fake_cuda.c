/*
 * A FAKE libcuda.so.1 for the recorder's CPU tests. It exports the entry points the tests use with the real ABI
 * names and signatures, and behaves like the driver where the recorder depends on it:
 *  - cuGetProcAddress_v2 answers by (symbol, cudaVersion, flags): "cuMemAlloc" below 3020 is the v1 entry point
 *    (32-bit size), "cuLaunchKernel" with the per-thread flag is cuLaunchKernel_ptsz, "cuGetProcAddress" is itself,
 *    "cuStreamSynchronize" is an internal (not exported) function, "cuFakeInternal" is unknown to the recorder;
 *  - "device memory" is host memory, kernels are host functions run at launch (so outputs can be compared);
 *  - CUkernel handles fail cuFuncGetParamInfo/cuFuncGetName with CUDA_ERROR_INVALID_HANDLE like the real driver;
 *  - stream capture records launches into a graph that cuGraphLaunch replays; events carry a fake GPU clock;
 *  - FAKE_CUDA_QUERY_BLOCK_MS=n: the first cuEventQuery blocks n ms (a driver call that stalls the recorder's writer;
 *    fake_app waits for it to begin before it launches).
 * fake_calls(name) counts calls per exported variant so tests can check that the right variant was reached.
 * i14-ckpt: the driver's checkpoint API (cuCheckpointProcessGetState/Lock/Checkpoint/Restore/Unlock) across processes,
 * below ("checkpoint API"): every process that calls cuInit publishes a state page; the controller's calls change it
 * and the target's CUDA calls block while it is not RUNNING, as the real driver's do.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#undef cuGetProcAddress
#undef cuMemAlloc

#include <dlfcn.h>
#include <cupti.h>

#define API __attribute__((visibility("default")))
#define STRIP(...) __VA_ARGS__

/* ---- CUPTI's driver-API callbacks, as the driver raises them for a subscriber (issue 16: the recorder loaded by
 * CUDA_INJECTION64_PATH). This library also answers cuptiSubscribe/cuptiEnableCallback (PHOS_CUPTI points at it);
 * every FAKE_CB entry point calls the subscriber at its entry and exit with its <name>_params struct, filled in
 * parameter order like CUPTI's generated_cuda_meta.h. One subscriber, like CUPTI. */
static CUpti_CallbackFunc cb_fn;
static void *cb_ud;
static unsigned char cb_on[CUPTI_DRIVER_TRACE_CBID_SIZE];
static uint32_t cb_corr;
static void act_launch(const char *name, uint32_t corr);   /* i14-cupti */
static void act_publish(void);
static void cb_site(CUpti_ApiCallbackSite site, CUpti_CallbackId id, const char *name, void *params, CUresult *ret, uint32_t corr) {
    if (site == CUPTI_API_EXIT && !strncmp(name, "cuLaunch", 8)) act_launch(name, corr);
    if (!cb_fn || id >= CUPTI_DRIVER_TRACE_CBID_SIZE || !cb_on[id]) return;
    CUpti_CallbackData d;
    memset(&d, 0, sizeof d);
    d.callbackSite = site;
    d.functionName = name;
    d.functionParams = params;
    d.functionReturnValue = ret;
    d.correlationId = corr;
    cb_fn(cb_ud, CUPTI_CB_DOMAIN_DRIVER_API, id, &d);
}
#define FAKE_CB(name, params, args) \
    static CUresult i_##name params; \
    API CUresult name params { \
        name##_params p_ = {STRIP args}; \
        uint32_t c_ = __atomic_add_fetch(&cb_corr, 1, __ATOMIC_RELAXED); \
        cb_site(CUPTI_API_ENTER, CUPTI_DRIVER_TRACE_CBID_##name, #name, &p_, NULL, c_); \
        CUresult r_ = i_##name args; \
        cb_site(CUPTI_API_EXIT, CUPTI_DRIVER_TRACE_CBID_##name, #name, &p_, &r_, c_); \
        return r_; \
    } \
    static CUresult i_##name params
API CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *s, CUpti_CallbackFunc f, void *ud) {
    if (!s) return CUPTI_ERROR_INVALID_PARAMETER;
    if (cb_fn) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    cb_fn = f;
    cb_ud = ud;
    *s = (CUpti_SubscriberHandle)&cb_fn;
    act_publish();
    return CUPTI_SUCCESS;
}
API CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle s) { cb_fn = NULL; memset(cb_on, 0, sizeof cb_on); act_publish(); return CUPTI_SUCCESS; }
API CUptiResult cuptiEnableCallback(uint32_t en, CUpti_SubscriberHandle s, CUpti_CallbackDomain d, CUpti_CallbackId id) {
    if (d != CUPTI_CB_DOMAIN_DRIVER_API || id >= CUPTI_DRIVER_TRACE_CBID_SIZE || s != (CUpti_SubscriberHandle)&cb_fn) return CUPTI_ERROR_INVALID_PARAMETER;
    cb_on[id] = (unsigned char)(en != 0);
    return CUPTI_SUCCESS;
}

/* ---- call counters */
static struct { const char *name; long n; } calls[128];
static void ckpt_gate(void);
static void hit(const char *name) {
    ckpt_gate();
    for (int i = 0; i < 128; i++) {
        if (!calls[i].name) { calls[i].name = name; calls[i].n = 1; return; }
        if (!strcmp(calls[i].name, name)) { calls[i].n++; return; }
    }
}
static atomic_long act_kernel_enables;   /* i15-burst: cuptiActivityEnable(CONCURRENT_KERNEL) calls */
API long fake_calls(const char *name) {
    if (!strcmp(name, "cuptiActivityEnable_kernel")) return atomic_load(&act_kernel_enables);
    for (int i = 0; i < 128 && calls[i].name; i++) if (!strcmp(calls[i].name, name)) return calls[i].n;
    return 0;
}

/* ---- kernels */
typedef void (*kfn)(void **params);
typedef struct fk { uint32_t magic; int is_kernel; const char *name; int np; size_t off[8], size[8]; kfn fn; } fk;
static void k_axpy(void **p) { /* axpy(const float *x, float *y, int n, struct {float *scale; int k}) */
    const float *x = *(const float **)p[0];
    float *y = *(float **)p[1];
    int n = *(int *)p[2];
    struct { float *s; int k; } st;
    memcpy(&st, p[3], sizeof st);
    for (int i = 0; i < n; i++) y[i] += *st.s * x[i] + (float)st.k;
}
static void k_scale(void **p) { /* scale(float *a, int n, float f) */
    float *a = *(float **)p[0];
    int n = *(int *)p[1];
    float f = *(float *)p[2];
    for (int i = 0; i < n; i++) a[i] *= f;
}
static fk K_axpy = {0xF00D, 0, "axpy", 4, {0, 8, 16, 24}, {8, 8, 4, 16}, k_axpy};
static fk K_scale = {0xF00D, 1, "_Z5scalePfif", 3, {0, 8, 12}, {8, 4, 4}, k_scale};
/* the per-context CUfunction of _Z5scalePfif that graph kernel nodes hold (not the CUkernel handle) */
static fk K_scale_fn = {0xF00D, 0, "_Z5scalePfif", 3, {0, 8, 12}, {8, 4, 4}, k_scale};
static fk K_hidden = {0xF00D, 1, "_Z6hiddenPKfPf", 2, {0, 8}, {8, 8}, NULL};
/* tma_copy(const __grid_constant__ CUtensorMap map, float *out): copies the first 64 bytes of the map's tensor
   (its address is the first quadword of the fake's map) */
static void k_tma(void **p) {
    uint64_t m[16];
    memcpy(m, p[0], sizeof m);
    float *out = *(float **)p[1];
    memcpy(out, (const void *)(uintptr_t)m[0], 64);
}
static fk K_tma = {0xF00D, 0, "tma_copy", 2, {0, 128}, {128, 8}, k_tma};
/* i15-final: wide_meta(float *y, struct meta m): a by-value struct of FAKE_WIDE_KP bytes (default 3000; PyTorch's
   multi-tensor kernels take 3-4 KiB), its size read when the function is looked up; does nothing */
static fk K_wide = {0xF00D, 0, "wide_meta", 2, {0, 16}, {8, 3000}, NULL};
/* i15-timing: the recorder's own empty probe kernel (rec_probe.c), loaded from PTX; FAKE_CUDA_NO_PROBE=1 refuses it */
static fk K_probe = {0xF00D, 0, "phos_timing_probe", 0, {0}, {0}, NULL};
API CUkernel fake_hidden_kernel(void) { return (CUkernel)&K_hidden; }

/* ---- device memory */
static struct { uintptr_t p; size_t n; } allocs[1024];
static int nalloc;
static int is_dev(uintptr_t p) {
    for (int i = 0; i < nalloc; i++) if (p >= allocs[i].p && p < allocs[i].p + allocs[i].n) return 1;
    return 0;
}
/* i15-shapes: a fake Compute Sanitizer (tests/fake_sanitizer.c), when the process has one, hears of allocations,
   launches (before and after, like its LAUNCH_BEGIN/END callbacks inside the real call) and stream synchronisations */
static pthread_mutex_t fake_san_mu = PTHREAD_MUTEX_INITIALIZER;
static void *fake_san(const char *name) {   /* looked up once per name: the process has the fake from its start or never */
    static struct { const char *name; void *p; } cache[4];
    static int n;
    pthread_mutex_lock(&fake_san_mu);
    void *p = NULL;
    int i = 0;
    while (i < n && strcmp(cache[i].name, name)) i++;
    if (i < n) p = cache[i].p;
    else {
        p = dlsym(RTLD_DEFAULT, name);
        if (n < 4) { cache[n].name = name; cache[n].p = p; n++; }
    }
    pthread_mutex_unlock(&fake_san_mu);
    return p;
}
static CUdeviceptr dev_alloc(size_t n) {
    void *p = calloc(1, n ? n : 1);
    void (*sa)(uint64_t, uint64_t) = (void (*)(uint64_t, uint64_t))fake_san("fake_sanitizer_alloc");   /* i15-shapes */
    if (sa) sa((uint64_t)(uintptr_t)p, n);
    if (nalloc < 1024) { allocs[nalloc].p = (uintptr_t)p; allocs[nalloc].n = n; nalloc++; }
    return (CUdeviceptr)(uintptr_t)p;
}

static void ckpt_publish(void);
/* like the driver: the first cuInit loads CUDA_INJECTION64_PATH and calls its InitializeInjection */
API CUresult cuInit(unsigned f) {
    static int injected;
    hit("cuInit");
    ckpt_publish();
    const char *inj = getenv("CUDA_INJECTION64_PATH");
    if (inj && *inj && !__atomic_exchange_n(&injected, 1, __ATOMIC_SEQ_CST)) {
        void *h = dlopen(inj, RTLD_NOW | RTLD_LOCAL);
        int (*init)(void) = h ? (int (*)(void))dlsym(h, "InitializeInjection") : NULL;
        if (!init) fprintf(stderr, "fake libcuda: cannot inject %s: %s\n", inj, h ? "no InitializeInjection" : dlerror());
        else { hit("InitializeInjection"); init(); }
    }
    return CUDA_SUCCESS;
}
FAKE_CB(cuDriverGetVersion, (int *v), (v)) { *v = 13000; return CUDA_SUCCESS; }
FAKE_CB(cuDeviceGet, (CUdevice *d, int o), (d, o)) { *d = o; return CUDA_SUCCESS; }
FAKE_CB(cuDeviceGetName, (char *n, int len, CUdevice d), (n, len, d)) { snprintf(n, (size_t)len, "Fake GPU"); return CUDA_SUCCESS; }
FAKE_CB(cuDeviceGetAttribute, (int *v, CUdevice_attribute a, CUdevice d), (v, a, d)) {
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
    return CUDA_SUCCESS;
}
FAKE_CB(cuDeviceTotalMem_v2, (size_t *b, CUdevice d), (b, d)) { *b = (size_t)1 << 30; return CUDA_SUCCESS; }
static int ctx_dummy;
FAKE_CB(cuCtxGetCurrent, (CUcontext *c), (c)) { *c = (CUcontext)&ctx_dummy; return CUDA_SUCCESS; }
FAKE_CB(cuCtxSetCurrent, (CUcontext c), (c)) { return CUDA_SUCCESS; }
static int export_table[4];
API CUresult cuGetExportTable(const void **t, const CUuuid *id) { hit("cuGetExportTable"); *t = export_table; return CUDA_SUCCESS; }

FAKE_CB(cuMemAlloc, (unsigned int *p, unsigned int n), (p, n)) { hit("cuMemAlloc"); *p = 0x1000; return CUDA_SUCCESS; } /* v1 ABI */
FAKE_CB(cuMemAlloc_v2, (CUdeviceptr *p, size_t n), (p, n)) { hit("cuMemAlloc_v2"); *p = dev_alloc(n); return CUDA_SUCCESS; }
FAKE_CB(cuMemFree_v2, (CUdeviceptr p), (p)) { hit("cuMemFree_v2"); return CUDA_SUCCESS; }
FAKE_CB(cuMemAllocAsync, (CUdeviceptr *p, size_t n, CUstream s), (p, n, s)) { hit("cuMemAllocAsync"); *p = dev_alloc(n); return CUDA_SUCCESS; }
FAKE_CB(cuMemAllocAsync_ptsz, (CUdeviceptr *p, size_t n, CUstream s), (p, n, s)) { hit("cuMemAllocAsync_ptsz"); *p = dev_alloc(n); return CUDA_SUCCESS; }
FAKE_CB(cuMemFreeAsync, (CUdeviceptr p, CUstream s), (p, s)) { hit("cuMemFreeAsync"); return CUDA_SUCCESS; }
FAKE_CB(cuMemFreeAsync_ptsz, (CUdeviceptr p, CUstream s), (p, s)) { hit("cuMemFreeAsync_ptsz"); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyHtoD_v2, (CUdeviceptr d, const void *s, size_t n), (d, s, n)) { hit("cuMemcpyHtoD_v2"); memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyHtoD_v2_ptds, (CUdeviceptr d, const void *s, size_t n), (d, s, n)) { hit("cuMemcpyHtoD_v2_ptds"); memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyDtoH_v2, (void *d, CUdeviceptr s, size_t n), (d, s, n)) { hit("cuMemcpyDtoH_v2"); memcpy(d, (void *)(uintptr_t)s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyHtoDAsync_v2, (CUdeviceptr d, const void *s, size_t n, CUstream st), (d, s, n, st)) { hit("cuMemcpyHtoDAsync_v2"); memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyAsync, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st), (d, s, n, st)) { hit("cuMemcpyAsync"); memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemsetD32_v2, (CUdeviceptr d, unsigned v, size_t n), (d, v, n)) {
    hit("cuMemsetD32_v2");
    for (size_t i = 0; i < n; i++) ((unsigned *)(uintptr_t)d)[i] = v;
    return CUDA_SUCCESS;
}
FAKE_CB(cuPointerGetAttribute, (void *data, CUpointer_attribute a, CUdeviceptr p), (data, a, p)) {
    if (a != CU_POINTER_ATTRIBUTE_MEMORY_TYPE) return CUDA_ERROR_INVALID_VALUE;
    if (!is_dev((uintptr_t)p)) return CUDA_ERROR_INVALID_VALUE; /* like unregistered host memory */
    *(unsigned *)data = CU_MEMORYTYPE_DEVICE;
    return CUDA_SUCCESS;
}

/* ---- modules */
static int mod_dummy, lib_dummy, libmod_dummy;
FAKE_CB(cuLibraryGetModule, (CUmodule *m, CUlibrary l), (m, l)) { *m = (CUmodule)&libmod_dummy; return CUDA_SUCCESS; }
static int probe_ptx_loaded;   /* i15-timing: a PTX image with the recorder's probe entry was loaded */
FAKE_CB(cuModuleLoadData, (CUmodule *m, const void *img), (m, img)) {
    hit("cuModuleLoadData");
    if (img && strstr((const char *)img, ".entry phos_timing_probe")) probe_ptx_loaded = 1;
    *m = (CUmodule)&mod_dummy;
    return CUDA_SUCCESS;
}
FAKE_CB(cuModuleGetFunction, (CUfunction *f, CUmodule m, const char *name), (f, m, name)) {
    if (!strcmp(name, "tma_copy")) { *f = (CUfunction)&K_tma; return CUDA_SUCCESS; }
    if (!strcmp(name, "wide_meta")) {   /* i15-final */
        if (getenv("FAKE_WIDE_KP")) K_wide.size[1] = (size_t)atol(getenv("FAKE_WIDE_KP"));
        *f = (CUfunction)&K_wide;
        return CUDA_SUCCESS;
    }
    if (!strcmp(name, "phos_timing_probe") && m == (CUmodule)&mod_dummy && probe_ptx_loaded) {
        if (getenv("FAKE_CUDA_NO_PROBE")) return CUDA_ERROR_NOT_FOUND;
        *f = (CUfunction)&K_probe;
        return CUDA_SUCCESS;
    }
    if (strcmp(name, "axpy")) return CUDA_ERROR_NOT_FOUND;
    *f = (CUfunction)&K_axpy;
    return CUDA_SUCCESS;
}
FAKE_CB(cuFuncGetModule, (CUmodule *m, CUfunction f), (m, f)) {
    if (((fk *)f)->is_kernel) return CUDA_ERROR_INVALID_HANDLE;
    *m = (CUmodule)(f == (CUfunction)&K_scale_fn ? (void *)&libmod_dummy : (void *)&mod_dummy);
    return CUDA_SUCCESS;
}
FAKE_CB(cuLibraryLoadData, (CUlibrary *l, const void *code, CUjit_option *jo, void **jv, unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl), (l, code, jo, jv, nj, lo, lv, nl)) {
    hit("cuLibraryLoadData");
    *l = (CUlibrary)&lib_dummy;
    return CUDA_SUCCESS;
}
FAKE_CB(cuLibraryGetKernel, (CUkernel *k, CUlibrary l, const char *name), (k, l, name)) {
    if (strcmp(name, K_scale.name)) return CUDA_ERROR_NOT_FOUND;
    *k = (CUkernel)&K_scale;
    return CUDA_SUCCESS;
}
FAKE_CB(cuKernelGetLibrary, (CUlibrary *l, CUkernel k), (l, k)) { *l = (CUlibrary)&lib_dummy; return CUDA_SUCCESS; }
FAKE_CB(cuFuncGetName, (const char **n, CUfunction f), (n, f)) { if (((fk *)f)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; *n = ((fk *)f)->name; return CUDA_SUCCESS; }
FAKE_CB(cuKernelGetName, (const char **n, CUkernel k), (n, k)) { if (!((fk *)k)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; *n = ((fk *)k)->name; return CUDA_SUCCESS; }
static CUresult param_info(fk *f, size_t i, size_t *o, size_t *s) {
    if (i >= (size_t)f->np) return CUDA_ERROR_INVALID_VALUE;
    *o = f->off[i];
    *s = f->size[i];
    return CUDA_SUCCESS;
}
FAKE_CB(cuFuncGetParamInfo, (CUfunction f, size_t i, size_t *o, size_t *s), (f, i, o, s)) { if (((fk *)f)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; return param_info((fk *)f, i, o, s); }
FAKE_CB(cuKernelGetParamInfo, (CUkernel k, size_t i, size_t *o, size_t *s), (k, i, o, s)) { if (!((fk *)k)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; return param_info((fk *)k, i, o, s); }

/* ---- streams, events, capture, graphs */
typedef struct { fk *f; unsigned d[7]; uint8_t buf[64]; void *pp[8]; } gnode;
typedef struct { int n; gnode nodes[16]; } fgraph;
typedef struct { int id; fgraph *capture; } fstream;
static fstream streams[16];
static int nstreams;
static fgraph graphs[8];
static int ngraphs;
static uint64_t fake_clock;
typedef struct { uint64_t t; volatile uint32_t *gate; uint32_t gate_val; } fevent;
/* i15-cost2: cuStreamWaitValue32 (GEQ, cyclic) on host-mapped memory: an event recorded behind a wait whose word is
 * still below the value is not complete (cuEventQuery NOT_READY, cuEventSynchronize waits up to 2 s) until the host
 * stores the value; FAKE_CUDA_NO_STREAM_MEMOPS=1 answers CUDA_ERROR_NOT_SUPPORTED */
static struct { CUstream s; volatile uint32_t *addr; uint32_t val; } swait[16];
static int gate_open_(volatile uint32_t *a, uint32_t v) { return !a || (int32_t)(*a - v) >= 0; }

FAKE_CB(cuStreamCreate, (CUstream *s, unsigned f), (s, f)) { hit("cuStreamCreate"); streams[nstreams].id = nstreams + 1; *s = (CUstream)&streams[nstreams++]; return CUDA_SUCCESS; }
FAKE_CB(cuStreamDestroy_v2, (CUstream s), (s)) { return CUDA_SUCCESS; }
static fstream *fs(CUstream s) { return ((uintptr_t)s > 2) ? (fstream *)s : NULL; }
FAKE_CB(cuStreamIsCapturing, (CUstream s, CUstreamCaptureStatus *st), (s, st)) {
    *st = (fs(s) && fs(s)->capture) ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}
static CUresult internal_stream_sync(CUstream s) {
    /* an internal entry point raises the callback of the API it implements */
    cuStreamSynchronize_params p_ = {s};
    uint32_t c_ = __atomic_add_fetch(&cb_corr, 1, __ATOMIC_RELAXED);
    cb_site(CUPTI_API_ENTER, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, "cuStreamSynchronize", &p_, NULL, c_);
    hit("internal_stream_sync");
    CUresult r_ = CUDA_SUCCESS;
    cb_site(CUPTI_API_EXIT, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, "cuStreamSynchronize", &p_, &r_, c_);
    return r_;
}
FAKE_CB(cuStreamSynchronize, (CUstream s), (s)) {
    hit("cuStreamSynchronize");
    void (*ss)(CUstream) = (void (*)(CUstream))fake_san("fake_sanitizer_stream_sync");   /* i15-shapes */
    if (ss) ss(s);
    return CUDA_SUCCESS;
}
FAKE_CB(cuStreamWaitEvent, (CUstream s, CUevent e, unsigned f), (s, e, f)) { hit("cuStreamWaitEvent"); return CUDA_SUCCESS; }
FAKE_CB(cuEventCreate, (CUevent *e, unsigned f), (e, f)) { *e = (CUevent)calloc(1, sizeof(fevent)); return CUDA_SUCCESS; }
FAKE_CB(cuEventDestroy_v2, (CUevent e), (e)) { free(e); return CUDA_SUCCESS; }
FAKE_CB(cuEventRecord, (CUevent e, CUstream s), (e, s)) {
    fevent *fe = (fevent *)e;
    fe->t = ++fake_clock * 1000;
    fe->gate = NULL;
    for (int i = 0; i < 16; i++)
        if (swait[i].addr && swait[i].s == s) {
            if (gate_open_(swait[i].addr, swait[i].val)) swait[i].addr = NULL;
            else { fe->gate = swait[i].addr; fe->gate_val = swait[i].val; }
        }
    return CUDA_SUCCESS;
}
FAKE_CB(cuStreamWaitValue32_v2, (CUstream s, CUdeviceptr a, cuuint32_t v, unsigned f), (s, a, v, f)) {
    hit("cuStreamWaitValue32_v2");
    if (getenv("FAKE_CUDA_NO_STREAM_MEMOPS")) return CUDA_ERROR_NOT_SUPPORTED;
    if (f != CU_STREAM_WAIT_VALUE_GEQ || !a) return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < 16; i++)
        if (!swait[i].addr || swait[i].s == s || gate_open_(swait[i].addr, swait[i].val)) {
            swait[i].s = s; swait[i].addr = (volatile uint32_t *)(uintptr_t)a; swait[i].val = v;
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_OUT_OF_MEMORY;
}
API CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags) {
    hit("cuMemHostAlloc");
    *p = calloc(1, n ? n : 1);
    return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned flags) {
    hit("cuMemHostGetDevicePointer_v2");
    *d = (CUdeviceptr)(uintptr_t)p;   /* unified addressing: the same address */
    return CUDA_SUCCESS;
}
FAKE_CB(cuEventQuery, (CUevent e), (e)) {
    static int blocked;
    hit("cuEventQuery");
    const char *b = getenv("FAKE_CUDA_QUERY_BLOCK_MS");
    if (b && !__atomic_exchange_n(&blocked, 1, __ATOMIC_SEQ_CST)) {
        long ms = atol(b);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return gate_open_(((fevent *)e)->gate, ((fevent *)e)->gate_val) ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
FAKE_CB(cuEventSynchronize, (CUevent e), (e)) {
    for (int i = 0; i < 2000 && !gate_open_(((fevent *)e)->gate, ((fevent *)e)->gate_val); i++) usleep(1000);
    return gate_open_(((fevent *)e)->gate, ((fevent *)e)->gate_val) ? CUDA_SUCCESS : CUDA_ERROR_LAUNCH_TIMEOUT;
}
FAKE_CB(cuEventElapsedTime_v2, (float *ms, CUevent a, CUevent b), (ms, a, b)) {
    *ms = (float)((double)((int64_t)((fevent *)b)->t - (int64_t)((fevent *)a)->t) / 1e6);
    return CUDA_SUCCESS;
}
FAKE_CB(cuStreamBeginCapture_v2, (CUstream s, CUstreamCaptureMode m), (s, m)) {
    if (!fs(s)) return CUDA_ERROR_INVALID_VALUE;
    fs(s)->capture = &graphs[ngraphs++];
    return CUDA_SUCCESS;
}
FAKE_CB(cuStreamEndCapture, (CUstream s, CUgraph *g), (s, g)) {
    if (!fs(s) || !fs(s)->capture) return CUDA_ERROR_INVALID_VALUE;
    *g = (CUgraph)fs(s)->capture;
    fs(s)->capture = NULL;
    return CUDA_SUCCESS;
}
FAKE_CB(cuGraphInstantiateWithFlags, (CUgraphExec *e, CUgraph g, unsigned long long f), (e, g, f)) { *e = (CUgraphExec)g; return CUDA_SUCCESS; }
FAKE_CB(cuGraphGetNodes, (CUgraph g, CUgraphNode *nodes, size_t *n), (g, nodes, n)) {
    fgraph *G = (fgraph *)g;
    if (nodes) for (int i = 0; i < G->n && (size_t)i < *n; i++) nodes[i] = (CUgraphNode)&G->nodes[i];
    *n = (size_t)G->n;
    return CUDA_SUCCESS;
}
FAKE_CB(cuGraphNodeGetType, (CUgraphNode n, CUgraphNodeType *t), (n, t)) { *t = CU_GRAPH_NODE_TYPE_KERNEL; return CUDA_SUCCESS; }
FAKE_CB(cuGraphKernelNodeGetParams_v2, (CUgraphNode n, CUDA_KERNEL_NODE_PARAMS *p), (n, p)) {
    gnode *g = (gnode *)n;
    memset(p, 0, sizeof *p);
    if (g->f == &K_scale) p->func = (CUfunction)&K_scale_fn; else if (g->f->is_kernel) p->kern = (CUkernel)g->f; else p->func = (CUfunction)g->f;
    p->gridDimX = g->d[0]; p->gridDimY = g->d[1]; p->gridDimZ = g->d[2];
    p->blockDimX = g->d[3]; p->blockDimY = g->d[4]; p->blockDimZ = g->d[5];
    p->sharedMemBytes = g->d[6];
    p->kernelParams = g->pp;
    return CUDA_SUCCESS;
}

static CUresult do_launch(fk *f, const unsigned *d, CUstream s, void **kp, void **extra) {
    if (!f || f->magic != 0xF00D) return CUDA_ERROR_INVALID_HANDLE;
    if (f == &K_probe) {   /* i15-timing; FAKE_CUDA_SLOW_PROBE=k: every k-th probe runs 5000 ns longer */
        static long nprobe;
        hit("probe_launch");
        const char *k = getenv("FAKE_CUDA_SLOW_PROBE");
        if (k && atol(k) > 0 && ++nprobe % atol(k) == 0) fake_clock += 5;
    }
    void *pp[8];
    uint8_t tmp[64];
    if (extra) { /* parameter buffer: rebuild pointers into it */
        uint8_t *buf = NULL;
        for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
        if (!buf) return CUDA_ERROR_INVALID_VALUE;
        for (int i = 0; i < f->np; i++) pp[i] = buf + f->off[i];
        kp = pp;
    }
    if (fs(s) && fs(s)->capture) {
        fgraph *G = fs(s)->capture;
        gnode *g = &G->nodes[G->n++];
        g->f = f;
        memcpy(g->d, d, 7 * sizeof(unsigned));
        for (int i = 0; i < f->np; i++) { memcpy(g->buf + f->off[i], kp[i], f->size[i]); g->pp[i] = g->buf + f->off[i]; }
        return CUDA_SUCCESS;
    }
    (void)tmp;
    /* i15-shapes: the fake sanitizer's launch callbacks around the launch */
    void (*sl)(int, void *, void *, const char *, const unsigned *, CUstream) =
        (void (*)(int, void *, void *, const char *, const unsigned *, CUstream))fake_san("fake_sanitizer_launch");
    void *mod = f == &K_scale_fn ? (void *)&libmod_dummy : (void *)&mod_dummy;
    if (sl) sl(0, f, mod, f->name, d, s);
    if (f->fn) f->fn(kp);
    if (sl) sl(1, f, mod, f->name, d, s);
    return CUDA_SUCCESS;
}
FAKE_CB(cuLaunchKernel, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream s, void **kp, void **ex), (f, gx, gy, gz, bx, by, bz, sh, s, kp, ex)) {
    hit("cuLaunchKernel");
    unsigned d[7] = {gx, gy, gz, bx, by, bz, sh};
    return do_launch((fk *)f, d, s, kp, ex);
}
FAKE_CB(cuLaunchKernel_ptsz, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream s, void **kp, void **ex), (f, gx, gy, gz, bx, by, bz, sh, s, kp, ex)) {
    hit("cuLaunchKernel_ptsz");
    unsigned d[7] = {gx, gy, gz, bx, by, bz, sh};
    return do_launch((fk *)f, d, s, kp, ex);
}
FAKE_CB(cuLaunchKernelEx, (const CUlaunchConfig *c, CUfunction f, void **kp, void **ex), (c, f, kp, ex)) {
    hit("cuLaunchKernelEx");
    unsigned d[7] = {c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ, c->sharedMemBytes};
    return do_launch((fk *)f, d, c->hStream, kp, ex);
}
FAKE_CB(cuGraphLaunch, (CUgraphExec e, CUstream s), (e, s)) {
    hit("cuGraphLaunch");
    fgraph *G = (fgraph *)e;
    for (int i = 0; i < G->n; i++) if (G->nodes[i].f->fn) G->nodes[i].f->fn(G->nodes[i].pp);
    return CUDA_SUCCESS;
}

/* ---- CUDA arrays (host memory; pitch = width * element bytes), host functions, tensor maps, write-value (issue 16) */
typedef struct { uint32_t magic; size_t w, h, d, esize, bytes; uint8_t *mem; } farr;
static size_t fmt_bytes(CUarray_format f) { return f == CU_AD_FORMAT_FLOAT || f == CU_AD_FORMAT_UNSIGNED_INT32 ? 4 : f == CU_AD_FORMAT_UNSIGNED_INT16 || f == CU_AD_FORMAT_HALF ? 2 : 1; }
static farr *mk_arr(size_t w, size_t h, size_t d, size_t esize) {
    farr *a = calloc(1, sizeof *a);
    a->magic = 0xA77A; a->w = w; a->h = h ? h : 1; a->d = d ? d : 1; a->esize = esize;
    a->bytes = a->w * a->h * a->d * esize;
    a->mem = calloc(1, a->bytes);
    return a;
}
FAKE_CB(cuArrayCreate_v2, (CUarray *a, const CUDA_ARRAY_DESCRIPTOR *d), (a, d)) {
    hit("cuArrayCreate_v2");
    *a = (CUarray)mk_arr(d->Width, d->Height, 0, fmt_bytes(d->Format) * d->NumChannels);
    return CUDA_SUCCESS;
}
FAKE_CB(cuArray3DCreate_v2, (CUarray *a, const CUDA_ARRAY3D_DESCRIPTOR *d), (a, d)) {
    hit("cuArray3DCreate_v2");
    *a = (CUarray)mk_arr(d->Width, d->Height, d->Depth, fmt_bytes(d->Format) * d->NumChannels);
    return CUDA_SUCCESS;
}
FAKE_CB(cuArrayDestroy, (CUarray a), (a)) { hit("cuArrayDestroy"); free(((farr *)a)->mem); free(a); return CUDA_SUCCESS; }
static uint8_t *amem(CUarray a, size_t off, size_t n) { farr *f = (farr *)a; return (f && f->magic == 0xA77A && off + n <= f->bytes) ? f->mem + off : NULL; }
#define ARR_OR_FAIL(p) do { if (!(p)) return CUDA_ERROR_INVALID_VALUE; } while (0)
FAKE_CB(cuMemcpyHtoA_v2, (CUarray d, size_t off, const void *s, size_t n), (d, off, s, n)) { hit("cuMemcpyHtoA_v2"); uint8_t *m = amem(d, off, n); ARR_OR_FAIL(m); memcpy(m, s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyAtoH_v2, (void *d, CUarray s, size_t off, size_t n), (d, s, off, n)) { hit("cuMemcpyAtoH_v2"); uint8_t *m = amem(s, off, n); ARR_OR_FAIL(m); memcpy(d, m, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyDtoA_v2, (CUarray d, size_t off, CUdeviceptr s, size_t n), (d, off, s, n)) { hit("cuMemcpyDtoA_v2"); uint8_t *m = amem(d, off, n); ARR_OR_FAIL(m); memcpy(m, (void *)(uintptr_t)s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyAtoD_v2, (CUdeviceptr d, CUarray s, size_t off, size_t n), (d, s, off, n)) { hit("cuMemcpyAtoD_v2"); uint8_t *m = amem(s, off, n); ARR_OR_FAIL(m); memcpy((void *)(uintptr_t)d, m, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyAtoA_v2, (CUarray d, size_t doff, CUarray s, size_t soff, size_t n), (d, doff, s, soff, n)) {
    hit("cuMemcpyAtoA_v2"); uint8_t *a = amem(d, doff, n), *b = amem(s, soff, n); ARR_OR_FAIL(a && b); memmove(a, b, n); return CUDA_SUCCESS;
}
FAKE_CB(cuMemcpyHtoAAsync_v2, (CUarray d, size_t off, const void *s, size_t n, CUstream st), (d, off, s, n, st)) { hit("cuMemcpyHtoAAsync_v2"); uint8_t *m = amem(d, off, n); ARR_OR_FAIL(m); memcpy(m, s, n); return CUDA_SUCCESS; }
FAKE_CB(cuMemcpyAtoHAsync_v2, (void *d, CUarray s, size_t off, size_t n, CUstream st), (d, s, off, n, st)) { hit("cuMemcpyAtoHAsync_v2"); uint8_t *m = amem(s, off, n); ARR_OR_FAIL(m); memcpy(d, m, n); return CUDA_SUCCESS; }
/* 2D copies between host, device and array operands (an array row is width * element bytes long) */
static uint8_t *side2d(CUmemorytype t, const void *host, CUdeviceptr dev, CUarray arr, size_t x, size_t y, size_t pitch) {
    if (t == CU_MEMORYTYPE_ARRAY) { farr *f = (farr *)arr; return f->mem + y * f->w * f->esize + x; }
    return (uint8_t *)(t == CU_MEMORYTYPE_HOST ? (uintptr_t)host : (uintptr_t)dev) + y * pitch + x;
}
FAKE_CB(cuMemcpy2D_v2, (const CUDA_MEMCPY2D *c), (c)) {
    hit("cuMemcpy2D_v2");
    size_t sp = c->srcMemoryType == CU_MEMORYTYPE_ARRAY ? ((farr *)c->srcArray)->w * ((farr *)c->srcArray)->esize : c->srcPitch;
    size_t dp = c->dstMemoryType == CU_MEMORYTYPE_ARRAY ? ((farr *)c->dstArray)->w * ((farr *)c->dstArray)->esize : c->dstPitch;
    for (size_t r = 0; r < c->Height; r++)
        memcpy(side2d(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY + r, dp),
               side2d(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY + r, sp), c->WidthInBytes);
    (void)sp;
    return CUDA_SUCCESS;
}
FAKE_CB(cuLaunchHostFunc, (CUstream st, CUhostFn fn, void *ud), (st, fn, ud)) { hit("cuLaunchHostFunc"); fn(ud); return CUDA_SUCCESS; }
/* like the H100's driver, it hands CUPTI's exit callback a parameter struct whose callback and data are its own
   trampoline and record: a recorder must take them at the entry */
static void fake_trampoline(CUstream st, CUresult r, void *d) { (void)st; (void)r; (void)d; }
static int fake_record;
API CUresult cuStreamAddCallback(CUstream st, CUstreamCallback cb, void *ud, unsigned f) {
    cuStreamAddCallback_params p_ = {st, cb, ud, f};
    uint32_t c_ = __atomic_add_fetch(&cb_corr, 1, __ATOMIC_RELAXED);
    cb_site(CUPTI_API_ENTER, CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback, "cuStreamAddCallback", &p_, NULL, c_);
    hit("cuStreamAddCallback");
    cb(st, CUDA_SUCCESS, ud);
    p_.callback = fake_trampoline;
    p_.userData = &fake_record;
    CUresult r_ = CUDA_SUCCESS;
    cb_site(CUPTI_API_EXIT, CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback, "cuStreamAddCallback", &p_, &r_, c_);
    return r_;
}
/* the fake's 128-byte map: address, data type, rank, dims, strides, box, then a hash; the real layout is opaque */
FAKE_CB(cuTensorMapEncodeTiled, (CUtensorMap *m, CUtensorMapDataType dt, cuuint32_t rank, void *ga, const cuuint64_t *gd, const cuuint64_t *gs,
        const cuuint32_t *box, const cuuint32_t *es, CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob),
        (m, dt, rank, ga, gd, gs, box, es, il, sw, l2, oob)) {
    hit("cuTensorMapEncodeTiled");
    if (!rank || rank > 5 || ((uintptr_t)ga & 15)) return CUDA_ERROR_INVALID_VALUE;
    uint64_t *q = m->opaque;
    memset(m, 0, sizeof *m);
    q[0] = (uint64_t)(uintptr_t)ga; q[1] = (uint64_t)dt | (uint64_t)rank << 8 | (uint64_t)sw << 16;
    for (cuuint32_t i = 0; i < rank; i++) { q[2 + i] = gd[i]; q[7 + i] = box[i]; if (i + 1 < rank) q[12 - 0 + i] = gs[i]; }
    q[15] = 0x7E45011A9ull ^ q[0];
    return CUDA_SUCCESS;
}
FAKE_CB(cuStreamWriteValue32_v2, (CUstream st, CUdeviceptr a, cuuint32_t v, unsigned f), (st, a, v, f)) { hit("cuStreamWriteValue32_v2"); *(uint32_t *)(uintptr_t)a = v; return CUDA_SUCCESS; }
FAKE_CB(cuStreamWriteValue64_v2, (CUstream st, CUdeviceptr a, cuuint64_t v, unsigned f), (st, a, v, f)) { hit("cuStreamWriteValue64_v2"); *(uint64_t *)(uintptr_t)a = v; return CUDA_SUCCESS; }
FAKE_CB(cuGraphExecUpdate_v2, (CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo *i), (e, g, i)) { hit("cuGraphExecUpdate_v2"); return CUDA_SUCCESS; }

static void fake_internal(void) {}

/* ---- cuGetProcAddress */
typedef struct { const char *sym; int minver; int ptds; void *fn; } entry;
#define E(s, v, p, f) {s, v, p, (void *)(f)}
API CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int ver, cuuint64_t flags, CUdriverProcAddressQueryResult *st);
API CUresult cuGetProcAddress(const char *sym, void **pfn, int ver, cuuint64_t flags);
static const entry table[] = {
    /* later entries win when their version fits; per-thread entries only for the per-thread flag */
    E("cuGetProcAddress", 0, -1, cuGetProcAddress), E("cuGetProcAddress", 12000, -1, cuGetProcAddress_v2),
    E("cuMemAlloc", 0, -1, cuMemAlloc), E("cuMemAlloc", 3020, -1, cuMemAlloc_v2),
    E("cuLaunchKernel", 4000, 0, cuLaunchKernel), E("cuLaunchKernel", 7000, 1, cuLaunchKernel_ptsz),
    E("cuLaunchKernelEx", 11060, 0, cuLaunchKernelEx),
    E("cuMemcpyHtoD", 3020, 0, cuMemcpyHtoD_v2), E("cuMemcpyHtoD", 7000, 1, cuMemcpyHtoD_v2_ptds),
    E("cuMemcpyDtoH", 3020, -1, cuMemcpyDtoH_v2), E("cuMemcpyAsync", 4000, -1, cuMemcpyAsync),
    E("cuMemAllocAsync", 11020, 0, cuMemAllocAsync), E("cuMemAllocAsync", 11020, 1, cuMemAllocAsync_ptsz),
    E("cuMemFreeAsync", 11020, 0, cuMemFreeAsync), E("cuMemFreeAsync", 11020, 1, cuMemFreeAsync_ptsz),
    E("cuStreamSynchronize", 2000, -1, internal_stream_sync),
    E("cuGetExportTable", 3000, -1, cuGetExportTable), E("cuFakeInternal", 0, -1, fake_internal),
    E("cuInit", 2000, -1, cuInit), E("cuGraphInstantiate", 12000, -1, cuGraphInstantiateWithFlags),
};
API CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int ver, cuuint64_t flags, CUdriverProcAddressQueryResult *st) {
    hit("cuGetProcAddress_v2");
    int ptds = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    void *best = NULL;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!strcmp(table[i].sym, sym) && table[i].minver <= ver && (table[i].ptds < 0 || table[i].ptds == ptds || (!ptds && 0)))
            if (table[i].ptds != 1 || ptds) best = table[i].fn;
    if (st) *st = best ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    *pfn = best;
    return best ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
API CUresult cuGetProcAddress(const char *sym, void **pfn, int ver, cuuint64_t flags) {
    hit("cuGetProcAddress");
    return cuGetProcAddress_v2(sym, pfn, ver, flags, NULL);
}

/* ---- checkpoint API (i14-ckpt: begin)
 * The real driver acts on another process by pid (cuda.md section 7). Here each process that calls cuInit maps a
 * page, PHOS_FAKE_CUDA_DIR (default /tmp/phos-fake-cuda-UID) / PID.ckpt, holding its CUprocessState; a controller
 * (the checkpoint helper over this fake) maps the target's page and moves the state along the driver's transitions:
 *   Lock: RUNNING -> LOCKED (else CUDA_ERROR_ILLEGAL_STATE); Checkpoint: LOCKED -> CHECKPOINTED; Restore:
 *   CHECKPOINTED -> LOCKED; Unlock: LOCKED -> RUNNING. A process without a page (it never called cuInit):
 *   CUDA_ERROR_NOT_INITIALIZED; a pid without a process: CUDA_ERROR_OPERATING_SYSTEM (what driver 580 answers).
 *   The target's CUDA calls block while its state is not RUNNING.
 * Refusals are properties of the target, set in its environment at cuInit (PHOS_FAKE_CKPT_REFUSE) or later through
 * fake_checkpoint_refuse(): "STEP:CODE[,STEP:CODE]" with STEP lock|checkpoint|restore|unlock|state, CODE a CUresult
 * number, or "restore:fail" (the restore breaks the process: state FAILED, CUDA_ERROR_UNKNOWN). A refused Checkpoint
 * leaves the process LOCKED, as the real driver does with managed memory. A refused Lock with CUDA_ERROR_NOT_READY
 * waits the lock's timeoutMs first (the target was busy). PHOS_FAKE_CKPT_MS (target's environment, default 30): how
 * long the Checkpoint takes; the Restore takes half, Lock and Unlock about 1 ms. */
typedef struct {
    _Atomic int state;      /* CUprocessState */
    _Atomic int cupti;      /* i14-cupti: CUPTI activity kinds enabled + 1 while subscribed (Lock refuses: 801) */
    _Atomic int cupti_used; /* i14-cupti: CUPTI was subscribed or recording once: driver 580 refuses the Lock for good */
    int cupti_releasable;   /* PHOS_FAKE_CUPTI_RELEASABLE=1: a driver that locks again once CUPTI is released */
    int pid;
    int ckpt_ms;
    _Atomic long checkpoints, restores;
    char refuse[256];
} ckpt_page;
static ckpt_page *my_page;
static char my_page_path[512];

static void ckpt_path(int pid, char *buf, size_t n) {
    const char *d = getenv("PHOS_FAKE_CUDA_DIR");
    char def[64];
    if (!d || !*d) { snprintf(def, sizeof def, "/tmp/phos-fake-cuda-%u", (unsigned)getuid()); d = def; }
    mkdir(d, 0700);
    snprintf(buf, n, "%s/%d.ckpt", d, pid);
}
static ckpt_page *ckpt_map(int pid, int create) {
    char path[512];
    ckpt_path(pid, path, sizeof path);
    int fd = open(path, create ? O_RDWR | O_CREAT | O_TRUNC : O_RDWR, 0600);
    if (fd < 0) return NULL;
    if (create && ftruncate(fd, sizeof(ckpt_page)) != 0) { close(fd); return NULL; }
    void *m = mmap(NULL, sizeof(ckpt_page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (create && m != MAP_FAILED) snprintf(my_page_path, sizeof my_page_path, "%s", path);
    return m == MAP_FAILED ? NULL : (ckpt_page *)m;
}
static void ckpt_unpublish(void) { if (my_page_path[0]) unlink(my_page_path); }
static void ckpt_publish(void) {
    if (my_page) return;
    ckpt_page *p = ckpt_map((int)getpid(), 1);
    if (!p) return;
    p->pid = (int)getpid();
    const char *ms = getenv("PHOS_FAKE_CKPT_MS");
    p->ckpt_ms = ms ? atoi(ms) : 30;
    const char *r = getenv("PHOS_FAKE_CKPT_REFUSE");
    snprintf(p->refuse, sizeof p->refuse, "%s", r ? r : "");
    atomic_store(&p->state, CU_PROCESS_STATE_RUNNING);
    const char *rel = getenv("PHOS_FAKE_CUPTI_RELEASABLE");
    p->cupti_releasable = rel && !strcmp(rel, "1");
    my_page = p;
    act_publish();
    atexit(ckpt_unpublish);
}
/* the target side: a CUDA call waits while the process is locked or checkpointed (FAILED: it stays blocked, too) */
static void ckpt_gate(void) {
    ckpt_page *p = my_page;
    if (!p) return;
    while (atomic_load(&p->state) != CU_PROCESS_STATE_RUNNING) {
        struct timespec t = {0, 500000};
        nanosleep(&t, NULL);
    }
}
API void fake_checkpoint_refuse(const char *spec) { if (my_page) snprintf(my_page->refuse, sizeof my_page->refuse, "%s", spec ? spec : ""); }
API long fake_checkpoint_count(void) { return my_page ? atomic_load(&my_page->checkpoints) : -1; }

static void sleep_ms(int ms) { struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L}; nanosleep(&t, NULL); }
/* the CUresult the target is set to answer STEP with (0: none; -1: "fail") */
static int refusal(ckpt_page *p, const char *step) {
    char spec[256];
    snprintf(spec, sizeof spec, "%s", p->refuse);
    for (char *save = NULL, *tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *c = strchr(tok, ':');
        if (!c) continue;
        *c = 0;
        if (strcmp(tok, step)) continue;
        return !strcmp(c + 1, "fail") ? -1 : atoi(c + 1);
    }
    return 0;
}
/* as the real driver 580 answered on the H100 (docs/gpu-checks.md, i14-ckpt): a pid without a process
   CUDA_ERROR_OPERATING_SYSTEM (its /proc entry cannot be read), a process that never initialised CUDA
   CUDA_ERROR_NOT_INITIALIZED */
static CUresult target(int pid, ckpt_page **out) {
    if (pid <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (kill(pid, 0) != 0 && errno == ESRCH) return CUDA_ERROR_OPERATING_SYSTEM;
    ckpt_page *p = ckpt_map(pid, 0);
    if (!p) return CUDA_ERROR_NOT_INITIALIZED;   /* alive but never initialised CUDA */
    if (p->pid != pid) { munmap(p, sizeof *p); return CUDA_ERROR_NOT_INITIALIZED; }
    *out = p;
    return CUDA_SUCCESS;
}
static CUresult step(int pid, const char *name, int from, int to, int ms, unsigned timeout_ms) {
    ckpt_page *p = NULL;
    CUresult r = target(pid, &p);
    if (r) return r;
    int code = refusal(p, name);
    /* i14-cupti: as driver 580 on the H100, a process with CUPTI activity recording on is not locked */
    if (code == 0 && !strcmp(name, "lock") && (atomic_load(&p->cupti) || (atomic_load(&p->cupti_used) && !p->cupti_releasable)))
        code = CUDA_ERROR_NOT_SUPPORTED;
    if (code == 0 && atomic_load(&p->state) != from) code = CUDA_ERROR_ILLEGAL_STATE;
    if (code == CUDA_ERROR_NOT_READY) sleep_ms((int)timeout_ms);
    if (code == -1) { sleep_ms(ms); atomic_store(&p->state, CU_PROCESS_STATE_FAILED); code = CUDA_ERROR_UNKNOWN; }
    if (code == 0) {
        sleep_ms(ms);
        if (to == CU_PROCESS_STATE_CHECKPOINTED) atomic_fetch_add(&p->checkpoints, 1);
        if (from == CU_PROCESS_STATE_CHECKPOINTED) atomic_fetch_add(&p->restores, 1);
        atomic_store(&p->state, to);
    }
    munmap(p, sizeof *p);
    return (CUresult)code;
}
API CUresult cuCheckpointProcessGetState(int pid, CUprocessState *state) {
    ckpt_page *p = NULL;
    CUresult r = target(pid, &p);
    if (r) return r;
    int code = refusal(p, "state");
    if (!code && state) *state = (CUprocessState)atomic_load(&p->state);
    munmap(p, sizeof *p);
    return (CUresult)(code > 0 ? code : 0);
}
API CUresult cuCheckpointProcessLock(int pid, CUcheckpointLockArgs *a) {
    return step(pid, "lock", CU_PROCESS_STATE_RUNNING, CU_PROCESS_STATE_LOCKED, 1, a ? a->timeoutMs : 0);
}
static int ckpt_ms_of(int pid) {
    ckpt_page *p = NULL;
    if (target(pid, &p)) return 0;
    int ms = p->ckpt_ms;
    munmap(p, sizeof *p);
    return ms;
}
API CUresult cuCheckpointProcessCheckpoint(int pid, CUcheckpointCheckpointArgs *a) {
    return step(pid, "checkpoint", CU_PROCESS_STATE_LOCKED, CU_PROCESS_STATE_CHECKPOINTED, ckpt_ms_of(pid), 0);
}
API CUresult cuCheckpointProcessRestore(int pid, CUcheckpointRestoreArgs *a) {
    return step(pid, "restore", CU_PROCESS_STATE_CHECKPOINTED, CU_PROCESS_STATE_LOCKED, ckpt_ms_of(pid) / 2, 0);
}
API CUresult cuCheckpointProcessUnlock(int pid, CUcheckpointUnlockArgs *a) {
    return step(pid, "unlock", CU_PROCESS_STATE_LOCKED, CU_PROCESS_STATE_RUNNING, 1, 0);
}
static const struct { int code; const char *name, *text; } errnames[] = {
    {0, "CUDA_SUCCESS", "no error"}, {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"}, {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM", "OS call failed or operation not supported on this OS"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", "the operation cannot be performed in the present state"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"}, {800, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"}, {909, "CUDA_ERROR_TIMEOUT", "timeout"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};
API CUresult cuGetErrorName(CUresult e, const char **s) {
    for (size_t i = 0; i < sizeof errnames / sizeof *errnames; i++) if (errnames[i].code == (int)e) { *s = errnames[i].name; return CUDA_SUCCESS; }
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}
API CUresult cuGetErrorString(CUresult e, const char **s) {
    for (size_t i = 0; i < sizeof errnames / sizeof *errnames; i++) if (errnames[i].code == (int)e) { *s = errnames[i].text; return CUDA_SUCCESS; }
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}
/* i14-ckpt: end */

/* i14-cupti: begin
 * CUPTI's activity API, enough for the recorder's CUPTI timing (rec_timing.c): kinds switched on and off, a record
 * per launch (CONCURRENT_KERNEL, its correlation id the one the driver-API callback saw, start/end on
 * cuptiGetTimestamp's clock = CLOCK_MONOTONIC) delivered through the registered buffer callbacks at
 * cuptiActivityFlushAll, cuptiFinalize. Like driver 580 on the H100 (measured, docs/gpu-checks.md block i14-cupti:
 * a process that called cuptiSubscribe or cuptiActivityEnable is refused the Lock with 801, and still so after its
 * kinds are disabled, it unsubscribed and CUPTI was finalized), the checkpoint page says whether CUPTI is on and
 * whether it ever was, and the Lock is refused with 801 when it ever was. PHOS_FAKE_CUPTI_RELEASABLE=1 in the
 * target's environment models a driver that lets go: then only while kinds are on or a subscriber is there. */
static CUpti_BuffersCallbackRequestFunc act_req;
static CUpti_BuffersCallbackCompleteFunc act_done;
static _Atomic int act_on[64];
static pthread_mutex_t act_mu = PTHREAD_MUTEX_INITIALIZER;
static CUpti_ActivityKernel10 *act_q;
static size_t act_n, act_cap;
static int act_kinds(void) { int n = 0; for (int i = 0; i < 64; i++) n += atomic_load(&act_on[i]) != 0; return n; }
static void act_publish(void) {
    if (!my_page) return;
    int n = act_kinds() + (cb_fn != NULL);
    atomic_store(&my_page->cupti, n);
    if (n) atomic_store(&my_page->cupti_used, 1);
}
static uint64_t act_now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec; }
static void act_launch(const char *name, uint32_t corr) {
    if (!atomic_load(&act_on[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]) || !strncmp(name, "cuLaunchHostFunc", 16)) return;
    pthread_mutex_lock(&act_mu);
    if (act_n == act_cap) {
        size_t nc = act_cap ? act_cap * 2 : 256;
        CUpti_ActivityKernel10 *nq = realloc(act_q, nc * sizeof *nq);
        if (nq) { act_q = nq; act_cap = nc; }
    }
    if (act_n < act_cap) {
        CUpti_ActivityKernel10 *k = &act_q[act_n++];
        memset(k, 0, sizeof *k);
        k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k->start = act_now();
        k->end = k->start + 5000;
        k->correlationId = corr;
    }
    pthread_mutex_unlock(&act_mu);
}
API CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done) {
    act_req = req; act_done = done;
    return CUPTI_SUCCESS;
}
API CUptiResult cuptiActivityEnable(CUpti_ActivityKind k) {
    if ((int)k <= 0 || (int)k >= 64) return CUPTI_ERROR_INVALID_KIND;
    if (k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) atomic_fetch_add(&act_kernel_enables, 1);
    atomic_store(&act_on[k], 1); act_publish();
    return CUPTI_SUCCESS;
}
API CUptiResult cuptiActivityDisable(CUpti_ActivityKind k) {
    if ((int)k <= 0 || (int)k >= 64) return CUPTI_ERROR_INVALID_KIND;
    atomic_store(&act_on[k], 0); act_publish();
    return CUPTI_SUCCESS;
}
API CUptiResult cuptiActivityFlushAll(uint32_t flag) {
    if (!act_req || !act_done) return CUPTI_SUCCESS;
    pthread_mutex_lock(&act_mu);
    size_t n = act_n;
    CUpti_ActivityKernel10 *q = act_q;
    act_q = NULL; act_n = act_cap = 0;
    pthread_mutex_unlock(&act_mu);
    for (size_t i = 0; i < n;) {
        uint8_t *buf = NULL; size_t size = 0, maxrec = 0;
        act_req(&buf, &size, &maxrec);
        if (!buf) break;
        size_t fit = size / sizeof *q, m = n - i < fit ? n - i : fit;
        memcpy(buf, q + i, m * sizeof *q);
        act_done(NULL, 0, buf, size, m * sizeof *q);
        i += m;
    }
    free(q);
    return CUPTI_SUCCESS;
}
API CUptiResult cuptiActivityGetNextRecord(uint8_t *buf, size_t valid, CUpti_Activity **rec) {
    uint8_t *next = *rec ? (uint8_t *)*rec + sizeof(CUpti_ActivityKernel10) : buf;
    if (next + sizeof(CUpti_ActivityKernel10) > buf + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *rec = (CUpti_Activity *)next;
    return CUPTI_SUCCESS;
}
API CUptiResult cuptiGetTimestamp(uint64_t *t) { *t = act_now(); return CUPTI_SUCCESS; }
API CUptiResult cuptiEnableDomain(uint32_t en, CUpti_SubscriberHandle s, CUpti_CallbackDomain d) {
    if (!en) memset(cb_on, 0, sizeof cb_on);
    return CUPTI_SUCCESS;
}
API CUptiResult cuptiFinalize(void) {
    if (act_kinds() || cb_fn) return CUPTI_ERROR_INVALID_OPERATION;   /* as CUPTI: kinds off and unsubscribed first */
    act_req = NULL; act_done = NULL;
    return CUPTI_SUCCESS;
}
/* names for the driver callbacks the recorder asks about: launches, copies, sets */
#define CBN(x) {CUPTI_DRIVER_TRACE_CBID_##x, #x}
static const struct { int id; const char *name; } cb_names[] = {
    CBN(cuLaunchKernel), CBN(cuLaunchKernel_ptsz), CBN(cuLaunchKernelEx), CBN(cuLaunchKernelEx_ptsz),
    CBN(cuMemcpyHtoD_v2), CBN(cuMemcpyDtoH_v2), CBN(cuMemcpyHtoDAsync_v2), CBN(cuMemcpyAsync), CBN(cuMemsetD32_v2),
};
API CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain d, uint32_t id, const char **name) {
    for (size_t i = 0; i < sizeof cb_names / sizeof *cb_names; i++) if ((uint32_t)cb_names[i].id == id) { *name = cb_names[i].name; return CUPTI_SUCCESS; }
    return CUPTI_ERROR_INVALID_PARAMETER;
}
/* i14-cupti: end */
