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
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#undef cuGetProcAddress
#undef cuMemAlloc

#define API __attribute__((visibility("default")))

/* ---- call counters */
static struct { const char *name; long n; } calls[128];
static void hit(const char *name) {
    for (int i = 0; i < 128; i++) {
        if (!calls[i].name) { calls[i].name = name; calls[i].n = 1; return; }
        if (!strcmp(calls[i].name, name)) { calls[i].n++; return; }
    }
}
API long fake_calls(const char *name) {
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
API CUkernel fake_hidden_kernel(void) { return (CUkernel)&K_hidden; }

/* ---- device memory */
static struct { uintptr_t p; size_t n; } allocs[1024];
static int nalloc;
static int is_dev(uintptr_t p) {
    for (int i = 0; i < nalloc; i++) if (p >= allocs[i].p && p < allocs[i].p + allocs[i].n) return 1;
    return 0;
}
static CUdeviceptr dev_alloc(size_t n) {
    void *p = calloc(1, n ? n : 1);
    if (nalloc < 1024) { allocs[nalloc].p = (uintptr_t)p; allocs[nalloc].n = n; nalloc++; }
    return (CUdeviceptr)(uintptr_t)p;
}

API CUresult cuInit(unsigned f) { hit("cuInit"); return CUDA_SUCCESS; }
API CUresult cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }
API CUresult cuDeviceGet(CUdevice *d, int o) { *d = o; return CUDA_SUCCESS; }
API CUresult cuDeviceGetName(char *n, int len, CUdevice d) { snprintf(n, (size_t)len, "Fake GPU"); return CUDA_SUCCESS; }
API CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
    return CUDA_SUCCESS;
}
API CUresult cuDeviceTotalMem_v2(size_t *b, CUdevice d) { *b = (size_t)1 << 30; return CUDA_SUCCESS; }
static int ctx_dummy;
API CUresult cuCtxGetCurrent(CUcontext *c) { *c = (CUcontext)&ctx_dummy; return CUDA_SUCCESS; }
API CUresult cuCtxSetCurrent(CUcontext c) { return CUDA_SUCCESS; }
static int export_table[4];
API CUresult cuGetExportTable(const void **t, const CUuuid *id) { hit("cuGetExportTable"); *t = export_table; return CUDA_SUCCESS; }

API CUresult cuMemAlloc(unsigned int *p, unsigned int n) { hit("cuMemAlloc"); *p = 0x1000; return CUDA_SUCCESS; } /* v1 ABI */
API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { hit("cuMemAlloc_v2"); *p = dev_alloc(n); return CUDA_SUCCESS; }
API CUresult cuMemFree_v2(CUdeviceptr p) { hit("cuMemFree_v2"); return CUDA_SUCCESS; }
API CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s) { hit("cuMemAllocAsync"); *p = dev_alloc(n); return CUDA_SUCCESS; }
API CUresult cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s) { hit("cuMemAllocAsync_ptsz"); *p = dev_alloc(n); return CUDA_SUCCESS; }
API CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s) { hit("cuMemFreeAsync"); return CUDA_SUCCESS; }
API CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s) { hit("cuMemFreeAsync_ptsz"); return CUDA_SUCCESS; }
API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { hit("cuMemcpyHtoD_v2"); memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr d, const void *s, size_t n) { hit("cuMemcpyHtoD_v2_ptds"); memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
API CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { hit("cuMemcpyDtoH_v2"); memcpy(d, (void *)(uintptr_t)s, n); return CUDA_SUCCESS; }
API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, CUstream st) { hit("cuMemcpyHtoDAsync_v2"); memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
API CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { hit("cuMemcpyAsync"); memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return CUDA_SUCCESS; }
API CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n) {
    hit("cuMemsetD32_v2");
    for (size_t i = 0; i < n; i++) ((unsigned *)(uintptr_t)d)[i] = v;
    return CUDA_SUCCESS;
}
API CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p) {
    if (a != CU_POINTER_ATTRIBUTE_MEMORY_TYPE) return CUDA_ERROR_INVALID_VALUE;
    if (!is_dev((uintptr_t)p)) return CUDA_ERROR_INVALID_VALUE; /* like unregistered host memory */
    *(unsigned *)data = CU_MEMORYTYPE_DEVICE;
    return CUDA_SUCCESS;
}

/* ---- modules */
static int mod_dummy, lib_dummy, libmod_dummy;
API CUresult cuLibraryGetModule(CUmodule *m, CUlibrary l) { *m = (CUmodule)&libmod_dummy; return CUDA_SUCCESS; }
API CUresult cuModuleLoadData(CUmodule *m, const void *img) { hit("cuModuleLoadData"); *m = (CUmodule)&mod_dummy; return CUDA_SUCCESS; }
API CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
    if (strcmp(name, "axpy")) return CUDA_ERROR_NOT_FOUND;
    *f = (CUfunction)&K_axpy;
    return CUDA_SUCCESS;
}
API CUresult cuFuncGetModule(CUmodule *m, CUfunction f) {
    if (((fk *)f)->is_kernel) return CUDA_ERROR_INVALID_HANDLE;
    *m = (CUmodule)(f == (CUfunction)&K_scale_fn ? (void *)&libmod_dummy : (void *)&mod_dummy);
    return CUDA_SUCCESS;
}
API CUresult cuLibraryLoadData(CUlibrary *l, const void *code, CUjit_option *jo, void **jv, unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl) {
    hit("cuLibraryLoadData");
    *l = (CUlibrary)&lib_dummy;
    return CUDA_SUCCESS;
}
API CUresult cuLibraryGetKernel(CUkernel *k, CUlibrary l, const char *name) {
    if (strcmp(name, K_scale.name)) return CUDA_ERROR_NOT_FOUND;
    *k = (CUkernel)&K_scale;
    return CUDA_SUCCESS;
}
API CUresult cuKernelGetLibrary(CUlibrary *l, CUkernel k) { *l = (CUlibrary)&lib_dummy; return CUDA_SUCCESS; }
API CUresult cuFuncGetName(const char **n, CUfunction f) { if (((fk *)f)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; *n = ((fk *)f)->name; return CUDA_SUCCESS; }
API CUresult cuKernelGetName(const char **n, CUkernel k) { if (!((fk *)k)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; *n = ((fk *)k)->name; return CUDA_SUCCESS; }
static CUresult param_info(fk *f, size_t i, size_t *o, size_t *s) {
    if (i >= (size_t)f->np) return CUDA_ERROR_INVALID_VALUE;
    *o = f->off[i];
    *s = f->size[i];
    return CUDA_SUCCESS;
}
API CUresult cuFuncGetParamInfo(CUfunction f, size_t i, size_t *o, size_t *s) { if (((fk *)f)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; return param_info((fk *)f, i, o, s); }
API CUresult cuKernelGetParamInfo(CUkernel k, size_t i, size_t *o, size_t *s) { if (!((fk *)k)->is_kernel) return CUDA_ERROR_INVALID_HANDLE; return param_info((fk *)k, i, o, s); }

/* ---- streams, events, capture, graphs */
typedef struct { fk *f; unsigned d[7]; uint8_t buf[64]; void *pp[8]; } gnode;
typedef struct { int n; gnode nodes[16]; } fgraph;
typedef struct { int id; fgraph *capture; } fstream;
static fstream streams[16];
static int nstreams;
static fgraph graphs[8];
static int ngraphs;
static uint64_t fake_clock;
typedef struct { uint64_t t; } fevent;

API CUresult cuStreamCreate(CUstream *s, unsigned f) { hit("cuStreamCreate"); streams[nstreams].id = nstreams + 1; *s = (CUstream)&streams[nstreams++]; return CUDA_SUCCESS; }
API CUresult cuStreamDestroy_v2(CUstream s) { return CUDA_SUCCESS; }
static fstream *fs(CUstream s) { return ((uintptr_t)s > 2) ? (fstream *)s : NULL; }
API CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st) {
    *st = (fs(s) && fs(s)->capture) ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}
static CUresult internal_stream_sync(CUstream s) { hit("internal_stream_sync"); return CUDA_SUCCESS; }
API CUresult cuStreamSynchronize(CUstream s) { hit("cuStreamSynchronize"); return CUDA_SUCCESS; }
API CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) { hit("cuStreamWaitEvent"); return CUDA_SUCCESS; }
API CUresult cuEventCreate(CUevent *e, unsigned f) { *e = (CUevent)calloc(1, sizeof(fevent)); return CUDA_SUCCESS; }
API CUresult cuEventDestroy_v2(CUevent e) { free(e); return CUDA_SUCCESS; }
API CUresult cuEventRecord(CUevent e, CUstream s) { ((fevent *)e)->t = ++fake_clock * 1000; return CUDA_SUCCESS; }
API CUresult cuEventQuery(CUevent e) {
    static int blocked;
    hit("cuEventQuery");
    const char *b = getenv("FAKE_CUDA_QUERY_BLOCK_MS");
    if (b && !__atomic_exchange_n(&blocked, 1, __ATOMIC_SEQ_CST)) {
        long ms = atol(b);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return CUDA_SUCCESS;
}
API CUresult cuEventSynchronize(CUevent e) { return CUDA_SUCCESS; }
API CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) {
    *ms = (float)((double)((int64_t)((fevent *)b)->t - (int64_t)((fevent *)a)->t) / 1e6);
    return CUDA_SUCCESS;
}
API CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode m) {
    if (!fs(s)) return CUDA_ERROR_INVALID_VALUE;
    fs(s)->capture = &graphs[ngraphs++];
    return CUDA_SUCCESS;
}
API CUresult cuStreamEndCapture(CUstream s, CUgraph *g) {
    if (!fs(s) || !fs(s)->capture) return CUDA_ERROR_INVALID_VALUE;
    *g = (CUgraph)fs(s)->capture;
    fs(s)->capture = NULL;
    return CUDA_SUCCESS;
}
API CUresult cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long f) { *e = (CUgraphExec)g; return CUDA_SUCCESS; }
API CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n) {
    fgraph *G = (fgraph *)g;
    if (nodes) for (int i = 0; i < G->n && (size_t)i < *n; i++) nodes[i] = (CUgraphNode)&G->nodes[i];
    *n = (size_t)G->n;
    return CUDA_SUCCESS;
}
API CUresult cuGraphNodeGetType(CUgraphNode n, CUgraphNodeType *t) { *t = CU_GRAPH_NODE_TYPE_KERNEL; return CUDA_SUCCESS; }
API CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS *p) {
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
    if (f->fn) f->fn(kp);
    return CUDA_SUCCESS;
}
API CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream s, void **kp, void **ex) {
    hit("cuLaunchKernel");
    unsigned d[7] = {gx, gy, gz, bx, by, bz, sh};
    return do_launch((fk *)f, d, s, kp, ex);
}
API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream s, void **kp, void **ex) {
    hit("cuLaunchKernel_ptsz");
    unsigned d[7] = {gx, gy, gz, bx, by, bz, sh};
    return do_launch((fk *)f, d, s, kp, ex);
}
API CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **kp, void **ex) {
    hit("cuLaunchKernelEx");
    unsigned d[7] = {c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ, c->sharedMemBytes};
    return do_launch((fk *)f, d, c->hStream, kp, ex);
}
API CUresult cuGraphLaunch(CUgraphExec e, CUstream s) {
    hit("cuGraphLaunch");
    fgraph *G = (fgraph *)e;
    for (int i = 0; i < G->n; i++) if (G->nodes[i].f->fn) G->nodes[i].f->fn(G->nodes[i].pp);
    return CUDA_SUCCESS;
}

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
