#include "recorder.h"

/* ------------------------------------------------------------------ configuration */
struct phos_cfg cfg;

atomic_int g_state;      /* 0 not started, 1 recording, 2 stopped, 3 disabled */
pthread_once_t g_once = PTHREAD_ONCE_INIT;
atomic_int g_capturing;  /* stream captures in progress */
atomic_int g_max_cuda_version;
atomic_uint_fast64_t g_dropped;
uint64_t g_start_mono, g_start_unix;

/* ------------------------------------------------------------------ real dlsym, libcuda */
static dlsym_fn real_dlsym_p;
static void *libcuda_h;

dlsym_fn real_dlsym(void) {
    if (!real_dlsym_p) {
        dlsym_fn p = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
        if (!p) p = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
        real_dlsym_p = p;
    }
    return real_dlsym_p;
}

void *libcuda(void) {
    if (!libcuda_h) {
        const char *path = getenv("PHOS_LIBCUDA");
        if (!path || !*path) path = "libcuda.so.1";
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
        if (!h) h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        libcuda_h = h;
    }
    return libcuda_h;
}

int is_ours(const void *p) {
    static void *base;
    Dl_info a, b;
    if (!base && dladdr((void *)&is_ours, &a)) base = a.dli_fbase;
    return p && dladdr(p, &b) && b.dli_fbase == base;
}
#define H1(s, a) HIDDEN hook_t HK_##a = {#s, #a, 0, 0, 0, 0, 0};
#define H2(s, a, p) HIDDEN hook_t HK_##a = {#s, #a, 0, 0, 0, 0, 0}; HIDDEN hook_t HKP_##a = {#s, #p, 1, 0, 0, 0, 0};
HOOK_LIST
#undef H1
#undef H2

/* the real entry point of a hook: what the driver handed out for it, else dlsym(libcuda, abi) */
void *hook_real(hook_t *h) {
    if (t_replay) return replay_real();   /* injection mode: the driver made the call already (rec_inject.c) */
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
void *own_real(const char *abi) {
    void *lib = libcuda();
    void *p = (lib && real_dlsym()) ? real_dlsym()(lib, abi) : NULL;
    return is_ours(p) ? NULL : p;
}
/* ------------------------------------------------------------------ event ring (bounded lock-free MPSC) */
slot_t *ring;
_Atomic uint64_t *ring_seq;   /* i15-base */
uint8_t *parena;   /* i15-base */
_Atomic uint64_t ring_head;  /* next position producers reserve */
_Atomic uint64_t ring_tail;  /* next position the writer consumes */
atomic_uint thread_counter;
__thread uint32_t t_thread;
__thread int t_internal;  /* the writer thread: its CUDA calls (and CUPTI's made from it) are not events */

/* ------------------------------------------------------------------ small locked maps */
pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;

kv_t *kv_find(kvmap *m, uint64_t key) {
    if (!m->cap) return NULL;
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (m->cap - 1);
    for (;;) {
        if (m->e[i].key == key) return &m->e[i];
        if (!m->e[i].key) return NULL;
        i = (i + 1) & (m->cap - 1);
    }
}
kv_t *kv_put(kvmap *m, uint64_t key) {
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

kvmap alloc_kinds;   /* address -> AllocKind + 1 */
kvmap module_ids;    /* CUmodule / CUlibrary -> module id */
kvmap library_ids;   /* CUlibrary -> module id (to find the library of a context's CUmodule) */
kvmap handle_info;   /* CUfunction / CUkernel -> module id (val), name (ptr) */
kvmap graph_of_exec; /* CUgraphExec -> CUgraph */
kvmap exec_cache;    /* CUgraphExec -> expanded kernel nodes */

void remember_alloc(uint64_t addr, int kind) {
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_put(&alloc_kinds, addr);
    if (e) e->val = (uint64_t)kind + 1;
    pthread_mutex_unlock(&reg_mu);
}
int forget_alloc(uint64_t addr, int dflt) {
    int k = dflt;
    pthread_mutex_lock(&reg_mu);
    kv_t *e = kv_find(&alloc_kinds, addr);
    if (e && e->val) { k = (int)e->val - 1; e->val = 0; }
    pthread_mutex_unlock(&reg_mu);
    return k;
}
