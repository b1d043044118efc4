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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#undef cuGetProcAddress
#undef cuMemAlloc

#define API __attribute__((visibility("default")))

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

static void ckpt_publish(void);
API CUresult cuInit(unsigned f) { hit("cuInit"); ckpt_publish(); return CUDA_SUCCESS; }
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
    my_page = p;
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
