#include "recorder.h"

/* ------------------------------------------------------------------ cuInit */
DEF(cuInit, (unsigned int flags), (flags)) {
    REAL(cuInit);
    CUresult r = real(flags);
    if (r == CUDA_SUCCESS) ensure_started();
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
    wrap_entry_init();
    wrap_memory_init();
    wrap_exec_init();
    wrap_more_init();
}

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

/* i15-base: change PHOS_DIAG_SKIP while the program runs (bench/steady_modes.py: one process, windows in turns per
   setting); returns the setting it replaces. Diagnosis only: with bits 1, 2 or 4 the trace is incomplete. */
EXPORT int phos_recorder_diag(int skip) { return __atomic_exchange_n(&cfg.diag_skip, skip, __ATOMIC_RELAXED); }

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

/* ------------------------------------------------------------------ this file's hooks: wrap pointers, exported names */
void wrap_entry_init(void) {
#define H1(s, a) HK_##a.wrap = (void *)w_##a;
#define H2(s, a, p) HK_##a.wrap = (void *)w_##a; HKP_##a.wrap = (void *)wp_##a;
    HOOK_LIST_ENTRY
#undef H1
#undef H2
}

/* the exported ABI names are aliases of the wrappers (code linked against libcuda directly binds to them) */
#define H1(s, a) EXP(#a, "w_" #a)
#define H2(s, a, p) EXP(#a, "w_" #a) EXP(#p, "wp_" #a)
HOOK_LIST_ENTRY
#undef H1
#undef H2
