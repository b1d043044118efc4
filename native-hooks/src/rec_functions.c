#include "recorder.h"
#include <sys/mman.h>

/* ------------------------------------------------------------------ functions (lock-free lookup) */
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

func_rec *func_get(uint64_t h) {
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

/* i15-final: the big-parameter blocks: a lock-free list (head: a tag that changes with every take and give-back, so a
   thread that read a stale head cannot swap it in, and the block index + 1; 0 when the list is empty) */
static uint8_t *pbig;
static _Atomic uint32_t pbig_next[PBIG_N];   /* per block: the index + 1 of the block after it in the list */
static _Atomic uint64_t pbig_head;

void pbig_init(void) {
    void *p = mmap(NULL, (size_t)PBIG_N * PBIG_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;
    for (uint32_t i = 0; i < PBIG_N; i++) atomic_store_explicit(&pbig_next[i], i + 1 < PBIG_N ? i + 2 : 0, memory_order_relaxed);
    pbig = p;
    atomic_store_explicit(&pbig_head, 1, memory_order_release);
}
/* a free block, or NULL (none left, or the list is off: the caller copies by malloc) */
static uint8_t *pbig_get(void) {
    uint64_t h = atomic_load_explicit(&pbig_head, memory_order_acquire);
    for (;;) {
        uint32_t i = (uint32_t)h;
        if (!i) return NULL;
        uint64_t nh = (((h >> 32) + 1) << 32) | atomic_load_explicit(&pbig_next[i - 1], memory_order_relaxed);
        if (atomic_compare_exchange_weak_explicit(&pbig_head, &h, nh, memory_order_acquire, memory_order_acquire))
            return pbig + (size_t)(i - 1) * PBIG_BYTES;
    }
}
void pbig_put(uint8_t *p) {
    uint32_t i = (uint32_t)((size_t)(p - pbig) / PBIG_BYTES) + 1;
    uint64_t h = atomic_load_explicit(&pbig_head, memory_order_relaxed);
    do {
        atomic_store_explicit(&pbig_next[i - 1], (uint32_t)h, memory_order_relaxed);
    } while (!atomic_compare_exchange_weak_explicit(&pbig_head, &h, (((h >> 32) + 1) << 32) | i, memory_order_release,
                                                    memory_order_relaxed));
}

/* where a launch's n parameter bytes go: up to INLINE_BYTES inline in the slot; i15-base, up to PARENA_BYTES into the
   ring slot's own area of parena (i15-final: by memcpy; with PHOS_DIAG_SKIP 16, i15-base's event, by non-temporal
   stores, and 16 + 32 by memcpy); i15-final, up to PBIG_BYTES into a big-parameter block. Returns the place to fill
   (dext set, darena telling whose it is), or NULL: inline, or (PHOS_DIAG_SKIP 8 or 64, diagnosis, larger than a
   block, none free, not a ring slot) a malloc'd copy */
static uint8_t *params_place(slot_t *s, size_t n, uint64_t pos) {
    int m = cfg.diag_skip;
    if (n <= INLINE_BYTES || (m & 8) || pos == UINT64_MAX) return NULL;
    uint8_t *dst = NULL;
    if (parena && n <= PARENA_BYTES) { dst = parena + (size_t)(pos & (RING_CAP - 1)) * PARENA_BYTES; s->darena = 1; }
    else if (!(m & 64) && pbig && n <= PBIG_BYTES && (dst = pbig_get())) s->darena = 2;
    if (dst) { s->dext = dst; s->dlen = (uint32_t)n; }
    return dst;
}
static void params_store(slot_t *s, const void *d, size_t n, uint64_t pos) {
    uint8_t *dst = params_place(s, n, pos);
    if (!dst) slot_data(s, d, n);
    else if ((cfg.diag_skip & 48) == 16 && s->darena == 1) nt_copy(dst, d, n);
    else memcpy(dst, d, n);
}

/* kernelParams laid out by the function's layout into dst (fr->param_bytes bytes; gaps zero) */
static void params_gather(uint8_t *dst, const func_rec *fr, void **kp) {
    memset(dst, 0, fr->param_bytes);
    for (uint32_t i = 0; i < fr->nparams; i++)
        if (kp[i]) memcpy(dst + fr->off[i], kp[i], fr->size[i]);
}

/* parameter bytes of a launch, from kernelParams or from extra. i15-final: kernelParams are gathered straight into
   their place (inline, the slot's area, a block); staged on the stack only for a malloc'd copy and for i15-base's
   event (PHOS_DIAG_SKIP 16), whose area is filled by non-temporal stores */
void fill_params(slot_t *s, func_rec *fr, void **kp, void **extra, uint64_t pos) {
    if (extra) {
        void *buf = NULL;
        size_t n = 0;
        for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END && i < 64; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
            else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1]) n = *(size_t *)extra[i + 1];
        }
        if (buf && n) { params_store(s, buf, n, pos); return; }
    }
    if (!kp || !fr || !fr->param_bytes) return;
    size_t n = fr->param_bytes;
    int nt = (cfg.diag_skip & 48) == 16;
    uint8_t *dst = n <= INLINE_BYTES ? s->din : nt ? NULL : params_place(s, n, pos);
    if (dst) {
        params_gather(dst, fr, kp);
        s->dlen = (uint32_t)n;
        return;
    }
    uint8_t stackbuf[PARENA_BYTES];
    uint8_t *b = n <= sizeof stackbuf ? stackbuf : malloc(n);
    if (!b) return;
    params_gather(b, fr, kp);
    if (nt) params_store(s, b, n, pos);
    else if (b == stackbuf) slot_data(s, b, n);
    else { s->dext = b; s->dlen = (uint32_t)n; return; }   /* the staging is the malloc'd copy */
    if (b != stackbuf) free(b);
}
