#include "recorder.h"

/* Wrappers for what Hopper-era programs do beyond plain copies and launches (issue 16):
 *  - CUDA arrays: cuArrayCreate_v2 / cuArray3DCreate_v2 / cuArrayDestroy (Array events with their extent and bytes),
 *    cuMemcpy{AtoH,HtoA,AtoD,DtoA,AtoA}[Async] (Memcpy events with the array copy kinds and the byte offset);
 *    2D/3D copies with array operands are in rec_wrap_memory.c;
 *  - host functions in streams: cuLaunchHostFunc, cuStreamAddCallback (Sync events HOST_FUNCTION / STREAM_CALLBACK);
 *  - tensor maps: cuTensorMapEncodeTiled / Im2col / Im2colWide (TensorMap events: address, dims, strides, element
 *    type, the 128-byte map and the byte extent it spans);
 *  - entry points that can change memory but are not recorded as events: each successful call is counted by name and
 *    the counts are written in TraceEnd.unrecorded (README "Entry points that can write device memory"). */

/* ------------------------------------------------------------------ unrecorded calls */
static const char *const unrec_names[UNREC_N] = {
#define U(id, name) name,
    UNREC_LIST
#undef U
};
atomic_uint_fast64_t unrec_counts[UNREC_N];
const char *unrec_name(int i) { return (i >= 0 && i < UNREC_N) ? unrec_names[i] : NULL; }
static inline void unrec(int i, uint64_t n) { if (n) atomic_fetch_add_explicit(&unrec_counts[i], n, memory_order_relaxed); }

/* ------------------------------------------------------------------ arrays */
/* bytes of one element of one channel; 0 when the format is block-compressed or planar (bytes unknown) */
static uint32_t format_bytes(unsigned f) {
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF: return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT: return 4;
    case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_SNORM_INT8X1: return 1;
    case CU_AD_FORMAT_UNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X2: case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_SNORM_INT16X1: return 2;
    case CU_AD_FORMAT_UNORM_INT8X4: case CU_AD_FORMAT_SNORM_INT8X4: case CU_AD_FORMAT_UNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X2:
    case CU_AD_FORMAT_UNORM_INT_101010_2: return 4;
    case CU_AD_FORMAT_UNORM_INT16X4: case CU_AD_FORMAT_SNORM_INT16X4: return 8;
    default: return 0;
    }
}
/* formats whose element already holds all channels (UNORM_INT8X4 etc.): NumChannels is 1 for them */
static void ev_array(uint64_t t, int kind, uint64_t handle, uint64_t w, uint64_t h, uint64_t d, unsigned format, unsigned channels, unsigned flags) {
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_ARRAY, t);
    if (!s) return;
    uint32_t eb = format_bytes(format);
    uint64_t bytes = eb ? w * (h ? h : 1) * (d ? d : 1) * (channels ? channels : 1) * eb : 0;
    s->kind = (uint8_t)kind; s->a0 = handle; s->a1 = bytes;
    s->u[0] = format; s->u[1] = channels; s->u[2] = flags;
    uint64_t ext[3] = {w, h, d};
    slot_data(s, ext, sizeof ext);
    slot_commit(pos, s);
}
DEF(cuArrayCreate_v2, (CUarray *a, const CUDA_ARRAY_DESCRIPTOR *dsc), (a, dsc)) {
    REAL(cuArrayCreate_v2); uint64_t t = mono_ns();
    CUresult r = real(a, dsc);
    if (r == CUDA_SUCCESS && ON() && dsc) ev_array(t, 1, (uint64_t)(uintptr_t)*a, dsc->Width, dsc->Height, 0, dsc->Format, dsc->NumChannels, 0);
    return r;
}
DEF(cuArray3DCreate_v2, (CUarray *a, const CUDA_ARRAY3D_DESCRIPTOR *dsc), (a, dsc)) {
    REAL(cuArray3DCreate_v2); uint64_t t = mono_ns();
    CUresult r = real(a, dsc);
    if (r == CUDA_SUCCESS && ON() && dsc) ev_array(t, 1, (uint64_t)(uintptr_t)*a, dsc->Width, dsc->Height, dsc->Depth, dsc->Format, dsc->NumChannels, dsc->Flags);
    return r;
}
DEF(cuArrayDestroy, (CUarray a), (a)) {
    REAL(cuArrayDestroy); uint64_t t = mono_ns();
    CUresult r = real(a);
    if (r == CUDA_SUCCESS && ON()) ev_array(t, 2, (uint64_t)(uintptr_t)a, 0, 0, 0, 0, 0, 0);
    return r;
}

/* 1D copies with an array operand: src/dst carry the array handle, array_offset the byte offset in the array */
static void ev_acopy(uint64_t t, int kind, uint64_t src, uint64_t dst, uint64_t n, uint64_t soff, uint64_t doff, CUstream st, int ptsz, int async, tspan *ts) {
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_MEMCPY, t);
    if (!s) { if (ts->e0) { pool_put(ts->e0); pool_put(ts->e1); } return; }
    s->kind = (uint8_t)kind; s->a0 = src; s->a1 = dst; s->a2 = n; s->stream = sid(st, ptsz); s->async = (uint8_t)async;
    s->u[0] = (uint32_t)n; s->u[1] = 1; s->u[2] = 1;   /* extent: width in bytes, height, depth */
    s->u[3] = (uint32_t)soff; s->u[4] = (uint32_t)(soff >> 32); s->u[5] = (uint32_t)doff; s->u[6] = (uint32_t)(doff >> 32);
    if (kind == COPY_H2A && n <= cfg.payload_limit && src) slot_data(s, (const void *)(uintptr_t)src, n);
    s->e0 = ts->e0; s->e1 = ts->e1; s->corr = ts->corr;
    slot_commit(pos, s);
}
#define ACOPY(kind_, src_, dst_, n_, soff_, doff_, st_, async_, call) do { \
        uint64_t t_ = mono_ns(); CUstream rs_ = rstream(st_, PT); \
        int cap_ = stream_capturing(rs_); tspan ts_ = {0}; \
        if (!cap_ && ON()) t_begin(&ts_, rs_); \
        CUresult r_ = call; \
        t_end(&ts_, r_); \
        if (r_ == CUDA_SUCCESS && !cap_ && ON()) ev_acopy(t_, kind_, src_, dst_, n_, soff_, doff_, st_, PT, async_, &ts_); \
        else if (ts_.e0) { pool_put(ts_.e0); pool_put(ts_.e1); } \
        return r_; } while (0)
#define A(x) ((uint64_t)(uintptr_t)(x))
DEF2(cuMemcpyAtoH_v2, (void *d, CUarray s, size_t so, size_t n), (d, s, so, n)) { REAL(cuMemcpyAtoH_v2); ACOPY(COPY_A2H, A(s), A(d), n, so, 0, (CUstream)0, 0, real(d, s, so, n)); }
DEF2(cuMemcpyHtoA_v2, (CUarray d, size_t dof, const void *s, size_t n), (d, dof, s, n)) { REAL(cuMemcpyHtoA_v2); ACOPY(COPY_H2A, A(s), A(d), n, 0, dof, (CUstream)0, 0, real(d, dof, s, n)); }
DEF2(cuMemcpyAtoD_v2, (CUdeviceptr d, CUarray s, size_t so, size_t n), (d, s, so, n)) { REAL(cuMemcpyAtoD_v2); ACOPY(COPY_A2D, A(s), d, n, so, 0, (CUstream)0, 0, real(d, s, so, n)); }
DEF2(cuMemcpyDtoA_v2, (CUarray d, size_t dof, CUdeviceptr s, size_t n), (d, dof, s, n)) { REAL(cuMemcpyDtoA_v2); ACOPY(COPY_D2A, s, A(d), n, 0, dof, (CUstream)0, 0, real(d, dof, s, n)); }
DEF2(cuMemcpyAtoA_v2, (CUarray d, size_t dof, CUarray s, size_t so, size_t n), (d, dof, s, so, n)) { REAL(cuMemcpyAtoA_v2); ACOPY(COPY_A2A, A(s), A(d), n, so, dof, (CUstream)0, 0, real(d, dof, s, so, n)); }
DEF2(cuMemcpyHtoAAsync_v2, (CUarray d, size_t dof, const void *s, size_t n, CUstream st), (d, dof, s, n, st)) { REAL(cuMemcpyHtoAAsync_v2); ACOPY(COPY_H2A, A(s), A(d), n, 0, dof, st, 1, real(d, dof, s, n, st)); }
DEF2(cuMemcpyAtoHAsync_v2, (void *d, CUarray s, size_t so, size_t n, CUstream st), (d, s, so, n, st)) { REAL(cuMemcpyAtoHAsync_v2); ACOPY(COPY_A2H, A(s), A(d), n, so, 0, st, 1, real(d, s, so, n, st)); }

/* ------------------------------------------------------------------ host functions in streams */
static void ev_hostfn(uint64_t t, int kind, CUstream st, int ptsz, void *fn, void *ud, unsigned flags) {
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_SYNC, t);
    if (!s) return;
    s->kind = (uint8_t)kind; s->stream = sid(st, ptsz); s->a0 = A(fn); s->a1 = A(ud); s->u[0] = flags;
    slot_commit(pos, s);
}
DEF2(cuLaunchHostFunc, (CUstream st, CUhostFn fn, void *ud), (st, fn, ud)) {
    REAL(cuLaunchHostFunc); uint64_t t = mono_ns();
    CUresult r = real(st, fn, ud);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(st, PT))) ev_hostfn(t, SYNC_HOST_FUNCTION, st, PT, (void *)(uintptr_t)fn, ud, 0);
    return r;
}
DEF2(cuStreamAddCallback, (CUstream st, CUstreamCallback cb, void *ud, unsigned f), (st, cb, ud, f)) {
    REAL(cuStreamAddCallback); uint64_t t = mono_ns();
    CUresult r = real(st, cb, ud, f);
    if (r == CUDA_SUCCESS && ON() && !stream_capturing(rstream(st, PT))) ev_hostfn(t, SYNC_STREAM_CALLBACK, st, PT, (void *)(uintptr_t)cb, ud, f);
    return r;
}

/* ------------------------------------------------------------------ tensor maps */
/* bits of one element of a tensor map data type */
static uint32_t tmap_bits(unsigned dt) {
    switch (dt) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 8;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16: case CU_TENSOR_MAP_DATA_TYPE_FLOAT16: case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 16;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32: case CU_TENSOR_MAP_DATA_TYPE_INT32: case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ: case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32: case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 32;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64: case CU_TENSOR_MAP_DATA_TYPE_INT64: case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 64;
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B: return 4;    /* 16 4-bit elements packed in 8 bytes */
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B: return 8;   /* 16 4-bit elements in 16 bytes */
    case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B: return 8;   /* 16 6-bit elements in 16 bytes */
    default: return 0;
    }
}
/* the byte extent of the tensor: one past its last element's last byte, counted from globalAddress.
   globalStrides[i] is the stride in bytes of dimension i + 1; dimension 0 is dense */
uint64_t tmap_extent(unsigned dt, uint32_t rank, const cuuint64_t *dims, const cuuint64_t *strides) {
    uint32_t bits = tmap_bits(dt);
    if (!bits || !rank || rank > 5 || !dims) return 0;
    for (uint32_t i = 0; i < rank; i++) if (!dims[i]) return 0;
    uint64_t row = (dims[0] * bits + 7) / 8;
    uint64_t last = 0;
    for (uint32_t i = 1; i < rank; i++) last += (dims[i] - 1) * (strides ? strides[i - 1] : 0);
    return last + row;
}
static void ev_tmap(uint64_t t, int kind, const CUtensorMap *map, unsigned dt, uint32_t rank, void *addr, const cuuint64_t *dims,
                    const cuuint64_t *strides, const cuuint32_t *box, const cuuint32_t *estr, unsigned interleave, unsigned swizzle,
                    unsigned l2, unsigned oob) {
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_TMAP, t);
    if (!s) return;
    tmap_rec rec;
    memset(&rec, 0, sizeof rec);
    uint32_t r = rank > 5 ? 5 : rank;
    for (uint32_t i = 0; i < r; i++) {
        rec.dims[i] = dims ? dims[i] : 0;
        if (i + 1 < r) rec.strides[i] = strides ? strides[i] : 0;
        rec.box[i] = box ? box[i] : 0;
        rec.estr[i] = estr ? estr[i] : 0;
    }
    if (map) memcpy(rec.map, map, sizeof rec.map);
    rec.extent = tmap_extent(dt, r, rec.dims, rec.strides);
    rec.interleave = interleave; rec.swizzle = swizzle; rec.l2 = l2; rec.oob = oob;
    s->kind = (uint8_t)kind; s->a0 = A(addr); s->u[0] = dt; s->u[1] = rank;
    slot_data(s, &rec, sizeof rec);
    slot_commit(pos, s);
}
DEF(cuTensorMapEncodeTiled, (CUtensorMap *m, CUtensorMapDataType dt, cuuint32_t rank, void *ga, const cuuint64_t *gd, const cuuint64_t *gs,
    const cuuint32_t *box, const cuuint32_t *es, CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob),
    (m, dt, rank, ga, gd, gs, box, es, il, sw, l2, oob)) {
    REAL(cuTensorMapEncodeTiled); uint64_t t = mono_ns();
    CUresult r = real(m, dt, rank, ga, gd, gs, box, es, il, sw, l2, oob);
    if (r == CUDA_SUCCESS && ON()) ev_tmap(t, 1, m, dt, rank, ga, gd, gs, box, es, il, sw, l2, oob);
    return r;
}
DEF(cuTensorMapEncodeIm2col, (CUtensorMap *m, CUtensorMapDataType dt, cuuint32_t rank, void *ga, const cuuint64_t *gd, const cuuint64_t *gs,
    const int *lo, const int *hi, cuuint32_t cpp, cuuint32_t ppc, const cuuint32_t *es, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
    CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob), (m, dt, rank, ga, gd, gs, lo, hi, cpp, ppc, es, il, sw, l2, oob)) {
    REAL(cuTensorMapEncodeIm2col); uint64_t t = mono_ns();
    CUresult r = real(m, dt, rank, ga, gd, gs, lo, hi, cpp, ppc, es, il, sw, l2, oob);
    if (r == CUDA_SUCCESS && ON()) ev_tmap(t, 2, m, dt, rank, ga, gd, gs, NULL, es, il, sw, l2, oob);
    return r;
}
DEF(cuTensorMapEncodeIm2colWide, (CUtensorMap *m, CUtensorMapDataType dt, cuuint32_t rank, void *ga, const cuuint64_t *gd, const cuuint64_t *gs,
    int lo, int hi, cuuint32_t cpp, cuuint32_t ppc, const cuuint32_t *es, CUtensorMapInterleave il, CUtensorMapIm2ColWideMode mode,
    CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob), (m, dt, rank, ga, gd, gs, lo, hi, cpp, ppc, es, il, mode, sw, l2, oob)) {
    REAL(cuTensorMapEncodeIm2colWide); uint64_t t = mono_ns();
    CUresult r = real(m, dt, rank, ga, gd, gs, lo, hi, cpp, ppc, es, il, mode, sw, l2, oob);
    if (r == CUDA_SUCCESS && ON()) ev_tmap(t, 3, m, dt, rank, ga, gd, gs, NULL, es, il, sw, l2, oob);
    return r;
}

/* ------------------------------------------------------------------ counted, not recorded (README) */
#define COUNTED(id) do { if (r == CUDA_SUCCESS && ON()) unrec(id, 1); return r; } while (0)
DEF2(cuStreamWriteValue32_v2, (CUstream st, CUdeviceptr a, cuuint32_t v, unsigned f), (st, a, v, f)) { REAL(cuStreamWriteValue32_v2); CUresult r = real(st, a, v, f); COUNTED(UNREC_WRITE_VALUE32); }
DEF2(cuStreamWriteValue64_v2, (CUstream st, CUdeviceptr a, cuuint64_t v, unsigned f), (st, a, v, f)) { REAL(cuStreamWriteValue64_v2); CUresult r = real(st, a, v, f); COUNTED(UNREC_WRITE_VALUE64); }
DEF2(cuStreamBatchMemOp_v2, (CUstream st, unsigned n, CUstreamBatchMemOpParams *p, unsigned f), (st, n, p, f)) { REAL(cuStreamBatchMemOp_v2); CUresult r = real(st, n, p, f); COUNTED(UNREC_BATCH_MEM_OP); }
DEF2(cuMemDiscardBatchAsync, (CUdeviceptr *d, size_t *sz, size_t n, unsigned long long f, CUstream st), (d, sz, n, f, st)) { REAL(cuMemDiscardBatchAsync); CUresult r = real(d, sz, n, f, st); COUNTED(UNREC_DISCARD); }
DEF2(cuMemDiscardAndPrefetchBatchAsync, (CUdeviceptr *d, size_t *sz, size_t n, CUmemLocation *l, size_t *li, size_t nl, unsigned long long f, CUstream st),
     (d, sz, n, l, li, nl, f, st)) { REAL(cuMemDiscardAndPrefetchBatchAsync); CUresult r = real(d, sz, n, l, li, nl, f, st); COUNTED(UNREC_DISCARD_PREFETCH); }
DEF(cuIpcOpenMemHandle_v2, (CUdeviceptr *p, CUipcMemHandle h, unsigned f), (p, h, f)) { REAL(cuIpcOpenMemHandle_v2); CUresult r = real(p, h, f); COUNTED(UNREC_IPC_OPEN); }
DEF(cuMemImportFromShareableHandle, (CUmemGenericAllocationHandle *h, void *os, CUmemAllocationHandleType t_), (h, os, t_)) { REAL(cuMemImportFromShareableHandle); CUresult r = real(h, os, t_); COUNTED(UNREC_IMPORT_SHAREABLE); }
DEF(cuMemPoolImportPointer, (CUdeviceptr *p, CUmemoryPool pool_, CUmemPoolPtrExportData *d), (p, pool_, d)) { REAL(cuMemPoolImportPointer); CUresult r = real(p, pool_, d); COUNTED(UNREC_POOL_IMPORT); }
DEF(cuExternalMemoryGetMappedBuffer, (CUdeviceptr *p, CUexternalMemory m, const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *d), (p, m, d)) { REAL(cuExternalMemoryGetMappedBuffer); CUresult r = real(p, m, d); COUNTED(UNREC_EXTERNAL_BUFFER); }
DEF(cuExternalMemoryGetMappedMipmappedArray, (CUmipmappedArray *p, CUexternalMemory m, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *d), (p, m, d)) { REAL(cuExternalMemoryGetMappedMipmappedArray); CUresult r = real(p, m, d); COUNTED(UNREC_EXTERNAL_MIPMAP); }
DEF2(cuGraphicsMapResources, (unsigned n, CUgraphicsResource *res, CUstream st), (n, res, st)) { REAL(cuGraphicsMapResources); CUresult r = real(n, res, st); COUNTED(UNREC_GRAPHICS_MAP); }
DEF(cuMipmappedArrayCreate, (CUmipmappedArray *p, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned n), (p, d, n)) { REAL(cuMipmappedArrayCreate); CUresult r = real(p, d, n); COUNTED(UNREC_MIPMAP_CREATE); }
DEF(cuGraphExecKernelNodeSetParams_v2, (CUgraphExec e, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p), (e, n, p)) { REAL(cuGraphExecKernelNodeSetParams_v2); CUresult r = real(e, n, p); COUNTED(UNREC_GRAPH_EXEC_SET); }
DEF(cuGraphExecMemcpyNodeSetParams, (CUgraphExec e, CUgraphNode n, const CUDA_MEMCPY3D *p, CUcontext c), (e, n, p, c)) { REAL(cuGraphExecMemcpyNodeSetParams); CUresult r = real(e, n, p, c); COUNTED(UNREC_GRAPH_EXEC_SET); }
DEF(cuGraphExecMemsetNodeSetParams, (CUgraphExec e, CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS *p, CUcontext c), (e, n, p, c)) { REAL(cuGraphExecMemsetNodeSetParams); CUresult r = real(e, n, p, c); COUNTED(UNREC_GRAPH_EXEC_SET); }
DEF(cuGraphExecNodeSetParams, (CUgraphExec e, CUgraphNode n, CUgraphNodeParams *p), (e, n, p)) { REAL(cuGraphExecNodeSetParams); CUresult r = real(e, n, p); COUNTED(UNREC_GRAPH_EXEC_SET); }
DEF(cuGraphExecUpdate_v2, (CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo *i), (e, g, i)) { REAL(cuGraphExecUpdate_v2); CUresult r = real(e, g, i); COUNTED(UNREC_GRAPH_EXEC_UPDATE); }

/* graph launches: memcpy, memset and batch-mem-op nodes are not expanded (rec_wrap_exec.c counts them here) */
void unrec_graph_nodes(uint64_t n) { unrec(UNREC_GRAPH_MEMORY_NODES, n); }

/* ------------------------------------------------------------------ this file's hooks: wrap pointers, exported names */
void wrap_more_init(void) {
#define H1(s, a) HK_##a.wrap = (void *)w_##a;
#define H2(s, a, p) HK_##a.wrap = (void *)w_##a; HKP_##a.wrap = (void *)wp_##a;
    HOOK_LIST_MORE
#undef H1
#undef H2
}

#define H1(s, a) EXP(#a, "w_" #a)
#define H2(s, a, p) EXP(#a, "w_" #a) EXP(#p, "wp_" #a)
HOOK_LIST_MORE
#undef H1
#undef H2
