/*
 * Internals of libphos_recorder.so shared by its source files (one file per section of the recorder):
 *   rec_core.c        configuration, real dlsym and libcuda, the hook table, the event ring, small locked maps
 *   rec_modules.c     module images (Module chunks) and the SASS tool's launch hook
 *   rec_functions.c   functions: lock-free lookup, names, parameter layouts, launch parameter bytes
 *   rec_timing.c      GPU timing (CUDA events, CUPTI activity records), stream/pointer classification
 *   rec_writer.c      the writer thread: drains the ring, encodes protobuf, writes chunks
 *   rec_stream.c      live attach: the per-process Unix socket that offers the chunks to readers of the same user
 *   rec_lifecycle.c   start, stop, fatal signals, fork
 *   rec_wrap_memory.c wrappers: allocations, copies, sets
 *   rec_wrap_exec.c   wrappers: launches, modules and libraries, streams/events/sync, graphs
 *   rec_exports.c     cuInit, cuGetProcAddress, the dlsym override and the exported names
 * Everything here is hidden (-fvisibility=hidden): only exports.map's names leave the library.
 */
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
#ifndef PHOS_RECORDER_H
#define PHOS_RECORDER_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda.h>
#include <emmintrin.h>
#include <stddef.h>
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

/* ------------------------------------------------------------------ configuration (rec_core.c) */
struct phos_cfg {
    char out_path[PATH_MAX];
    uint64_t payload_limit;   /* PHOS_PAYLOAD_LIMIT, bytes of H2D copies captured */
    uint64_t image_limit;     /* PHOS_MODULE_IMAGE_LIMIT, bigger images are stored without bytes */
    int timing;               /* PHOS_TIMING */
    int timing_source;        /* PHOS_TIMING_SOURCE: 0 auto (CUPTI, else events), 1 cupti, 2 events */
    int compress;             /* PHOS_COMPRESS */
    int diag_skip;            /* i15-settle: PHOS_DIAG_SKIP, diagnosis of what recording a launch costs, bits: 1 no parameter bytes,
                                 2 no launch event; i15-base: 4 launch events made but dropped by the writer, not encoded or
                                 written; 8 parameters beyond 200 bytes by malloc, as before i15-base; i15-final: 16
                                 i15-base's event (on the stack, copied by non-temporal stores), 16 + 32 its parameter
                                 area filled by memcpy; 64 no big-parameter blocks (malloc beyond 1 KiB); 128 every call
                                 passed through unrecorded */
    int flush_ms;             /* PHOS_FLUSH_MS */
    int debug;                /* PHOS_DEBUG */
};
extern struct phos_cfg cfg;
extern atomic_int g_state;      /* 0 not started, 1 recording, 2 stopped, 3 disabled */
extern pthread_once_t g_once;
extern atomic_int g_capturing;  /* stream captures in progress */
extern atomic_int g_max_cuda_version;
extern atomic_uint_fast64_t g_dropped;
extern uint64_t g_start_mono, g_start_unix;

#define DBG(...) do { if (cfg.debug) { fprintf(stderr, "[phos] " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static inline uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ real dlsym, libcuda (rec_core.c) */
typedef void *(*dlsym_fn)(void *, const char *);
dlsym_fn real_dlsym(void);
void *libcuda(void);
int is_ours(const void *p);

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


/* H2(symbol, legacy variant, per-thread variant), H1(symbol, variant); HOOK_LIST keeps the order of the
   table (the first plain variant of a symbol is its legacy one). Each list is defined in the file named. */
/* rec_exports.c */
#define HOOK_LIST_ENTRY \
    H1(cuInit, cuInit) \
    H1(cuGetProcAddress, cuGetProcAddress_v2) \
    H1(cuGetProcAddress, cuGetProcAddress)
/* rec_wrap_memory.c */
#define HOOK_LIST_MEMORY \
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
    H2(cuMemsetD2D32Async, cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz)
/* rec_wrap_exec.c */
#define HOOK_LIST_EXEC \
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
    H1(cuCtxDestroy, cuCtxDestroy_v2) \
    H1(cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset_v2) \
    H2(cuStreamBeginCapture, cuStreamBeginCapture_v2, cuStreamBeginCapture_v2_ptsz) \
    H2(cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph_ptsz) \
    H2(cuStreamEndCapture, cuStreamEndCapture, cuStreamEndCapture_ptsz) \
    H1(cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags) \
    H2(cuGraphInstantiateWithParams, cuGraphInstantiateWithParams, cuGraphInstantiateWithParams_ptsz) \
    H2(cuGraphLaunch, cuGraphLaunch, cuGraphLaunch_ptsz)
/* rec_wrap_more.c: arrays, host functions, tensor maps, entry points counted as unrecorded (issue 16) */
#define HOOK_LIST_MORE \
    H1(cuArrayCreate, cuArrayCreate_v2) \
    H1(cuArray3DCreate, cuArray3DCreate_v2) \
    H1(cuArrayDestroy, cuArrayDestroy) \
    H2(cuMemcpyAtoH, cuMemcpyAtoH_v2, cuMemcpyAtoH_v2_ptds) \
    H2(cuMemcpyHtoA, cuMemcpyHtoA_v2, cuMemcpyHtoA_v2_ptds) \
    H2(cuMemcpyAtoD, cuMemcpyAtoD_v2, cuMemcpyAtoD_v2_ptds) \
    H2(cuMemcpyDtoA, cuMemcpyDtoA_v2, cuMemcpyDtoA_v2_ptds) \
    H2(cuMemcpyAtoA, cuMemcpyAtoA_v2, cuMemcpyAtoA_v2_ptds) \
    H2(cuMemcpyHtoAAsync, cuMemcpyHtoAAsync_v2, cuMemcpyHtoAAsync_v2_ptsz) \
    H2(cuMemcpyAtoHAsync, cuMemcpyAtoHAsync_v2, cuMemcpyAtoHAsync_v2_ptsz) \
    H2(cuLaunchHostFunc, cuLaunchHostFunc, cuLaunchHostFunc_ptsz) \
    H2(cuStreamAddCallback, cuStreamAddCallback, cuStreamAddCallback_ptsz) \
    H1(cuTensorMapEncodeTiled, cuTensorMapEncodeTiled) \
    H1(cuTensorMapEncodeIm2col, cuTensorMapEncodeIm2col) \
    H1(cuTensorMapEncodeIm2colWide, cuTensorMapEncodeIm2colWide) \
    H2(cuStreamWriteValue32, cuStreamWriteValue32_v2, cuStreamWriteValue32_v2_ptsz) \
    H2(cuStreamWriteValue64, cuStreamWriteValue64_v2, cuStreamWriteValue64_v2_ptsz) \
    H2(cuStreamBatchMemOp, cuStreamBatchMemOp_v2, cuStreamBatchMemOp_v2_ptsz) \
    H2(cuMemDiscardBatchAsync, cuMemDiscardBatchAsync, cuMemDiscardBatchAsync_ptsz) \
    H2(cuMemDiscardAndPrefetchBatchAsync, cuMemDiscardAndPrefetchBatchAsync, cuMemDiscardAndPrefetchBatchAsync_ptsz) \
    H1(cuIpcOpenMemHandle, cuIpcOpenMemHandle_v2) \
    H1(cuMemImportFromShareableHandle, cuMemImportFromShareableHandle) \
    H1(cuMemPoolImportPointer, cuMemPoolImportPointer) \
    H1(cuExternalMemoryGetMappedBuffer, cuExternalMemoryGetMappedBuffer) \
    H1(cuExternalMemoryGetMappedMipmappedArray, cuExternalMemoryGetMappedMipmappedArray) \
    H2(cuGraphicsMapResources, cuGraphicsMapResources, cuGraphicsMapResources_ptsz) \
    H1(cuMipmappedArrayCreate, cuMipmappedArrayCreate) \
    H1(cuGraphExecKernelNodeSetParams, cuGraphExecKernelNodeSetParams_v2) \
    H1(cuGraphExecMemcpyNodeSetParams, cuGraphExecMemcpyNodeSetParams) \
    H1(cuGraphExecMemsetNodeSetParams, cuGraphExecMemsetNodeSetParams) \
    H1(cuGraphExecNodeSetParams, cuGraphExecNodeSetParams) \
    H1(cuGraphExecUpdate, cuGraphExecUpdate_v2)
#define HOOK_LIST HOOK_LIST_ENTRY HOOK_LIST_MEMORY HOOK_LIST_EXEC HOOK_LIST_MORE

#define H1(s, a) extern hook_t HK_##a;
#define H2(s, a, p) extern hook_t HK_##a; extern hook_t HKP_##a;
HOOK_LIST
#undef H1
#undef H2
/* sets the wrap pointers of the hooks defined in each wrapper file */
void wrap_entry_init(void);
void wrap_memory_init(void);
void wrap_exec_init(void);
void wrap_more_init(void);

void *hook_real(hook_t *h);
void *own_real(const char *abi);
#define OWN(var, type, name) do { if (!var) var = (type)own_real(name); } while (0)

/* ------------------------------------------------------------------ injection mode (rec_inject.c) */
extern int g_inject;                 /* loaded by CUDA_INJECTION64_PATH: calls arrive as CUPTI callbacks */
extern __thread int t_replay;        /* a wrapper runs for a call the driver already made (at its CUPTI exit) */
extern __thread CUresult t_replay_result;
extern __thread CUevent t_pre_e0;    /* the start event recorded at the entry of the call being replayed */
void *replay_real(void);

/* ------------------------------------------------------------------ event ring (bounded lock-free MPSC; rec_core.c) */
enum { EV_ALLOC = 1, EV_FREE, EV_MEMCPY, EV_MEMSET, EV_LAUNCH, EV_SYNC, EV_GRAPH, EV_MODULE, EV_ARRAY, EV_TMAP,
       EV_ABLOCK /* i15-alloc: a caching allocator's block event (rec_torch_alloc.c) */ };
/* wire codes (docs/phos-trace-v1.proto) the wrappers of issue 16 write */
enum { COPY_H2A = 7, COPY_A2H = 8, COPY_D2A = 9, COPY_A2D = 10, COPY_A2A = 11 };
enum { SYNC_HOST_FUNCTION = 12, SYNC_STREAM_CALLBACK = 13 };
/* what a TensorMap slot carries in its data bytes (the writer encodes it) */
typedef struct {
    uint64_t dims[5], strides[5];
    uint32_t box[5], estr[5];
    uint32_t interleave, swizzle, l2, oob;
    uint64_t extent;
    uint8_t map[128];
} tmap_rec;
uint64_t tmap_extent(unsigned dt, uint32_t rank, const cuuint64_t *dims, const cuuint64_t *strides);

/* entry points that can change memory and are passed through without an event: counted per name, written in
   TraceEnd.unrecorded (README "Entry points that can write device memory") */
#define UNREC_LIST \
    U(UNREC_WRITE_VALUE32, "cuStreamWriteValue32") \
    U(UNREC_WRITE_VALUE64, "cuStreamWriteValue64") \
    U(UNREC_BATCH_MEM_OP, "cuStreamBatchMemOp") \
    U(UNREC_DISCARD, "cuMemDiscardBatchAsync") \
    U(UNREC_DISCARD_PREFETCH, "cuMemDiscardAndPrefetchBatchAsync") \
    U(UNREC_IPC_OPEN, "cuIpcOpenMemHandle") \
    U(UNREC_IMPORT_SHAREABLE, "cuMemImportFromShareableHandle") \
    U(UNREC_POOL_IMPORT, "cuMemPoolImportPointer") \
    U(UNREC_EXTERNAL_BUFFER, "cuExternalMemoryGetMappedBuffer") \
    U(UNREC_EXTERNAL_MIPMAP, "cuExternalMemoryGetMappedMipmappedArray") \
    U(UNREC_GRAPHICS_MAP, "cuGraphicsMapResources") \
    U(UNREC_MIPMAP_CREATE, "cuMipmappedArrayCreate") \
    U(UNREC_GRAPH_EXEC_SET, "cuGraphExec*SetParams") \
    U(UNREC_GRAPH_EXEC_UPDATE, "cuGraphExecUpdate") \
    U(UNREC_GRAPH_MEMORY_NODES, "cuGraphLaunch memcpy/memset/mem-op nodes")
enum {
#define U(id, name) id,
    UNREC_LIST
#undef U
    UNREC_N
};
extern atomic_uint_fast64_t unrec_counts[UNREC_N];
const char *unrec_name(int i);
void unrec_graph_nodes(uint64_t n);
#define INLINE_BYTES 200
#define RING_CAP (1u << 15)

/* a ring slot; i15-base: its sequence number is in ring_seq (not in a cache line the slot's writer fills), and each
   slot starts a cache line */
typedef struct slot {
    _Alignas(64) uint8_t type;
    uint8_t kind, async, lkind;
    uint32_t thread;
    uint64_t host_ns;
    uint64_t a0, a1, a2, stream;
    uint32_t u[8];
    void *ptr;
    CUevent e0, e1;
    uint32_t corr;  /* CUPTI correlation id when CUPTI times this operation */
    uint8_t gated;  /* i15-cost2: a launch timed by events behind a stream gate (the writer takes the event bias off) */
    uint8_t darena; /* i15-base: dext points into parena (the slot's own area), not to a malloc'd copy; i15-final: 2, to
                       a block of the big-parameter list */
    CUevent e2;     /* i15-timing: the in-pair probe's end event (rec_probe.c) */
    uint32_t pcorr; /* i15-timing: the probe's CUPTI correlation id (PHOS_TIMING_BOTH, diagnosis) */
    uint32_t dlen;
    uint8_t *dext;
    uint8_t din[INLINE_BYTES];
} slot_t;

extern slot_t *ring;
extern _Atomic uint64_t *ring_seq;   /* i15-base: per slot, the position it waits for (pos) or holds (pos + 1) */
/* i15-base: per ring slot, an area for a launch's parameter bytes (up to PARENA_BYTES), written without malloc (the
   writer copies them out as it drains the slot); 32 MiB of address space, filled as used */
#define PARENA_BYTES 1024
extern uint8_t *parena;
/* i15-final: blocks for parameter bytes beyond PARENA_BYTES (PyTorch's multi-tensor kernels take 3-4 KiB by value),
   taken by the launching threads and given back by the writer through a lock-free list, so that no malloc'd copy is
   freed by another thread (rec_functions.c); PBIG_N blocks of PBIG_BYTES reserved, filled as used */
#define PBIG_BYTES 8192
#define PBIG_N 2048u
void pbig_init(void);
void pbig_put(uint8_t *p);
extern _Atomic uint64_t ring_head;  /* next position producers reserve */
extern _Atomic uint64_t ring_tail;  /* next position the writer consumes */
extern atomic_uint thread_counter;
extern __thread uint32_t t_thread;
extern __thread int t_internal;  /* the writer thread: its CUDA calls (and CUPTI's made from it) are not events */

void ensure_started(void);       /* rec_lifecycle.c */
void wakeup_writer(void);        /* rec_writer.c */

/* the producer side is inline: it is the hot path of every recorded call */
static inline uint32_t my_thread(void) {
    if (!t_thread) t_thread = atomic_fetch_add(&thread_counter, 1) + 1;
    return t_thread;
}

/* reserve n consecutive slots; returns the first position or UINT64_MAX when the event must be dropped */
static inline uint64_t ring_reserve(uint32_t n) {
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

/* the slot of a reserved position once the writer has released it, as it is (i15-base: the launch path fills it
   whole) */
static inline slot_t *slot_wait(uint64_t pos) {
    while (atomic_load_explicit(&ring_seq[pos & (RING_CAP - 1)], memory_order_acquire) != pos) sched_yield();
    return &ring[pos & (RING_CAP - 1)];
}
static inline slot_t *slot_at(uint64_t pos) {
    slot_t *s = slot_wait(pos);
    s->type = s->kind = s->async = s->lkind = 0;
    s->gated = 0;
    s->darena = 0;
    s->a0 = s->a1 = s->a2 = s->stream = 0;
    memset(s->u, 0, sizeof s->u);
    s->ptr = NULL;
    s->e0 = s->e1 = NULL;
    s->corr = 0;
    s->e2 = NULL;   /* i15-timing */
    s->pcorr = 0;
    s->dlen = 0;
    s->dext = NULL;
    s->thread = my_thread();
    return s;
}
static inline void slot_commit(uint64_t pos, slot_t *s) {
    (void)s;
    atomic_store_explicit(&ring_seq[pos & (RING_CAP - 1)], pos + 1, memory_order_release);
}

static inline void slot_data(slot_t *s, const void *d, size_t n) {
    if (!n || !d) return;
    if (n <= INLINE_BYTES) memcpy(s->din, d, n);
    else {
        s->dext = malloc(n);
        if (!s->dext) return;
        memcpy(s->dext, d, n);
    }
    s->dlen = (uint32_t)n;
}

/* i15-base: n bytes copied by non-temporal stores (the program's caches are not filled with them); no byte of src
   beyond n is read. The caller fences (_mm_sfence) once before the slot's commit: a release store does not order
   non-temporal stores */
static inline void nt_copy(uint8_t *dst, const uint8_t *src, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) _mm_stream_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
    if (i < n) {
        uint8_t tail[16] = {0};
        memcpy(tail, src + i, n - i);
        _mm_stream_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)tail));
    }
}

/* the slot's parameter bytes are no longer needed (the writer): a malloc'd copy is freed, the slot's area (i15-base) is
   the ring's */
static inline void slot_free_data(slot_t *s) {
    if (s->darena == 2) pbig_put(s->dext);
    else if (!s->darena) free(s->dext);
    s->dext = NULL;
    s->darena = 0;
}

/* single-slot convenience: returns NULL when recording is off */
static inline slot_t *ev_begin(uint64_t *pos, int type, uint64_t host_ns) {
    *pos = ring_reserve(1);
    if (*pos == UINT64_MAX) return NULL;
    slot_t *s = slot_at(*pos);
    s->type = (uint8_t)type;
    s->host_ns = host_ns;
    return s;
}

/* ------------------------------------------------------------------ small locked maps (rec_core.c) */
extern pthread_mutex_t reg_mu;

typedef struct { uint64_t key; uint64_t val; void *ptr; } kv_t;
typedef struct { kv_t *e; size_t n, cap; } kvmap;
kv_t *kv_find(kvmap *m, uint64_t key);
kv_t *kv_put(kvmap *m, uint64_t key);

extern kvmap alloc_kinds;   /* address -> AllocKind + 1 */
extern kvmap module_ids;    /* CUmodule / CUlibrary -> module id */
extern kvmap library_ids;   /* CUlibrary -> module id (to find the library of a context's CUmodule) */
extern kvmap handle_info;   /* CUfunction / CUkernel -> module id (val), name (ptr) */
extern kvmap graph_of_exec; /* CUgraphExec -> CUgraph */
extern kvmap exec_cache;    /* CUgraphExec -> expanded kernel nodes */
void remember_alloc(uint64_t addr, int kind);
int forget_alloc(uint64_t addr, int dflt);

/* ------------------------------------------------------------------ modules (rec_modules.c) */
typedef struct module_rec {
    uint32_t id;
    int kind;
    uint8_t *image;
    uint64_t image_size, stored;
    uint64_t hash;
    const char *origin;
} module_rec;
typedef void (*phos_launch_hook_fn)(uint64_t pos, uint32_t nodes, const char *const *node_names);
extern _Atomic(phos_launch_hook_fn) launch_hook;
/* i15-shapes: the launch this thread is making, while the real launch call runs (the SASS tool's launch callback runs
   inside it and asks for the parameter bytes through phos_recorder_launch_params; rec_shapes.c) */
typedef struct { const void *f; struct func_rec *fr; void **kp, **extra; } cur_launch_t;
extern __thread cur_launch_t t_cur_launch;
extern uint64_t *module_pos;      /* ring positions of Module slots, under reg_mu */
extern size_t module_pos_n, module_pos_cap;
const uint8_t *image_extent(const void *img, uint64_t *size, int *kind);
void emit_module(void *handle, const void *img, size_t known_size, int known_kind, const char *origin);
void *read_file(const char *path, size_t *n);
void remember_handle(void *h, uint32_t module_id, const char *name);
uint32_t module_id_of(void *handle);
uint8_t *triton_ptx_for(uint64_t image_size, uint64_t hash, size_t *len, char **src);   /* rec_triton.c (i15-cost) */

/* ------------------------------------------------------------------ functions (rec_functions.c) */
typedef struct func_rec {
    uint64_t handle;
    uint32_t id, module;
    char *name;
    uint32_t nparams, param_bytes;
    uint32_t *off, *size;
    int layout_known;
    int emitted; /* writer only */
} func_rec;
func_rec *func_get(uint64_t h);
void fill_params(slot_t *s, func_rec *fr, void **kp, void **extra, uint64_t pos);   /* pos: the ring slot's, else UINT64_MAX */

/* ------------------------------------------------------------------ GPU timing (rec_timing.c) */
typedef CUresult (*pfn_evrecord)(CUevent, CUstream);
typedef CUresult (*pfn_evq)(CUevent);
typedef CUresult (*pfn_evel)(float *, CUevent, CUevent);
typedef CUresult (*pfn_ctxset)(CUcontext);
extern pfn_evrecord p_evrecord;
extern pfn_evq p_evquery, p_evsync;
extern pfn_evel p_evel;
extern pfn_ctxset p_ctxset;
extern atomic_int timing_state; /* 0 untried, 1 ready, -1 off */
extern CUcontext timing_ctx;
extern CUstream ref_stream;
extern CUevent ref_event;
extern uint64_t ref_mono;
int timing_setup(void);
void timing_context_ending(CUcontext c);   /* the context event timing lives in goes (NULL: maybe the one) */
extern atomic_uint timing_epoch;           /* counts the contexts event timing has left */
CUevent pool_get(void);
void pool_put(CUevent e);

extern atomic_int cupti_ready;
extern __thread uint32_t t_corr;
extern int64_t cupti_offset;  /* CLOCK_MONOTONIC - CUPTI timestamp */
extern pthread_mutex_t corr_mu;
extern kvmap corr_times;      /* correlation id -> start (val), end (ptr) */
extern CUptiResult (*c_flush)(uint32_t);
extern uint64_t cupti_records, cupti_matched;
extern uint64_t cupti_flush_ns;
void cupti_init(void);
/* i14-cupti: begin */
extern atomic_int cupti_released;
extern uint64_t cupti_lost;
int cupti_release(char *what, size_t n);
extern atomic_int cupti_retired;   /* i15-settle: released for good after the first burst (PHOS_TIMING_RELEASE) */
void cupti_retire_poll(void);
int cupti_resume(char *what, size_t n);
void timing_gaps_end(pbuf *end);
/* i14-cupti: end */
int stream_capturing(CUstream st);
int is_device_ptr(uint64_t p);
int copy_kind(int sdev, int ddev);

/* stream id as the trace writes it: 0 legacy default stream, 2 per-thread default stream */
static inline uint64_t sid(CUstream s, int ptsz) {
    uintptr_t v = (uintptr_t)s;
    if (v == 0) return ptsz ? 2 : 0;
    if (v == 1) return 0;
    return v;
}
static inline CUstream rstream(CUstream s, int ptsz) { return (!s && ptsz) ? CU_STREAM_PER_THREAD : s; }

/* timing around one operation: begin notes a start (CUPTI: clears the correlation id; events: records a start event),
 * end completes it (CUPTI: keeps the id the callback noted; events: records the end event) */
typedef struct { CUevent e0, e1; CUstream st; uint32_t corr; int cupti; int win; uint64_t cost; uint32_t gate;
                 CUevent e2; uint32_t pcorr; /* i15-timing: the in-pair probe's end event and (PHOS_TIMING_BOTH) CUPTI id */ } tspan;
extern int cupti_burst;            /* i15-burst (rec_timing.c): CUPTI on only in bursts */
extern atomic_int timing_burst_on; /* i15-burst: a burst holds the CUPTI window open now */
int cupti_window(int open);
extern int timing_copies_retired;   /* i15-settle: PHOS_TIMING_RELEASE_COPIES (rec_timing.c) */
static inline void t_begin_x(tspan *t, CUstream st, int launch) {
    t->e0 = t->e1 = NULL;
    t->st = st;
    t->corr = 0;
    t->cupti = 0;
    if (!cfg.timing || atomic_load_explicit(&g_capturing, memory_order_relaxed)) return;
    /* i15-settle: once CUPTI is released after the first burst, copies and sets are not timed unless
       PHOS_TIMING_RELEASE_COPIES=1 (then by CUDA events, as before) */
    if (!launch && !timing_copies_retired && atomic_load_explicit(&cupti_retired, memory_order_relaxed)) return;
    if (t_replay) { t->e0 = t_pre_e0; t_pre_e0 = NULL; return; }   /* injection: the call ran already, its start event is older */
    if (atomic_load_explicit(&cupti_ready, memory_order_acquire)) {
        if (!cupti_burst || t->win) { t->cupti = 1; t_corr = 0; return; }   /* (a launch: its window is open) */
        if (atomic_load_explicit(&timing_burst_on, memory_order_acquire)) {  /* i15-burst: a copy or set in a burst */
            t->win = cupti_window(1) ? 3 : 4;
            t->cupti = 1; t_corr = 0; return;
        }   /* between bursts: CUDA events */
    }
    if (cfg.timing_source == 1) return;
    int ts = atomic_load_explicit(&timing_state, memory_order_acquire);
    if (ts == 0) ts = timing_setup() ? 1 : -1;
    if (ts != 1) return;
    t->e0 = pool_get();
    if (t->e0 && p_evrecord(t->e0, st) != CUDA_SUCCESS) { pool_put(t->e0); t->e0 = NULL; }
}
static inline void t_end(tspan *t, CUresult r) {
    if (t->cupti) {
        t->corr = r == CUDA_SUCCESS && t->win != 4 ? t_corr : 0;
        if (t->win >= 3) { cupti_window(0); t->win = 0; }   /* i15-burst: a copy's or set's own reference */
        return;
    }
    if (!t->e0) return;
    if (r == CUDA_SUCCESS) {
        t->e1 = pool_get();
        if (t->e1 && p_evrecord(t->e1, t->st) != CUDA_SUCCESS) { pool_put(t->e1); t->e1 = NULL; }
    }
    if (!t->e1) { pool_put(t->e0); t->e0 = NULL; }
}
static inline void t_begin(tspan *t, CUstream st) { t_begin_x(t, st, 0); }

/* sampled GPU timing of launches (rec_timing.c, i15-cost): the policy, the per-launch decision, the CUPTI window */
struct ts_policy { int sampled; uint32_t first, nmin, nmax, budget_pm; atomic_uint interval; };
extern struct ts_policy tsp;
extern int cupti_windowed;
extern uint64_t ts_timed, ts_shapes;
void timing_sample_init(void);
int timing_sample_launch(const void *fn, const unsigned *dims);
void timing_sample_cost(uint64_t ns);
void timing_sample_header(pbuf *h);
/* cupti_window(open): 0 when kernel records could not be switched on (declared above t_begin) */
void timing_burst_end(pbuf *end);   /* i15-burst: TraceEnd fields 22-23 */
/* i15-cost2: the stream gate of a launch timed by events (rec_timing.c): close queues a wait on a host-mapped word
 * before the start event, open (a plain host store) lets the GPU go on once start event, kernel and end event are all
 * queued; close returns the value open must store, 0 when not gated */
extern int timing_gate_on;          /* 1 gates work (PHOS_TIMING_GATE, on by default with sampled event timing) */
extern int64_t timing_event_bias_ns; /* subtracted from a gated launch's event span (PHOS_TIMING_EVENT_BIAS) */
uint32_t timing_gate_close(CUstream st);
void timing_gate_open(uint32_t v);
/* i15-timing: begin (rec_probe.c) the in-pair probe of gated event timing and its diagnosis file */
extern int timing_probe_on, timing_both;
extern int64_t timing_probe_ref_ns;
void timing_probe_setup(void);
CUevent timing_probe_after(CUstream st, uint32_t *corr);
int64_t timing_gated_span(CUevent e0, CUevent e1, CUevent e2, int64_t *probe_out);
void timing_diag_line(const char *kernel, const uint32_t *dims, int64_t span, int64_t probe, int64_t cupti, int64_t probe_cupti);
void timing_diag_close(void);
void timing_probe_header(pbuf *ts);
/* i15-timing: end */
/* a launch: timed only when the sampling policy picks it (then as t_begin/t_end, inside a CUPTI window) */
static inline void t_begin_launch(tspan *t, CUstream st, const void *fn, const unsigned *dims) {
    t->win = 0;
    t->cost = 0;
    if (!cfg.timing || atomic_load_explicit(&g_capturing, memory_order_relaxed) || !timing_sample_launch(fn, dims)) {
        t->e0 = t->e1 = NULL; t->corr = 0; t->cupti = 0;
        return;
    }
    t->gate = 0;
    t->e2 = NULL;   /* i15-timing */
    t->pcorr = 0;
    if (!tsp.sampled) { t_begin_x(t, st, 1); return; }
    uint64_t c0 = mono_ns();
    if (cupti_windowed && atomic_load_explicit(&cupti_ready, memory_order_acquire)) t->win = cupti_window(1) ? 1 : 2;
    else if (!t_replay && cfg.timing_source != 1 && (timing_both || !atomic_load_explicit(&cupti_ready, memory_order_acquire)) &&
             (atomic_load_explicit(&timing_state, memory_order_acquire) == 1 || timing_setup()) && timing_gate_on)
        t->gate = timing_gate_close(st);   /* i15-cost2: start event, kernel, end event queued before the GPU runs them */
    t_begin_x(t, st, 1);
    if (t->cupti && t->gate) {   /* i15-timing, PHOS_TIMING_BOTH: CUPTI and gated events on the same launch */
        t->e0 = pool_get();
        if (t->e0 && p_evrecord(t->e0, st) != CUDA_SUCCESS) { pool_put(t->e0); t->e0 = NULL; }
    }
    t->cost = mono_ns() - c0;
}
static inline void t_end_launch(tspan *t, CUresult r) {
    uint64_t c0 = t->cost ? mono_ns() : 0;
    t_end(t, r);
    if (t->cupti && t->e0) {   /* i15-timing, PHOS_TIMING_BOTH */
        if (r == CUDA_SUCCESS) {
            t->e1 = pool_get();
            if (t->e1 && p_evrecord(t->e1, t->st) != CUDA_SUCCESS) { pool_put(t->e1); t->e1 = NULL; }
        }
        if (!t->e1) { pool_put(t->e0); t->e0 = NULL; }
    }
    if (t->gate && t->e1 && timing_probe_on) t->e2 = timing_probe_after(t->st, t->cupti ? &t->pcorr : NULL);   /* i15-timing */
    if (t->gate) timing_gate_open(t->gate);
    if (t->win == 2) t->corr = 0;   /* no kernel record will come: the writer must not wait for one */
    if (t->win) cupti_window(0);
    if (c0) timing_sample_cost(t->cost + (mono_ns() - c0));
}

/* ------------------------------------------------------------------ writer thread (rec_writer.c) */
extern pthread_t writer_tid;
extern int writer_running;
extern atomic_int w_stop;
extern atomic_uint_fast64_t flush_req, flush_ack;
extern phos_out out;               /* phos_output.c: exclusive, regular, whole chunks only */
extern uint64_t lost_from;         /* first event missing from the file after a failed write */
extern uint64_t end_dropped;       /* dropped events as counted in the TraceEnd written */
extern uint64_t ev_index, batch_first, batch_count;
void write_unit(uint16_t type, const uint8_t *p, size_t n);
void *writer_main(void *arg);

/* ------------------------------------------------------------------ live attach (rec_stream.c; writer thread only) */
void stream_init(void);
int stream_active(void);
void stream_poll(void);
void stream_chunk(uint16_t type, const uint8_t *p, size_t n, uint64_t off, int in_file, uint64_t first, uint64_t count);
void stream_alloc(uint64_t addr, uint64_t index, const uint8_t *ev, size_t n);
void stream_free(uint64_t addr);
void stream_finish(void);
void stream_in_child(void);
int stream_readers(void);                                   /* i14-liveacc: readers connected now */
/* i14-liveacc: observed accesses handed over by a tool (rec_observed.c; writer thread) */
int observed_due(uint64_t encoded);
void observed_send(uint64_t encoded, int final);
void observed_end(pbuf *end);

/* i15-alloc: begin */
/* ------------------------------------------------------------------ caching-allocator block events (rec_torch_alloc.c) */
void torch_alloc_poll(void);            /* PHOS_TORCH_ALLOC=1: attach the PyTorch tracker once its allocator is up */
void torch_alloc_header(pbuf *h);       /* TraceHeader field 45 */
void torch_alloc_end(void);             /* at stop: one stderr line when the tracker was asked for and never attached */
/* i15-alloc: end */

/* ------------------------------------------------------------------ wrappers (rec_wrap_*.c, rec_exports.c) */
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
/* recording is on; loaded by CUDA_INJECTION64_PATH (rec_inject.c) a wrapper records only when a CUPTI callback replays
   it, so a call that reaches an exported name directly is recorded once, by its callback. i15-base: PHOS_DIAG_SKIP bit
   128 (diagnosis) passes every call through unrecorded while it is set, as PHOS_DISABLE=1 does for a whole run */
#define ON() (atomic_load_explicit(&g_state, memory_order_relaxed) != 3 && !(cfg.diag_skip & 128) && (!g_inject || t_replay))
#define PT (H->ptsz)
#define EXP(name, target) __asm__(".globl " name "\n.type " name ", @function\n.set " name ", " target "\n");

#endif
