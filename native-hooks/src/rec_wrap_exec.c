#include "recorder.h"

/* ---- launches */
static inline CUresult launch_common(int lkind, CUfunction f, const unsigned *dims, unsigned shmem, CUstream st, int ptsz,
                                     void **kp, void **extra, CUresult (*callback)(void *), void *cbarg) {
    uint64_t t = mono_ns();
    CUstream rs = rstream(st, ptsz);
    int cap = stream_capturing(rs);
    func_rec *fr = ON() ? func_get((uint64_t)(uintptr_t)f) : NULL;
    tspan ts = {0};
    if (!cap && fr) t_begin_launch(&ts, rs, f, dims);   /* i15-cost: sampled GPU timing */
    t_cur_launch = (cur_launch_t){f, fr, kp, extra};   /* i15-shapes */
    CUresult r = callback(cbarg);
    t_cur_launch.f = NULL;                             /* i15-shapes */
    t_end_launch(&ts, r);
    uint64_t pos;
    int diag = cfg.diag_skip;
    if (r == CUDA_SUCCESS && !cap && fr && !(diag & 2) && (pos = ring_reserve(1)) != UINT64_MAX) {
        /* i15-final: the event is written in place in its ring slot, its parameter bytes beyond the slot's 200 into
           the slot's area of parena (memcpy, no malloc): measured against the program passing every call through
           inside one process, cheaper than i15-base's stack slot copied by non-temporal stores (docs/benchmarks.md
           block i15-final). PHOS_DIAG_SKIP (diagnosis): 16, i15-base's event (made on this thread's stack, copied
           into the ring and the area by non-temporal stores, one sfence); 8, parameters beyond 200 bytes by malloc
           (before i15-base) */
        slot_t ev, *s = &ev;
        if (!(diag & 16)) s = slot_at(pos);
        else {
            memset(&ev, 0, offsetof(slot_t, din));
            ev.thread = my_thread();
        }
        s->type = EV_LAUNCH;
        s->host_ns = t;
        s->ptr = fr;
        memcpy(s->u, dims, 6 * sizeof(unsigned));
        s->u[6] = shmem;
        s->stream = sid(st, ptsz);
        s->lkind = (uint8_t)lkind;
        if (!(diag & 1)) fill_params(s, fr, kp, extra, pos);
        s->e0 = ts.e0;
        s->e1 = ts.e1;
        s->gated = ts.gate != 0 && ts.e1;
        s->corr = ts.corr;
        s->e2 = ts.e2;   /* i15-timing */
        s->pcorr = ts.pcorr;
        if (s == &ev) {
            /* the header, and the parameter bytes where they stayed inline (no parena) */
            nt_copy((uint8_t *)slot_wait(pos), (const uint8_t *)&ev, offsetof(slot_t, din) + (ev.dext ? 0 : ev.dlen));
            _mm_sfence();   /* the slot and its parameter area (fill_params) before the commit */
        }
        slot_commit(pos, s);
        phos_launch_hook_fn hook = atomic_load_explicit(&launch_hook, memory_order_acquire);
        if (hook) hook(pos, 0, NULL);
    } else if (ts.e0) { pool_put(ts.e0); pool_put(ts.e1); pool_put(ts.e2); }
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

/* A context that goes takes its events with it: event timing leaves it first (rec_timing.c). Loaded by injection
   the wrapper runs at the call's exit, after the context went, so rec_inject.c does this at the entry instead. */
DEF(cuCtxDestroy_v2, (CUcontext c), (c)) {
    REAL(cuCtxDestroy_v2);
    if (!t_replay) timing_context_ending(c);
    return real(c);
}
DEF(cuDevicePrimaryCtxReset_v2, (CUdevice d), (d)) {
    REAL(cuDevicePrimaryCtxReset_v2);
    if (!t_replay) timing_context_ending(NULL);
    return real(d);
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
typedef struct { size_t n; size_t nmem; /* memcpy/memset/batch-mem-op nodes: not expanded, counted */ gnode nodes[]; } gexp;
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
        if (t == CU_GRAPH_NODE_TYPE_MEMCPY || t == CU_GRAPH_NODE_TYPE_MEMSET || t == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP) (*out)->nmem++;
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
        fill_params(&tmp, gn->f, kp.kernelParams, kp.extra, UINT64_MAX);
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
    x->nmem = 0;
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
    if (x) unrec_graph_nodes(x->nmem);
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

/* ------------------------------------------------------------------ this file's hooks: wrap pointers, exported names */
void wrap_exec_init(void) {
#define H1(s, a) HK_##a.wrap = (void *)w_##a;
#define H2(s, a, p) HK_##a.wrap = (void *)w_##a; HKP_##a.wrap = (void *)wp_##a;
    HOOK_LIST_EXEC
#undef H1
#undef H2
}

/* the exported ABI names are aliases of the wrappers (code linked against libcuda directly binds to them) */
#define H1(s, a) EXP(#a, "w_" #a)
#define H2(s, a, p) EXP(#a, "w_" #a) EXP(#p, "wp_" #a)
HOOK_LIST_EXEC
#undef H1
#undef H2
