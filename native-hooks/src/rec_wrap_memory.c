#include "recorder.h"

/* ---- allocations */
static void ev_alloc(uint64_t t, uint64_t addr, uint64_t size, int kind, uint64_t stream) {
    remember_alloc(addr, kind);
    torch_alloc_poll();   /* i15-alloc: a caching allocator's segment: attach its block tracker (PHOS_TORCH_ALLOC) */
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
/* extent of 2D/3D copies (width in bytes, height, depth), shadowed by their wrappers; 0 for flat copies */
static const uint64_t ext_w = 0, ext_h = 0, ext_d = 0;
static void ev_copy_ext(uint64_t t, int kind, uint64_t src, uint64_t dst, uint64_t n, uint64_t stream, int async, tspan *ts, int with_payload,
                        uint64_t w, uint64_t h, uint64_t d) {
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_MEMCPY, t);
    if (!s) { if (ts && ts->e0) { pool_put(ts->e0); pool_put(ts->e1); } return; }
    s->kind = (uint8_t)kind; s->a0 = src; s->a1 = dst; s->a2 = n; s->stream = stream; s->async = (uint8_t)async;
    s->u[0] = (uint32_t)(w > UINT32_MAX ? UINT32_MAX : w); s->u[1] = (uint32_t)(h > UINT32_MAX ? UINT32_MAX : h); s->u[2] = (uint32_t)(d > UINT32_MAX ? UINT32_MAX : d);
    if (with_payload && (kind == 1 || kind == COPY_H2A) && n <= cfg.payload_limit && src) slot_data(s, (const void *)(uintptr_t)src, n);
    if (ts) { s->e0 = ts->e0; s->e1 = ts->e1; s->corr = ts->corr; }
    slot_commit(pos, s);
}
static void ev_copy(uint64_t t, int kind, uint64_t src, uint64_t dst, uint64_t n, uint64_t stream, int async, tspan *ts, int with_payload) {
    ev_copy_ext(t, kind, src, dst, n, stream, async, ts, with_payload, 0, 0, 0);
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
            ev_copy_ext(t_, k_, src_, dst_, n_, sid(stream_, PT), async_, &ts_, payload_ok, ext_w, ext_h, ext_d); \
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

/* 2D/3D descriptors: address of the first byte and the side (host 0 / device 1 / array 2 / unknown -1); an array
   operand is written as its CUarray handle (its origin inside the array is not linear and is not recorded) */
static uint64_t side_addr(CUmemorytype t, const void *host, CUdeviceptr dev, void *arr, uint64_t off, int *side) {
    switch (t) {
    case CU_MEMORYTYPE_HOST: *side = 0; return (uint64_t)(uintptr_t)host + off;
    case CU_MEMORYTYPE_DEVICE: *side = 1; return dev + off;
    case CU_MEMORYTYPE_UNIFIED: *side = is_device_ptr(dev); return dev + off;
    case CU_MEMORYTYPE_ARRAY: *side = 2; return (uint64_t)(uintptr_t)arr;
    default: *side = -1; return (uint64_t)(uintptr_t)arr;
    }
}
static int kind2(int ss, int ds) {
    if (ss < 0 || ds < 0) return 6;
    if (ss == 2 || ds == 2) {
        if (ss == 2 && ds == 2) return COPY_A2A;
        if (ss == 2) return ds ? COPY_A2D : COPY_A2H;
        return ss ? COPY_D2A : COPY_H2A;
    }
    return copy_kind(ss, ds);
}
#define C2D(c) int ss_, ds_; \
    uint64_t src_ = side_addr((c)->srcMemoryType, (c)->srcHost, (c)->srcDevice, (c)->srcArray, (c)->srcXInBytes + (uint64_t)(c)->srcY * (c)->srcPitch, &ss_); \
    uint64_t dst_ = side_addr((c)->dstMemoryType, (c)->dstHost, (c)->dstDevice, (c)->dstArray, (c)->dstXInBytes + (uint64_t)(c)->dstY * (c)->dstPitch, &ds_); \
    uint64_t n_ = (uint64_t)(c)->WidthInBytes * (c)->Height; \
    const uint64_t ext_w = (c)->WidthInBytes, ext_h = (c)->Height, ext_d = 1
#define C3D(c) int ss_, ds_; \
    uint64_t src_ = side_addr((c)->srcMemoryType, (c)->srcHost, (c)->srcDevice, (c)->srcArray, (c)->srcXInBytes + ((uint64_t)(c)->srcZ * (c)->srcHeight + (c)->srcY) * (c)->srcPitch, &ss_); \
    uint64_t dst_ = side_addr((c)->dstMemoryType, (c)->dstHost, (c)->dstDevice, (c)->dstArray, (c)->dstXInBytes + ((uint64_t)(c)->dstZ * (c)->dstHeight + (c)->dstY) * (c)->dstPitch, &ds_); \
    uint64_t n_ = (uint64_t)(c)->WidthInBytes * (c)->Height * (c)->Depth; \
    const uint64_t ext_w = (c)->WidthInBytes, ext_h = (c)->Height, ext_d = (c)->Depth
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
            int sa = o->src.type == CU_MEMCPY_OPERAND_TYPE_ARRAY, da = o->dst.type == CU_MEMCPY_OPERAND_TYPE_ARRAY;
            uint64_t s = sp ? o->src.op.ptr.ptr : (uint64_t)(uintptr_t)o->src.op.array.array;
            uint64_t d = dp ? o->dst.op.ptr.ptr : (uint64_t)(uintptr_t)o->dst.op.array.array;
            int k = kind2(sp ? is_device_ptr(s) : sa ? 2 : -1, dp ? is_device_ptr(d) : da ? 2 : -1);
            /* extent: width in elements of the array, bytes for pointers; the element size of an array is in its Array event */
            ev_copy_ext(t, k, s, d, (uint64_t)o->extent.width * o->extent.height * o->extent.depth, sid(st, PT), 1, NULL, 1,
                        o->extent.width, o->extent.height, o->extent.depth);
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

/* ------------------------------------------------------------------ this file's hooks: wrap pointers, exported names */
void wrap_memory_init(void) {
#define H1(s, a) HK_##a.wrap = (void *)w_##a;
#define H2(s, a, p) HK_##a.wrap = (void *)w_##a; HKP_##a.wrap = (void *)wp_##a;
    HOOK_LIST_MEMORY
#undef H1
#undef H2
}

/* the exported ABI names are aliases of the wrappers (code linked against libcuda directly binds to them) */
#define H1(s, a) EXP(#a, "w_" #a)
#define H2(s, a, p) EXP(#a, "w_" #a) EXP(#p, "wp_" #a)
HOOK_LIST_MEMORY
#undef H1
#undef H2
