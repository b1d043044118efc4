/* libphos_sanitizer.so: SASS-level ground truth of what each kernel launch really reads and writes.
 *
 * A Compute Sanitizer API tool, preloaded (LD_PRELOAD=libphos_sanitizer.so; it subscribes from its constructor, before
 * the first CUDA call). Loaded through CUDA_INJECTION64_PATH instead, it subscribes too but the API delivers no callback
 * and the process crashed at exit (CUDA 13.0, driver 580): use LD_PRELOAD. Every module
 * the process loads is patched: global loads/stores/atomics, cp.async and bulk copies call the device functions of
 * phos_sanitizer_patch.cu, which fold each access into a per-launch record on the device (per allocation: lowest
 * address, highest end address and count, for reads and for writes; an overflow slot for accesses outside every
 * allocation). Records come from chunks of a device pool (phos_sanitizer_layout.h): each stream has an open chunk that
 * carries the allocation table of its launches and was set up once on that stream, so an observed launch only takes
 * the chunk's next record (host-side bump allocation, no copy, no synchronisation). Records are read back in one copy
 * when the application synchronises the context (or a stream holding every pending launch), when the pool is full,
 * when a stream, module or the context goes away, and at exit. It writes ObservedAccess records (tool "sanitizer")
 * into a side file.
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
#include "phos_output.h"
#include "phos_sanitizer_layout.h"
#include "phos_sanitizer_shape.h"   /* i15-shapes */
#include <stdatomic.h>
#include "phos_observed.h"   /* i14-liveacc */

#define EXPORT __attribute__((visibility("default")))
#define LOG(...) do { fprintf(stderr, "[phos-sanitizer] " __VA_ARGS__); fputc('\n', stderr); } while (0)
#define DBG(...) do { if (cfg.debug) LOG(__VA_ARGS__); } while (0)

/* ------------------------------------------------------------------ configuration */
static struct {
    int debug, warp_agg, sync_each, compress;
    int lazy;           /* patch a module at the first launch observed in it, not when it loads: a kernel filter
                           leaves the modules of the other kernels unpatched, running at full speed */
    uint64_t every, pool_bytes, max_ranges, chunk_min, chunk_records;
    uint64_t shapes;        /* i15-cost: observe each launch shape (function + grid + block) this many times, 0 = off */
    uint64_t unpatch_after; /* i15-cost: with shapes, unpatch a module whose last observed launch is this many launches ago */
    uint64_t arg_shapes;    /* i15-shapes: argument shapes per function+grid+block observed at most (0: shapes ignore the
                               parameters, function+grid+block only) */
    int unpatch_safe;       /* i15-shapes: unpatch only with no instrumented launch of the module in flight (0: diagnosis) */
    int unpatch_backoff;    /* i15-shapes: double a module's unpatch_after each time it is patched again */
    int arg_any_pointer;    /* i15-shapes: PHOS_SANITIZER_ARG_POINTERS=any: pointer words without aliasing or offset class */
    uint64_t arg_stable;    /* i15-shapes: mask a scalar word after this many distinct values (2-4; 0 off) */
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
static uint64_t alloc_version = 1;  /* bumped whenever the live allocations change */

typedef struct table_v {            /* an immutable snapshot of the allocation table (host side; chunks hold device copies) */
    range_t *r;
    uint64_t *owner;                 /* i15-alloc: the allocation each range lies in (NULL: each range is one) */
    uint32_t n;
    uint64_t version;
    struct table_v *next;
} table_v;
static table_v *cur_table;          /* the snapshot of the newest allocation table a launch used */
static table_v *old_tables;         /* older snapshots, still named by pending launches: freed at the next read-back */

/* The device pool: chunks of 2^k bytes at multiples of 2^k (phos_sanitizer_layout.h), bump-allocated from the start;
   each stream has one open chunk (of the current table) from which its launches take records. A read-back empties
   the whole pool at once. */
static CUcontext pool_ctx;
static uint64_t d_base;             /* device address of the pool */
static uint8_t *h_pool;             /* host mirror for read-backs (pinned when sanitizerAllocHost works) */
static int h_pool_pinned;
static uint64_t pool_used;          /* bytes from d_base up to the end of the last chunk */
static uint64_t chunk_max;          /* the largest chunk that still fits the pool at any alignment, a power of two */

typedef struct {
    Sanitizer_StreamHandle hs;      /* the stream whose launches take records from this chunk */
    table_v *t;
    uint32_t k;                     /* the chunk is 2^k bytes */
    uint64_t next, end;             /* device addresses: next free record, end of the chunk */
} chunk_t;
static chunk_t *chunks;             /* the open chunk of each stream */
static size_t nchunks, cap_chunks;

typedef struct {                     /* one observed launch */
    uint64_t pos;                    /* recorder ring position, UINT64_MAX until the recorder's hook names it */
    const char *name;
    int ambiguous;                   /* kernel node of a graph launch with several kernel nodes: they cannot be told apart,
                                        so the launch is unobserved (its records are not written, it is not counted as
                                        observed) */
    uint64_t graph;                  /* the graph launch it is a kernel node of (1, 2, ...), 0 for a plain launch */
    size_t obs_first;                /* i14-liveacc: its access records obs[obs_first, obs_first + obs_n) once read back */
    uint32_t obs_n;
    uint8_t done, sent;              /* i14-liveacc: read back; handed over to the recorder for attached readers */
} launch_t;
static launch_t *launches;
static size_t nlaunches, cap_launches;

typedef struct { size_t launch; uint64_t off; table_v *t; } pend_t;   /* off: record offset from d_base */
static pend_t *pend;
static size_t npend, cap_pend;
static uint64_t pend_hi;            /* end offset of the highest pending record: a read-back copies [0, pend_hi) */
static Sanitizer_StreamHandle pstreams[64];   /* streams with pending launches */
static int npstreams, pstreams_overflow;

typedef struct { size_t launch; uint64_t alloc, rb, re, wb, we, rc, wc; } obs_t;
static obs_t *obs;
static size_t nobs, cap_obs;

static uint64_t n_seen, n_selected, n_flushes, n_module_patched, n_module_failed, n_graph_nodes, n_unkeyed;
static uint64_t n_graph_launches, n_graph_multi, n_graph_unobserved;  /* graph launches, those with several kernel
                                        nodes, and their selected kernel nodes that are therefore unobserved */
static uint64_t n_chunks, n_tables, n_too_big, ns_launch, ns_flush, bytes_read, n_untimed;
static int have_patches_ctx_n;
/* modules this tool patched (i15-cost: with per-shape sampling a module is unpatched again once its launch shapes
   are judged, and patched again when a new shape of it comes) */
typedef struct {
    CUmodule mod; int patched; uint64_t last_sel;
    uint64_t after;   /* i15-shapes: launches without an observed one before it is unpatched: cfg.unpatch_after, doubled
                         each time it has to be patched again (a module whose new shapes keep coming, e.g. an
                         optimizer's kernels given a new step scalar each step, stays patched instead of being
                         patched, unpatched and patched again: patching is the expensive part) */
    /* i15-shapes: the streams that launches of this module were issued on while it was patched (observed or not): they
       are synchronised before it is unpatched, so that no instrumented launch of it is still in flight then */
    Sanitizer_StreamHandle st[8];
    int nst, st_overflow;
} modstate_t;
static modstate_t *patched_mods;
static size_t npatched_mods, cap_patched_mods;
static uint64_t n_unpatched, n_shapes, n_shape_full;
/* i15-shapes: launch shapes with an argument shape, launches without parameter bytes (function+grid+block only),
   launches not observed because their function+grid+block had cfg.arg_shapes argument shapes already, unpatches
   put off (another thread inside a launch call, or too many streams), streams synchronised before unpatching */
static uint64_t n_arg_shapes, n_no_params, n_arg_capped, n_unpatch_deferred, n_unpatch_syncs, n_masked_words;
static atomic_int in_launch_calls;            /* threads inside a launch or graph launch call (between BEGIN and END) */
static __thread int t_in_launch_call;
static __thread int t_in_module;
static CUcontext patched_ctx[16];

static __thread size_t t_wait[64];   /* launches of the current API call awaiting the recorder's position */
static __thread int t_nwait, t_in_graph;
static __thread size_t t_graph_first;        /* nlaunches when it began: its kernel nodes' launches are from here on */
static __thread uint32_t t_graph_kernels;    /* its kernel nodes so far, observed or not */

/* the recorder's hook, when it is loaded */
typedef void (*hook_fn)(uint64_t pos, uint32_t nodes, const char *const *node_names);
static void (*rec_set_hook)(hook_fn);
static uint64_t (*rec_event_index)(uint64_t);
static const char *(*rec_trace_path)(void);
static uint32_t (*rec_launch_params)(const void *, void *, uint32_t, uint32_t *, uint32_t, uint32_t *);   /* i15-shapes */
static phos_recorder_observed_fn rec_observed;   /* i14-liveacc: hands each read-back's launches to attached readers */

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

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

/* the interned name of a launch's function, cached by handle (cleared when a module goes away: handles are reused) */
#define FN_CACHE 4096
static struct { CUfunction fn; const char *name; } fn_cache[FN_CACHE];
static const char *fn_name(CUfunction fn, const char *name) {
    size_t j = ((uintptr_t)fn >> 4) * 0x9E3779B97F4A7C15ull >> 52;   /* 12 bits */
    if (fn && fn_cache[j].fn == fn) return fn_cache[j].name;
    const char *n = intern(name);
    if (fn) { fn_cache[j].fn = fn; fn_cache[j].name = n; }
    return n;
}

/* ------------------------------------------------------------------ allocation table */
static void alloc_add(uint64_t a, uint64_t size) {
    if (!size) return;
    size_t lo = 0, hi = nallocs;
    while (lo < hi) { size_t m = (lo + hi) / 2; if (allocs[m].base < a) lo = m + 1; else hi = m; }
    if (lo < nallocs && allocs[lo].base == a) { allocs[lo].end = a + size; alloc_version++; return; }
    if (!grow((void **)&allocs, &cap_allocs, nallocs + 1, sizeof *allocs)) return;
    memmove(&allocs[lo + 1], &allocs[lo], (nallocs - lo) * sizeof *allocs);
    allocs[lo] = (range_t){a, a + size};
    nallocs++;
    alloc_version++;
}
static void alloc_remove(uint64_t a) {
    size_t lo = 0, hi = nallocs;
    while (lo < hi) { size_t m = (lo + hi) / 2; if (allocs[m].base < a) lo = m + 1; else hi = m; }
    if (lo < nallocs && allocs[lo].base == a) {
        memmove(&allocs[lo], &allocs[lo + 1], (nallocs - lo - 1) * sizeof *allocs);
        nallocs--;
        alloc_version++;
    }
}

/* i15-alloc: begin */
/* A caching allocator's live blocks (PyTorch's, handed over by the recorder when it records them: PHOS_TORCH_ALLOC=1).
   With blocks known the table splits each allocation at its blocks' edges, so a launch's record holds one hull per
   block (and per gap between blocks) instead of one per allocation: a kernel writing two tensors of one segment no
   longer shows the bytes between them as written. Each range still reports its allocation's base (owner), so the side
   file's records name the trace's allocations as before. PHOS_SANITIZER_BLOCKS=0 ignores blocks. */
static range_t *blocks;
static size_t nblocks, cap_blocks;
static uint64_t n_block_events;
static void blocks_drop(uint64_t a, uint64_t e) {   /* every block overlapping [a, e) */
    size_t w = 0;
    for (size_t i = 0; i < nblocks; i++) if (!(blocks[i].base < e && blocks[i].end > a)) blocks[w++] = blocks[i];
    if (w != nblocks) { nblocks = w; alloc_version++; }
}
EXPORT void phos_sanitizer_allocator_block(int action, uint64_t addr, uint64_t size) {
    static int on = -1;
    if (on < 0) on = (int)phos_env_u64("PHOS_SANITIZER_BLOCKS", 1) != 0;
    if (!on) return;
    pthread_mutex_lock(&mu);
    n_block_events++;
    if (action == 1 && size) {                    /* ALLOC */
        blocks_drop(addr, addr + size);
        if (grow((void **)&blocks, &cap_blocks, nblocks + 1, sizeof *blocks)) {
            size_t lo = 0, hi = nblocks;
            while (lo < hi) { size_t m = (lo + hi) / 2; if (blocks[m].base < addr) lo = m + 1; else hi = m; }
            memmove(&blocks[lo + 1], &blocks[lo], (nblocks - lo) * sizeof *blocks);
            blocks[lo] = (range_t){addr, addr + size};
            nblocks++;
            alloc_version++;
        }
    } else if (action == 3) {                     /* FREE_COMPLETED: the block that starts there */
        for (size_t i = 0; i < nblocks; i++)
            if (blocks[i].base == addr) { memmove(&blocks[i], &blocks[i + 1], (nblocks - i - 1) * sizeof *blocks); nblocks--; alloc_version++; break; }
    } else if (action == 5 || action == 7) {      /* SEGMENT_FREE, SEGMENT_UNMAP */
        blocks_drop(addr, addr + size);
    }
    pthread_mutex_unlock(&mu);
}
/* the table split at block edges: n entries of r/owner at most cap; returns the count */
static uint32_t split_table(range_t *r, uint64_t *owner, uint32_t cap, const range_t *al, uint32_t na) {
    uint32_t n = 0;
    size_t b = 0;
    for (uint32_t i = 0; i < na && n < cap; i++) {
        uint64_t cur = al[i].base, end = al[i].end;
        while (b < nblocks && blocks[b].end <= cur) b++;
        for (size_t j = b; j < nblocks && blocks[j].base < end && n < cap; j++) {
            uint64_t bs = blocks[j].base > cur ? blocks[j].base : cur, be = blocks[j].end < end ? blocks[j].end : end;
            if (be <= bs) continue;
            if (bs > cur) { r[n] = (range_t){cur, bs}; owner[n++] = al[i].base; if (n == cap) break; }
            r[n] = (range_t){bs, be}; owner[n++] = al[i].base;
            cur = be;
        }
        if (cur < end && n < cap) { r[n] = (range_t){cur, end}; owner[n++] = al[i].base; }
    }
    return n;
}
/* i15-alloc: end */

/* the snapshot of the current allocation table (host side), made when the allocations changed since the last one */
static table_v *current_table(void) {
    if (cur_table && cur_table->version == alloc_version) return cur_table;
    table_v *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->n = (uint32_t)(nallocs < cfg.max_ranges ? nallocs : cfg.max_ranges);
    t->version = alloc_version;
    /* overlapping registrations (an allocation reported twice with different sizes) would break the binary search:
       keep the table disjoint by clipping each range at the next base */
    t->r = malloc((t->n ? t->n : 1) * sizeof *t->r);
    if (!t->r) { free(t); return NULL; }
    memcpy(t->r, allocs, t->n * sizeof *t->r);
    for (uint32_t i = 0; i + 1 < t->n; i++) if (t->r[i].end > t->r[i + 1].base) t->r[i].end = t->r[i + 1].base;
    if (nblocks && t->n) {   /* i15-alloc: split at the allocator's blocks */
        uint32_t cap = (uint32_t)(cfg.max_ranges < 2 * nblocks + t->n ? cfg.max_ranges : 2 * nblocks + t->n);
        range_t *r = malloc(cap * sizeof *r);
        uint64_t *owner = malloc(cap * sizeof *owner);
        if (r && owner) {
            uint32_t n = split_table(r, owner, cap, t->r, t->n);
            free(t->r);
            t->r = r; t->owner = owner; t->n = n;
        } else { free(r); free(owner); }
    }
    if (cur_table) { cur_table->next = old_tables; old_tables = cur_table; }
    cur_table = t;
    n_tables++;
    return t;
}

/* a new chunk for stream hs and table t, its header, table and zeroed records issued on hs (so they precede the
   launches of hs that use it); NULL when the pool has no room left (or the table alone is too big) */
static chunk_t *open_chunk(chunk_t *c, Sanitizer_StreamHandle hs, table_v *t) {
    uint64_t hdr = PHOS_CHUNK_HDR_BYTES(t->n), rec = PHOS_REC_BYTES(t->n);
    uint64_t want = hdr + cfg.chunk_records * rec, size = cfg.chunk_min;
    uint32_t k = 0;
    while (size < want && size < chunk_max) size <<= 1;
    if (size > chunk_max) size = chunk_max;
    if (size < hdr + rec) return NULL;
    while ((1ull << k) < size) k++;
    uint64_t pos = (d_base + pool_used + size - 1) & ~(size - 1);
    if (pos + size > d_base + cfg.pool_bytes) return NULL;
    uint8_t *img = calloc(1, hdr);   /* header, table, zeroed hints */
    if (!img) return NULL;
    PhosChunkHdr *h = (PhosChunkHdr *)img;
    h->table = pos + 16;
    h->n = t->n;
    h->flags = 0;
    memcpy(img + 16, t->r, (size_t)t->n * sizeof(PhosRange));
    if (sanitizerMemset((void *)(uintptr_t)(pos + hdr), 0, size - hdr, hs) != SANITIZER_SUCCESS ||
        sanitizerMemcpyHostToDeviceAsync((void *)(uintptr_t)pos, img, hdr, hs) != SANITIZER_SUCCESS) {
        /* the pageable source is staged before the call returns: img can go */
        free(img);
        LOG("cannot set up a %llu-byte record chunk", (unsigned long long)size);
        return NULL;
    }
    free(img);
    pool_used = pos + size - d_base;
    c->hs = hs;
    c->t = t;
    c->k = k;
    c->next = pos + hdr;
    c->end = pos + size;
    n_chunks++;
    return c;
}

/* ------------------------------------------------------------------ i14-liveacc: live hand-over */
static void policy_text(char *pol, size_t cap) {
    if (cfg.shapes) snprintf(pol, cap, "each launch shape (function+grid+block) %llu times", (unsigned long long)cfg.shapes);
    else if (cfg.every > 1) snprintf(pol, cap, "every %llu-th launch", (unsigned long long)cfg.every);
    else snprintf(pol, cap, "every launch");
    if (cfg.nkernels) strncat(pol, ", kernel filter", cap - strlen(pol) - 1);
}
static __thread uint64_t t_graph;            /* the graph launch in progress on this thread (0: none) */
/* The launches read back since the last hand-over, keyed by the recorder's event indices, go to the recorder as one
   batch for the readers attached to its live stream (phos_recorder_observed): the same records and coverage the side
   file gets at exit, as soon as they are read back. A launch whose recorder position is not known yet (its call has
   not returned on another thread) and the kernel nodes of a graph launch still in progress on this thread wait for
   the next read-back; the side file is written as before. Under mu. */
static size_t hand_from;                     /* launches before it are all handed over or never will be */
static uint64_t n_handed, n_hand_calls;
static int finished_streaming;               /* the exit hand-over was made: the recorder closes its trace next */
static void hand_over(void) {
    if (!rec_observed || !rec_event_index || finished_streaming) return;
    phos_observed_access *acc = NULL;
    uint64_t *li = NULL;
    size_t nacc = 0, cap_acc = 0, nli = 0, cap_li = 0, first_open = SIZE_MAX;
    for (size_t i = hand_from; i < nlaunches; i++) {
        launch_t *l = &launches[i];
        if (l->sent || l->ambiguous) continue;
        /* read back with no recorder position: known at the next hand-over, or never (not recorded) */
        if (l->done && l->pos == UINT64_MAX && l->done++ >= 2) { l->sent = 2; continue; }
        if (!l->done || l->pos == UINT64_MAX || (l->graph && l->graph == t_graph)) {
            if (first_open == SIZE_MAX) first_open = i;
            continue;
        }
        uint64_t key = rec_event_index(l->pos);
        if (!grow((void **)&li, &cap_li, nli + 1, sizeof *li) || !grow((void **)&acc, &cap_acc, nacc + l->obs_n + 1, sizeof *acc)) {
            if (first_open == SIZE_MAX) first_open = i;
            break;
        }
        li[nli++] = key;
        for (uint32_t k = 0; k < l->obs_n; k++) {
            const obs_t *o = &obs[l->obs_first + k];
            acc[nacc++] = (phos_observed_access){key, o->alloc, o->rb, o->re, o->wb, o->we, o->rc, o->wc};
        }
        l->sent = 1;
    }
    hand_from = first_open == SIZE_MAX ? nlaunches : first_open;
    if (nli) {
        char pol[160];
        policy_text(pol, sizeof pol);
        int rc = rec_observed("sanitizer", acc, nacc, li, nli, pol, n_seen);
        n_hand_calls++;
        if (rc == 0) n_handed += nli;
        DBG("live hand-over: %zu launches, %zu records (%s)", nli, nacc, rc == 0 ? "queued" : rc > 0 ? "no reader" : "dropped");
    }
    free(acc);
    free(li);
}
/* at exit, before the recorder closes its trace (registered after the recorder's own atexit, so it runs first): the
   last read-back and its hand-over while attached readers can still get it */
static void flush_locked(const char *why);
static void exit_hand_over(void) {
    pthread_mutex_lock(&mu);
    flush_locked("exit");
    hand_over();
    finished_streaming = 1;
    pthread_mutex_unlock(&mu);
}

/* ------------------------------------------------------------------ read back */
static int flushing;   /* the read-back's own synchronisations call back (SYNCHRONIZE domain): not again from there */
static void flush_locked(const char *why) {
    if (!npend || flushing) return;
    flushing = 1;
    uint64_t t0 = now_ns();
    n_flushes++;
    /* every stream with pending launches: wait for them (one synchronize each is cheap once the application has
       synchronised); more streams than tracked: the context's */
    if (pstreams_overflow) {
        for (size_t i = 0; i < nchunks; i++) sanitizerStreamSynchronize(chunks[i].hs);
    }
    for (int i = 0; i < npstreams; i++) sanitizerStreamSynchronize(pstreams[i]);
    if (sanitizerMemcpyDeviceToHost(h_pool, (void *)(uintptr_t)d_base, pend_hi, pstreams[0]) != SANITIZER_SUCCESS) {
        LOG("read-back of %zu launch records failed (%s): their accesses are lost", npend, why);
        n_unkeyed += npend;
    } else {
        bytes_read += pend_hi;
        for (size_t i = 0; i < npend; i++) {
            const PhosAcc *r = (const PhosAcc *)(h_pool + pend[i].off);
            table_v *t = pend[i].t;
            launches[pend[i].launch].obs_first = nobs;   /* i14-liveacc */
            launches[pend[i].launch].done = 1;
            for (uint32_t k = 0; k <= t->n; k++) {
                const PhosAcc *a = &r[k];
                if (!a->rcount && !a->wcount) continue;
                if (!grow((void **)&obs, &cap_obs, nobs + 1, sizeof *obs)) break;
                obs_t *o = &obs[nobs++];
                o->launch = pend[i].launch;
                o->alloc = k < t->n ? (t->owner ? t->owner[k] : t->r[k].base) : 0;   /* i15-alloc: owner */
                o->rc = a->rcount;
                o->wc = a->wcount;
                o->rb = a->rcount ? ~a->rmin_inv : 0;
                o->re = a->rcount ? a->rmax : 0;
                o->wb = a->wcount ? ~a->wmin_inv : 0;
                o->we = a->wcount ? a->wmax : 0;
            }
            launches[pend[i].launch].obs_n = (uint32_t)(nobs - launches[pend[i].launch].obs_first);   /* i14-liveacc */
        }
    }
    DBG("flush (%s): %zu launches, %llu bytes of records", why, npend, (unsigned long long)pend_hi);
    /* every chunk is free again (new chunks are zeroed when opened); snapshots older than the current table are no
       longer named by any launch */
    pool_used = 0;
    nchunks = 0;
    npend = 0;
    pend_hi = 0;
    npstreams = 0;
    pstreams_overflow = 0;
    while (old_tables) {
        table_v *t = old_tables;
        old_tables = t->next;
        free(t->r);
        free(t->owner);   /* i15-alloc */
        free(t);
    }
    ns_flush += now_ns() - t0;
    flushing = 0;
    hand_over();   /* i14-liveacc */
}

/* ------------------------------------------------------------------ launches */
/* i15-cost: launch shapes seen and how often each was observed; a full table (65536 shapes) observes nothing more of
   new shapes (counted). i15-shapes: a launch shape is function + grid + block + argument shape
   (phos_sanitizer_shape.h: scalars by value, pointers by allocation aliasing and at-base/inside), the argument shape
   from the recorder's parameter bytes of the launch in progress; each function+grid+block has an entry of its own
   that counts its argument shapes, at most cfg.arg_shapes of them (a launch of a further one is not observed:
   counted). Without parameter bytes (no recorder, a graph's kernel node, cfg.arg_shapes 0) the function+grid+block
   entry is the shape. */
#define SHAPE_CAP (1u << 16)
/* i15-shapes: per function+grid+block, with PHOS_SANITIZER_ARG_STABLE=V: the scalar words masked so far and up to V
   distinct values seen per word (allocated at its first argument shape) */
typedef struct { uint64_t mask[PHOS_SHAPE_MASK_WORDS / 64]; uint8_t nvals[PHOS_SHAPE_MASK_WORDS]; uint64_t vals[PHOS_SHAPE_MASK_WORDS][4]; } stable_t;
static struct { uint64_t key; uint64_t observed; uint64_t nargs; stable_t *st; } *shape_tab;
static __thread uint32_t t_spos[PHOS_SHAPE_MASK_WORDS];
static __thread uint64_t t_sval[PHOS_SHAPE_MASK_WORDS];
static __thread uint8_t t_params[8192];
static __thread uint32_t t_layout[2 * 256];
static uint64_t *shape_entry(uint64_t h, uint64_t **nargs, int create, stable_t ***st) {
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t j = (uint32_t)(h + i) & (SHAPE_CAP - 1);
        if (shape_tab[j].key == h) {
            if (nargs) *nargs = &shape_tab[j].nargs;
            if (st) *st = &shape_tab[j].st;
            return &shape_tab[j].observed;
        }
        if (!shape_tab[j].key) {
            if (!create) return NULL;
            shape_tab[j].key = h;
            n_shapes++;
            if (nargs) *nargs = &shape_tab[j].nargs;
            if (st) *st = &shape_tab[j].st;
            return &shape_tab[j].observed;
        }
    }
    n_shape_full++;
    return NULL;
}
static uint64_t *shape_count(const Sanitizer_LaunchData *ld, int graph_node) {
    if (!shape_tab && !(shape_tab = calloc(SHAPE_CAP, sizeof *shape_tab))) return NULL;
    const uint32_t d[6] = {ld->gridDim_x, ld->gridDim_y, ld->gridDim_z, ld->blockDim_x, ld->blockDim_y, ld->blockDim_z};
    uint64_t dk = phos_shape_dims((uint64_t)(uintptr_t)ld->function, d);
    uint64_t *dnargs = NULL, *dc;
    stable_t **dst = NULL;
    dc = shape_entry(dk, &dnargs, 1, &dst);
    if (!dc) return NULL;
    uint32_t np = 0, len = 0;
    if (cfg.arg_shapes && !graph_node && rec_launch_params)
        /* NULL: any function. The callback runs inside the recorder's launch call on this thread, but the application
           may have launched a CUkernel handle (cudart does) while ld->function is the context's CUfunction */
        len = rec_launch_params(NULL, t_params, sizeof t_params, t_layout, sizeof t_layout / sizeof *t_layout / 2, &np);
    if (!len) { if (cfg.arg_shapes && rec_launch_params) n_no_params++; return dc; }
    phos_shape_opts o = {cfg.arg_any_pointer ? PHOS_SHAPE_ANY_POINTER : 0, *dst ? (*dst)->mask : NULL,
                         cfg.arg_stable ? t_spos : NULL, t_sval, PHOS_SHAPE_MASK_WORDS, 0};
    uint64_t ak = phos_shape_args(t_params, len, t_layout, np, (const uint64_t *)allocs, nallocs, NULL, &o);
    uint64_t h = phos_shape_mix(dk, ak) | 1;
    if (h == dk) h ^= 2;
    uint64_t *c = shape_entry(h, NULL, 0, NULL);
    if (c) return c;
    if (*dnargs >= cfg.arg_shapes) { n_arg_capped++; return NULL; }
    if (!(c = shape_entry(h, NULL, 1, NULL))) return NULL;
    ++*dnargs;
    /* i15-shapes: a new argument shape: count its scalar words' distinct values; a word at cfg.arg_stable values is
       masked from now on (for the second and later shapes: the first one's values are only recorded) */
    if (cfg.arg_stable && (*dst || (*dst = calloc(1, sizeof **dst)))) {
        stable_t *st = *dst;
        for (uint32_t i = 0; i < o.ns; i++) {
            uint32_t w = t_spos[i];
            uint8_t k = 0;
            while (k < st->nvals[w] && k < 4 && st->vals[w][k] != t_sval[i]) k++;
            if (k == st->nvals[w] && k < 4) st->vals[w][st->nvals[w]++] = t_sval[i];
            if (st->nvals[w] >= cfg.arg_stable && !(st->mask[w / 64] >> (w % 64) & 1)) { st->mask[w / 64] |= 1ull << (w % 64); n_masked_words++; }
        }
    }
    n_arg_shapes++;
    return c;
}

static int selected(const Sanitizer_LaunchData *ld, uint64_t ordinal, int graph_node) {
    const char *name = ld->functionName;
    if (cfg.every > 1 && ordinal % cfg.every) return 0;
    if (cfg.nkernels) {
        int any = 0;
        for (size_t i = 0; i < cfg.nkernels && !any; i++) any = name && strstr(name, cfg.kernels[i]);
        if (!any) return 0;
    }
    if (cfg.shapes) {   /* under mu */
        uint64_t *c = shape_count(ld, graph_node);
        if (!c || *c >= cfg.shapes) return 0;
        ++*c;
    }
    return 1;
}

static void set_data(const Sanitizer_LaunchData *ld, const void *p) {
    SanitizerResult r = SANITIZER_ERROR_INVALID_PARAMETER;
    if (ld->hLaunch) r = sanitizerSetLaunchCallbackData(ld->hLaunch, ld->function, ld->hStream, p);
    if (r != SANITIZER_SUCCESS) sanitizerSetCallbackData(ld->function, p);
}

static int pool_init(CUcontext ctx) {
    void *p = NULL;
    if (sanitizerAlloc(ctx, &p, cfg.pool_bytes) != SANITIZER_SUCCESS) return 0;
    d_base = (uint64_t)(uintptr_t)p;
    if (d_base >> PHOS_UD_ADDR_BITS) {
        LOG("device pool at %p: above 2^%d, the callback data cannot carry the chunk size", p, PHOS_UD_ADDR_BITS);
        sanitizerFree(ctx, p);
        return 0;
    }
    void *h = NULL;
    if (sanitizerAllocHost(ctx, &h, cfg.pool_bytes) == SANITIZER_SUCCESS && h) { h_pool = h; h_pool_pinned = 1; }
    else if (!(h_pool = malloc(cfg.pool_bytes))) { sanitizerFree(ctx, p); return 0; }
    /* the largest power of two that fits the pool wherever the allocation starts */
    chunk_max = 1;
    while (chunk_max * 4 <= cfg.pool_bytes) chunk_max <<= 1;
    pool_ctx = ctx;
    return 1;
}

/* whether the launch now beginning is observed (its ordinal counts every launch, observed or not) */
static int select_launch(const Sanitizer_LaunchData *ld, int graph_node) {
    pthread_mutex_lock(&mu);
    uint64_t ordinal = n_seen++;
    int sel = selected(ld, ordinal, graph_node) && !(pool_ctx && ld->context != pool_ctx);
    pthread_mutex_unlock(&mu);
    return sel;
}

static void on_module(CUcontext ctx, CUmodule mod);
static void on_launch(const Sanitizer_LaunchData *ld, int graph_node, int sel);
static void module_unpatch_if_idle(CUmodule mod);
static void module_note_stream(CUmodule mod, Sanitizer_StreamHandle hs);

/* a kernel launch or graph kernel node begins: patch its module when needed, then set up or clear its record */
static void begin_launch(const Sanitizer_LaunchData *ld, int graph_node) {
    int sel = select_launch(ld, graph_node);
    /* modules loaded before their context existed (lazy loading, libraries), and every module when patching is lazy,
       are patched here, before the launch's code runs */
    if (!strchr(cfg.skip, 'p') && (sel || !cfg.lazy)) on_module(ld->context, ld->module);
    else if (cfg.shapes && !sel && !graph_node) module_unpatch_if_idle(ld->module);   /* i15-cost: the rest uninstrumented */
    if (cfg.shapes) module_note_stream(ld->module, graph_node && ld->hApiStream ? ld->hApiStream : ld->hStream);   /* i15-shapes */
    if (!strchr(cfg.skip, 'l')) on_launch(ld, graph_node, sel);
}

static void on_launch(const Sanitizer_LaunchData *ld, int graph_node, int sel) {
    uint64_t t0 = now_ns();
    if (!sel) {
        set_data(ld, NULL);
        return;
    }
    pthread_mutex_lock(&mu);
    static int exit_registered;   /* i14-liveacc: after the recorder's atexit (it started at cuInit): runs before it */
    if (rec_observed && !exit_registered) { exit_registered = 1; atexit(exit_hand_over); }
    if (!pool_ctx) t0 = 0;   /* the pool's allocation (once) is not counted in the per-launch figure */
    if (!pool_ctx && !pool_init(ld->context)) {
        LOG("cannot allocate the %llu-byte record pool: observing nothing", (unsigned long long)cfg.pool_bytes);
        cfg.every = UINT64_MAX;
        pthread_mutex_unlock(&mu);
        set_data(ld, NULL);
        return;
    }
    /* graph nodes may run on streams of the graph: their chunk is set up on the stream the graph was launched on */
    Sanitizer_StreamHandle hs = graph_node && ld->hApiStream ? ld->hApiStream : ld->hStream;
    table_v *t = current_table();
    chunk_t *c = NULL;
    for (size_t i = 0; i < nchunks; i++) if (chunks[i].hs == hs) { c = &chunks[i]; break; }
    if (t && PHOS_CHUNK_HDR_BYTES(t->n) + PHOS_REC_BYTES(t->n) > chunk_max) { n_too_big++; t = NULL; }
    if (t && (!c || c->t != t || c->next + PHOS_REC_BYTES(t->n) > c->end)) {
        if (!c) {
            if (grow((void **)&chunks, &cap_chunks, nchunks + 1, sizeof *chunks)) { c = &chunks[nchunks++]; c->hs = NULL; c->t = NULL; }
        }
        if (c && !open_chunk(c, hs, t)) {
            flush_locked("pool full");               /* empties the pool and the chunk list */
            c = NULL;
            if (grow((void **)&chunks, &cap_chunks, nchunks + 1, sizeof *chunks)) {
                c = &chunks[nchunks++];
                if (!open_chunk(c, hs, t)) { nchunks--; c = NULL; }
            }
        }
    }
    if (!t || !c || !grow((void **)&pend, &cap_pend, npend + 1, sizeof *pend) ||
        !grow((void **)&launches, &cap_launches, nlaunches + 1, sizeof *launches)) {
        pthread_mutex_unlock(&mu);
        set_data(ld, NULL);
        return;
    }
    uint64_t slot = c->next;
    c->next += PHOS_REC_BYTES(t->n);
    size_t li = nlaunches++;
    launches[li].pos = UINT64_MAX;
    launches[li].name = fn_name(ld->function, ld->functionName);
    launches[li].ambiguous = 0;
    launches[li].graph = graph_node ? t_graph : 0;
    pend[npend++] = (pend_t){li, slot - d_base, t};
    if (c->next - d_base > pend_hi) pend_hi = c->next - d_base;
    int ps = 0;
    while (ps < npstreams && pstreams[ps] != hs) ps++;
    if (ps == npstreams) {
        if (npstreams < (int)(sizeof pstreams / sizeof *pstreams)) pstreams[npstreams++] = hs;
        else pstreams_overflow = 1;
    }
    n_selected++;
    if (t_nwait < (int)(sizeof t_wait / sizeof *t_wait)) t_wait[t_nwait++] = li;
    uint32_t k = c->k;
    pthread_mutex_unlock(&mu);
    set_data(ld, (const void *)(uintptr_t)PHOS_UD(slot, k));
    if (t0) ns_launch += now_ns() - t0;   /* statistics only: a race between threads loses a sample at worst */
    else n_untimed++;
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
static modstate_t *module_state(CUmodule mod) {
    for (size_t i = 0; i < npatched_mods; i++) if (patched_mods[i].mod == mod) return &patched_mods[i];
    return NULL;
}

/* i15-shapes: a launch of mod is being issued on hs: when mod is patched, its stream joins the module's stream set
   (a launch of it runs instrumented code there until that stream is synchronised) */
static void module_note_stream(CUmodule mod, Sanitizer_StreamHandle hs) {
    if (!mod) return;
    pthread_mutex_lock(&mu);
    modstate_t *m = module_state(mod);
    if (m && m->patched) {
        int i = 0;
        while (i < m->nst && m->st[i] != hs) i++;
        if (i == m->nst) { if (m->nst < (int)(sizeof m->st / sizeof *m->st)) m->st[m->nst++] = hs; else m->st_overflow = 1; }
    }
    pthread_mutex_unlock(&mu);
}

/* i15-cost: an unobserved launch of a patched module whose last observed launch is cfg.unpatch_after launches ago:
   its pending records are read back, then the module is unpatched and its launches run uninstrumented until a new
   shape of it is observed (which patches it again).
   i15-shapes: unpatching is safe only with no instrumented launch of the module in flight. The Compute Sanitizer API
   documents no guarantee for sanitizerUnpatchModule with launches of the module still running or being issued (its
   header says only that it removes the instrumentation of sanitizerPatchModule and that patching and unpatching one
   module must be serialised, as they are here: both under mu), and
   unobserved launches of a patched module run its instrumented code too (with no record: their callback data is
   NULL). So, unless PHOS_SANITIZER_UNPATCH_SAFE=0: (1) when another thread is inside a launch call (between its
   LAUNCH_BEGIN and LAUNCH_END) the unpatch is put off to a later launch, since that launch may be of this module
   and is issued after its callback; a thread that comes to a launch later waits for mu, held here, so its launch
   is issued after the unpatch and runs the code as unpatched; (2) every stream a launch of the module was issued on
   while patched is synchronised first (with more than 8 such streams the module stays patched). The launch now
   beginning is issued after this callback returns, so it runs unpatched. */
static void module_unpatch_if_idle(CUmodule mod) {
    if (!mod) return;
    pthread_mutex_lock(&mu);
    modstate_t *m = module_state(mod);
    if (m && m->patched && n_seen - m->last_sel > m->after) {
        if (cfg.unpatch_safe && (atomic_load(&in_launch_calls) > 1 || m->st_overflow)) {
            n_unpatch_deferred++;
            if (m->st_overflow) m->last_sel = n_seen;   /* too many streams: try again after unpatch_after launches */
            pthread_mutex_unlock(&mu);
            return;
        }
        flush_locked("unpatch");
        if (cfg.unpatch_safe)
            for (int i = 0; i < m->nst; i++) { sanitizerStreamSynchronize(m->st[i]); n_unpatch_syncs++; }
        if (sanitizerUnpatchModule(mod) == SANITIZER_SUCCESS) {
            m->patched = 0;
            m->nst = 0;
            m->st_overflow = 0;
            n_unpatched++;
            DBG("module %p unpatched", (void *)mod);
        }
        else { m->last_sel = n_seen; LOG("module %p: unpatching failed; it stays patched", (void *)mod); }
    }
    pthread_mutex_unlock(&mu);
}

/* i15-shapes: a stream goes away: no module waits for it any more */
static void modules_forget_stream(Sanitizer_StreamHandle hs) {
    for (size_t j = 0; j < npatched_mods; j++) {
        modstate_t *m = &patched_mods[j];
        for (int i = 0; i < m->nst; i++) if (m->st[i] == hs) { m->st[i] = m->st[--m->nst]; break; }
    }
}

static void on_module(CUcontext ctx, CUmodule mod) {
    if (!mod || t_in_module) return;     /* the patches' own module, loaded from inside this function */
    pthread_mutex_lock(&mu);
    modstate_t *ms = module_state(mod);
    if (ms) ms->last_sel = n_seen;
    if (ms && ms->patched) { pthread_mutex_unlock(&mu); return; }
    if (ms && cfg.unpatch_backoff && ms->after < (UINT64_MAX >> 2)) ms->after *= 2;   /* i15-shapes: patched again */
    if (!ms && grow((void **)&patched_mods, &cap_patched_mods, npatched_mods + 1, sizeof *patched_mods)) {
        ms = &patched_mods[npatched_mods++];
        ms->mod = mod;
        ms->last_sel = n_seen;
        ms->nst = 0;
        ms->st_overflow = 0;
        ms->after = cfg.unpatch_after ? cfg.unpatch_after : 1;
    }
    if (ms) ms->patched = 1;
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
            if (m->context && !strchr(cfg.skip, 'm') && !cfg.lazy) on_module(m->context, m->module);
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
            if (cbid == SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING)   /* i15-shapes */
                modules_forget_stream(((const Sanitizer_ResourceStreamData *)cbdata)->hStream);
            if (cbid == SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {   /* a handle can be reused by a later load */
                const Sanitizer_ResourceModuleData *md = cbdata;
                modstate_t *m = module_state(md->module);
                if (m) *m = patched_mods[--npatched_mods];
            }
            flush_locked(cbid == SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING ? "stream destroyed"
                         : cbid == SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING ? "module unloaded" : "context destroyed");
            if (cbid != SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING) memset(fn_cache, 0, sizeof fn_cache);
            pthread_mutex_unlock(&mu);
            break;
        default: break;
        }
        break;
    case SANITIZER_CB_DOMAIN_LAUNCH:
        if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) {
            if (t_in_graph) break;             /* graph kernel nodes arrive as GRAPHS NODE_LAUNCH_BEGIN */
            if (!t_in_launch_call) { t_in_launch_call = 1; atomic_fetch_add(&in_launch_calls, 1); }   /* i15-shapes */
            t_nwait = 0;                       /* launches of earlier calls the recorder did not record */
            const Sanitizer_LaunchData *ld = cbdata;
            begin_launch(ld, 0);
        } else if (cbid == SANITIZER_CBID_LAUNCH_END && !t_in_graph && t_in_launch_call) {   /* i15-shapes */
            t_in_launch_call = 0;
            atomic_fetch_sub(&in_launch_calls, 1);
        }
        if (cbid == SANITIZER_CBID_LAUNCH_END && cfg.sync_each && !t_in_graph) {
            pthread_mutex_lock(&mu);
            flush_locked("each launch");
            pthread_mutex_unlock(&mu);
        }
        break;
    case SANITIZER_CB_DOMAIN_GRAPHS:
        if (cbid == SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN) {
            const Sanitizer_GraphLaunchData *g = cbdata;
            if (!g->isGraphUpload) {
                t_in_graph = 1;
                if (!t_in_launch_call) { t_in_launch_call = 1; atomic_fetch_add(&in_launch_calls, 1); }   /* i15-shapes */
                t_nwait = 0;
                pthread_mutex_lock(&mu);
                t_graph = ++n_graph_launches;
                t_graph_first = nlaunches;
                pthread_mutex_unlock(&mu);
                t_graph_kernels = 0;
            }
        } else if (cbid == SANITIZER_CBID_GRAPHS_LAUNCH_END) {
            t_in_graph = 0;
            if (t_in_launch_call) { t_in_launch_call = 0; atomic_fetch_sub(&in_launch_calls, 1); }   /* i15-shapes */
            /* the callback data of a graph launch is one slot for all its kernel nodes (seen on the H100: the last
               node's record received the accesses of every node), so with several kernel nodes none of them is
               observed, whether or not the kernel filter selected all of them: their records are not written and
               they count as unobserved (summary line). Every selected node of this launch is marked, not only the
               first 64 that t_wait holds. */
            if (t_graph && t_graph_kernels > 1) {
                pthread_mutex_lock(&mu);
                n_graph_multi++;
                for (size_t i = t_graph_first; i < nlaunches; i++)
                    if (launches[i].graph == t_graph && !launches[i].ambiguous) { launches[i].ambiguous = 1; n_graph_unobserved++; }
                pthread_mutex_unlock(&mu);
            }
            t_graph = 0;
            if (cfg.sync_each) { pthread_mutex_lock(&mu); flush_locked("each graph launch"); pthread_mutex_unlock(&mu); }
        } else if (cbid == SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN) {
            const Sanitizer_GraphNodeLaunchData *n = cbdata;
            if (n->nodeType == CU_GRAPH_NODE_TYPE_KERNEL && !n->isGraphUpload) {
                n_graph_nodes++;
                t_graph_kernels++;
                begin_launch(&n->launchData, 1);
            }
        }
        break;
    case SANITIZER_CB_DOMAIN_SYNCHRONIZE:
        if (cbid == SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED) {
            pthread_mutex_lock(&mu);
            flush_locked("context synchronised");
            pthread_mutex_unlock(&mu);
        } else if (cbid == SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED) {
            /* read back when that stream was the only one with pending launches (nothing to wait for), or when the
               pool is half full (waiting for the other streams now rather than at a full pool) */
            const Sanitizer_SynchronizeData *sd = cbdata;
            pthread_mutex_lock(&mu);
            if (npend && !flushing && ((npstreams == 1 && !pstreams_overflow && pstreams[0] == sd->hStream) || pool_used * 2 >= cfg.pool_bytes))
                flush_locked("stream synchronised");
            pthread_mutex_unlock(&mu);
        }
        break;
    default: break;
    }
}

/* ------------------------------------------------------------------ output */
static int write_chunk(phos_out *o, uint16_t type, pbuf *payload, int compress) {
    if (o->err) return -1;
    pbuf c = {0};
    int r = phos_frame_chunk(&c, type, payload->p, payload->n, compress);
    if (r == 0) r = phos_out_write(o, c.p, c.n);
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
    /* exclusive: a second process under the same name writes NAME.PID.phos; a FIFO is refused (phos_output.c) */
    phos_out fo;
    if (phos_out_open(&fo, path, "[phos-sanitizer]", "observed accesses not written") != 0) return;
    path = fo.path;
    pbuf out = {0}, msg = {0}, acc = {0}, rng = {0};
    phos_file_header(&out);
    phos_out_write(&fo, out.p, out.n);
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
    write_chunk(&fo, PHOS_CHUNK_HEADER, &msg, 0);
    size_t written = 0, unkeyed_obs = 0, ambiguous_obs = 0, in_file = 0;
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
        if (++inbatch == 65536 || msg.n > (16u << 20)) {
            if (write_chunk(&fo, PHOS_CHUNK_OBSERVED, &msg, cfg.compress) == 0) in_file += inbatch;
            pb_reset(&msg);
            inbatch = 0;
        }
    }
    if (inbatch && write_chunk(&fo, PHOS_CHUNK_OBSERVED, &msg, cfg.compress) == 0) in_file += inbatch;
    /* i15-cost: coverage, one ObservedBatch whose field 2 (ObservationCoverage) lists the launches observed (those
       without any access record too): a reader tells "observed, touched nothing" from "not observed" */
    pb_reset(&msg);
    pb_reset(&acc);
    pb_str(&acc, 1, "sanitizer");
    pbuf idx = {0};
    size_t ncov = 0;
    for (size_t i = 0; i < nlaunches; i++) {
        if (launches[i].ambiguous) continue;
        uint64_t key = i;
        if (rec_event_index) { if (launches[i].pos == UINT64_MAX) continue; key = rec_event_index(launches[i].pos); }
        pb_varint(&idx, key);
        ncov++;
    }
    pb_bytes(&acc, 2, idx.p, idx.n);
    pb_free(&idx);
    char pol[400];
    if (cfg.shapes && cfg.arg_shapes && rec_launch_params)   /* i15-shapes */
        snprintf(pol, sizeof pol, "each launch shape (function+grid+block+argument shape) %llu times, at most %llu argument "
                 "shapes per function+grid+block", (unsigned long long)cfg.shapes, (unsigned long long)cfg.arg_shapes);
    else if (cfg.shapes) snprintf(pol, sizeof pol, "each launch shape (function+grid+block) %llu times", (unsigned long long)cfg.shapes);
    else if (cfg.every > 1) snprintf(pol, sizeof pol, "every %llu-th launch", (unsigned long long)cfg.every);
    else snprintf(pol, sizeof pol, "every launch");
    if (cfg.nkernels) strncat(pol, ", kernel filter", sizeof pol - strlen(pol) - 1);
    pb_str(&acc, 3, pol);
    pb_u64(&acc, 4, n_seen);
    /* i15-shapes: ObservationCoverage fields 20-25 (docs/trace-format.md): what a launch shape was and what it gave */
    if (cfg.shapes) {
        char rule[400];
        if (!(cfg.arg_shapes && rec_launch_params)) snprintf(rule, sizeof rule, "function+grid+block (parameters not used)");
        else
            snprintf(rule, sizeof rule, "function+grid+block+argument shape: scalar parameter words by value%s, %s; "
                     "function+grid+block where the parameters were not available",
                     cfg.arg_stable ? (cfg.arg_stable == 2 ? " until a word takes 2 values" : cfg.arg_stable == 3
                                       ? " until a word takes 3 values" : " until a word takes 4 values") : "",
                     cfg.arg_any_pointer ? "pointer words as any pointer into an allocation"
                                         : "pointer words by allocation (aliasing among the launch's pointers) and offset "
                                           "class (at base / inside)");
        pb_str(&acc, 20, rule);
        pb_u64(&acc, 21, n_shapes - n_arg_shapes);   /* function+grid+block shapes */
        pb_u64(&acc, 22, n_arg_shapes);              /* argument shapes among them */
        pb_u64(&acc, 23, n_arg_capped);              /* launches not observed: their function+grid+block had its cap */
        pb_u64(&acc, 24, n_no_params);               /* launches shaped without parameters */
        pb_u64(&acc, 25, n_unpatched);               /* module unpatches */
    }
    pb_msg(&msg, 2, &acc);
    write_chunk(&fo, PHOS_CHUNK_OBSERVED, &msg, cfg.compress);
    pb_reset(&msg);
    pb_u64(&msg, 1, 0);
    pb_u64(&msg, 2, 0);
    write_chunk(&fo, PHOS_CHUNK_END, &msg, 0);
    phos_out_close(&fo);
    if (fo.err)
        LOG("writing %s failed (%s): %zu of %zu observed accesses are in the file (whole chunks), the rest are lost", path,
            strerror(fo.err), in_file, written);
    size_t unk_launches = 0;
    if (rec_event_index) for (size_t i = 0; i < nlaunches; i++) unk_launches += launches[i].pos == UINT64_MAX;
    /* observed = selected and not a kernel node of a multi-node graph launch (those are unobserved: see LAUNCH_END) */
    if (n_block_events) LOG("%llu allocator block events: each allocation's ranges split at its live blocks' edges (i15-alloc)",
                            (unsigned long long)n_block_events);
    LOG("%s: %zu observed accesses of %zu launches (%llu launches seen, %llu observed, %llu graph kernel nodes of which %llu "
        "unobserved; %llu modules patched, %llu failed; %llu read-backs of %.1f MB, %llu chunks, %llu table versions)%s",
        path, written, nlaunches - (size_t)n_graph_unobserved, (unsigned long long)n_seen,
        (unsigned long long)(n_selected - n_graph_unobserved), (unsigned long long)n_graph_nodes,
        (unsigned long long)n_graph_unobserved, (unsigned long long)n_module_patched, (unsigned long long)n_module_failed,
        (unsigned long long)n_flushes, bytes_read / 1e6, (unsigned long long)n_chunks, (unsigned long long)n_tables,
        rec_event_index ? "; keyed by the recorder's event indices" : "; no recorder: launch_index = launch ordinal");
    if (cfg.shapes)
        LOG("sampled by shape: %llu launch shapes, each observed up to %llu times; %llu module unpatches; %zu launches listed "
            "as observed in the coverage%s", (unsigned long long)n_shapes, (unsigned long long)cfg.shapes,
            (unsigned long long)n_unpatched, ncov, n_shape_full ? " (shape table full: some launches unobserved)" : "");
    if (cfg.shapes)   /* i15-shapes */
        LOG("shapes: %llu function+grid+block, %llu argument shapes (at most %llu each); %llu launches without parameter "
            "bytes, %llu not observed at the argument-shape cap; %llu scalar words masked; unpatching %s: %llu put off, %llu "
            "stream synchronisations", (unsigned long long)(n_shapes - n_arg_shapes), (unsigned long long)n_arg_shapes,
            (unsigned long long)cfg.arg_shapes, (unsigned long long)n_no_params, (unsigned long long)n_arg_capped,
            (unsigned long long)n_masked_words, cfg.unpatch_safe ? "safe" : "UNSAFE (diagnosis)",
            (unsigned long long)n_unpatch_deferred, (unsigned long long)n_unpatch_syncs);
    LOG("host time: %.2f us per observed launch in the launch callback (the pool's allocation not counted), %.1f ms in "
        "read-backs%s", n_selected > n_untimed ? ns_launch / 1e3 / (double)(n_selected - n_untimed) : 0.0, ns_flush / 1e6, n_too_big ? " (some tables too big for the pool)" : "");
    if (rec_observed)   /* i14-liveacc */
        LOG("live: %llu launches handed to the recorder for attached readers in %llu batches", (unsigned long long)n_handed,
            (unsigned long long)n_hand_calls);
    if (n_graph_unobserved)
        LOG("%llu selected kernel nodes of %llu graph launches with several kernel nodes are unobserved (one callback-data "
            "slot per graph launch): counted as not observed above, their %zu access records not written",
            (unsigned long long)n_graph_unobserved, (unsigned long long)n_graph_multi, ambiguous_obs);
    if (unk_launches || unkeyed_obs || n_unkeyed)
        LOG("%zu launches (%zu accesses) had no recorder event (not recorded: failed, captured or dropped), %llu lost",
            unk_launches, unkeyed_obs, (unsigned long long)n_unkeyed);
    pb_free(&out); pb_free(&msg); pb_free(&acc); pb_free(&rng);
}

static int finished;
static void finish(void) {
    DBG("exit: %zu launches selected, %zu pending", nlaunches, npend);
    pthread_mutex_lock(&mu);
    if (finished) { pthread_mutex_unlock(&mu); return; }
    finished = 1;
    flush_locked("exit");
    write_side_file();
    pthread_mutex_unlock(&mu);
}

/* ------------------------------------------------------------------ start */
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
    cfg.debug = (int)phos_env_u64("PHOS_SANITIZER_DEBUG", 0);
    cfg.every = phos_env_u64("PHOS_SANITIZER_EVERY", 1);
    if (!cfg.every) cfg.every = 1;
    cfg.warp_agg = (int)phos_env_u64("PHOS_SANITIZER_WARP_AGG", 1);
    cfg.sync_each = (int)phos_env_u64("PHOS_SANITIZER_SYNC", 0);
    cfg.pool_bytes = phos_env_u64("PHOS_SANITIZER_POOL", 64u << 20);
    if (cfg.pool_bytes < (1u << 20)) cfg.pool_bytes = 1u << 20;
    cfg.chunk_min = 256u << 10;     /* chunk size: at least this, and room for chunk_records records */
    cfg.chunk_records = phos_env_u64("PHOS_SANITIZER_CHUNK_RECORDS", 256);
    if (!cfg.chunk_records) cfg.chunk_records = 1;
    cfg.max_ranges = phos_env_u64("PHOS_SANITIZER_MAX_RANGES", 65536);
    cfg.compress = (int)phos_env_u64("PHOS_COMPRESS", 1);
    cfg.shapes = phos_env_u64("PHOS_SANITIZER_SHAPES", 0);
    cfg.unpatch_after = phos_env_u64("PHOS_SANITIZER_UNPATCH_AFTER", 256);
    cfg.arg_shapes = phos_env_u64("PHOS_SANITIZER_ARG_SHAPES", 8);        /* i15-shapes */
    cfg.unpatch_safe = (int)phos_env_u64("PHOS_SANITIZER_UNPATCH_SAFE", 1);
    cfg.unpatch_backoff = (int)phos_env_u64("PHOS_SANITIZER_UNPATCH_BACKOFF", 1);
    const char *ap = getenv("PHOS_SANITIZER_ARG_POINTERS");
    if (ap && *ap && strcmp(ap, "alias") && strcmp(ap, "any"))
        LOG("PHOS_SANITIZER_ARG_POINTERS=%s: not 'alias' or 'any'; using 'alias'", ap);
    cfg.arg_any_pointer = ap && !strcmp(ap, "any");
    cfg.arg_stable = phos_env_u64("PHOS_SANITIZER_ARG_STABLE", 0);
    if (cfg.arg_stable == 1 || cfg.arg_stable > 4) {
        LOG("PHOS_SANITIZER_ARG_STABLE=%llu: must be 0 (off) or 2-4; using %d", (unsigned long long)cfg.arg_stable,
            cfg.arg_stable > 4 ? 4 : 2);
        cfg.arg_stable = cfg.arg_stable > 4 ? 4 : 2;
    }
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
    /* with a kernel filter, modules none of whose launches is observed stay unpatched (PHOS_SANITIZER_LAZY=0: patch
       every module as it loads, as without a filter) */
    cfg.lazy = (cfg.nkernels > 0 || cfg.shapes > 0) && phos_env_u64("PHOS_SANITIZER_LAZY", 1) != 0;
    const char *sk = getenv("PHOS_SANITIZER_SKIP");
    if (sk) snprintf(cfg.skip, sizeof cfg.skip, "%s", sk);
    const char *o = getenv("PHOS_SANITIZER_OUT");
    if (o && *o) phos_expand_pid(cfg.out, sizeof cfg.out, o);
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
    rec_launch_params = (uint32_t (*)(const void *, void *, uint32_t, uint32_t *, uint32_t, uint32_t *))
        dlsym(RTLD_DEFAULT, "phos_recorder_launch_params");   /* i15-shapes: absent in an older recorder */
    rec_observed = (phos_recorder_observed_fn)dlsym(RTLD_DEFAULT, "phos_recorder_observed");   /* i14-liveacc */
    if (!rec_set_hook || !rec_event_index) rec_set_hook = NULL, rec_event_index = NULL, rec_observed = NULL;
    if (rec_set_hook) rec_set_hook(on_recorded);
    if (sanitizerSubscribe(&subscriber, callback, NULL) != SANITIZER_SUCCESS) { LOG("sanitizerSubscribe failed"); return; }
    sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_RESOURCE);
    sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_LAUNCH);
    if (!strchr(cfg.skip, 'g')) sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_GRAPHS);
    if (!strchr(cfg.skip, 's')) sanitizerEnableDomain(1, subscriber, SANITIZER_CB_DOMAIN_SYNCHRONIZE);
    atexit(finish);
    DBG("patches %s, every %llu, %zu kernel filters (modules patched %s), warp aggregation %d, pool %llu bytes, "
        "recorder %s", cfg.patch, (unsigned long long)cfg.every, cfg.nkernels,
        cfg.lazy ? "at their first observed launch" : "as they load", cfg.warp_agg, (unsigned long long)cfg.pool_bytes,
        rec_set_hook ? "found" : "absent");
}
