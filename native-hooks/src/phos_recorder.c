/*
 * libphos_recorder.so: records what a process asks of libcuda (the CUDA driver API) into a .phos trace.
 *
 * Interception (../shared/notes/cuda.md section 1): the library is LD_PRELOADed and
 *  - overrides dlsym, so code that dlopens libcuda and looks up entry points by name (cudart, Triton, CuPy) gets
 *    our wrappers; the real dlsym comes from dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
 *  - wraps cuGetProcAddress and cuGetProcAddress_v2, including cudart's query for cuGetProcAddress itself; the
 *    pointer the driver returns for (symbol, cudaVersion, flags) is identified by identity with the exported ABI
 *    variant (cuMemAlloc_v2, cuLaunchKernel_ptsz, ...) and replaced by the wrapper of exactly that variant, so an
 *    older caller never gets a newer variant; pointers it cannot identify (cuGetExportTable's tables, internal
 *    entry points, variants we do not wrap) are handed back untouched;
 *  - exports the plain ABI names itself, for code linked against libcuda directly (JCuda).
 * Hot path: a wrapper calls the real function, then copies what it needs into a slot of a bounded lock-free
 * MPSC ring; a writer thread encodes protobuf events and writes self-checking chunks (phos_format.c).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "phos_format.h"
#include "phos_output.h"
#include <cupti.h>

#define PHOS_VERSION "0.1.0"
#define EXPORT __attribute__((visibility("default")))
#define HIDDEN __attribute__((visibility("hidden")))
#define STRIP(...) __VA_ARGS__

/* ------------------------------------------------------------------ configuration */
static struct {
    char out_path[PATH_MAX];
    uint64_t payload_limit;   /* PHOS_PAYLOAD_LIMIT, bytes of H2D copies captured */
    uint64_t image_limit;     /* PHOS_MODULE_IMAGE_LIMIT, bigger images are stored without bytes */
    int timing;               /* PHOS_TIMING */
    int timing_source;        /* PHOS_TIMING_SOURCE: 0 auto (CUPTI, else events), 1 cupti, 2 events */
    int compress;             /* PHOS_COMPRESS */
    int flush_ms;             /* PHOS_FLUSH_MS */
    int debug;                /* PHOS_DEBUG */
} cfg;

static atomic_int g_state;      /* 0 not started, 1 recording, 2 stopped, 3 disabled */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static atomic_int g_capturing;  /* stream captures in progress */
static atomic_int g_max_cuda_version;
static atomic_uint_fast64_t g_dropped;
static uint64_t g_start_mono, g_start_unix;

#define DBG(...) do { if (cfg.debug) { fprintf(stderr, "[phos] " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ real dlsym, libcuda */
typedef void *(*dlsym_fn)(void *, const char *);
static dlsym_fn real_dlsym_p;
static void *libcuda_h;

static dlsym_fn real_dlsym(void) {
    if (!real_dlsym_p) {
        dlsym_fn p = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
        if (!p) p = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
        real_dlsym_p = p;
    }
    return real_dlsym_p;
}

static void *libcuda(void) {
    if (!libcuda_h) {
        const char *path = getenv("PHOS_LIBCUDA");
        if (!path || !*path) path = "libcuda.so.1";
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
        if (!h) h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        libcuda_h = h;
    }
    return libcuda_h;
}

static int is_ours(const void *p) {
    static void *base;
    Dl_info a, b;
    if (!base && dladdr((void *)&is_ours, &a)) base = a.dli_fbase;
    return p && dladdr(p, &b) && b.dli_fbase == base;
}

/* ------------------------------------------------------------------ hooks */
typedef struct hook {
    const char *sym;  /* name as asked of cuGetProcAddress */
    const char *abi;  /* exported variant name */
    int ptsz;         /* per-thread default stream variant */
    void *wrap;
    void *_Atomic real;
    void *dl;         /* dlsym(libcuda, abi), resolved lazily */
    int dl_done;
} hook_t;

/* H2(symbol, legacy variant, per-thread variant), H1(symbol, variant) */
#define HOOK_LIST \
    H1(cuInit, cuInit) \
    H1(cuGetProcAddress, cuGetProcAddress_v2) \
    H1(cuGetProcAddress, cuGetProcAddress) \
    H1(cuMemAlloc, cuMemAlloc_v2) \
    H1(cuMemAllocPitch, cuMemAllocPitch_v2) \
    H1(cuMemAllocManaged, cuMemAllocManaged) \
    H1(cuMemFree, cuMemFree_v2) \
    H2(cuMemAllocAsync, cuMemAllocAsync, cuMemAllocAsync_ptsz) \
    H2(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz) \
    H2(cuMemFreeAsync, cuMemFreeAsync, cuMemFreeAsync_ptsz) \
    H1(cuMemMap, cuMemMap) \
    H1(cuMemUnmap, cuMemUnmap) \
    H1(cuMemAllocHost, cuMemAllocHost_v2) \
    H1(cuMemHostAlloc, cuMemHostAlloc) \
    H1(cuMemHostRegister, cuMemHostRegister_v2) \
    H1(cuMemFreeHost, cuMemFreeHost) \
    H1(cuMemHostUnregister, cuMemHostUnregister) \
    H2(cuMemcpy, cuMemcpy, cuMemcpy_ptds) \
    H2(cuMemcpyAsync, cuMemcpyAsync, cuMemcpyAsync_ptsz) \
    H2(cuMemcpyPeer, cuMemcpyPeer, cuMemcpyPeer_ptds) \
    H2(cuMemcpyPeerAsync, cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz) \
    H2(cuMemcpyHtoD, cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds) \
    H2(cuMemcpyDtoH, cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds) \
    H2(cuMemcpyDtoD, cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds) \
    H2(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_ptsz) \
    H2(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_ptsz) \
    H2(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_ptsz) \
    H2(cuMemcpy2D, cuMemcpy2D_v2, cuMemcpy2D_v2_ptds) \
    H2(cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2, cuMemcpy2DUnaligned_v2_ptds) \
    H2(cuMemcpy2DAsync, cuMemcpy2DAsync_v2, cuMemcpy2DAsync_v2_ptsz) \
    H2(cuMemcpy3D, cuMemcpy3D_v2, cuMemcpy3D_v2_ptds) \
    H2(cuMemcpy3DAsync, cuMemcpy3DAsync_v2, cuMemcpy3DAsync_v2_ptsz) \
    H2(cuMemcpy3DPeer, cuMemcpy3DPeer, cuMemcpy3DPeer_ptds) \
    H2(cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync_ptsz) \
    H2(cuMemcpyBatchAsync, cuMemcpyBatchAsync_v2, cuMemcpyBatchAsync_v2_ptsz) \
    H2(cuMemcpy3DBatchAsync, cuMemcpy3DBatchAsync_v2, cuMemcpy3DBatchAsync_v2_ptsz) \
    H2(cuMemsetD8, cuMemsetD8_v2, cuMemsetD8_v2_ptds) \
    H2(cuMemsetD16, cuMemsetD16_v2, cuMemsetD16_v2_ptds) \
    H2(cuMemsetD32, cuMemsetD32_v2, cuMemsetD32_v2_ptds) \
    H2(cuMemsetD2D8, cuMemsetD2D8_v2, cuMemsetD2D8_v2_ptds) \
    H2(cuMemsetD2D16, cuMemsetD2D16_v2, cuMemsetD2D16_v2_ptds) \
    H2(cuMemsetD2D32, cuMemsetD2D32_v2, cuMemsetD2D32_v2_ptds) \
    H2(cuMemsetD8Async, cuMemsetD8Async, cuMemsetD8Async_ptsz) \
    H2(cuMemsetD16Async, cuMemsetD16Async, cuMemsetD16Async_ptsz) \
    H2(cuMemsetD32Async, cuMemsetD32Async, cuMemsetD32Async_ptsz) \
    H2(cuMemsetD2D8Async, cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz) \
    H2(cuMemsetD2D16Async, cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz) \
    H2(cuMemsetD2D32Async, cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz) \
    H2(cuLaunchKernel, cuLaunchKernel, cuLaunchKernel_ptsz) \
    H2(cuLaunchKernelEx, cuLaunchKernelEx, cuLaunchKernelEx_ptsz) \
    H2(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel, cuLaunchCooperativeKernel_ptsz) \
    H1(cuModuleLoad, cuModuleLoad) \
    H1(cuModuleLoadData, cuModuleLoadData) \
    H1(cuModuleLoadDataEx, cuModuleLoadDataEx) \
    H1(cuModuleLoadFatBinary, cuModuleLoadFatBinary) \
    H1(cuModuleGetFunction, cuModuleGetFunction) \
    H1(cuLibraryLoadData, cuLibraryLoadData) \
    H1(cuLibraryLoadFromFile, cuLibraryLoadFromFile) \
    H1(cuLibraryGetKernel, cuLibraryGetKernel) \
    H1(cuKernelGetFunction, cuKernelGetFunction) \
    H1(cuStreamCreate, cuStreamCreate) \
    H1(cuStreamCreateWithPriority, cuStreamCreateWithPriority) \
    H1(cuStreamDestroy, cuStreamDestroy_v2) \
    H1(cuEventCreate, cuEventCreate) \
    H1(cuEventDestroy, cuEventDestroy_v2) \
    H2(cuEventRecord, cuEventRecord, cuEventRecord_ptsz) \
    H2(cuEventRecordWithFlags, cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz) \
    H2(cuStreamWaitEvent, cuStreamWaitEvent, cuStreamWaitEvent_ptsz) \
    H2(cuStreamSynchronize, cuStreamSynchronize, cuStreamSynchronize_ptsz) \
    H1(cuEventSynchronize, cuEventSynchronize) \
    H1(cuCtxSynchronize, cuCtxSynchronize) \
    H1(cuCtxSynchronize, cuCtxSynchronize_v2) \
    H2(cuStreamBeginCapture, cuStreamBeginCapture_v2, cuStreamBeginCapture_v2_ptsz) \
    H2(cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph_ptsz) \
    H2(cuStreamEndCapture, cuStreamEndCapture, cuStreamEndCapture_ptsz) \
    H1(cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags) \
    H2(cuGraphInstantiateWithParams, cuGraphInstantiateWithParams, cuGraphInstantiateWithParams_ptsz) \
    H2(cuGraphLaunch, cuGraphLaunch, cuGraphLaunch_ptsz)

#define H1(s, a) HIDDEN hook_t HK_##a = {#s, #a, 0, 0, 0, 0, 0};
#define H2(s, a, p) HIDDEN hook_t HK_##a = {#s, #a, 0, 0, 0, 0, 0}; HIDDEN hook_t HKP_##a = {#s, #p, 1, 0, 0, 0, 0};
HOOK_LIST
#undef H1
#undef H2

/* the real entry point of a hook: what the driver handed out for it, else dlsym(libcuda, abi) */
static void *hook_real(hook_t *h) {
    void *r = atomic_load_explicit(&h->real, memory_order_acquire);
    if (r) return r;
    void *lib = libcuda();
    if (lib && real_dlsym()) r = real_dlsym()(lib, h->abi);
    if (r && !is_ours(r)) {
        void *expected = NULL;
        atomic_compare_exchange_strong(&h->real, &expected, r);
        return atomic_load(&h->real);
    }
    return NULL;
}

/* real entry points the recorder itself uses (never wrappers, so its own calls are not recorded) */
static void *own_real(const char *abi) {
    void *lib = libcuda();
    void *p = (lib && real_dlsym()) ? real_dlsym()(lib, abi) : NULL;
    return is_ours(p) ? NULL : p;
}
#define OWN(var, type, name) do { if (!var) var = (type)own_real(name); } while (0)

/* ------------------------------------------------------------------ event ring (bounded lock-free MPSC) */
enum { EV_ALLOC = 1, EV_FREE, EV_MEMCPY, EV_MEMSET, EV_LAUNCH, EV_SYNC, EV_GRAPH, EV_MODULE };
#define INLINE_BYTES 200
#define RING_CAP (1u << 15)

typedef struct slot {
    _Atomic uint64_t seq;
    uint8_t type, kind, async, lkind;
    uint32_t thread;
    uint64_t host_ns;
    uint64_t a0, a1, a2, stream;
    uint32_t u[8];
    void *ptr;
    CUevent e0, e1;
    uint32_t corr;  /* CUPTI correlation id when CUPTI times this operation */
    uint32_t dlen;
    uint8_t *dext;
    uint8_t din[INLINE_BYTES];
} slot_t;

static slot_t *ring;
static _Atomic uint64_t ring_head;  /* next position producers reserve */
static _Atomic uint64_t ring_tail;  /* next position the writer consumes */
static atomic_uint thread_counter;
static __thread uint32_t t_thread;
static __thread int t_internal;  /* the writer thread: its CUDA calls (and CUPTI's made from it) are not events */

static uint32_t my_thread(void) {
    if (!t_thread) t_thread = atomic_fetch_add(&thread_counter, 1) + 1;
    return t_thread;
}

static void ensure_started(void);

/* reserve n consecutive slots; returns the first position or UINT64_MAX when the event must be dropped */
static uint64_t ring_reserve(uint32_t n) {
    if (t_internal) return UINT64_MAX;
    if (atomic_load_explicit(&g_state, memory_order_relaxed) != 1) {
        ensure_started();
        if (atomic_load(&g_state) != 1) return UINT64_MAX;
    }
    uint64_t t0 = 0;
    for (;;) {
        uint64_t h = atomic_load_explicit(&ring_head, memory_order_relaxed);
        if (h + n - atomic_load_explicit(&ring_tail, memory_order_acquire) <= RING_CAP) {
            if (atomic_compare_exchange_weak(&ring_head, &h, h + n)) return h;
            continue;
        }
        /* full: the writer is behind; wait for it a while, then drop rather than stall the program forever */
        if (!t0) t0 = mono_ns();
        else if (mono_ns() - t0 > 500000000ull || atomic_load(&g_state) != 1) {
            atomic_fetch_add(&g_dropped, n);
            return UINT64_MAX;
        }
        sched_yield();
    }
}

static slot_t *slot_at(uint64_t pos) {
    slot_t *s = &ring[pos & (RING_CAP - 1)];
    while (atomic_load_explicit(&s->seq, memory_order_acquire) != pos) sched_yield();
    s->type = s->kind = s->async = s->lkind = 0;
    s->a0 = s->a1 = s->a2 = s->stream = 0;
    memset(s->u, 0, sizeof s->u);
    s->ptr = NULL;
    s->e0 = s->e1 = NULL;
    s->corr = 0;
    s->dlen = 0;
    s->dext = NULL;
    s->thread = my_thread();
    return s;
}
static void slot_commit(uint64_t pos, slot_t *s) { atomic_store_explicit(&s->seq, pos + 1, memory_order_release); }

static void slot_data(slot_t *s, const void *d, size_t n) {
    if (!n || !d) return;
    if (n <= INLINE_BYTES) memcpy(s->din, d, n);
    else {
        s->dext = malloc(n);
        if (!s->dext) return;
        memcpy(s->dext, d, n);
    }
    s->dlen = (uint32_t)n;
}

/* single-slot convenience: returns NULL when recording is off */
static slot_t *ev_begin(uint64_t *pos, int type, uint64_t host_ns) {
    *pos = ring_reserve(1);
    if (*pos == UINT64_MAX) return NULL;
    slot_t *s = slot_at(*pos);
    s->type = (uint8_t)type;
    s->host_ns = host_ns;
    return s;
}

static void wakeup_writer(void);

/* ------------------------------------------------------------------ small locked maps */
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;

typedef struct { uint64_t key; uint64_t val; void *ptr; } kv_t;
typedef struct { kv_t *e; size_t n, cap; } kvmap;

static kv_t *kv_find(kvmap *m, uint64_t key) {
    if (!m->cap) return NULL;
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (m->cap - 1);
    for (;;) {
        if (m->e[i].key == key) return &m->e[i];
        if (!m->e[i].key) return NULL;
        i = (i + 1) & (m->cap - 1);
    }
}
static kv_t *kv_put(kvmap *m, uint64_t key) {
    if (!key) return NULL;
    kv_t *f = kv_find(m, key);
    if (f) return f;
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 1024;
        kv_t *ne = calloc(nc, sizeof(kv_t));
        if (!ne) return NULL;
        kvmap nm = {ne, 0, nc};
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].key) { kv_t *d = kv_put(&nm, m->e[i].key); *d = m->e[i]; }
        free(m->e);
        *m = nm;
    }
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (m->cap - 1);
    while (m->e[i].key) i = (i + 1) & (m->cap - 1);
    m->e[i].key = key;
    m->e[i].val = 0;
    m->e[i].ptr = NULL;
    m->n++;
    return &m->e[i];
}

static kvmap alloc_kinds;   /* address -> AllocKind + 1 */
static kvmap module_ids;    /* CUmodule / CUlibrary -> module id */
static kvmap library_ids;   /* CUlibrary -> module id (to find the library of a context's CUmodule) */
static kvmap handle_info;   /* CUfunction / CUkernel -> module id (val), name (ptr) */
static kvmap graph_of_exec; /* CUgraphExec -> CUgraph */
static kvmap exec_cache;    /* CUgraphExec -> expanded kernel nodes */

static void remember_alloc(uint64_t addr, int kind) {
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_put(&alloc_kinds, addr);
    if (e) e->val = (uint64_t)kind + 1;
    pthread_mutex_unlock(&reg_mu);
}
static int forget_alloc(uint64_t addr, int dflt) {
    int k = dflt;
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_find(&alloc_kinds, addr);
    if (e && e->val) { k = (int)e->val - 1; e->val = 0; }
    pthread_mutex_unlock(&reg_mu);
    return k;
}

/* ------------------------------------------------------------------ modules */
typedef struct module_rec {
    uint32_t id;
    int kind;
    uint8_t *image;
    uint64_t image_size, stored;
    uint64_t hash;
    const char *origin;
} module_rec;
static atomic_uint module_counter;

/* hook for the SASS-level tool (native-hooks/sanitizer): it learns the ring position of each recorded launch from the
   launching thread, and turns positions into event indices (positions minus the Module slots before them, which are
   not events). Set with phos_recorder_set_launch_hook; nothing happens while no hook is set. */
typedef void (*phos_launch_hook_fn)(uint64_t pos, uint32_t nodes, const char *const *node_names);
static _Atomic(phos_launch_hook_fn) launch_hook;
static uint64_t *module_pos;      /* ring positions of Module slots, under reg_mu */
static size_t module_pos_n, module_pos_cap;

/* size of an image handed to the driver: fatbin wrapper, fatbin, ELF, or NUL-terminated PTX */
static const uint8_t *image_extent(const void *img, uint64_t *size, int *kind) {
    const uint8_t *p = img;
    uint32_t m;
    memcpy(&m, p, 4);
    if (m == 0x466243B1u) { /* __fatBinC_Wrapper_t {int magic; int version; const void *data; void *filename} */
        const void *data;
        memcpy(&data, p + 8, sizeof data);
        p = data;
        memcpy(&m, p, 4);
    }
    if (m == 0xBA55ED50u) {
        uint16_t hs;
        uint64_t fs;
        memcpy(&hs, p + 6, 2);
        memcpy(&fs, p + 8, 8);
        *size = hs + fs;
        *kind = 3;
        return p;
    }
    if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F' && p[4] == 2) {
        uint64_t shoff, phoff;
        uint16_t phentsize, phnum, shentsize, shnum;
        memcpy(&phoff, p + 0x20, 8);
        memcpy(&shoff, p + 0x28, 8);
        memcpy(&phentsize, p + 0x36, 2);
        memcpy(&phnum, p + 0x38, 2);
        memcpy(&shentsize, p + 0x3A, 2);
        memcpy(&shnum, p + 0x3C, 2);
        uint64_t end = 64;
        if (shoff + (uint64_t)shentsize * shnum > end) end = shoff + (uint64_t)shentsize * shnum;
        if (phoff + (uint64_t)phentsize * phnum > end) end = phoff + (uint64_t)phentsize * phnum;
        for (unsigned i = 0; i < shnum && shentsize >= 64; i++) {
            const uint8_t *sh = p + shoff + (uint64_t)i * shentsize;
            uint32_t type;
            uint64_t off, sz;
            memcpy(&type, sh + 4, 4);
            memcpy(&off, sh + 0x18, 8);
            memcpy(&sz, sh + 0x20, 8);
            if (type != 8 /* NOBITS */ && off + sz > end) end = off + sz;
        }
        *size = end;
        *kind = 2;
        return p;
    }
    *size = strlen((const char *)p);
    *kind = 1;
    return p;
}

static void emit_module(void *handle, const void *img, size_t known_size, int known_kind, const char *origin) {
    if (atomic_load(&g_state) == 3) return;
    module_rec *r = calloc(1, sizeof *r);
    if (!r) return;
    const uint8_t *p = img;
    uint64_t size = known_size;
    int kind = known_kind;
    if (img && !known_size) p = image_extent(img, &size, &kind);
    r->id = atomic_fetch_add(&module_counter, 1) + 1;
    r->kind = kind;
    r->image_size = size;
    r->hash = p ? phos_fnv1a64(p, size) : 0;
    r->origin = origin;
    if (p && size <= cfg.image_limit) {
        r->image = malloc(size ? size : 1);
        if (r->image) { memcpy(r->image, p, size); r->stored = size; }
    }
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_put(&module_ids, (uint64_t)(uintptr_t)handle);
    if (e) e->val = r->id;
    if (!strncmp(origin, "cuLibrary", 9) && (e = kv_put(&library_ids, (uint64_t)(uintptr_t)handle))) e->val = r->id;
    pthread_mutex_unlock(&reg_mu);
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_MODULE, mono_ns());
    if (!s) { free(r->image); free(r); return; }
    s->ptr = r;
    slot_commit(pos, s);
    pthread_mutex_lock(&reg_mu);
    if (module_pos_n == module_pos_cap) {
        size_t nc = module_pos_cap ? module_pos_cap * 2 : 64;
        uint64_t *np = realloc(module_pos, nc * sizeof *np);
        if (np) { module_pos = np; module_pos_cap = nc; }
    }
    if (module_pos_n < module_pos_cap) module_pos[module_pos_n++] = pos;
    pthread_mutex_unlock(&reg_mu);
}

static void *read_file(const char *path, size_t *n) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t cap = 4096, len = 0;
    char *b = malloc(cap + 1);
    for (;;) {
        if (!b) break;
        if (len == cap) { char *nb = realloc(b, cap * 2 + 1); if (!nb) { free(b); b = NULL; break; } b = nb; cap *= 2; }
        ssize_t r = read(fd, b + len, cap - len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        len += (size_t)r;
    }
    close(fd);
    if (b) { b[len] = 0; *n = len; }
    return b;
}

static void remember_handle(void *h, uint32_t module_id, const char *name) {
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_put(&handle_info, (uint64_t)(uintptr_t)h);
    if (e) {
        e->val = module_id;
        if (!e->ptr && name) e->ptr = strdup(name);
    }
    pthread_mutex_unlock(&reg_mu);
}
static uint32_t module_id_of(void *handle) {
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_find(&module_ids, (uint64_t)(uintptr_t)handle);
    uint32_t id = e ? (uint32_t)e->val : 0;
    pthread_mutex_unlock(&reg_mu);
    return id;
}

/* ------------------------------------------------------------------ functions (lock-free lookup) */
typedef struct func_rec {
    uint64_t handle;
    uint32_t id, module;
    char *name;
    uint32_t nparams, param_bytes;
    uint32_t *off, *size;
    int layout_known;
    int emitted; /* writer only */
} func_rec;
#define FUNC_CAP (1u << 16)
static _Atomic uint64_t func_keys[FUNC_CAP];
static func_rec *_Atomic func_table[FUNC_CAP];
static func_rec **func_all;
static size_t func_all_n, func_all_cap;
static atomic_uint func_counter;

typedef CUresult (*pfn_getname)(const char **, void *);
typedef CUresult (*pfn_paraminfo)(void *, size_t, size_t *, size_t *);
typedef CUresult (*pfn_getmod)(void **, void *);
static pfn_getname p_cuFuncGetName, p_cuKernelGetName;
static pfn_paraminfo p_cuFuncGetParamInfo, p_cuKernelGetParamInfo;
static pfn_getmod p_cuFuncGetModule, p_cuKernelGetLibrary, p_cuLibraryGetModule;

static func_rec *func_create(uint64_t h) {
    func_rec *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->handle = h;
    void *f = (void *)(uintptr_t)h;
    OWN(p_cuFuncGetName, pfn_getname, "cuFuncGetName");
    OWN(p_cuKernelGetName, pfn_getname, "cuKernelGetName");
    OWN(p_cuFuncGetParamInfo, pfn_paraminfo, "cuFuncGetParamInfo");
    OWN(p_cuKernelGetParamInfo, pfn_paraminfo, "cuKernelGetParamInfo");
    OWN(p_cuFuncGetModule, pfn_getmod, "cuFuncGetModule");
    OWN(p_cuKernelGetLibrary, pfn_getmod, "cuKernelGetLibrary");
    /* module and name from the load calls we saw */
    kv_t *hi = kv_find(&handle_info, h);
    if (hi) { r->module = (uint32_t)hi->val; if (hi->ptr) r->name = strdup(hi->ptr); }
    const char *nm = NULL;
    int is_kernel = 0;
    if (!r->name) {
        CUresult e = p_cuFuncGetName ? p_cuFuncGetName(&nm, f) : CUDA_ERROR_NOT_FOUND;
        if (e != CUDA_SUCCESS && p_cuKernelGetName) { /* CUkernel cast to CUfunction: 400 on cuFunc* */
            if (p_cuKernelGetName(&nm, f) == CUDA_SUCCESS) is_kernel = 1; else nm = NULL;
        }
        if (nm) r->name = strdup(nm);
    }
    /* parameter layout: loop until CUDA_ERROR_INVALID_VALUE; on INVALID_HANDLE retry as CUkernel */
    pfn_paraminfo pi = p_cuFuncGetParamInfo;
    size_t o, sz;
    if (pi) {
        CUresult e = pi(f, 0, &o, &sz);
        if (e == CUDA_ERROR_INVALID_HANDLE) { pi = p_cuKernelGetParamInfo; is_kernel = 1; }
        else if (e != CUDA_SUCCESS && e != CUDA_ERROR_INVALID_VALUE) pi = NULL;
    } else pi = p_cuKernelGetParamInfo;
    if (pi) {
        uint32_t cap = 16;
        r->off = malloc(cap * 4);
        r->size = malloc(cap * 4);
        for (uint32_t i = 0; i < 4096; i++) {
            CUresult e = pi(f, i, &o, &sz);
            if (e != CUDA_SUCCESS) { r->layout_known = (e == CUDA_ERROR_INVALID_VALUE) || i > 0; break; }
            if (i == cap) { cap *= 2; r->off = realloc(r->off, cap * 4); r->size = realloc(r->size, cap * 4); }
            r->off[i] = (uint32_t)o;
            r->size[i] = (uint32_t)sz;
            r->nparams = i + 1;
            if (o + sz > r->param_bytes) r->param_bytes = (uint32_t)(o + sz);
        }
    }
    if (!r->module) {
        void *m = NULL;
        kv_t *me = NULL;
        if (!is_kernel && p_cuFuncGetModule && p_cuFuncGetModule(&m, f) == CUDA_SUCCESS) {
            me = kv_find(&module_ids, (uint64_t)(uintptr_t)m);
            /* a CUfunction of a library loaded through cuLibrary* (graph nodes get these): find its library */
            OWN(p_cuLibraryGetModule, pfn_getmod, "cuLibraryGetModule");
            for (size_t i = 0; !me && p_cuLibraryGetModule && i < library_ids.cap; i++) {
                void *lm = NULL;
                if (library_ids.e[i].key && p_cuLibraryGetModule(&lm, (void *)(uintptr_t)library_ids.e[i].key) == CUDA_SUCCESS && lm == m) {
                    kv_t *ne = kv_put(&module_ids, (uint64_t)(uintptr_t)m);
                    if (ne) { ne->val = library_ids.e[i].val; me = ne; }
                }
            }
        } else if (p_cuKernelGetLibrary && p_cuKernelGetLibrary(&m, f) == CUDA_SUCCESS) me = kv_find(&module_ids, (uint64_t)(uintptr_t)m);
        if (me) r->module = (uint32_t)me->val;
    }
    return r;
}

/* the same kernel reached through another handle (CUkernel vs its per-context CUfunction, as graph nodes have):
 * same module, name and layout -> the same Function */
static func_rec *func_same(func_rec *r) {
    for (size_t i = 0; i < func_all_n; i++) {
        func_rec *o = func_all[i];
        if (o->module == r->module && o->nparams == r->nparams && o->name && r->name && !strcmp(o->name, r->name) &&
            (!r->nparams || (!memcmp(o->off, r->off, r->nparams * 4) && !memcmp(o->size, r->size, r->nparams * 4))))
            return o;
    }
    return NULL;
}

static func_rec *func_get(uint64_t h) {
    uint32_t i = (uint32_t)((h * 0x9E3779B97F4A7C15ull) >> 48) & (FUNC_CAP - 1);
    for (uint32_t probe = 0; probe < FUNC_CAP; probe++, i = (i + 1) & (FUNC_CAP - 1)) {
        uint64_t k = atomic_load_explicit(&func_keys[i], memory_order_acquire);
        if (!k) break;
        if (k == h) {
            func_rec *r;
            while (!(r = atomic_load_explicit(&func_table[i], memory_order_acquire))) sched_yield();
            return r;
        }
    }
    pthread_mutex_lock(&reg_mu);
    i = (uint32_t)((h * 0x9E3779B97F4A7C15ull) >> 48) & (FUNC_CAP - 1);
    func_rec *r = NULL;
    for (uint32_t probe = 0; probe < FUNC_CAP; probe++, i = (i + 1) & (FUNC_CAP - 1)) {
        uint64_t k = atomic_load_explicit(&func_keys[i], memory_order_acquire);
        if (k == h) { r = atomic_load(&func_table[i]); break; }
        if (k) continue;
        r = func_create(h);
        if (!r) break;
        func_rec *o = func_same(r);
        if (o) { free(r->name); free(r->off); free(r->size); free(r); r = o; }
        else r->id = atomic_fetch_add(&func_counter, 1) + 1;
        if (!o && func_all_n == func_all_cap) {
            size_t nc = func_all_cap ? func_all_cap * 2 : 256;
            func_rec **na = realloc(func_all, nc * sizeof *na);
            if (na) { func_all = na; func_all_cap = nc; }
        }
        if (r != o && func_all_n < func_all_cap) func_all[func_all_n++] = r;
        atomic_store_explicit(&func_table[i], r, memory_order_release);
        atomic_store_explicit(&func_keys[i], h, memory_order_release);
        break;
    }
    pthread_mutex_unlock(&reg_mu);
    return r;
}

/* parameter bytes of a launch, from kernelParams (laid out by the function's layout) or from extra */
static void fill_params(slot_t *s, func_rec *fr, void **kp, void **extra) {
    if (extra) {
        void *buf = NULL;
        size_t n = 0;
        for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END && i < 64; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
            else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1]) n = *(size_t *)extra[i + 1];
        }
        if (buf && n) { slot_data(s, buf, n); return; }
    }
    if (!kp || !fr || !fr->param_bytes) return;
    uint8_t stackbuf[1024];
    uint8_t *b = fr->param_bytes <= sizeof stackbuf ? stackbuf : calloc(1, fr->param_bytes);
    if (!b) return;
    memset(b, 0, fr->param_bytes);
    for (uint32_t i = 0; i < fr->nparams; i++)
        if (kp[i]) memcpy(b + fr->off[i], kp[i], fr->size[i]);
    slot_data(s, b, fr->param_bytes);
    if (b != stackbuf) free(b);
}

/* ------------------------------------------------------------------ GPU timing through CUDA events */
typedef CUresult (*pfn_evcreate)(CUevent *, unsigned);
typedef CUresult (*pfn_evrecord)(CUevent, CUstream);
typedef CUresult (*pfn_evq)(CUevent);
typedef CUresult (*pfn_evel)(float *, CUevent, CUevent);
typedef CUresult (*pfn_ctxget)(CUcontext *);
typedef CUresult (*pfn_ctxset)(CUcontext);
typedef CUresult (*pfn_iscap)(CUstream, CUstreamCaptureStatus *);
typedef CUresult (*pfn_strcreate)(CUstream *, unsigned);
typedef CUresult (*pfn_ptrattr)(void *, CUpointer_attribute, CUdeviceptr);
static pfn_evcreate p_evcreate;
static pfn_evrecord p_evrecord;
static pfn_evq p_evquery, p_evsync;
static pfn_evel p_evel;
static pfn_ctxget p_ctxget;
static pfn_ctxset p_ctxset;
static pfn_iscap p_iscap;
static pfn_strcreate p_strcreate;
static pfn_ptrattr p_ptrattr;

static atomic_int timing_state; /* 0 untried, 1 ready, -1 off */
static CUcontext timing_ctx;
static CUstream ref_stream;
static CUevent ref_event;
static uint64_t ref_mono;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static CUevent *pool;
static size_t pool_n, pool_cap;

static int timing_setup(void) {
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
        if (p_evcreate && p_evrecord && p_evquery && p_evsync && p_evel && p_ctxget && p_ctxset && p_strcreate &&
            p_ctxget(&timing_ctx) == CUDA_SUCCESS && timing_ctx &&
            p_strcreate(&ref_stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS &&
            p_evcreate(&ref_event, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
            p_evrecord(ref_event, ref_stream) == CUDA_SUCCESS && p_evsync(ref_event) == CUDA_SUCCESS) {
            ref_mono = mono_ns();
            ok = 1;
        }
        atomic_store(&timing_state, ok ? 1 : -1);
        DBG("GPU timing %s", ok ? "on" : "unavailable");
    }
    pthread_mutex_unlock(&pool_mu);
    return atomic_load(&timing_state) == 1;
}

static CUevent pool_get(void) {
    CUevent e = NULL;
    pthread_mutex_lock(&pool_mu);
    if (pool_n) e = pool[--pool_n];
    pthread_mutex_unlock(&pool_mu);
    if (!e && p_evcreate(&e, CU_EVENT_DEFAULT) != CUDA_SUCCESS) e = NULL;
    return e;
}
static void pool_put(CUevent e) {
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

/* stream id as the trace writes it: 0 legacy default stream, 2 per-thread default stream */
static inline uint64_t sid(CUstream s, int ptsz) {
    uintptr_t v = (uintptr_t)s;
    if (v == 0) return ptsz ? 2 : 0;
    if (v == 1) return 0;
    return v;
}
static inline CUstream rstream(CUstream s, int ptsz) { return (!s && ptsz) ? CU_STREAM_PER_THREAD : s; }

/* ---- CUPTI timing source: a driver-API callback notes each launch/copy/set's correlation id in a thread-local;
 * activity records (kernel, memcpy, memset) bring GPU start/end for that id, collected by the writer */
static atomic_int cupti_ready;
static __thread uint32_t t_corr;
static int64_t cupti_offset;  /* CLOCK_MONOTONIC - CUPTI timestamp */
static pthread_mutex_t corr_mu = PTHREAD_MUTEX_INITIALIZER;
static kvmap corr_times;      /* correlation id -> start (val), end (ptr) */
static CUptiResult (*c_flush)(uint32_t);
static CUptiResult (*c_next)(uint8_t *, size_t, CUpti_Activity **);
static uint64_t cupti_records, cupti_matched;

static void CUPTIAPI cupti_cb(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data) {
    const CUpti_CallbackData *cd = data;
    if (cd->callbackSite == CUPTI_API_ENTER) t_corr = cd->correlationId;
}
static size_t cupti_buf_bytes = 4u << 20;   /* PHOS_CUPTI_BUF */
static uint64_t cupti_flush_ns = 20000000ull; /* PHOS_CUPTI_FLUSH_MS: the writer asks CUPTI for records at most this often */
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

/* called on the writer thread; on success operations issued from now on are timed through CUPTI */
static void cupti_init(void) {
    if (!cfg.timing || cfg.timing_source == 2) return;
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
    if (reg(cupti_buf_req, cupti_buf_done) != CUPTI_SUCCESS || ((kinds & 1) && enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) ||
        ((kinds & 2) && enable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS) || ((kinds & 4) && enable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS)) {
        DBG("CUPTI activity enable failed: timing by CUDA events");
        return;
    }
    int n = 0, nd = 0;
    for (uint32_t cb = 1; cb < CUPTI_DRIVER_TRACE_CBID_SIZE; cb++) {
        const char *nm = NULL;
        if (cbname(CUPTI_CB_DOMAIN_DRIVER_API, cb, &nm) != CUPTI_SUCCESS || !nm) continue;
        if ((!strncmp(nm, "cuLaunch", 8) && strncmp(nm, "cuLaunchHostFunc", 16)) || !strncmp(nm, "cuMemcpy", 8) || !strncmp(nm, "cuMemset", 8)) {
            if (want_cb && encb(1, sh, CUPTI_CB_DOMAIN_DRIVER_API, cb) == CUPTI_SUCCESS) n++;
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
    atomic_store(&cupti_ready, 1);
    DBG("GPU timing by CUPTI activity records (%d driver callbacks)", n);
}

/* timing around one operation: begin notes a start (CUPTI: clears the correlation id; events: records a start event),
 * end completes it (CUPTI: keeps the id the callback noted; events: records the end event) */
typedef struct { CUevent e0, e1; CUstream st; uint32_t corr; int cupti; } tspan;
static inline void t_begin(tspan *t, CUstream st) {
    t->e0 = t->e1 = NULL;
    t->st = st;
    t->corr = 0;
    t->cupti = 0;
    if (!cfg.timing || atomic_load_explicit(&g_capturing, memory_order_relaxed)) return;
    if (atomic_load_explicit(&cupti_ready, memory_order_acquire)) { t->cupti = 1; t_corr = 0; return; }
    if (cfg.timing_source == 1) return;
    int ts = atomic_load_explicit(&timing_state, memory_order_acquire);
    if (ts == 0) ts = timing_setup() ? 1 : -1;
    if (ts != 1) return;
    t->e0 = pool_get();
    if (t->e0 && p_evrecord(t->e0, st) != CUDA_SUCCESS) { pool_put(t->e0); t->e0 = NULL; }
}
static inline void t_end(tspan *t, CUresult r) {
    if (t->cupti) { t->corr = r == CUDA_SUCCESS ? t_corr : 0; return; }
    if (!t->e0) return;
    if (r == CUDA_SUCCESS) {
        t->e1 = pool_get();
        if (t->e1 && p_evrecord(t->e1, t->st) != CUDA_SUCCESS) { pool_put(t->e1); t->e1 = NULL; }
    }
    if (!t->e1) { pool_put(t->e0); t->e0 = NULL; }
}

/* work issued to a stream that is being captured is not executed: it is not an event of the trace */
static int stream_capturing(CUstream st) {
    if (!atomic_load_explicit(&g_capturing, memory_order_relaxed)) return 0;
    OWN(p_iscap, pfn_iscap, "cuStreamIsCapturing");
    CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
    if (p_iscap && p_iscap(st, &cs) == CUDA_SUCCESS) return cs != CU_STREAM_CAPTURE_STATUS_NONE;
    return 0;
}

/* is this address device memory (or managed)? 1 device, 0 host, -1 unknown */
static int is_device_ptr(uint64_t p) {
    OWN(p_ptrattr, pfn_ptrattr, "cuPointerGetAttribute");
    if (!p_ptrattr) return -1;
    unsigned int t = 0;
    if (p_ptrattr(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)p) != CUDA_SUCCESS) return 0;
    return (t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED) ? 1 : 0;
}
static int copy_kind(int sdev, int ddev) {
    if (sdev < 0 || ddev < 0) return 6; /* DEFAULT */
    if (!sdev && ddev) return 1;
    if (sdev && !ddev) return 2;
    if (sdev && ddev) return 3;
    return 4;
}

/* ------------------------------------------------------------------ writer thread */
static pthread_t writer_tid;
static int writer_running;
static pthread_mutex_t w_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t w_cv = PTHREAD_COND_INITIALIZER;
static atomic_int w_stop;
static atomic_uint_fast64_t flush_req, flush_ack;
static phos_out out = {.fd = -1};   /* phos_output.c: exclusive, regular, whole chunks only */
static uint64_t lost_from = UINT64_MAX;  /* first event missing from the file after a failed write */
static uint64_t end_dropped;        /* dropped events as counted in the TraceEnd written */

static void wakeup_writer(void) {
    pthread_mutex_lock(&w_mu);
    pthread_cond_signal(&w_cv);
    pthread_mutex_unlock(&w_mu);
}

static uint64_t ev_index, batch_first, batch_count;

/* one whole unit (file header or chunk); the first failure is said once: from which event on the trace is lost */
static void write_unit(uint16_t type, const uint8_t *p, size_t n) {
    if (phos_out_write(&out, p, n) == 0 || lost_from != UINT64_MAX) return;
    lost_from = batch_count ? batch_first : ev_index;   /* the batch being written, or the next one */
    if (type == PHOS_CHUNK_END)
        fprintf(stderr, "[phos] writing trace %s failed (%s): its end (TraceEnd) is missing; all %llu events are in the file\n",
                out.path, strerror(out.err), (unsigned long long)lost_from);
    else
        fprintf(stderr, "[phos] writing trace %s failed (%s): events from %llu on are lost; the file keeps the %llu events "
                "before them in whole chunks (it loads as a trace that was not closed)\n", out.path, strerror(out.err),
                (unsigned long long)lost_from, (unsigned long long)lost_from);
}
static pbuf wout;
static void write_chunk(uint16_t type, const pbuf *payload, int compress) {
    if (out.err) return;   /* nothing is written after a failed write: the file keeps its intact prefix */
    pb_reset(&wout);
    if (phos_frame_chunk(&wout, type, payload->p, payload->n, compress) == 0) write_unit(type, wout.p, wout.n);
}

typedef CUresult (*pfn_drvver)(int *);
typedef CUresult (*pfn_devget)(CUdevice *, int);
typedef CUresult (*pfn_devname)(char *, int, CUdevice);
typedef CUresult (*pfn_devattr)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*pfn_devmem)(size_t *, CUdevice);

static void write_header(void) {
    pbuf h = {0};
    pb_u64(&h, 1, 1);
    pb_str(&h, 2, "phos-recorder");
    pb_str(&h, 3, PHOS_VERSION);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    pb_str(&h, 4, host);
    pb_u64(&h, 5, (uint64_t)getpid());
    size_t n = 0;
    char *cmd = read_file("/proc/self/cmdline", &n);
    if (cmd) {
        for (size_t i = 0; i < n;) { size_t l = strlen(cmd + i); pb_bytes(&h, 6, cmd + i, l); if (!l) { pb_varint(&h, (6 << 3) | 2); pb_varint(&h, 0); } i += l + 1; }
        free(cmd);
    }
    pfn_drvver dv = (pfn_drvver)own_real("cuDriverGetVersion");
    pfn_devget dg = (pfn_devget)own_real("cuDeviceGet");
    pfn_devname dn = (pfn_devname)own_real("cuDeviceGetName");
    pfn_devattr da = (pfn_devattr)own_real("cuDeviceGetAttribute");
    pfn_devmem dm = (pfn_devmem)own_real("cuDeviceTotalMem_v2");
    CUdevice dev = 0;
    char name[256] = "";
    int maj = 0, min = 0, drv = 0;
    size_t mem = 0;
    if (dg && dg(&dev, 0) == CUDA_SUCCESS) {
        if (dn) dn(name, sizeof name - 1, dev);
        if (da) { da(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev); da(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev); }
        if (dm) dm(&mem, dev);
    }
    if (dv) dv(&drv);
    pb_str(&h, 7, name);
    pb_u64(&h, 8, (uint64_t)maj);
    pb_u64(&h, 9, (uint64_t)min);
    pb_u64(&h, 10, (uint64_t)drv);
    pb_u64(&h, 11, (uint64_t)atomic_load(&g_max_cuda_version));
    pb_str(&h, 12, "CLOCK_MONOTONIC");
    pb_u64(&h, 13, g_start_unix);
    pb_u64(&h, 14, g_start_mono);
    pb_u64(&h, 15, cfg.payload_limit);
    pb_bool(&h, 16, cfg.timing);
    pb_u64(&h, 17, (uint64_t)mem);
    write_chunk(PHOS_CHUNK_HEADER, &h, 0);
    pb_free(&h);
}

/* writer-side state */
static slot_t *pend;               /* pending copies of slots, in issue order */
static size_t pend_head, pend_n, pend_cap;
/* ev_index: index of the next event encoded; batch_first, batch_count: the EventBatch being filled (above) */
static uint64_t last_graph_index;
static pbuf batch, body, evb, tmpb;
static uint64_t head_wait_since;

static void pend_push(const slot_t *s) {
    if (pend_n == pend_cap) {
        size_t nc = pend_cap ? pend_cap * 2 : 4096;
        slot_t *np = malloc(nc * sizeof *np);
        if (!np) { atomic_fetch_add(&g_dropped, 1); return; }   /* lost, but counted */
        for (size_t i = 0; i < pend_n; i++) np[i] = pend[(pend_head + i) % (pend_cap ? pend_cap : 1)];
        free(pend);
        pend = np;
        pend_cap = nc;
        pend_head = 0;
    }
    memcpy(&pend[(pend_head + pend_n) % pend_cap], s, sizeof *s);
    pend_n++;
}

static int drain_ring(void) {
    int got = 0;
    for (;;) {
        uint64_t t = atomic_load_explicit(&ring_tail, memory_order_relaxed);
        slot_t *s = &ring[t & (RING_CAP - 1)];
        if (atomic_load_explicit(&s->seq, memory_order_acquire) != t + 1) break;
        pend_push(s);
        atomic_store_explicit(&s->seq, t + RING_CAP, memory_order_release);
        atomic_store_explicit(&ring_tail, t + 1, memory_order_release);
        got++;
    }
    return got;
}

static void flush_batch(void) {
    if (!batch_count) return;
    pb_reset(&tmpb);
    pb_u64(&tmpb, 1, batch_first);
    pb_raw(&tmpb, batch.p, batch.n);
    write_chunk(PHOS_CHUNK_EVENTS, &tmpb, cfg.compress);
    pb_reset(&batch);
    batch_count = 0;
}

static void write_module(module_rec *r) {
    pb_reset(&tmpb);
    pb_u64(&tmpb, 1, r->id);
    pb_u64(&tmpb, 2, (uint64_t)r->kind);
    pb_bytes(&tmpb, 3, r->image, r->stored);
    pb_fixed64(&tmpb, 4, r->hash);
    pb_str(&tmpb, 5, r->origin);
    pb_u64(&tmpb, 6, r->image_size);
    write_chunk(PHOS_CHUNK_MODULE, &tmpb, cfg.compress);
    free(r->image);
    free(r);
}

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static demangle_fn demangle;
static void write_function(func_rec *f) {
    if (!demangle) {
        void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
        demangle = h ? (demangle_fn)real_dlsym()(h, "__cxa_demangle") : NULL;
        if (!demangle) demangle = (demangle_fn)(uintptr_t)1;
    }
    pb_reset(&tmpb);
    pb_u64(&tmpb, 1, f->id);
    pb_u64(&tmpb, 2, f->module);
    pb_str(&tmpb, 3, f->name);
    if (f->name && (uintptr_t)demangle > 1 && f->name[0] == '_' && f->name[1] == 'Z') {
        int st = 0;
        char *d = demangle(f->name, NULL, NULL, &st);
        if (d && st == 0) pb_str(&tmpb, 4, d);
        free(d);
    }
    pbuf pi = {0};
    for (uint32_t i = 0; i < f->nparams; i++) {
        pb_reset(&pi);
        pb_u64(&pi, 1, f->off[i]);
        pb_u64(&pi, 2, f->size[i]);
        pb_msg(&tmpb, 5, &pi);
    }
    pb_free(&pi);
    write_chunk(PHOS_CHUNK_FUNCTION, &tmpb, 0);
    f->emitted = 1;
}

static uint64_t gpu_ns(CUevent e) {
    float ms = 0;
    if (p_evel(&ms, ref_event, e) == CUDA_SUCCESS) return (uint64_t)((int64_t)ref_mono + (int64_t)((double)ms * 1e6)) - g_start_mono;
    if (p_evel(&ms, e, ref_event) == CUDA_SUCCESS) return (uint64_t)((int64_t)ref_mono - (int64_t)((double)ms * 1e6)) - g_start_mono;
    return 0;
}

/* encode one pending slot; returns 0 when it has to wait for its GPU events */
static int encode_slot(slot_t *s, int force) {
    uint64_t g0 = 0, g1 = 0;
    if (s->e1) {
        CUresult q = p_evquery(s->e1);
        if (q == CUDA_ERROR_NOT_READY && !force) {
            uint64_t now = mono_ns();
            if (!head_wait_since) head_wait_since = now;
            if (now - head_wait_since < 3000000000ull) return 0;
        }
        if (q == CUDA_SUCCESS) { g0 = gpu_ns(s->e0); g1 = gpu_ns(s->e1); }
        pool_put(s->e0);
        pool_put(s->e1);
        s->e0 = s->e1 = NULL;
    }
    if (s->corr) {
        uint64_t st = 0, en = 0;
        pthread_mutex_lock(&corr_mu);
        kv_t *e = kv_find(&corr_times, s->corr);
        if (e && e->val) { st = e->val; en = (uint64_t)(uintptr_t)e->ptr; }
        pthread_mutex_unlock(&corr_mu);
        if (!st) {
            uint64_t now = mono_ns();
            if (!head_wait_since) head_wait_since = now;
            static uint64_t last_flush_call, last_forced;
            int again = 0;
            if (force && now - last_forced > 200000000ull) { c_flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); last_forced = last_flush_call = now; again = 1; }
            else if (!force && cupti_flush_ns && now - last_flush_call > cupti_flush_ns) { c_flush(0); last_flush_call = now; again = 1; }
            if (again) {
                pthread_mutex_lock(&corr_mu);
                e = kv_find(&corr_times, s->corr);
                if (e && e->val) { st = e->val; en = (uint64_t)(uintptr_t)e->ptr; }
                pthread_mutex_unlock(&corr_mu);
            }
            if (!st && !force && now - head_wait_since < 3000000000ull) return 0;
        }
        if (st) {
            g0 = (uint64_t)((int64_t)st + cupti_offset) - g_start_mono;
            g1 = (uint64_t)((int64_t)en + cupti_offset) - g_start_mono;
            cupti_matched++;
        }
        s->corr = 0;
    }
    head_wait_since = 0;
    const uint8_t *data = s->dext ? s->dext : s->din;
    if (s->type == EV_MODULE) { write_module(s->ptr); return 1; }
    pb_reset(&body);
    int field = 0;
    switch (s->type) {
    case EV_ALLOC:
        pb_u64(&body, 1, s->a0); pb_u64(&body, 2, s->a1); pb_u64(&body, 3, s->kind); pb_u64(&body, 4, s->stream);
        field = 10; break;
    case EV_FREE:
        pb_u64(&body, 1, s->a0); pb_u64(&body, 2, s->kind); pb_u64(&body, 3, s->stream);
        field = 11; break;
    case EV_MEMCPY:
        pb_u64(&body, 1, s->kind); pb_u64(&body, 2, s->a0); pb_u64(&body, 3, s->a1); pb_u64(&body, 4, s->a2);
        pb_u64(&body, 5, s->stream); pb_bool(&body, 6, s->async); pb_bytes(&body, 7, data, s->dlen);
        pb_u64(&body, 8, g0); pb_u64(&body, 9, g1);
        field = 12; break;
    case EV_MEMSET:
        pb_u64(&body, 1, s->a0); pb_u64(&body, 2, s->a1); pb_u64(&body, 3, s->u[0]); pb_u64(&body, 4, s->u[1]);
        pb_u64(&body, 5, s->stream); pb_bool(&body, 6, s->async); pb_u64(&body, 8, g0); pb_u64(&body, 9, g1);
        field = 13; break;
    case EV_LAUNCH: {
        func_rec *f = s->ptr;
        if (f && !f->emitted) write_function(f);
        pb_u64(&body, 1, f ? f->id : 0);
        for (int i = 0; i < 7; i++) pb_u64(&body, 2 + i, s->u[i]);
        pb_u64(&body, 9, s->stream); pb_bytes(&body, 10, data, s->dlen);
        pb_u64(&body, 11, g0); pb_u64(&body, 12, g1); pb_u64(&body, 13, s->lkind);
        if (s->lkind == 3) pb_u64(&body, 14, last_graph_index);
        field = 14; break;
    }
    case EV_SYNC:
        pb_u64(&body, 1, s->kind); pb_u64(&body, 2, s->stream); pb_u64(&body, 3, s->a0); pb_u64(&body, 4, s->u[0]);
        field = 15; break;
    case EV_GRAPH:
        pb_u64(&body, 1, s->a0); pb_u64(&body, 2, s->stream); pb_u64(&body, 3, s->u[0]);
        last_graph_index = ev_index;
        field = 16; break;
    default:
        return 1;
    }
    free(s->dext);
    s->dext = NULL;
    pb_reset(&evb);
    pb_u64(&evb, 1, s->host_ns > g_start_mono ? s->host_ns - g_start_mono : 0);
    pb_u64(&evb, 2, s->thread);
    pb_msg(&evb, (uint32_t)field, &body);
    if (!batch_count) batch_first = ev_index;
    pb_msg(&batch, 2, &evb);
    batch_count++;
    ev_index++;
    if (batch_count >= 16384 || batch.n >= (8u << 20)) flush_batch();
    return 1;
}

static int process_pending(int force) {
    int done = 0;
    while (pend_n) {
        if (!encode_slot(&pend[pend_head], force)) break;
        pend_head = (pend_head + 1) % pend_cap;
        pend_n--;
        done++;
    }
    return done;
}

static void rebase_clock(void) {
    /* a fresh reference event every second keeps cuEventElapsedTime's float precision well under 1 us */
    if (atomic_load(&timing_state) != 1) return;
    static int ctx_set;
    if (!ctx_set) { p_ctxset(timing_ctx); ctx_set = 1; }
    if (p_evrecord(ref_event, ref_stream) == CUDA_SUCCESS && p_evsync(ref_event) == CUDA_SUCCESS) ref_mono = mono_ns();
}

static void *writer_main(void *arg) {
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    t_internal = 1;
    write_header();
    cupti_init();
    uint64_t last_flush = mono_ns(), last_rebase = last_flush;
    for (;;) {
        int stop = atomic_load(&w_stop);
        uint64_t req = atomic_load(&flush_req);
        int force = stop || req != atomic_load(&flush_ack);
        drain_ring();
        process_pending(force);
        uint64_t now = mono_ns();
        if (force || now - last_flush >= (uint64_t)cfg.flush_ms * 1000000ull) {
            flush_batch();
            last_flush = now;
            if (req != atomic_load(&flush_ack)) {
                if (atomic_load(&ring_tail) >= atomic_load(&ring_head) || stop) { atomic_store(&flush_ack, req); }
            }
        }
        if (stop && !pend_n && atomic_load(&ring_tail) >= atomic_load(&ring_head)) break;
        if (!pend_n && now - last_rebase > 1000000000ull) { rebase_clock(); last_rebase = mono_ns(); }
        if (!force) {
            pthread_mutex_lock(&w_mu);
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 2000000;
            if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
            pthread_cond_timedwait(&w_cv, &w_mu, &ts);
            pthread_mutex_unlock(&w_mu);
        } else if (stop) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
    flush_batch();
    DBG("CUPTI: %llu activity records, %llu operations timed by them", (unsigned long long)cupti_records, (unsigned long long)cupti_matched);
    pb_reset(&tmpb);
    pb_u64(&tmpb, 1, ev_index);
    end_dropped = atomic_load(&g_dropped);
    pb_u64(&tmpb, 2, end_dropped);
    pb_u64(&tmpb, 3, mono_ns() - g_start_mono);
    write_chunk(PHOS_CHUNK_END, &tmpb, 0);
    return NULL;
}

/* ------------------------------------------------------------------ start, stop, signals, fork */
static void stop_recorder(void) {
    int expected = 1;
    if (!atomic_compare_exchange_strong(&g_state, &expected, 2)) return;
    atomic_store(&w_stop, 1);
    wakeup_writer();
    if (writer_running) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 10;
        if (pthread_timedjoin_np(writer_tid, NULL, &ts) == 0) writer_running = 0;
    }
    if (writer_running) {
        /* still waiting for GPU times or stuck in a driver call: whatever it has not written is lost */
        fprintf(stderr, "[phos] trace %s incomplete: the writer did not finish within 10 s (%llu events written so far, "
                "no TraceEnd)\n", out.path, (unsigned long long)(lost_from != UINT64_MAX ? lost_from : batch_first));
        return;
    }
    phos_out_close(&out);
    if (end_dropped)
        fprintf(stderr, "[phos] %llu events dropped: the event ring was full (the writer fell behind); TraceEnd.dropped_events "
                "counts them\n", (unsigned long long)end_dropped);
    if (lost_from != UINT64_MAX)
        DBG("trace %s incomplete: %llu of %llu events written (a write failed: %s)", out.path,
            (unsigned long long)lost_from, (unsigned long long)ev_index, strerror(out.err));
    else
        DBG("trace closed: %llu events", (unsigned long long)ev_index);
}
static void at_exit(void) { stop_recorder(); }
__attribute__((destructor)) static void at_unload(void) { stop_recorder(); }

static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGQUIT};
static struct sigaction old_sa[65];
static int sig_installed[65];

static void fatal_handler(int sig, siginfo_t *si, void *uc) {
    /* ask the writer to write everything issued so far, wait for it at most 2 s (async-signal-safe calls only) */
    if (atomic_load(&g_state) == 1) {
        uint64_t r = atomic_fetch_add(&flush_req, 1) + 1;
        for (int i = 0; i < 2000 && atomic_load(&flush_ack) < r; i++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    sigaction(sig, &old_sa[sig], NULL);
    if (old_sa[sig].sa_flags & SA_SIGINFO) { if (old_sa[sig].sa_sigaction) { old_sa[sig].sa_sigaction(sig, si, uc); return; } }
    else if (old_sa[sig].sa_handler != SIG_DFL && old_sa[sig].sa_handler != SIG_IGN) { old_sa[sig].sa_handler(sig); return; }
    raise(sig);
}

static void install_signals(void) {
    for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++) {
        int s = fatal_sigs[i];
        struct sigaction cur;
        if (sigaction(s, NULL, &cur) != 0) continue;
        /* only where nobody else handles the signal: a JVM owns SIGSEGV for itself, Python owns SIGINT */
        if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = fatal_handler;
            sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
            sigemptyset(&sa.sa_mask);
            old_sa[s] = cur;
            if (sigaction(s, &sa, NULL) == 0) sig_installed[s] = 1;
        }
    }
}

/* a forked child records nothing; it closes its copy of the trace's descriptor so that the lock (phos_output.c) goes
   with the parent, and a later run may replace the parent's finished trace even while the child lives on */
static void in_child(void) { atomic_store(&g_state, 3); writer_running = 0; phos_out_close(&out); }

static void start_once(void) {
    if (getenv("PHOS_DISABLE") && atoi(getenv("PHOS_DISABLE"))) { atomic_store(&g_state, 3); return; }
    cfg.debug = (int)phos_env_u64("PHOS_DEBUG", 0);
    cfg.payload_limit = phos_env_u64("PHOS_PAYLOAD_LIMIT", 65536);
    cfg.image_limit = phos_env_u64("PHOS_MODULE_IMAGE_LIMIT", 4u << 20);
    cfg.timing = (int)phos_env_u64("PHOS_TIMING", 1);
    cfg.compress = (int)phos_env_u64("PHOS_COMPRESS", 1);
    const char *tsrc = getenv("PHOS_TIMING_SOURCE");
    cfg.timing_source = (tsrc && !strcmp(tsrc, "cupti")) ? 1 : (tsrc && !strcmp(tsrc, "events")) ? 2 : 0;
    cfg.flush_ms = (int)phos_env_u64("PHOS_FLUSH_MS", 100);
    if (cfg.flush_ms <= 0) cfg.flush_ms = 100;
    const char *pat = getenv("PHOS_TRACE_OUT");
    if (!pat || !*pat) pat = "phos-%p.phos";
    phos_expand_pid(cfg.out_path, sizeof cfg.out_path, pat);
    ring = calloc(RING_CAP, sizeof *ring);
    if (!ring) { atomic_store(&g_state, 3); return; }
    for (uint32_t i = 0; i < RING_CAP; i++) atomic_store(&ring[i].seq, i);
    /* never blocks (a FIFO is refused), never truncates a trace a live process writes (a second one gets NAME.PID.phos) */
    if (phos_out_open(&out, cfg.out_path, "[phos]", "recording off, CUDA calls pass through unrecorded") != 0) {
        atomic_store(&g_state, 3);
        return;
    }
    snprintf(cfg.out_path, sizeof cfg.out_path, "%s", out.path);   /* the name written (phos_recorder_trace_path) */
    g_start_mono = mono_ns();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    g_start_unix = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    pbuf fh = {0};
    phos_file_header(&fh);
    write_unit(PHOS_CHUNK_HEADER, fh.p, fh.n);
    pb_free(&fh);
    atomic_store(&g_state, 1);
    if (pthread_create(&writer_tid, NULL, writer_main, NULL) != 0) { atomic_store(&g_state, 3); return; }
    writer_running = 1;
    pthread_atfork(NULL, NULL, in_child);
    atexit(at_exit);
    install_signals();
    DBG("recording to %s (timing %d, payload limit %llu, image limit %llu)", cfg.out_path, cfg.timing,
        (unsigned long long)cfg.payload_limit, (unsigned long long)cfg.image_limit);
}
static void ensure_started(void) {
    if (atomic_load(&g_state) == 0) pthread_once(&g_once, start_once);
}

/* ------------------------------------------------------------------ wrappers */
#define DEF(abi, params, args) \
    typedef CUresult (*pfn_##abi) params; \
    static CUresult body_##abi(hook_t *H, STRIP params); \
    HIDDEN __attribute__((noinline)) CUresult w_##abi params { return body_##abi(&HK_##abi, STRIP args); } \
    static CUresult body_##abi(hook_t *H, STRIP params)
#define DEF2(abi, params, args) \
    typedef CUresult (*pfn_##abi) params; \
    static CUresult body_##abi(hook_t *H, STRIP params); \
    HIDDEN __attribute__((noinline)) CUresult w_##abi params { return body_##abi(&HK_##abi, STRIP args); } \
    HIDDEN __attribute__((noinline)) CUresult wp_##abi params { return body_##abi(&HKP_##abi, STRIP args); } \
    static CUresult body_##abi(hook_t *H, STRIP params)
#define REAL(abi) pfn_##abi real = (pfn_##abi)hook_real(H); if (!real) return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED
#define ON() (atomic_load_explicit(&g_state, memory_order_relaxed) != 3)
#define PT (H->ptsz)

DEF(cuInit, (unsigned int flags), (flags)) {
    REAL(cuInit);
    CUresult r = real(flags);
    if (r == CUDA_SUCCESS) ensure_started();
    return r;
}

/* ---- allocations */
static void ev_alloc(uint64_t t, uint64_t addr, uint64_t size, int kind, uint64_t stream) {
    remember_alloc(addr, kind);
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_ALLOC, t);
    if (!s) return;
    s->a0 = addr; s->a1 = size; s->kind = (uint8_t)kind; s->stream = stream;
    slot_commit(pos, s);
}
static void ev_free(uint64_t t, uint64_t addr, int dflt, uint64_t stream) {
    int kind = forget_alloc(addr, dflt);
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_FREE, t);
    if (!s) return;
    s->a0 = addr; s->kind = (uint8_t)kind; s->stream = stream;
    slot_commit(pos, s);
}

DEF(cuMemAlloc_v2, (CUdeviceptr *p, size_t n), (p, n)) {
    REAL(cuMemAlloc_v2); uint64_t t = mono_ns();
    CUresult r = real(p, n);
    if (r == CUDA_SUCCESS && ON()) ev_alloc(t, *p, n, 0, 0);
    return r;
}
DEF(cuMemAllocPitch_v2, (CUdeviceptr *p, size_t *pitch, size_t w, size_t h, unsigned int e), (p, pitch, w, h, e)) {
    REAL(cuMemAllocPitch_v2); uint64_t t = mono_ns();
    CUresult r = real(p, pitch, w, h, e);
    if (r == CUDA_SUCCESS && ON()) ev_alloc(t, *p, (uint64_t)*pitch * h, 5, 0);
    return r;
}
DEF(cuMemAllocManaged, (CUdeviceptr *p, size_t n, unsigned int f), (p, n, f)) {
    REAL(cuMemAllocManaged); uint64_t t = mono_ns();
    CUresult r = real(p, n, f);
    if (r == CUDA_SUCCESS && ON()) ev_alloc(t, *p, n, 2, 0);
    return r;
}
DEF(cuMemFree_v2, (CUdeviceptr p), (p)) {
    REAL(cuMemFree_v2); uint64_t t = mono_ns();
    CUresult r = real(p);
    if (r == CUDA_SUCCESS && ON() && p) ev_free(t, p, 0, 0);
    return r;
}
DEF2(cuMemAllocAsync, (CUdeviceptr *p, size_t n, CUstream s), (p, n, s)) {
    REAL(cuMemAllocAsync); uint64_t t = mono_ns();
    CUresult r = real(p, n, s);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(s, PT))) ev_alloc(t, *p, n, 1, sid(s, PT));
    return r;
}
DEF2(cuMemAllocFromPoolAsync, (CUdeviceptr *p, size_t n, CUmemoryPool pool_, CUstream s), (p, n, pool_, s)) {
    REAL(cuMemAllocFromPoolAsync); uint64_t t = mono_ns();
    CUresult r = real(p, n, pool_, s);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(s, PT))) ev_alloc(t, *p, n, 1, sid(s, PT));
    return r;
}
DEF2(cuMemFreeAsync, (CUdeviceptr p, CUstream s), (p, s)) {
    REAL(cuMemFreeAsync); uint64_t t = mono_ns();
    CUresult r = real(p, s);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(s, PT))) ev_free(t, p, 1, sid(s, PT));
    return r;
}
DEF(cuMemMap, (CUdeviceptr p, size_t n, size_t off, CUmemGenericAllocationHandle h, unsigned long long f), (p, n, off, h, f)) {
    REAL(cuMemMap); uint64_t t = mono_ns();
    CUresult r = real(p, n, off, h, f);
    if (r == CUDA_SUCCESS && ON()) ev_alloc(t, p, n, 3, 0);
    return r;
}
DEF(cuMemUnmap, (CUdeviceptr p, size_t n), (p, n)) {
    REAL(cuMemUnmap); uint64_t t = mono_ns();
    CUresult r = real(p, n);
    if (r == CUDA_SUCCESS && ON()) ev_free(t, p, 3, 0);
    return r;
}
DEF(cuMemAllocHost_v2, (void **p, size_t n), (p, n)) {
    REAL(cuMemAllocHost_v2); uint64_t t = mono_ns();
    CUresult r = real(p, n);
    if (r == CUDA_SUCCESS && ON()) ev_alloc(t, (uint64_t)(uintptr_t)*p, n, 4, 0);
    return r;
}
DEF(cuMemHostAlloc, (void **p, size_t n, unsigned int f), (p, n, f)) {
    REAL(cuMemHostAlloc); uint64_t t = mono_ns();
    CUresult r = real(p, n, f);
    if (r == CUDA_SUCCESS && ON()) ev_alloc(t, (uint64_t)(uintptr_t)*p, n, 4, 0);
    return r;
}
DEF(cuMemHostRegister_v2, (void *p, size_t n, unsigned int f), (p, n, f)) {
    REAL(cuMemHostRegister_v2); uint64_t t = mono_ns();
    CUresult r = real(p, n, f);
    if (r == CUDA_SUCCESS && ON()) ev_alloc(t, (uint64_t)(uintptr_t)p, n, 4, 0);
    return r;
}
DEF(cuMemFreeHost, (void *p), (p)) {
    REAL(cuMemFreeHost); uint64_t t = mono_ns();
    CUresult r = real(p);
    if (r == CUDA_SUCCESS && ON()) ev_free(t, (uint64_t)(uintptr_t)p, 4, 0);
    return r;
}
DEF(cuMemHostUnregister, (void *p), (p)) {
    REAL(cuMemHostUnregister); uint64_t t = mono_ns();
    CUresult r = real(p);
    if (r == CUDA_SUCCESS && ON()) ev_free(t, (uint64_t)(uintptr_t)p, 4, 0);
    return r;
}

/* ---- copies */
static const int payload_ok = 1; /* shadowed by 2D/3D copies whose host source is not contiguous */
static void ev_copy(uint64_t t, int kind, uint64_t src, uint64_t dst, uint64_t n, uint64_t stream, int async, tspan *ts, int with_payload) {
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_MEMCPY, t);
    if (!s) { if (ts && ts->e0) { pool_put(ts->e0); pool_put(ts->e1); } return; }
    s->kind = (uint8_t)kind; s->a0 = src; s->a1 = dst; s->a2 = n; s->stream = stream; s->async = (uint8_t)async;
    if (with_payload && kind == 1 && n <= cfg.payload_limit && src) slot_data(s, (const void *)(uintptr_t)src, n);
    if (ts) { s->e0 = ts->e0; s->e1 = ts->e1; s->corr = ts->corr; }
    slot_commit(pos, s);
}

/* one copy call: time it, call it, record it; direction known (kind) or classified from the pointers (kind < 0) */
#define COPY_CALL(kind_, src_, dst_, n_, stream_, async_, call) do { \
        uint64_t t_ = mono_ns(); CUstream rs_ = rstream(stream_, PT); \
        int cap_ = stream_capturing(rs_); tspan ts_ = {0}; \
        if (!cap_ && ON()) t_begin(&ts_, rs_); \
        CUresult r_ = call; \
        t_end(&ts_, r_); \
        if (r_ == CUDA_SUCCESS && !cap_ && ON()) { \
            int k_ = kind_; \
            if (k_ < 0) k_ = copy_kind(is_device_ptr(src_), is_device_ptr(dst_)); \
            ev_copy(t_, k_, src_, dst_, n_, sid(stream_, PT), async_, &ts_, payload_ok); \
        } else if (ts_.e0) { pool_put(ts_.e0); pool_put(ts_.e1); } \
        return r_; } while (0)

DEF2(cuMemcpy, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n)) { REAL(cuMemcpy); COPY_CALL(-1, s, d, n, (CUstream)0, 0, real(d, s, n)); }
DEF2(cuMemcpyAsync, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st), (d, s, n, st)) { REAL(cuMemcpyAsync); COPY_CALL(-1, s, d, n, st, 1, real(d, s, n, st)); }
DEF2(cuMemcpyPeer, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n), (d, dc, s, sc, n)) { REAL(cuMemcpyPeer); COPY_CALL(5, s, d, n, (CUstream)0, 0, real(d, dc, s, sc, n)); }
DEF2(cuMemcpyPeerAsync, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st), (d, dc, s, sc, n, st)) { REAL(cuMemcpyPeerAsync); COPY_CALL(5, s, d, n, st, 1, real(d, dc, s, sc, n, st)); }
DEF2(cuMemcpyHtoD_v2, (CUdeviceptr d, const void *s, size_t n), (d, s, n)) { REAL(cuMemcpyHtoD_v2); COPY_CALL(1, (uint64_t)(uintptr_t)s, d, n, (CUstream)0, 0, real(d, s, n)); }
DEF2(cuMemcpyDtoH_v2, (void *d, CUdeviceptr s, size_t n), (d, s, n)) { REAL(cuMemcpyDtoH_v2); COPY_CALL(2, s, (uint64_t)(uintptr_t)d, n, (CUstream)0, 0, real(d, s, n)); }
DEF2(cuMemcpyDtoD_v2, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n)) { REAL(cuMemcpyDtoD_v2); COPY_CALL(3, s, d, n, (CUstream)0, 0, real(d, s, n)); }
DEF2(cuMemcpyHtoDAsync_v2, (CUdeviceptr d, const void *s, size_t n, CUstream st), (d, s, n, st)) { REAL(cuMemcpyHtoDAsync_v2); COPY_CALL(1, (uint64_t)(uintptr_t)s, d, n, st, 1, real(d, s, n, st)); }
DEF2(cuMemcpyDtoHAsync_v2, (void *d, CUdeviceptr s, size_t n, CUstream st), (d, s, n, st)) { REAL(cuMemcpyDtoHAsync_v2); COPY_CALL(2, s, (uint64_t)(uintptr_t)d, n, st, 1, real(d, s, n, st)); }
DEF2(cuMemcpyDtoDAsync_v2, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st), (d, s, n, st)) { REAL(cuMemcpyDtoDAsync_v2); COPY_CALL(3, s, d, n, st, 1, real(d, s, n, st)); }

/* 2D/3D descriptors: address of the first byte and the side (host 0 / device 1 / unknown -1) */
static uint64_t side_addr(CUmemorytype t, const void *host, CUdeviceptr dev, void *arr, uint64_t off, int *side) {
    switch (t) {
    case CU_MEMORYTYPE_HOST: *side = 0; return (uint64_t)(uintptr_t)host + off;
    case CU_MEMORYTYPE_DEVICE: *side = 1; return dev + off;
    case CU_MEMORYTYPE_UNIFIED: *side = is_device_ptr(dev); return dev + off;
    default: *side = -1; return (uint64_t)(uintptr_t)arr;
    }
}
static int kind2(int ss, int ds) { return (ss < 0 || ds < 0) ? 6 : copy_kind(ss, ds); }
#define C2D(c) int ss_, ds_; \
    uint64_t src_ = side_addr((c)->srcMemoryType, (c)->srcHost, (c)->srcDevice, (c)->srcArray, (c)->srcXInBytes + (uint64_t)(c)->srcY * (c)->srcPitch, &ss_); \
    uint64_t dst_ = side_addr((c)->dstMemoryType, (c)->dstHost, (c)->dstDevice, (c)->dstArray, (c)->dstXInBytes + (uint64_t)(c)->dstY * (c)->dstPitch, &ds_); \
    uint64_t n_ = (uint64_t)(c)->WidthInBytes * (c)->Height
#define C3D(c) int ss_, ds_; \
    uint64_t src_ = side_addr((c)->srcMemoryType, (c)->srcHost, (c)->srcDevice, (c)->srcArray, (c)->srcXInBytes + ((uint64_t)(c)->srcZ * (c)->srcHeight + (c)->srcY) * (c)->srcPitch, &ss_); \
    uint64_t dst_ = side_addr((c)->dstMemoryType, (c)->dstHost, (c)->dstDevice, (c)->dstArray, (c)->dstXInBytes + ((uint64_t)(c)->dstZ * (c)->dstHeight + (c)->dstY) * (c)->dstPitch, &ds_); \
    uint64_t n_ = (uint64_t)(c)->WidthInBytes * (c)->Height * (c)->Depth
/* payloads only when the host source is contiguous */
#define CONTIG2(c) ((c)->srcPitch == (c)->WidthInBytes || (c)->Height == 1)

#define CONTIG3(c) (CONTIG2(c) && ((c)->Depth == 1 || (c)->srcHeight == (c)->Height))
DEF2(cuMemcpy2D_v2, (const CUDA_MEMCPY2D *c), (c)) { REAL(cuMemcpy2D_v2); C2D(c); const int payload_ok = CONTIG2(c); COPY_CALL(kind2(ss_, ds_), src_, dst_, n_, (CUstream)0, 0, real(c)); }
DEF2(cuMemcpy2DUnaligned_v2, (const CUDA_MEMCPY2D *c), (c)) { REAL(cuMemcpy2DUnaligned_v2); C2D(c); const int payload_ok = CONTIG2(c); COPY_CALL(kind2(ss_, ds_), src_, dst_, n_, (CUstream)0, 0, real(c)); }
DEF2(cuMemcpy2DAsync_v2, (const CUDA_MEMCPY2D *c, CUstream st), (c, st)) { REAL(cuMemcpy2DAsync_v2); C2D(c); const int payload_ok = CONTIG2(c); COPY_CALL(kind2(ss_, ds_), src_, dst_, n_, st, 1, real(c, st)); }
DEF2(cuMemcpy3D_v2, (const CUDA_MEMCPY3D *c), (c)) { REAL(cuMemcpy3D_v2); C3D(c); const int payload_ok = CONTIG3(c); COPY_CALL(kind2(ss_, ds_), src_, dst_, n_, (CUstream)0, 0, real(c)); }
DEF2(cuMemcpy3DAsync_v2, (const CUDA_MEMCPY3D *c, CUstream st), (c, st)) { REAL(cuMemcpy3DAsync_v2); C3D(c); const int payload_ok = CONTIG3(c); COPY_CALL(kind2(ss_, ds_), src_, dst_, n_, st, 1, real(c, st)); }
DEF2(cuMemcpy3DPeer, (const CUDA_MEMCPY3D_PEER *c), (c)) { REAL(cuMemcpy3DPeer); C3D(c); COPY_CALL(5, src_, dst_, n_, (CUstream)0, 0, real(c)); }
DEF2(cuMemcpy3DPeerAsync, (const CUDA_MEMCPY3D_PEER *c, CUstream st), (c, st)) { REAL(cuMemcpy3DPeerAsync); C3D(c); COPY_CALL(5, src_, dst_, n_, st, 1, real(c, st)); }

DEF2(cuMemcpyBatchAsync_v2, (CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream st),
     (dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, st)) {
    REAL(cuMemcpyBatchAsync_v2);
    uint64_t t = mono_ns();
    CUstream rs = rstream(st, PT);
    CUresult r = real(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, st);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rs))
        for (size_t i = 0; i < count; i++)
            ev_copy(t, copy_kind(is_device_ptr(srcs[i]), is_device_ptr(dsts[i])), srcs[i], dsts[i], sizes[i], sid(st, PT), 1, NULL, 1);
    return r;
}
DEF2(cuMemcpy3DBatchAsync_v2, (size_t numOps, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long flags, CUstream st), (numOps, ops, flags, st)) {
    REAL(cuMemcpy3DBatchAsync_v2);
    uint64_t t = mono_ns();
    CUstream rs = rstream(st, PT);
    CUresult r = real(numOps, ops, flags, st);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rs))
        for (size_t i = 0; i < numOps; i++) {
            const CUDA_MEMCPY3D_BATCH_OP *o = &ops[i];
            int sp = o->src.type == CU_MEMCPY_OPERAND_TYPE_POINTER, dp = o->dst.type == CU_MEMCPY_OPERAND_TYPE_POINTER;
            uint64_t s = sp ? o->src.op.ptr.ptr : (uint64_t)(uintptr_t)o->src.op.array.array;
            uint64_t d = dp ? o->dst.op.ptr.ptr : (uint64_t)(uintptr_t)o->dst.op.array.array;
            int k = (sp && dp) ? copy_kind(is_device_ptr(s), is_device_ptr(d)) : 6;
            ev_copy(t, k, s, d, (uint64_t)o->extent.width * o->extent.height * o->extent.depth, sid(st, PT), 1, NULL, 1);
        }
    return r;
}

/* ---- sets */
#define SET_CALL(dst_, bytes_, value_, esize_, stream_, async_, call) do { \
        uint64_t t_ = mono_ns(); CUstream rs_ = rstream(stream_, PT); \
        int cap_ = stream_capturing(rs_); tspan ts_ = {0}; \
        if (!cap_ && ON()) t_begin(&ts_, rs_); \
        CUresult r_ = call; \
        t_end(&ts_, r_); \
        uint64_t pos_; slot_t *s_; \
        if (r_ == CUDA_SUCCESS && !cap_ && ON() && (s_ = ev_begin(&pos_, EV_MEMSET, t_))) { \
            s_->a0 = dst_; s_->a1 = bytes_; s_->u[0] = (uint32_t)(value_); s_->u[1] = esize_; \
            s_->stream = sid(stream_, PT); s_->async = async_; s_->e0 = ts_.e0; s_->e1 = ts_.e1; s_->corr = ts_.corr; \
            slot_commit(pos_, s_); \
        } else if (ts_.e0) { pool_put(ts_.e0); pool_put(ts_.e1); } \
        return r_; } while (0)
/* 2D sets record the footprint [dst, dst + pitch*(h-1) + w*esize) */
#define SPAN2D(p, w, h, e) ((h) ? (uint64_t)(p) * ((h) - 1) + (uint64_t)(w) * (e) : 0)

DEF2(cuMemsetD8_v2, (CUdeviceptr d, unsigned char v, size_t n), (d, v, n)) { REAL(cuMemsetD8_v2); SET_CALL(d, n, v, 1, (CUstream)0, 0, real(d, v, n)); }
DEF2(cuMemsetD16_v2, (CUdeviceptr d, unsigned short v, size_t n), (d, v, n)) { REAL(cuMemsetD16_v2); SET_CALL(d, n * 2, v, 2, (CUstream)0, 0, real(d, v, n)); }
DEF2(cuMemsetD32_v2, (CUdeviceptr d, unsigned int v, size_t n), (d, v, n)) { REAL(cuMemsetD32_v2); SET_CALL(d, n * 4, v, 4, (CUstream)0, 0, real(d, v, n)); }
DEF2(cuMemsetD2D8_v2, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h), (d, p, v, w, h)) { REAL(cuMemsetD2D8_v2); SET_CALL(d, SPAN2D(p, w, h, 1), v, 1, (CUstream)0, 0, real(d, p, v, w, h)); }
DEF2(cuMemsetD2D16_v2, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h), (d, p, v, w, h)) { REAL(cuMemsetD2D16_v2); SET_CALL(d, SPAN2D(p, w, h, 2), v, 2, (CUstream)0, 0, real(d, p, v, w, h)); }
DEF2(cuMemsetD2D32_v2, (CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h), (d, p, v, w, h)) { REAL(cuMemsetD2D32_v2); SET_CALL(d, SPAN2D(p, w, h, 4), v, 4, (CUstream)0, 0, real(d, p, v, w, h)); }
DEF2(cuMemsetD8Async, (CUdeviceptr d, unsigned char v, size_t n, CUstream st), (d, v, n, st)) { REAL(cuMemsetD8Async); SET_CALL(d, n, v, 1, st, 1, real(d, v, n, st)); }
DEF2(cuMemsetD16Async, (CUdeviceptr d, unsigned short v, size_t n, CUstream st), (d, v, n, st)) { REAL(cuMemsetD16Async); SET_CALL(d, n * 2, v, 2, st, 1, real(d, v, n, st)); }
DEF2(cuMemsetD32Async, (CUdeviceptr d, unsigned int v, size_t n, CUstream st), (d, v, n, st)) { REAL(cuMemsetD32Async); SET_CALL(d, n * 4, v, 4, st, 1, real(d, v, n, st)); }
DEF2(cuMemsetD2D8Async, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream st), (d, p, v, w, h, st)) { REAL(cuMemsetD2D8Async); SET_CALL(d, SPAN2D(p, w, h, 1), v, 1, st, 1, real(d, p, v, w, h, st)); }
DEF2(cuMemsetD2D16Async, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream st), (d, p, v, w, h, st)) { REAL(cuMemsetD2D16Async); SET_CALL(d, SPAN2D(p, w, h, 2), v, 2, st, 1, real(d, p, v, w, h, st)); }
DEF2(cuMemsetD2D32Async, (CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream st), (d, p, v, w, h, st)) { REAL(cuMemsetD2D32Async); SET_CALL(d, SPAN2D(p, w, h, 4), v, 4, st, 1, real(d, p, v, w, h, st)); }

/* ---- launches */
static inline CUresult launch_common(int lkind, CUfunction f, const unsigned *dims, unsigned shmem, CUstream st, int ptsz,
                                     void **kp, void **extra, CUresult (*callback)(void *), void *cbarg) {
    uint64_t t = mono_ns();
    CUstream rs = rstream(st, ptsz);
    int cap = stream_capturing(rs);
    func_rec *fr = ON() ? func_get((uint64_t)(uintptr_t)f) : NULL;
    tspan ts = {0};
    if (!cap && fr) t_begin(&ts, rs);
    CUresult r = callback(cbarg);
    t_end(&ts, r);
    uint64_t pos;
    slot_t *s;
    if (r == CUDA_SUCCESS && !cap && fr && (s = ev_begin(&pos, EV_LAUNCH, t))) {
        s->ptr = fr;
        memcpy(s->u, dims, 6 * sizeof(unsigned));
        s->u[6] = shmem;
        s->stream = sid(st, ptsz);
        s->lkind = (uint8_t)lkind;
        fill_params(s, fr, kp, extra);
        s->e0 = ts.e0;
        s->e1 = ts.e1;
        s->corr = ts.corr;
        slot_commit(pos, s);
        phos_launch_hook_fn hook = atomic_load_explicit(&launch_hook, memory_order_acquire);
        if (hook) hook(pos, 0, NULL);
    } else if (ts.e0) { pool_put(ts.e0); pool_put(ts.e1); }
    return r;
}

typedef CUresult (*pfn_cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **, void **);
struct lk_args { pfn_cuLaunchKernel real; CUfunction f; const unsigned *d; unsigned sh; CUstream st; void **kp, **ex; };
static CUresult lk_call(void *a_) {
    struct lk_args *a = a_;
    return a->real(a->f, a->d[0], a->d[1], a->d[2], a->d[3], a->d[4], a->d[5], a->sh, a->st, a->kp, a->ex);
}
static CUresult body_cuLaunchKernel(hook_t *H, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                    unsigned bz, unsigned sh, CUstream st, void **kp, void **ex) {
    pfn_cuLaunchKernel real = (pfn_cuLaunchKernel)hook_real(H);
    if (!real) return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
    unsigned d[6] = {gx, gy, gz, bx, by, bz};
    struct lk_args a = {real, f, d, sh, st, kp, ex};
    return launch_common(0, f, d, sh, st, H->ptsz, kp, ex, lk_call, &a);
}
HIDDEN __attribute__((noinline)) CUresult w_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream st, void **kp, void **ex) {
    return body_cuLaunchKernel(&HK_cuLaunchKernel, f, gx, gy, gz, bx, by, bz, sh, st, kp, ex);
}
HIDDEN __attribute__((noinline)) CUresult wp_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream st, void **kp, void **ex) {
    return body_cuLaunchKernel(&HKP_cuLaunchKernel, f, gx, gy, gz, bx, by, bz, sh, st, kp, ex);
}

typedef CUresult (*pfn_cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **, void **);
struct lx_args { pfn_cuLaunchKernelEx real; const CUlaunchConfig *c; CUfunction f; void **kp, **ex; };
static CUresult lx_call(void *a_) { struct lx_args *a = a_; return a->real(a->c, a->f, a->kp, a->ex); }
static CUresult body_cuLaunchKernelEx(hook_t *H, const CUlaunchConfig *c, CUfunction f, void **kp, void **ex) {
    pfn_cuLaunchKernelEx real = (pfn_cuLaunchKernelEx)hook_real(H);
    if (!real) return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
    if (!c) return real(c, f, kp, ex);
    unsigned d[6] = {c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ};
    int kind = 1;
    for (unsigned i = 0; i < c->numAttrs && c->attrs; i++)
        if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && c->attrs[i].value.cooperative) kind = 2;
    struct lx_args a = {real, c, f, kp, ex};
    return launch_common(kind, f, d, c->sharedMemBytes, c->hStream, H->ptsz, kp, ex, lx_call, &a);
}
HIDDEN __attribute__((noinline)) CUresult w_cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **kp, void **ex) { return body_cuLaunchKernelEx(&HK_cuLaunchKernelEx, c, f, kp, ex); }
HIDDEN __attribute__((noinline)) CUresult wp_cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **kp, void **ex) { return body_cuLaunchKernelEx(&HKP_cuLaunchKernelEx, c, f, kp, ex); }

typedef CUresult (*pfn_cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **);
struct lc_args { pfn_cuLaunchCooperativeKernel real; CUfunction f; const unsigned *d; unsigned sh; CUstream st; void **kp; };
static CUresult lc_call(void *a_) { struct lc_args *a = a_; return a->real(a->f, a->d[0], a->d[1], a->d[2], a->d[3], a->d[4], a->d[5], a->sh, a->st, a->kp); }
static CUresult body_cuLaunchCooperativeKernel(hook_t *H, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream st, void **kp) {
    pfn_cuLaunchCooperativeKernel real = (pfn_cuLaunchCooperativeKernel)hook_real(H);
    if (!real) return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
    unsigned d[6] = {gx, gy, gz, bx, by, bz};
    struct lc_args a = {real, f, d, sh, st, kp};
    return launch_common(2, f, d, sh, st, H->ptsz, kp, NULL, lc_call, &a);
}
HIDDEN __attribute__((noinline)) CUresult w_cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream st, void **kp) {
    return body_cuLaunchCooperativeKernel(&HK_cuLaunchCooperativeKernel, f, gx, gy, gz, bx, by, bz, sh, st, kp);
}
HIDDEN __attribute__((noinline)) CUresult wp_cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream st, void **kp) {
    return body_cuLaunchCooperativeKernel(&HKP_cuLaunchCooperativeKernel, f, gx, gy, gz, bx, by, bz, sh, st, kp);
}

/* ---- modules and libraries */
DEF(cuModuleLoad, (CUmodule *m, const char *fname), (m, fname)) {
    REAL(cuModuleLoad);
    CUresult r = real(m, fname);
    if (r == CUDA_SUCCESS && ON()) {
        size_t n = 0;
        void *img = read_file(fname, &n);
        if (img) { uint64_t sz; int k; image_extent(img, &sz, &k); emit_module(*m, img, n, k, "cuModuleLoad"); free(img); }
        else emit_module(*m, NULL, 0, 0, "cuModuleLoad");
    }
    return r;
}
DEF(cuModuleLoadData, (CUmodule *m, const void *img), (m, img)) {
    REAL(cuModuleLoadData);
    CUresult r = real(m, img);
    if (r == CUDA_SUCCESS && ON()) emit_module(*m, img, 0, 0, "cuModuleLoadData");
    return r;
}
DEF(cuModuleLoadDataEx, (CUmodule *m, const void *img, unsigned n, CUjit_option *o, void **v), (m, img, n, o, v)) {
    REAL(cuModuleLoadDataEx);
    CUresult r = real(m, img, n, o, v);
    if (r == CUDA_SUCCESS && ON()) emit_module(*m, img, 0, 0, "cuModuleLoadDataEx");
    return r;
}
DEF(cuModuleLoadFatBinary, (CUmodule *m, const void *img), (m, img)) {
    REAL(cuModuleLoadFatBinary);
    CUresult r = real(m, img);
    if (r == CUDA_SUCCESS && ON()) emit_module(*m, img, 0, 0, "cuModuleLoadFatBinary");
    return r;
}
DEF(cuModuleGetFunction, (CUfunction *f, CUmodule m, const char *name), (f, m, name)) {
    REAL(cuModuleGetFunction);
    CUresult r = real(f, m, name);
    if (r == CUDA_SUCCESS && ON()) remember_handle(*f, module_id_of(m), name);
    return r;
}
DEF(cuLibraryLoadData, (CUlibrary *l, const void *code, CUjit_option *jo, void **jv, unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl),
    (l, code, jo, jv, nj, lo, lv, nl)) {
    REAL(cuLibraryLoadData);
    CUresult r = real(l, code, jo, jv, nj, lo, lv, nl);
    if (r == CUDA_SUCCESS && ON()) emit_module(*l, code, 0, 0, "cuLibraryLoadData");
    return r;
}
DEF(cuLibraryLoadFromFile, (CUlibrary *l, const char *fname, CUjit_option *jo, void **jv, unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl),
    (l, fname, jo, jv, nj, lo, lv, nl)) {
    REAL(cuLibraryLoadFromFile);
    CUresult r = real(l, fname, jo, jv, nj, lo, lv, nl);
    if (r == CUDA_SUCCESS && ON()) {
        size_t n = 0;
        void *img = read_file(fname, &n);
        if (img) { uint64_t sz; int k; image_extent(img, &sz, &k); emit_module(*l, img, n, k, "cuLibraryLoadFromFile"); free(img); }
        else emit_module(*l, NULL, 0, 0, "cuLibraryLoadFromFile");
    }
    return r;
}
DEF(cuLibraryGetKernel, (CUkernel *k, CUlibrary l, const char *name), (k, l, name)) {
    REAL(cuLibraryGetKernel);
    CUresult r = real(k, l, name);
    if (r == CUDA_SUCCESS && ON()) remember_handle(*k, module_id_of(l), name);
    return r;
}
DEF(cuKernelGetFunction, (CUfunction *f, CUkernel k), (f, k)) {
    REAL(cuKernelGetFunction);
    CUresult r = real(f, k);
    if (r == CUDA_SUCCESS && ON()) {
        pthread_mutex_lock(&reg_mu);
        kv_t *e = kv_find(&handle_info, (uint64_t)(uintptr_t)k);
        uint32_t mod = e ? (uint32_t)e->val : 0;
        char *nm = (e && e->ptr) ? strdup(e->ptr) : NULL;
        pthread_mutex_unlock(&reg_mu);
        if (nm || mod) remember_handle(*f, mod, nm);
        free(nm);
    }
    return r;
}

/* ---- streams, events, synchronization */
static void ev_sync(uint64_t t, int kind, uint64_t stream, uint64_t event, uint32_t flags) {
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_SYNC, t);
    if (!s) return;
    s->kind = (uint8_t)kind; s->stream = stream; s->a0 = event; s->u[0] = flags;
    slot_commit(pos, s);
}
DEF(cuStreamCreate, (CUstream *s, unsigned f), (s, f)) {
    REAL(cuStreamCreate); uint64_t t = mono_ns();
    CUresult r = real(s, f);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 1, sid(*s, 0), 0, f);
    return r;
}
DEF(cuStreamCreateWithPriority, (CUstream *s, unsigned f, int prio), (s, f, prio)) {
    REAL(cuStreamCreateWithPriority); uint64_t t = mono_ns();
    CUresult r = real(s, f, prio);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 1, sid(*s, 0), 0, f);
    return r;
}
DEF(cuStreamDestroy_v2, (CUstream s), (s)) {
    REAL(cuStreamDestroy_v2); uint64_t t = mono_ns();
    CUresult r = real(s);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 2, sid(s, 0), 0, 0);
    return r;
}
DEF(cuEventCreate, (CUevent *e, unsigned f), (e, f)) {
    REAL(cuEventCreate); uint64_t t = mono_ns();
    CUresult r = real(e, f);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 3, 0, (uint64_t)(uintptr_t)*e, f);
    return r;
}
DEF(cuEventDestroy_v2, (CUevent e), (e)) {
    REAL(cuEventDestroy_v2); uint64_t t = mono_ns();
    CUresult r = real(e);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 4, 0, (uint64_t)(uintptr_t)e, 0);
    return r;
}
DEF2(cuEventRecord, (CUevent e, CUstream s), (e, s)) {
    REAL(cuEventRecord); uint64_t t = mono_ns();
    CUresult r = real(e, s);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(s, PT))) ev_sync(t, 5, sid(s, PT), (uint64_t)(uintptr_t)e, 0);
    return r;
}
DEF2(cuEventRecordWithFlags, (CUevent e, CUstream s, unsigned f), (e, s, f)) {
    REAL(cuEventRecordWithFlags); uint64_t t = mono_ns();
    CUresult r = real(e, s, f);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(s, PT))) ev_sync(t, 5, sid(s, PT), (uint64_t)(uintptr_t)e, f);
    return r;
}
DEF2(cuStreamWaitEvent, (CUstream s, CUevent e, unsigned f), (s, e, f)) {
    REAL(cuStreamWaitEvent); uint64_t t = mono_ns();
    CUresult r = real(s, e, f);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(s, PT))) ev_sync(t, 6, sid(s, PT), (uint64_t)(uintptr_t)e, f);
    return r;
}
DEF2(cuStreamSynchronize, (CUstream s), (s)) {
    REAL(cuStreamSynchronize); uint64_t t = mono_ns();
    CUresult r = real(s);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 7, sid(s, PT), 0, 0);
    return r;
}
DEF(cuEventSynchronize, (CUevent e), (e)) {
    REAL(cuEventSynchronize); uint64_t t = mono_ns();
    CUresult r = real(e);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 8, 0, (uint64_t)(uintptr_t)e, 0);
    return r;
}
typedef CUresult (*pfn_cuCtxSynchronize)(void);
HIDDEN __attribute__((noinline)) CUresult w_cuCtxSynchronize(void) {
    hook_t *H = &HK_cuCtxSynchronize;
    REAL(cuCtxSynchronize); uint64_t t = mono_ns();
    CUresult r = real();
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 9, 0, 0, 0);
    return r;
}
DEF(cuCtxSynchronize_v2, (CUcontext c), (c)) {
    REAL(cuCtxSynchronize_v2); uint64_t t = mono_ns();
    CUresult r = real(c);
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 9, 0, 0, 0);
    return r;
}

/* ---- graphs */
DEF2(cuStreamBeginCapture_v2, (CUstream s, CUstreamCaptureMode m), (s, m)) {
    REAL(cuStreamBeginCapture_v2); uint64_t t = mono_ns();
    atomic_fetch_add(&g_capturing, 1);
    CUresult r = real(s, m);
    if (r != CUDA_SUCCESS) atomic_fetch_sub(&g_capturing, 1);
    else if (ON()) ev_sync(t, 10, sid(s, PT), 0, (uint32_t)m);
    return r;
}
DEF2(cuStreamBeginCaptureToGraph, (CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *dd, size_t nd, CUstreamCaptureMode m), (s, g, deps, dd, nd, m)) {
    REAL(cuStreamBeginCaptureToGraph); uint64_t t = mono_ns();
    atomic_fetch_add(&g_capturing, 1);
    CUresult r = real(s, g, deps, dd, nd, m);
    if (r != CUDA_SUCCESS) atomic_fetch_sub(&g_capturing, 1);
    else if (ON()) ev_sync(t, 10, sid(s, PT), 0, (uint32_t)m);
    return r;
}
DEF2(cuStreamEndCapture, (CUstream s, CUgraph *g), (s, g)) {
    REAL(cuStreamEndCapture); uint64_t t = mono_ns();
    CUresult r = real(s, g);
    /* the capture sequence ends here whether or not it was valid */
    if (r == CUDA_SUCCESS || r == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED || r == CUDA_ERROR_STREAM_CAPTURE_UNJOINED) {
        if (atomic_load(&g_capturing) > 0) atomic_fetch_sub(&g_capturing, 1);
    }
    if (r == CUDA_SUCCESS && ON()) ev_sync(t, 11, sid(s, PT), g ? (uint64_t)(uintptr_t)*g : 0, 0);
    return r;
}
static void remember_exec(CUgraphExec e, CUgraph g) {
    pthread_mutex_lock(&reg_mu);
    kv_t *x = kv_put(&graph_of_exec, (uint64_t)(uintptr_t)e);
    if (x) x->val = (uint64_t)(uintptr_t)g;
    kv_t *c = kv_find(&exec_cache, (uint64_t)(uintptr_t)e);
    if (c && c->ptr) { free(c->ptr); c->ptr = NULL; }
    pthread_mutex_unlock(&reg_mu);
}
DEF(cuGraphInstantiateWithFlags, (CUgraphExec *e, CUgraph g, unsigned long long f), (e, g, f)) {
    REAL(cuGraphInstantiateWithFlags);
    CUresult r = real(e, g, f);
    if (r == CUDA_SUCCESS && ON()) remember_exec(*e, g);
    return r;
}
DEF2(cuGraphInstantiateWithParams, (CUgraphExec *e, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p), (e, g, p)) {
    REAL(cuGraphInstantiateWithParams);
    CUresult r = real(e, g, p);
    if (r == CUDA_SUCCESS && ON()) remember_exec(*e, g);
    return r;
}

/* kernel nodes of a graph (child graphs expanded), in node order; cached per executable graph */
typedef struct { func_rec *f; unsigned d[6]; unsigned sh; uint32_t plen; uint8_t *params; } gnode;
typedef struct { size_t n; gnode nodes[]; } gexp;
typedef CUresult (*pfn_getnodes)(CUgraph, CUgraphNode *, size_t *);
typedef CUresult (*pfn_nodetype)(CUgraphNode, CUgraphNodeType *);
typedef CUresult (*pfn_knparams)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *);
typedef CUresult (*pfn_childgraph)(CUgraphNode, CUgraph *);
static pfn_getnodes p_getnodes;
static pfn_nodetype p_nodetype;
static pfn_knparams p_knparams;
static pfn_childgraph p_childgraph;

static void expand_graph(CUgraph g, gexp **out, size_t *cap, int depth) {
    size_t n = 0;
    if (depth > 8 || p_getnodes(g, NULL, &n) != CUDA_SUCCESS || !n) return;
    CUgraphNode *nodes = calloc(n, sizeof *nodes);
    if (!nodes || p_getnodes(g, nodes, &n) != CUDA_SUCCESS) { free(nodes); return; }
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType t;
        if (p_nodetype(nodes[i], &t) != CUDA_SUCCESS) continue;
        if (t == CU_GRAPH_NODE_TYPE_GRAPH && p_childgraph) {
            CUgraph cg;
            if (p_childgraph(nodes[i], &cg) == CUDA_SUCCESS) expand_graph(cg, out, cap, depth + 1);
            continue;
        }
        if (t != CU_GRAPH_NODE_TYPE_KERNEL) continue;
        CUDA_KERNEL_NODE_PARAMS kp;
        memset(&kp, 0, sizeof kp);
        if (p_knparams(nodes[i], &kp) != CUDA_SUCCESS) continue;
        CUfunction f = kp.func ? kp.func : (CUfunction)kp.kern;
        if ((*out)->n == *cap) {
            *cap *= 2;
            gexp *ne = realloc(*out, sizeof(gexp) + *cap * sizeof(gnode));
            if (!ne) break;
            *out = ne;
        }
        gnode *gn = &(*out)->nodes[(*out)->n++];
        memset(gn, 0, sizeof *gn);
        gn->f = func_get((uint64_t)(uintptr_t)f);
        unsigned d[6] = {kp.gridDimX, kp.gridDimY, kp.gridDimZ, kp.blockDimX, kp.blockDimY, kp.blockDimZ};
        memcpy(gn->d, d, sizeof d);
        gn->sh = kp.sharedMemBytes;
        slot_t tmp;
        tmp.dlen = 0;
        tmp.dext = NULL;
        fill_params(&tmp, gn->f, kp.kernelParams, kp.extra);
        if (tmp.dlen) {
            gn->params = malloc(tmp.dlen);
            if (gn->params) { memcpy(gn->params, tmp.dext ? tmp.dext : tmp.din, tmp.dlen); gn->plen = tmp.dlen; }
        }
        free(tmp.dext);
    }
    free(nodes);
}

static gexp *graph_nodes(CUgraphExec e) {
    pthread_mutex_lock(&reg_mu);
    kv_t *c = kv_find(&exec_cache, (uint64_t)(uintptr_t)e);
    gexp *x = c ? c->ptr : NULL;
    kv_t *gg = kv_find(&graph_of_exec, (uint64_t)(uintptr_t)e);
    CUgraph g = gg ? (CUgraph)(uintptr_t)gg->val : NULL;
    pthread_mutex_unlock(&reg_mu);
    if (x || !g) return x;
    OWN(p_getnodes, pfn_getnodes, "cuGraphGetNodes");
    OWN(p_nodetype, pfn_nodetype, "cuGraphNodeGetType");
    OWN(p_knparams, pfn_knparams, "cuGraphKernelNodeGetParams_v2");
    OWN(p_childgraph, pfn_childgraph, "cuGraphChildGraphNodeGetGraph");
    if (!p_getnodes || !p_nodetype || !p_knparams) return NULL;
    size_t cap = 16;
    x = malloc(sizeof(gexp) + cap * sizeof(gnode));
    if (!x) return NULL;
    x->n = 0;
    expand_graph(g, &x, &cap, 0);
    pthread_mutex_lock(&reg_mu);
    kv_t *c2 = kv_put(&exec_cache, (uint64_t)(uintptr_t)e);
    if (c2) { if (c2->ptr) free(c2->ptr); c2->ptr = x; }
    pthread_mutex_unlock(&reg_mu);
    return x;
}

DEF2(cuGraphLaunch, (CUgraphExec e, CUstream s), (e, s)) {
    REAL(cuGraphLaunch); uint64_t t = mono_ns();
    CUstream rs = rstream(s, PT);
    gexp *x = ON() ? graph_nodes(e) : NULL;
    CUresult r = real(e, s);
    if (r != CUDA_SUCCESS || !ON() || stream_capturing(rs)) return r;
    uint32_t nn = x ? (uint32_t)x->n : 0;
    if (nn > RING_CAP / 2) nn = RING_CAP / 2;
    uint64_t pos = ring_reserve(1 + nn);
    if (pos == UINT64_MAX) return r;
    slot_t *g = slot_at(pos);
    g->type = EV_GRAPH; g->host_ns = t; g->a0 = (uint64_t)(uintptr_t)e; g->stream = sid(s, PT); g->u[0] = nn;
    slot_commit(pos, g);
    for (uint32_t i = 0; i < nn; i++) {
        gnode *gn = &x->nodes[i];
        slot_t *k = slot_at(pos + 1 + i);
        k->type = EV_LAUNCH; k->host_ns = t; k->ptr = gn->f; k->lkind = 3; k->stream = sid(s, PT);
        memcpy(k->u, gn->d, sizeof gn->d);
        k->u[6] = gn->sh;
        slot_data(k, gn->params, gn->plen);
        slot_commit(pos + 1 + i, k);
    }
    phos_launch_hook_fn hook = atomic_load_explicit(&launch_hook, memory_order_acquire);
    if (hook) {
        const char **names = nn ? calloc(nn, sizeof *names) : NULL;
        for (uint32_t i = 0; names && i < nn; i++) names[i] = x->nodes[i].f ? x->nodes[i].f->name : NULL;
        hook(pos, names ? nn : 0, names);
        free(names);
    }
    return r;
}

/* ------------------------------------------------------------------ hook registry, exports */
#define H1(s, a) &HK_##a,
#define H2(s, a, p) &HK_##a, &HKP_##a,
static hook_t *all_hooks[] = {HOOK_LIST};
#undef H1
#undef H2
#define NHOOKS (sizeof all_hooks / sizeof *all_hooks)

/* cuGetProcAddress wrappers are defined below; declare them for the table */
HIDDEN CUresult w_cuGetProcAddress_v2(const char *sym, void **pfn, int ver, cuuint64_t flags, CUdriverProcAddressQueryResult *st);
HIDDEN CUresult w_cuGetProcAddress(const char *sym, void **pfn, int ver, cuuint64_t flags);

__attribute__((constructor)) static void hooks_init(void) {
#define H1(s, a) HK_##a.wrap = (void *)w_##a;
#define H2(s, a, p) HK_##a.wrap = (void *)w_##a; HKP_##a.wrap = (void *)wp_##a;
    HOOK_LIST
#undef H1
#undef H2
}

/* the exported ABI names are aliases of the wrappers (code linked against libcuda directly binds to them) */
#define EXP(name, target) __asm__(".globl " name "\n.type " name ", @function\n.set " name ", " target "\n");
#define H1(s, a) EXP(#a, "w_" #a)
#define H2(s, a, p) EXP(#a, "w_" #a) EXP(#p, "wp_" #a)
HOOK_LIST
#undef H1
#undef H2

static hook_t *hook_by_abi(const char *name) {
    for (size_t i = 0; i < NHOOKS; i++)
        if (!strcmp(all_hooks[i]->abi, name)) return all_hooks[i];
    return NULL;
}

static void *hook_dl(hook_t *h) {
    if (!h->dl_done) {
        void *lib = libcuda();
        void *p = (lib && real_dlsym()) ? real_dlsym()(lib, h->abi) : NULL;
        h->dl = is_ours(p) ? NULL : p;
        h->dl_done = 1;
    }
    return h->dl;
}

/* table of what cuGetProcAddress answered, keyed by (symbol, cudaVersion, flags) */
typedef struct gpa_entry { struct gpa_entry *next; char *sym; int ver; uint64_t flags; void *real, *handed; } gpa_entry;
static gpa_entry *gpa_table[512];
static pthread_mutex_t gpa_mu = PTHREAD_MUTEX_INITIALIZER;
typedef CUresult (*pfn_gpa2)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
typedef CUresult (*pfn_gpa1)(const char *, void **, int, cuuint64_t);

static unsigned gpa_slot(const char *sym, int ver, uint64_t flags) {
    uint64_t h = phos_fnv1a64(sym, strlen(sym)) ^ ((uint64_t)ver * 31) ^ (flags * 131);
    return (unsigned)(h % 512);
}

/* map the driver's pointer p for (sym, ver, flags) to our wrapper of exactly that variant, or p itself */
static void *identify(const char *sym, void *p, int ver, uint64_t flags) {
    if (!p || is_ours(p)) return p;
    pthread_mutex_lock(&gpa_mu);
    unsigned k = gpa_slot(sym, ver, flags);
    for (gpa_entry *e = gpa_table[k]; e; e = e->next)
        if (e->ver == ver && e->flags == flags && e->real == p && !strcmp(e->sym, sym)) { pthread_mutex_unlock(&gpa_mu); return e->handed; }
    void *handed = p;
    hook_t *match = NULL;
    /* identity first: the pointer is an exported variant we wrap (whatever base name it was asked under, e.g.
     * cuGraphInstantiate answered with cuGraphInstantiateWithFlags) */
    for (size_t i = 0; i < NHOOKS && !match; i++)
        if (hook_dl(all_hooks[i]) == p) match = all_hooks[i];
    if (!match) {
        /* not an exported name: accept it when it is what the driver gives a CUDA 13.0 caller for the same mode */
        pfn_gpa2 g2 = (pfn_gpa2)hook_real(&HK_cuGetProcAddress_v2);
        for (int mode = 0; mode < 2 && !match && g2; mode++) {
            void *q = NULL;
            CUdriverProcAddressQueryResult st;
            if (g2(sym, &q, CUDA_VERSION, mode ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : CU_GET_PROC_ADDRESS_LEGACY_STREAM, &st) != CUDA_SUCCESS || q != p) continue;
            hook_t *legacy = NULL, *pt = NULL;
            for (size_t i = 0; i < NHOOKS; i++)
                if (!strcmp(all_hooks[i]->sym, sym)) { if (all_hooks[i]->ptsz) pt = all_hooks[i]; else if (!legacy) legacy = all_hooks[i]; }
            match = (mode && pt) ? pt : legacy;
        }
        if (match) { void *expected = NULL; atomic_compare_exchange_strong(&match->real, &expected, p); }
    } else {
        void *expected = NULL;
        atomic_compare_exchange_strong(&match->real, &expected, p);
    }
    if (match) handed = match->wrap;
    gpa_entry *e = calloc(1, sizeof *e);
    if (e) {
        e->sym = strdup(sym); e->ver = ver; e->flags = flags; e->real = p; e->handed = handed;
        e->next = gpa_table[k];
        gpa_table[k] = e;
    }
    pthread_mutex_unlock(&gpa_mu);
    if (cfg.debug > 1) fprintf(stderr, "[phos] cuGetProcAddress(%s, %d, %llu) -> %s\n", sym, ver, (unsigned long long)flags, match ? match->abi : "(passed through)");
    return handed;
}

HIDDEN __attribute__((noinline)) CUresult w_cuGetProcAddress_v2(const char *sym, void **pfn, int ver, cuuint64_t flags, CUdriverProcAddressQueryResult *st) {
    pfn_gpa2 real = (pfn_gpa2)hook_real(&HK_cuGetProcAddress_v2);
    if (!real) return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
    CUresult r = real(sym, pfn, ver, flags, st);
    if (r == CUDA_SUCCESS && pfn && *pfn && sym) {
        int cur = atomic_load(&g_max_cuda_version);
        while (ver > cur && ver < 100000 && !atomic_compare_exchange_weak(&g_max_cuda_version, &cur, ver)) {}
        *pfn = identify(sym, *pfn, ver, flags);
    }
    return r;
}
HIDDEN __attribute__((noinline)) CUresult w_cuGetProcAddress(const char *sym, void **pfn, int ver, cuuint64_t flags) {
    pfn_gpa1 real = (pfn_gpa1)hook_real(&HK_cuGetProcAddress);
    if (!real) return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
    CUresult r = real(sym, pfn, ver, flags);
    if (r == CUDA_SUCCESS && pfn && *pfn && sym) *pfn = identify(sym, *pfn, ver, flags);
    return r;
}

/* dlsym override: hand out wrappers for the libcuda entry points we wrap */
EXPORT void *dlsym(void *handle, const char *name) {
    dlsym_fn rd = real_dlsym();
    if (!rd) return NULL;
    void *p = rd(handle, name);
    if (!p || name[0] != 'c' || name[1] != 'u') return p;
    hook_t *h = hook_by_abi(name);
    if (!h || is_ours(p)) return p;
    if (!h->wrap) hooks_init();
    void *expected = NULL;
    atomic_compare_exchange_strong(&h->real, &expected, p);
    return h->wrap;
}

/* the SASS-level tool's hook (see launch_hook): set it, map a ring position to its event index, name the trace */
EXPORT void phos_recorder_set_launch_hook(phos_launch_hook_fn fn) { atomic_store(&launch_hook, fn); }
EXPORT uint64_t phos_recorder_event_index(uint64_t pos) {
    uint64_t before = 0;
    pthread_mutex_lock(&reg_mu);
    for (size_t i = 0; i < module_pos_n; i++) before += module_pos[i] < pos;
    pthread_mutex_unlock(&reg_mu);
    return pos - before;
}
EXPORT const char *phos_recorder_trace_path(void) { return atomic_load(&g_state) == 0 ? NULL : cfg.out_path; }

/* tests and tools: number of hooks and whether a pointer is one of our wrappers */
EXPORT int phos_recorder_is_wrapper(const void *p) {
    for (size_t i = 0; i < NHOOKS; i++) if (all_hooks[i]->wrap == p) return 1;
    return 0;
}
EXPORT const char *phos_recorder_wrapper_name(const void *p) {
    for (size_t i = 0; i < NHOOKS; i++) if (all_hooks[i]->wrap == p) return all_hooks[i]->abi;
    return NULL;
}
