/* libphos_sanitizer.so: SASS-level ground truth of what each kernel launch really reads and writes.
 *
 * A Compute Sanitizer API tool, preloaded (LD_PRELOAD=libphos_sanitizer.so; it subscribes from its constructor, before
 * the first CUDA call). Loaded through CUDA_INJECTION64_PATH instead, it subscribes too but the API delivers no callback
 * and the process crashed at exit (CUDA 13.0, driver 580): use LD_PRELOAD. Every module
 * the process loads is patched: global loads/stores/atomics, cp.async and bulk copies call the device functions of
 * phos_sanitizer_patch.cu, which fold each access into a per-launch record on the device (per allocation: lowest
 * address, highest end address and count, for reads and for writes; an overflow slot for accesses outside every
 * allocation). The tool fills, per selected launch, a record header (the device allocation table of that moment) and
 * reads the records back in bulk when the application synchronises the context, when the pool is full, when a stream or
 * the context goes away, and at exit. It writes ObservedAccess records (tool "sanitizer") into a side file.
 *
 * Keys: run together with the recorder (LD_PRELOAD=libphos_recorder.so), the tool registers a hook with the recorder
 * and learns, in the launching thread, the recorder's ring position of each launch it observed, which the recorder
 * turns into the launch's event index; the side file is then `<trace>.observed.phos` and its launch_index fields are
 * event indices of that trace. Without the recorder, launch_index is the launch's ordinal (0, 1, ... over all launches
 * the tool saw). See native-hooks/README.md ("SASS-level observed accesses") for the options. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <execinfo.h>
#include <signal.h>

#include <sanitizer.h>
#include "phos_format.h"
#include "phos_sanitizer_layout.h"

#define EXPORT __attribute__((visibility("default")))
#define LOG(...) do { fprintf(stderr, "[phos-sanitizer] " __VA_ARGS__); fputc('\n', stderr); } while (0)
#define DBG(...) do { if (cfg.debug) LOG(__VA_ARGS__); } while (0)

/* ------------------------------------------------------------------ configuration */
static struct {
    int debug, warp_agg, sync_each, compress;
    uint64_t every, pool_bytes, max_ranges;
    char **kernels;     /* name substrings, NULL = all */
    size_t nkernels;
    char skip[64];      /* diagnosis: letters of parts to leave out (m module patching, l launches, a allocations,
                           g graphs, s synchronize, p patching at launch) */
    char out[4096];
    char patch[4096];
} cfg;

/* ------------------------------------------------------------------ state (all under mu) */
static pthread_mutex_t mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;   /* sanitizer calls made under it may call back */
static Sanitizer_SubscriberHandle subscriber;

typedef struct { uint64_t base, end; } range_t;
static range_t *allocs;             /* live allocations, sorted by base */
static size_t nallocs, cap_allocs;
static int table_dirty = 1;

typedef struct table_v {            /* an immutable snapshot of the allocation table, on host and device */
    range_t *r;
    uint32_t n;
    void *dev;
    struct table_v *next;
} table_v;
static table_v *cur_table, *old_tables;

static CUcontext pool_ctx;
static uint8_t *d_pool, *h_pool;
static size_t pool_used;

typedef struct {                     /* one observed launch */
    uint64_t pos;                    /* recorder ring position, UINT64_MAX until the recorder's hook names it */
    const char *name;
    int ambiguous;                   /* kernel node of a graph launch with several: its record is shared, not written */
} launch_t;
static launch_t *launches;
static size_t nlaunches, cap_launches;

typedef struct { size_t launch; uint32_t off; table_v *t; Sanitizer_StreamHandle hs; } pend_t;
static pend_t *pend;
static size_t npend, cap_pend;

typedef struct { size_t launch; uint64_t alloc, rb, re, wb, we, rc, wc; } obs_t;
static obs_t *obs;
static size_t nobs, cap_obs;

static uint64_t n_seen, n_selected, n_flushes, n_module_patched, n_module_failed, n_graph_nodes, n_unkeyed;
static int have_patches_ctx_n;
static CUmodule *patched_mods;
static size_t npatched_mods, cap_patched_mods;
static __thread int t_in_module;
static CUcontext patched_ctx[16];

static __thread size_t t_wait[64];   /* launches of the current API call awaiting the recorder's position */
static __thread int t_nwait, t_in_graph;

/* the recorder's hook, when it is loaded */
typedef void (*hook_fn)(uint64_t pos, uint32_t nodes, const char *const *node_names);
static void (*rec_set_hook)(hook_fn);
static uint64_t (*rec_event_index)(uint64_t);
static const char *(*rec_trace_path)(void);

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 1;
    size_t nc = *cap ? *cap * 2 : 256;
    while (nc < need) nc *= 2;
    void *np = realloc(*p, nc * elem);
    if (!np) return 0;
    *p = np;
    *cap = nc;
    return 1;
}

static const char *intern(const char *s) {
    /* names repeat (one per kernel): a small open hash of strdup'ed names */
    static const char **tab;
    static size_t cap;
    if (!s) s = "";
    if (!tab) { cap = 4096; tab = calloc(cap, sizeof *tab); if (!tab) return strdup(s); }
    uint64_t h = phos_fnv1a64(s, strlen(s));
    for (size_t i = 0; i < cap; i++) {
        size_t j = (h + i) & (cap - 1);
        if (!tab[j]) return tab[j] = strdup(s);
        if (!strcmp(tab[j], s)) return tab[j];
    }
    return strdup(s);
}

/* ------------------------------------------------------------------ allocation table */
static void alloc_add(uint64_t a, uint64_t size) {
    if (!size) return;
    size_t lo = 0, hi = nallocs;
    while (lo < hi) { size_t m = (lo + hi) / 2; if (allocs[m].base < a) lo = m + 1; else hi = m; }
    if (lo < nallocs && allocs[lo].base == a) { allocs[lo].end = a + size; table_dirty = 1; return; }
    if (!grow((void **)&allocs, &cap_allocs, nallocs + 1, sizeof *allocs)) return;
    memmove(&allocs[lo + 1], &allocs[lo], (nallocs - lo) * sizeof *allocs);
    allocs[lo] = (range_t){a, a + size};
    nallocs++;
    table_dirty = 1;
}
static void alloc_remove(uint64_t a) {
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].base == a) {
            memmove(&allocs[i], &allocs[i + 1], (nallocs - i - 1) * sizeof *allocs);
            nallocs--;
            table_dirty = 1;
            return;
        }
}

/* the device copy of the current allocation table, uploaded on the launch's stream when it changed */
static table_v *current_table(CUcontext ctx, Sanitizer_StreamHandle hs) {
    if (!table_dirty && cur_table) return cur_table;
    table_v *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->n = (uint32_t)(nallocs < cfg.max_ranges ? nallocs : cfg.max_ranges);
    /* overlapping registrations (an allocation reported twice with different sizes) would break the binary search:
       keep the table disjoint by clipping each range at the next base */
    t->r = malloc((t->n ? t->n : 1) * sizeof *t->r);
    if (!t->r) { free(t); return NULL; }
    memcpy(t->r, allocs, t->n * sizeof *t->r);
    for (uint32_t i = 0; i + 1 < t->n; i++) if (t->r[i].end > t->r[i + 1].base) t->r[i].end = t->r[i + 1].base;
    size_t bytes = (t->n ? t->n : 1) * sizeof(PhosRange);
    if (sanitizerAlloc(ctx, &t->dev, bytes) != SANITIZER_SUCCESS) { free(t->r); free(t); return NULL; }
    if (t->n) sanitizerMemcpyHostToDeviceAsync(t->dev, t->r, t->n * sizeof(PhosRange), hs);
    sanitizerStreamSynchronize(hs);   /* launches on other streams may use this table too */
    if (cur_table) { cur_table->next = old_tables; old_tables = cur_table; }
    cur_table = t;
    table_dirty = 0;
    return t;
}

/* ------------------------------------------------------------------ read back */
static void flush_locked(const char *why) {
    if (!npend) return;
    n_flushes++;
    /* every stream with pending launches: wait for them (the driver may have more streams than we track; one
       synchronize each is cheap once the application has synchronised) */
    for (size_t i = 0; i < npend; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) seen = pend[j].hs == pend[i].hs;
        if (!seen) sanitizerStreamSynchronize(pend[i].hs);
    }
    Sanitizer_StreamHandle hs = pend[0].hs;
    if (sanitizerMemcpyDeviceToHost(h_pool, d_pool, pool_used, hs) != SANITIZER_SUCCESS) {
        LOG("read-back of %zu launch records failed (%s): their accesses are lost", npend, why);
        n_unkeyed += npend;
    } else {
        for (size_t i = 0; i < npend; i++) {
            const PhosLaunchRec *r = (const PhosLaunchRec *)(h_pool + pend[i].off);
            table_v *t = pend[i].t;
            for (uint32_t k = 0; k <= t->n; k++) {
                const PhosAcc *a = &r->acc[k];
                if (!a->rcount && !a->wcount) continue;
                if (!grow((void **)&obs, &cap_obs, nobs + 1, sizeof *obs)) break;
                obs_t *o = &obs[nobs++];
                o->launch = pend[i].launch;
                o->alloc = k < t->n ? t->r[k].base : 0;
                o->rc = a->rcount;
                o->wc = a->wcount;
                o->rb = a->rcount ? ~a->rmin_inv : 0;
                o->re = a->rcount ? a->rmax : 0;
                o->wb = a->wcount ? ~a->wmin_inv : 0;
                o->we = a->wcount ? a->wmax : 0;
            }
        }
    }
    sanitizerMemset(d_pool, 0, pool_used, hs);
    sanitizerStreamSynchronize(hs);
    memset(h_pool, 0, pool_used);
    DBG("flush (%s): %zu launches, %zu bytes of records", why, npend, pool_used);
    pool_used = 0;
    npend = 0;
    while (old_tables) {
        table_v *t = old_tables;
        old_tables = t->next;
        sanitizerFree(pool_ctx, t->dev);
        free(t->r);
        free(t);
    }
}

/* ------------------------------------------------------------------ launches */
static int selected(const char *name, uint64_t ordinal) {
    if (cfg.every > 1 && ordinal % cfg.every) return 0;
    if (!cfg.nkernels) return 1;
    for (size_t i = 0; i < cfg.nkernels; i++) if (name && strstr(name, cfg.kernels[i])) return 1;
    return 0;
}

static void set_data(const Sanitizer_LaunchData *ld, void *p) {
    SanitizerResult r = SANITIZER_ERROR_INVALID_PARAMETER;
    if (ld->hLaunch) r = sanitizerSetLaunchCallbackData(ld->hLaunch, ld->function, ld->hStream, p);
    if (r != SANITIZER_SUCCESS) sanitizerSetCallbackData(ld->function, p);
}

static void on_launch(const Sanitizer_LaunchData *ld) {
    pthread_mutex_lock(&mu);
    uint64_t ordinal = n_seen++;
    if (!selected(ld->functionName, ordinal) || (pool_ctx && ld->context != pool_ctx)) {
        pthread_mutex_unlock(&mu);
        set_data(ld, NULL);
        return;
    }
    if (!pool_ctx) {
        void *p = NULL;
        if (sanitizerAlloc(ld->context, &p, cfg.pool_bytes) != SANITIZER_SUCCESS || !(h_pool = calloc(1, cfg.pool_bytes))) {
            LOG("cannot allocate the %llu-byte record pool: observing nothing", (unsigned long long)cfg.pool_bytes);
            cfg.every = UINT64_MAX;
            pthread_mutex_unlock(&mu);
            set_data(ld, NULL);
            return;
        }
        d_pool = p;
        sanitizerMemset(d_pool, 0, cfg.pool_bytes, ld->hStream);
        sanitizerStreamSynchronize(ld->hStream);
        pool_ctx = ld->context;
    }
    table_v *t = current_table(ld->context, ld->hStream);
    size_t need = t ? PHOS_REC_BYTES(t->n) : 0;
    if (t && pool_used + need > cfg.pool_bytes) flush_locked("pool full");
    if (!t || need > cfg.pool_bytes || !grow((void **)&pend, &cap_pend, npend + 1, sizeof *pend) ||
        !grow((void **)&launches, &cap_launches, nlaunches + 1, sizeof *launches)) {
        pthread_mutex_unlock(&mu);
        set_data(ld, NULL);
        return;
    }
    uint32_t off = (uint32_t)pool_used;
    pool_used += (need + 15) & ~(size_t)15;
    PhosLaunchRec *h = (PhosLaunchRec *)(h_pool + off);
    h->table = (unsigned long long)(uintptr_t)t->dev;
    h->n = t->n;
    h->flags = 0;
    sanitizerMemcpyHostToDeviceAsync(d_pool + off, h, 16, ld->hStream);
    size_t li = nlaunches++;
    launches[li].pos = UINT64_MAX;
    launches[li].name = intern(ld->functionName);
    launches[li].ambiguous = 0;
    pend[npend++] = (pend_t){li, off, t, ld->hStream};
    n_selected++;
    if (t_nwait < (int)(sizeof t_wait / sizeof *t_wait)) t_wait[t_nwait++] = li;
    if (cfg.sync_each) flush_locked("each launch");
    pthread_mutex_unlock(&mu);
    set_data(ld, d_pool + off);
}

/* the recorder recorded the launch(es) of the API call this thread just made: ring position pos (a plain launch) or
   pos = the GraphLaunch and pos + 1 + i its kernel nodes in the recorder's order, matched here by name */
static void on_recorded(uint64_t pos, uint32_t nodes, const char *const *names) {
    if (!t_nwait) return;
    pthread_mutex_lock(&mu);
    if (!nodes) {
        launches[t_wait[t_nwait - 1]].pos = pos;
    } else {
        char used[4096] = {0};
        for (int w = 0; w < t_nwait; w++) {
            launch_t *l = &launches[t_wait[w]];
            for (uint32_t i = 0; i < nodes && i < sizeof used; i++)
                if (!used[i] && names[i] && !strcmp(names[i], l->name)) { used[i] = 1; l->pos = pos + 1 + i; break; }
        }
    }
    pthread_mutex_unlock(&mu);
    t_nwait = 0;
}

/* ------------------------------------------------------------------ modules */
static void on_module(CUcontext ctx, CUmodule mod) {
    if (!mod || t_in_module) return;     /* the patches' own module, loaded from inside this function */
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < npatched_mods; i++)
        if (patched_mods[i] == mod) { pthread_mutex_unlock(&mu); return; }
    if (grow((void **)&patched_mods, &cap_patched_mods, npatched_mods + 1, sizeof *patched_mods)) patched_mods[npatched_mods++] = mod;
    t_in_module = 1;
    int have = 0;
    for (int i = 0; i < have_patches_ctx_n; i++) have |= patched_ctx[i] == ctx;
    if (!have) {
        SanitizerResult r = sanitizerAddPatchesFromFile(cfg.patch, ctx);
        if (r != SANITIZER_SUCCESS) LOG("cannot load the patches %s (error %d)", cfg.patch, (int)r);
        else if (have_patches_ctx_n < 16) patched_ctx[have_patches_ctx_n++] = ctx;
    }
    int ok = sanitizerPatchInstructions(SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, mod,
                                        cfg.warp_agg ? "phos_san_global" : "phos_san_global_plain") == SANITIZER_SUCCESS;
    sanitizerPatchInstructions(SANITIZER_INSTRUCTION_MEMCPY_ASYNC, mod, "phos_san_memcpy_async");
    sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BULK_COPY_GLOBAL_TO_SHARED, mod, "phos_san_bulk_g2s");
    sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_GLOBAL, mod, "phos_san_bulk_s2g");
    sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BULK_REDUCTION_SHARED_TO_GLOBAL, mod, "phos_san_bulk_red");
    ok = ok && sanitizerPatchModule(mod) == SANITIZER_SUCCESS;
    if (ok) n_module_patched++; else { n_module_failed++; LOG("module %p not patched", (void *)mod); }
    t_in_module = 0;
    pthread_mutex_unlock(&mu);
}

/* ------------------------------------------------------------------ callbacks */
static void SANITIZERAPI callback(void *ud, Sanitizer_CallbackDomain dom, Sanitizer_CallbackId cbid, const void *cbdata) {
    (void)ud;
    if (cfg.debug >= 2) LOG("callback domain %d id %u", (int)dom, (unsigned)cbid);
    switch (dom) {
    case SANITIZER_CB_DOMAIN_RESOURCE:
        switch (cbid) {
        case SANITIZER_CBID_RESOURCE_MODULE_LOADED: {
            const Sanitizer_ResourceModuleData *m = cbdata;
            DBG("module %p loaded in context %p (%zu bytes)", (void *)m->module, (void *)m->context, m->cubinSize);
            if (m->context && !strchr(cfg.skip, 'm')) on_module(m->context, m->module);
            break;
        }
        case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC:
        case SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC:
        case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC: {
            const Sanitizer_ResourceMemoryData *m = cbdata;
            if ((m->flags & SANITIZER_MEMORY_FLAG_MODULE) || strchr(cfg.skip, 'a')) break;   /* module globals: not allocations of the trace */
            pthread_mutex_lock(&mu);
            alloc_add(m->address, m->size);
            pthread_mutex_unlock(&mu);
            break;
        }
        case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE:
        case SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE:
        case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC: {
            const Sanitizer_ResourceMemoryData *m = cbdata;
            pthread_mutex_lock(&mu);
            alloc_remove(m->address);
            pthread_mutex_unlock(&mu);
            break;
        }
        case SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING:
        case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
        case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
            pthread_mutex_lock(&mu);
            flush_locked(cbid == SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING ? "stream destroyed"
                         : cbid == SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING ? "module unloaded" : "context destroyed");
            pthread_mutex_unlock(&mu);
            break;
        default: break;
        }
        break;
    case SANITIZER_CB_DOMAIN_LAUNCH:
        if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) {
            if (t_in_graph) break;             /* graph kernel nodes arrive as GRAPHS NODE_LAUNCH_BEGIN */
            t_nwait = 0;                       /* launches of earlier calls the recorder did not record */
            const Sanitizer_LaunchData *ld = cbdata;
            /* modules loaded before their context existed (lazy loading, libraries) are patched at first use */
            if (!strchr(cfg.skip, 'p')) on_module(ld->context, ld->module);
            if (!strchr(cfg.skip, 'l')) on_launch(ld);
        }
        break;
    case SANITIZER_CB_DOMAIN_GRAPHS:
        if (cbid == SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN) {
            const Sanitizer_GraphLaunchData *g = cbdata;
            if (!g->isGraphUpload) { t_in_graph = 1; t_nwait = 0; }
        } else if (cbid == SANITIZER_CBID_GRAPHS_LAUNCH_END) {
            t_in_graph = 0;
            /* the callback data of a graph launch is one slot for all its kernel nodes (seen on the H100: the last
               node's record received the accesses of every node), so nodes of a graph with several cannot be told
               apart: their records are not written (counted in the summary) */
            if (t_nwait > 1) {
                pthread_mutex_lock(&mu);
                for (int w = 0; w < t_nwait; w++) launches[t_wait[w]].ambiguous = 1;
                pthread_mutex_unlock(&mu);
            }
        } else if (cbid == SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN) {
            const Sanitizer_GraphNodeLaunchData *n = cbdata;
            if (n->nodeType == CU_GRAPH_NODE_TYPE_KERNEL && !n->isGraphUpload) {
                n_graph_nodes++;
                if (!strchr(cfg.skip, 'p')) on_module(n->launchData.context, n->launchData.module);
                if (!strchr(cfg.skip, 'l')) on_launch(&n->launchData);
            }
        }
        break;
    case SANITIZER_CB_DOMAIN_SYNCHRONIZE:
        if (cbid == SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED) {
            pthread_mutex_lock(&mu);
            flush_locked("context synchronised");
            pthread_mutex_unlock(&mu);
        }
        break;
    default: break;
    }
}

/* ------------------------------------------------------------------ output */
static int write_all(int fd, const void *p, size_t n) {
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

static int write_chunk(int fd, uint16_t type, pbuf *payload, int compress) {
    pbuf c = {0};
    int r = phos_frame_chunk(&c, type, payload->p, payload->n, compress);
    if (r == 0) r = write_all(fd, c.p, c.n);
    pb_free(&c);
    return r;
}

static void write_side_file(void) {
    if (!nobs && !nlaunches) return;
    const char *path = cfg.out;
    char buf[4200];
    if (!*path) {
        const char *tp = rec_trace_path ? rec_trace_path() : NULL;
        if (tp && *tp) { snprintf(buf, sizeof buf, "%s.observed.phos", tp); path = buf; }
        else { snprintf(buf, sizeof buf, "phos-%d.observed.phos", (int)getpid()); path = buf; }
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) { LOG("cannot write %s: %s", path, strerror(errno)); return; }
    pbuf out = {0}, msg = {0}, acc = {0}, rng = {0};
    phos_file_header(&out);
    write_all(fd, out.p, out.n);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    pb_u64(&msg, 1, 1);
    pb_str(&msg, 2, "phos-sanitizer");
    pb_str(&msg, 3, "1");
    pb_str(&msg, 4, host);
    pb_u64(&msg, 5, (uint64_t)getpid());
    int cf = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (cf >= 0) {
        char cl[8192];
        ssize_t n = read(cf, cl, sizeof cl - 1);
        close(cf);
        for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(cl + i) + 1) { cl[n] = 0; pb_str(&msg, 6, cl + i); }
    }
    pb_str(&msg, 12, "CLOCK_MONOTONIC");
    pb_u64(&msg, 13, (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
    write_chunk(fd, PHOS_CHUNK_HEADER, &msg, 0);
    size_t written = 0, unkeyed_obs = 0, ambiguous_obs = 0;
    pb_reset(&msg);
    size_t inbatch = 0;
    for (size_t i = 0; i < nobs; i++) {
        const obs_t *o = &obs[i];
        uint64_t key;
        if (launches[o->launch].ambiguous) { ambiguous_obs++; continue; }
        if (rec_event_index) {
            uint64_t pos = launches[o->launch].pos;
            if (pos == UINT64_MAX) { unkeyed_obs++; continue; }
            key = rec_event_index(pos);
        } else {
            key = o->launch;
        }
        pb_reset(&acc);
        pb_u64(&acc, 1, key);
        pb_u64(&acc, 2, o->alloc);
        if (o->rc) { pb_reset(&rng); pb_u64(&rng, 1, o->rb); pb_u64(&rng, 2, o->re); pb_msg(&acc, 3, &rng); }
        if (o->wc) { pb_reset(&rng); pb_u64(&rng, 1, o->wb); pb_u64(&rng, 2, o->we); pb_msg(&acc, 4, &rng); }
        pb_u64(&acc, 5, o->rc);
        pb_u64(&acc, 6, o->wc);
        pb_str(&acc, 7, "sanitizer");
        pb_msg(&msg, 1, &acc);
        written++;
        if (++inbatch == 65536 || msg.n > (16u << 20)) { write_chunk(fd, PHOS_CHUNK_OBSERVED, &msg, cfg.compress); pb_reset(&msg); inbatch = 0; }
    }
    if (inbatch) write_chunk(fd, PHOS_CHUNK_OBSERVED, &msg, cfg.compress);
    pb_reset(&msg);
    pb_u64(&msg, 1, 0);
    pb_u64(&msg, 2, 0);
    write_chunk(fd, PHOS_CHUNK_END, &msg, 0);
    close(fd);
    size_t unk_launches = 0;
    if (rec_event_index) for (size_t i = 0; i < nlaunches; i++) unk_launches += launches[i].pos == UINT64_MAX;
    LOG("%s: %zu observed accesses of %zu launches (%llu launches seen, %llu observed, %llu graph nodes; %llu modules "
        "patched, %llu failed; %llu read-backs)%s", path, written, nlaunches, (unsigned long long)n_seen,
        (unsigned long long)n_selected, (unsigned long long)n_graph_nodes, (unsigned long long)n_module_patched,
        (unsigned long long)n_module_failed, (unsigned long long)n_flushes,
        rec_event_index ? "; keyed by the recorder's event indices" : "; no recorder: launch_index = launch ordinal");
    if (ambiguous_obs)
        LOG("%zu records of kernel nodes of multi-node graph launches not written (one callback-data slot per graph launch)",
            ambiguous_obs);
    if (unk_launches || unkeyed_obs || n_unkeyed)
        LOG("%zu launches (%zu accesses) had no recorder event (not recorded: failed, captured or dropped), %llu lost",
            unk_launches, unkeyed_obs, (unsigned long long)n_unkeyed);
    pb_free(&out); pb_free(&msg); pb_free(&acc); pb_free(&rng);
}

static int finished;
static void finish(void) {
    DBG("exit: %zu launches observed, %zu pending", nlaunches, npend);
    pthread_mutex_lock(&mu);
    if (finished) { pthread_mutex_unlock(&mu); return; }
    finished = 1;
    flush_locked("exit");
    write_side_file();
    pthread_mutex_unlock(&mu);
}

/* ------------------------------------------------------------------ start */
static uint64_t env_u64(const char *n, uint64_t d) {
    const char *v = getenv(n);
    if (!v || !*v) return d;
    char *e;
    unsigned long long x = strtoull(v, &e, 0);
    if (*e == 'k' || *e == 'K') x <<= 10;
    else if (*e == 'm' || *e == 'M') x <<= 20;
    else if (*e == 'g' || *e == 'G') x <<= 30;
    return x;
}

static void expand_pid(char *dst, size_t cap, const char *pat) {
    size_t o = 0;
    for (const char *c = pat; *c && o + 24 < cap; c++) {
        if (c[0] == '%' && c[1] == 'p') { o += (size_t)snprintf(dst + o, 24, "%d", (int)getpid()); c++; }
        else dst[o++] = *c;
    }
    dst[o] = 0;
}

/* debug aid: where a crash happened (PHOS_SANITIZER_DEBUG=1), then the default action */
static void on_crash(int sig) {
    void *bt[48];
    int n = backtrace(bt, 48);
    static const char m[] = "[phos-sanitizer] fatal signal, backtrace:\n";
    (void)!write(2, m, sizeof m - 1);
    backtrace_symbols_fd(bt, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Started from the library's constructor when it is preloaded, before the program's first CUDA call (the Compute
   Sanitizer API wants its subscriber to exist before then). Loaded only through CUDA_INJECTION64_PATH it stays inert:
   on the H100 machine (CUDA 13.0, driver 580.159) subscribing from there got no callback at all. */
static int initialized;
__attribute__((constructor)) static void phos_sanitizer_init(void) {
    if (initialized++) return;
    const char *inj = getenv("CUDA_INJECTION64_PATH"), *pre = getenv("LD_PRELOAD");
    if (!(pre && strstr(pre, "phos_sanitizer"))) {
        if (inj && strstr(inj, "phos_sanitizer"))
            LOG("loaded through CUDA_INJECTION64_PATH: inert; preload it instead (LD_PRELOAD=.../libphos_sanitizer.so)");
        return;
    }
    cfg.debug = (int)env_u64("PHOS_SANITIZER_DEBUG", 0);
    cfg.every = env_u64("PHOS_SANITIZER_EVERY", 1);
    if (!cfg.every) cfg.every = 1;
    cfg.warp_agg = (int)env_u64("PHOS_SANITIZER_WARP_AGG", 1);
    cfg.sync_each = (int)env_u64("PHOS_SANITIZER_SYNC", 0);
    cfg.pool_bytes = env_u64("PHOS_SANITIZER_POOL", 64u << 20);
    if (cfg.pool_bytes < 4096) cfg.pool_bytes = 4096;
    cfg.max_ranges = env_u64("PHOS_SANITIZER_MAX_RANGES", 65536);
    cfg.compress = (int)env_u64("PHOS_COMPRESS", 1);
    const char *k = getenv("PHOS_SANITIZER_KERNELS");
    if (k && *k) {
        char *s = strdup(k), *save = NULL;
        for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (!*tok) continue;
            char **nk = realloc(cfg.kernels, (cfg.nkernels + 1) * sizeof *nk);
            if (!nk) break;
            cfg.kernels = nk;
            cfg.kernels[cfg.nkernels++] = tok;
        }
    }
    const char *sk = getenv("PHOS_SANITIZER_SKIP");
    if (sk) snprintf(cfg.skip, sizeof cfg.skip, "%s", sk);
    const char *o = getenv("PHOS_SANITIZER_OUT");
    if (o && *o) expand_pid(cfg.out, sizeof cfg.out, o);
    const char *p = getenv("PHOS_SANITIZER_PATCH");
    if (p && *p) snprintf(cfg.patch, sizeof cfg.patch, "%s", p);
    else {
        /* default: phos_sanitizer_patch.fatbin next to this library */
        Dl_info di;
        if (dladdr((void *)phos_sanitizer_init, &di) && di.dli_fname) {
            snprintf(cfg.patch, sizeof cfg.patch, "%s", di.dli_fname);
            char *slash = strrchr(cfg.patch, '/');
            if (slash) slash[1] = 0; else cfg.patch[0] = 0;
            strncat(cfg.patch, "phos_sanitizer_patch.fatbin", sizeof cfg.patch - strlen(cfg.patch) - 1);
        }
    }
    if (cfg.debug) { signal(SIGSEGV, on_crash); signal(SIGBUS, on_crash); signal(SIGABRT, on_crash); }
    if (access(cfg.patch, R_OK) != 0) { LOG("patch file %s not readable: observing nothing", cfg.patch); return; }
    rec_set_hook = (void (*)(hook_fn))dlsym(RTLD_DEFAULT, "phos_recorder_set_launch_hook");
    rec_event_index = (uint64_t (*)(uint64_t))dlsym(RTLD_DEFAULT, "phos_recorder_event_index");
    rec_trace_path = (const char *(*)(void))dlsym(RTLD_DEFAULT, "phos_recorder_trace_path");
    if (!rec_set_hook || !rec_event_index) rec_set_hook = NULL, rec_event_index = NULL;
    if (rec_set_hook) rec_set_hook(on_recorded);
    if (sanitizerSubscribe(&subscriber, callback, NULL) != SANITIZER_SUCCESS) { LOG("sanitizerSubscribe failed"); return; }
    sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_RESOURCE);
    sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_LAUNCH);
    if (!strchr(cfg.skip, 'g')) sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_GRAPHS);
    if (!strchr(cfg.skip, 's')) sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_SYNCHRONIZE);
    atexit(finish);
    DBG("patches %s, every %llu, %zu kernel filters, warp aggregation %d, pool %llu bytes, recorder %s", cfg.patch,
        (unsigned long long)cfg.every, cfg.nkernels, cfg.warp_agg, (unsigned long long)cfg.pool_bytes,
        rec_set_hook ? "found" : "absent");
}
