#include "recorder.h"
#include <sched.h>

/* ------------------------------------------------------------------ writer thread */
pthread_t writer_tid;
int writer_running;
static pthread_mutex_t w_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t w_cv = PTHREAD_COND_INITIALIZER;
atomic_int w_stop;
atomic_uint_fast64_t flush_req, flush_ack;
phos_out out = {.fd = -1};   /* phos_output.c: exclusive, regular, whole chunks only */
uint64_t lost_from = UINT64_MAX;  /* first event missing from the file after a failed write */
uint64_t end_dropped;        /* dropped events as counted in the TraceEnd written */

void wakeup_writer(void) {
    pthread_mutex_lock(&w_mu);
    pthread_cond_signal(&w_cv);
    pthread_mutex_unlock(&w_mu);
}

uint64_t ev_index, batch_first, batch_count;

/* one whole unit (file header or chunk); the first failure is said once: from which event on the trace is lost */
void write_unit(uint16_t type, const uint8_t *p, size_t n) {
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
    /* nothing is written after a failed write: the file keeps its intact prefix (attached readers still get it) */
    if (out.err && !stream_active()) return;
    pb_reset(&wout);
    if (phos_frame_chunk(&wout, type, payload->p, payload->n, compress) != 0) return;
    uint64_t off = out.whole;
    int in_file = 0;
    if (!out.err) { write_unit(type, wout.p, wout.n); in_file = !out.err; }
    stream_chunk(type, wout.p, wout.n, off, in_file, batch_first, batch_count);
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
    timing_sample_header(&h);   /* i15-cost: field 40, the sampling policy of GPU timing */
    torch_alloc_header(&h);     /* i15-alloc: field 45, the allocator whose block events were asked for */
    char cwd[PATH_MAX];         /* field 46: where the process ran (the workbench looks for Java sources there) */
    if (getcwd(cwd, sizeof cwd)) pb_str(&h, 46, cwd);
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
        slot_t *np = aligned_alloc(_Alignof(slot_t), nc * sizeof *np);   /* i15-base: slots are cache-line aligned */
        if (!np) { atomic_fetch_add(&g_dropped, 1); return; }   /* lost, but counted */
        for (size_t i = 0; i < pend_n; i++) np[i] = pend[(pend_head + i) % (pend_cap ? pend_cap : 1)];
        free(pend);
        pend = np;
        pend_cap = nc;
        pend_head = 0;
    }
    slot_t *p = &pend[(pend_head + pend_n) % pend_cap];
    memcpy(p, s, sizeof *s);
    if (p->darena) {   /* i15-base: the slot's area is reused once the slot is released: the writer keeps a copy
                          (i15-final: and gives a big-parameter block back) */
        uint8_t *c = malloc(p->dlen);
        if (c) memcpy(c, p->dext, p->dlen);
        if (p->darena == 2) pbig_put(p->dext);
        p->dext = c;
        if (!c) p->dlen = 0;
        p->darena = 0;
    }
    pend_n++;
}

static int encode_slot(slot_t *s, int force);
/* i15-base: an event that waits for nothing (no GPU events, no CUPTI record) and has no pending event before it is
   encoded in place, before its slot is released: no copy into pend, none of its parameter bytes, and the ring's
   back-pressure holds (pend grew without bound when the program outran the writer) */
static int drain_ring(void) {
    int got = 0;
    for (;;) {
        uint64_t t = atomic_load_explicit(&ring_tail, memory_order_relaxed);
        slot_t *s = &ring[t & (RING_CAP - 1)];
        if (atomic_load_explicit(&ring_seq[t & (RING_CAP - 1)], memory_order_acquire) != t + 1) break;
        if (!pend_n && !s->e1 && !s->corr) encode_slot(s, 0);
        else pend_push(s);
        atomic_store_explicit(&ring_seq[t & (RING_CAP - 1)], t + RING_CAP, memory_order_release);
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
    if (r->kind == 2) {   /* i15-cost: a cubin Triton compiled: its PTX from Triton's cache (rec_triton.c) */
        size_t n = 0;
        char *src = NULL;
        uint8_t *ptx = triton_ptx_for(r->image_size, r->hash, &n, &src);
        if (ptx) { pb_bytes(&tmpb, 20, ptx, n); pb_str(&tmpb, 21, src); DBG("module %u: PTX from %s", r->id, src); }
        free(ptx);
        free(src);
    }
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
    int64_t diag_raw = -1, diag_probe = -1, diag_cupti = -1;   /* i15-timing */
    int diag_on = 0;
    if (s->e1) {
        CUresult q = p_evquery(s->e1);
        if (q == CUDA_ERROR_NOT_READY && !force) {
            uint64_t now = mono_ns();
            if (!head_wait_since) head_wait_since = now;
            if (now - head_wait_since < 3000000000ull) return 0;
        }
        if (q == CUDA_SUCCESS) { g0 = gpu_ns(s->e0); g1 = gpu_ns(s->e1); }
        /* i15-cost2: a gated launch's events span the kernel plus the events' own cost, measured at setup;
           i15-timing: or by the in-pair probe behind it (rec_probe.c); the span from the two events themselves */
        if (s->gated && g0 && q == CUDA_SUCCESS) {
            if (s->e2 && p_evquery(s->e2) != CUDA_SUCCESS && !force) {   /* the probe runs after the end event */
                uint64_t now = mono_ns();
                if (!head_wait_since) head_wait_since = now;
                if (now - head_wait_since < 3000000000ull) return 0;
            }
            int64_t probe = -1, raw = -1;
            int64_t d = timing_gated_span(s->e0, s->e1, s->e2, &probe);
            if (d > 0) g1 = g0 + (uint64_t)d;
            if (s->ptr) {
                float ms = 0;
                raw = p_evel(&ms, s->e0, s->e1) == CUDA_SUCCESS ? (int64_t)((double)ms * 1e6 + 0.5) : -1;
                diag_raw = raw; diag_probe = probe; diag_on = 1;
            }
        }
        s->gated = 0;
        pool_put(s->e0);
        pool_put(s->e1);
        pool_put(s->e2);
        s->e0 = s->e1 = s->e2 = NULL;
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
            if (atomic_load(&cupti_released) || atomic_load(&cupti_retired)) { s->corr = 0; cupti_lost++; goto untimed; }   /* i14-cupti: CUPTI is off for a checkpoint, or (i15-settle) for good */
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
            diag_cupti = (int64_t)(en - st);
        }
        s->corr = 0;
    }
untimed:
    head_wait_since = 0;
    if (diag_on && s->type == EV_LAUNCH) {   /* i15-timing: PHOS_TIMING_DIAG */
        int64_t pc = -1;
        if (s->pcorr) {
            pthread_mutex_lock(&corr_mu);
            kv_t *e = kv_find(&corr_times, s->pcorr);
            if (e && e->val) pc = (int64_t)((uint64_t)(uintptr_t)e->ptr - e->val);
            pthread_mutex_unlock(&corr_mu);
        }
        timing_diag_line(((func_rec *)s->ptr)->name, s->u, diag_raw, diag_probe, diag_cupti, pc);
    }
    s->pcorr = 0;
    if ((cfg.diag_skip & 4) && s->type == EV_LAUNCH) { slot_free_data(s); return 1; }   /* i15-base: diagnosis */
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
        /* 2D/3D and array copies: extent and the byte offsets inside array operands (issue 16) */
        pb_u64(&body, 10, s->u[0]); pb_u64(&body, 11, s->u[1]); pb_u64(&body, 12, s->u[2]);
        pb_u64(&body, 13, (uint64_t)s->u[3] | (uint64_t)s->u[4] << 32); pb_u64(&body, 14, (uint64_t)s->u[5] | (uint64_t)s->u[6] << 32);
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
        pb_u64(&body, 5, s->a1);   /* host functions: the user data pointer */
        field = 15; break;
    case EV_ARRAY: {
        uint64_t ext[3] = {0, 0, 0};
        if (s->dlen == sizeof ext) memcpy(ext, data, sizeof ext);
        pb_u64(&body, 1, s->kind); pb_u64(&body, 2, s->a0); pb_u64(&body, 3, s->a1); pb_u64(&body, 4, s->u[0]);
        pb_u64(&body, 5, s->u[1]); pb_u64(&body, 6, ext[0]); pb_u64(&body, 7, ext[1]); pb_u64(&body, 8, ext[2]); pb_u64(&body, 9, s->u[2]);
        field = 17; break;
    }
    case EV_TMAP: {
        tmap_rec tr;
        memset(&tr, 0, sizeof tr);
        if (s->dlen == sizeof tr) memcpy(&tr, data, sizeof tr);
        uint32_t rank = s->u[1] > 5 ? 5 : s->u[1];
        pb_u64(&body, 1, s->kind); pb_u64(&body, 2, s->a0); pb_u64(&body, 3, s->u[0]); pb_u64(&body, 4, s->u[1]);
        for (uint32_t i = 0; i < rank; i++) { pb_varint(&body, 5 << 3); pb_varint(&body, tr.dims[i]); }
        for (uint32_t i = 0; i + 1 < rank; i++) { pb_varint(&body, 6 << 3); pb_varint(&body, tr.strides[i]); }
        for (uint32_t i = 0; i < rank && s->kind == 1; i++) { pb_varint(&body, 7 << 3); pb_varint(&body, tr.box[i]); }
        for (uint32_t i = 0; i < rank; i++) { pb_varint(&body, 8 << 3); pb_varint(&body, tr.estr[i]); }
        pb_u64(&body, 9, tr.interleave); pb_u64(&body, 10, tr.swizzle); pb_u64(&body, 11, tr.l2); pb_u64(&body, 12, tr.oob);
        pb_bytes(&body, 13, tr.map, sizeof tr.map);
        pb_u64(&body, 14, tr.extent);
        field = 18; break;
    }
    case EV_ABLOCK:   /* i15-alloc: AllocatorBlock (Event field 19) */
        pb_u64(&body, 1, s->kind); pb_u64(&body, 2, s->a0); pb_u64(&body, 3, s->a1); pb_u64(&body, 4, s->stream);
        pb_u64(&body, 5, s->u[0]);
        field = 19; break;
    case EV_GRAPH:
        pb_u64(&body, 1, s->a0); pb_u64(&body, 2, s->stream); pb_u64(&body, 3, s->u[0]);
        last_graph_index = ev_index;
        field = 16; break;
    default:
        return 1;
    }
    slot_free_data(s);
    pb_reset(&evb);
    pb_u64(&evb, 1, s->host_ns > g_start_mono ? s->host_ns - g_start_mono : 0);
    pb_u64(&evb, 2, s->thread);
    pb_msg(&evb, (uint32_t)field, &body);
    if (s->type == EV_ALLOC) stream_alloc(s->a0, ev_index, evb.p, evb.n);
    else if (s->type == EV_FREE) stream_free(s->a0);
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
    static unsigned ctx_epoch = ~0u;   /* the writer makes the timing context current once per context */
    unsigned ep = atomic_load(&timing_epoch);
    if (ctx_epoch != ep) { p_ctxset(timing_ctx); ctx_epoch = ep; }
    if (p_evrecord(ref_event, ref_stream) == CUDA_SUCCESS && p_evsync(ref_event) == CUDA_SUCCESS) ref_mono = mono_ns();
}

void *writer_main(void *arg) {
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    t_internal = 1;
    pthread_setname_np(pthread_self(), "phos-writer");   /* i15-base: its CPU time is told apart (bench/steady_loop.py) */
    /* i15-settle: PHOS_WRITER_POLL_MS, how long the writer sleeps when idle (default 2); PHOS_WRITER_IDLE=1 runs it
       under SCHED_IDLE (diagnosis: does the writer delay the program's threads? docs/benchmarks.md block i15-settle) */
    uint64_t poll_ns = phos_env_u64("PHOS_WRITER_POLL_MS", 2) * 1000000ull;
    if (!poll_ns) poll_ns = 1000000ull;
    if (phos_env_u64("PHOS_WRITER_IDLE", 0)) {
        struct sched_param sp = {0};
        if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp) != 0) DBG("PHOS_WRITER_IDLE: SCHED_IDLE refused");
    }
    stream_init();
    write_header();
    cupti_init();
    uint64_t last_flush = mono_ns(), last_rebase = last_flush;
    for (;;) {
        int stop = atomic_load(&w_stop);
        uint64_t req = atomic_load(&flush_req);
        int force = stop || req != atomic_load(&flush_ack);
        drain_ring();
        process_pending(force);
        stream_poll();
        cupti_retire_poll();   /* i15-settle */
        if (observed_due(ev_index)) { flush_batch(); observed_send(ev_index, 0); }   /* i14-liveacc */
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
            ts.tv_nsec += (long)poll_ns;
            while (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
            pthread_cond_timedwait(&w_cv, &w_mu, &ts);
            pthread_mutex_unlock(&w_mu);
        } else if (stop) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
    flush_batch();
    observed_send(ev_index, 1);   /* i14-liveacc: the tool's observations still queued, before TraceEnd */
    DBG("CUPTI: %llu activity records, %llu operations timed by them", (unsigned long long)cupti_records, (unsigned long long)cupti_matched);
    timing_diag_close();   /* i15-timing */
    pb_reset(&tmpb);
    pb_u64(&tmpb, 1, ev_index);
    end_dropped = atomic_load(&g_dropped);
    pb_u64(&tmpb, 2, end_dropped);
    pb_u64(&tmpb, 3, mono_ns() - g_start_mono);
    /* calls that can change memory and were passed through without an event (issue 16) */
    pbuf uc = {0};
    for (int i = 0; i < UNREC_N; i++) {
        uint64_t n = atomic_load(&unrec_counts[i]);
        if (!n) continue;
        pb_reset(&uc);
        pb_str(&uc, 1, unrec_name(i));
        pb_u64(&uc, 2, n);
        pb_msg(&tmpb, 4, &uc);
    }
    pb_free(&uc);
    timing_gaps_end(&tmpb);   /* i14-cupti */
    observed_end(&tmpb);      /* i14-liveacc */
    timing_burst_end(&tmpb);  /* i15-burst */
    write_chunk(PHOS_CHUNK_END, &tmpb, 0);
    stream_finish();
    return NULL;
}
