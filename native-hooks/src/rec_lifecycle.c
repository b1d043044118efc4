#include "recorder.h"
#include <sys/mman.h>

/* ------------------------------------------------------------------ start, stop, signals, fork */
static void stop_recorder(void) {
    int expected = 1;
    if (!atomic_compare_exchange_strong(&g_state, &expected, 2)) return;
    torch_alloc_end();   /* i15-alloc */
    atomic_store(&w_stop, 1);
    wakeup_writer();
    if (writer_running) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 10;
        if (pthread_timedjoin_np(writer_tid, NULL, &ts) == 0) writer_running = 0;
    }
    if (writer_running) {
        /* still waiting for GPU times or stuck in a driver call: whatever it has not written is lost */
        fprintf(stderr, "[phos] trace %s incomplete: the writer did not finish within 10 s (%llu events written so far, "
                "no TraceEnd)\n", out.path, (unsigned long long)(lost_from != UINT64_MAX ? lost_from : batch_first));
        return;
    }
    phos_out_close(&out);
    if (end_dropped)
        fprintf(stderr, "[phos] %llu events dropped: the event ring was full (the writer fell behind); TraceEnd.dropped_events "
                "counts them\n", (unsigned long long)end_dropped);
    if (lost_from != UINT64_MAX)
        DBG("trace %s incomplete: %llu of %llu events written (a write failed: %s)", out.path,
            (unsigned long long)lost_from, (unsigned long long)ev_index, strerror(out.err));
    else
        DBG("trace closed: %llu events", (unsigned long long)ev_index);
}
static void at_exit(void) { stop_recorder(); }
__attribute__((destructor)) static void at_unload(void) { stop_recorder(); }

static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGQUIT};
static struct sigaction old_sa[65];
static int sig_installed[65];

static void fatal_handler(int sig, siginfo_t *si, void *uc) {
    /* ask the writer to write everything issued so far, wait for it at most 2 s (async-signal-safe calls only) */
    if (atomic_load(&g_state) == 1) {
        uint64_t r = atomic_fetch_add(&flush_req, 1) + 1;
        for (int i = 0; i < 2000 && atomic_load(&flush_ack) < r; i++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    sigaction(sig, &old_sa[sig], NULL);
    if (old_sa[sig].sa_flags & SA_SIGINFO) { if (old_sa[sig].sa_sigaction) { old_sa[sig].sa_sigaction(sig, si, uc); return; } }
    else if (old_sa[sig].sa_handler != SIG_DFL && old_sa[sig].sa_handler != SIG_IGN) { old_sa[sig].sa_handler(sig); return; }
    raise(sig);
}

static void install_signals(void) {
    for (size_t i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++) {
        int s = fatal_sigs[i];
        struct sigaction cur;
        if (sigaction(s, NULL, &cur) != 0) continue;
        /* only where nobody else handles the signal: a JVM owns SIGSEGV for itself, Python owns SIGINT */
        if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = fatal_handler;
            sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
            sigemptyset(&sa.sa_mask);
            old_sa[s] = cur;
            if (sigaction(s, &sa, NULL) == 0) sig_installed[s] = 1;
        }
    }
}

/* a forked child records nothing; it closes its copy of the trace's descriptor so that the lock (phos_output.c) goes
   with the parent, and a later run may replace the parent's finished trace even while the child lives on */
static void in_child(void) { atomic_store(&g_state, 3); writer_running = 0; phos_out_close(&out); stream_in_child(); }

static void start_once(void) {
    if (getenv("PHOS_DISABLE") && atoi(getenv("PHOS_DISABLE"))) { atomic_store(&g_state, 3); return; }
    cfg.debug = (int)phos_env_u64("PHOS_DEBUG", 0);
    cfg.payload_limit = phos_env_u64("PHOS_PAYLOAD_LIMIT", 65536);
    cfg.image_limit = phos_env_u64("PHOS_MODULE_IMAGE_LIMIT", 4u << 20);
    cfg.timing = (int)phos_env_u64("PHOS_TIMING", 1);
    cfg.compress = (int)phos_env_u64("PHOS_COMPRESS", 1);
    cfg.diag_skip = (int)phos_env_u64("PHOS_DIAG_SKIP", 0);   /* i15-settle: diagnosis only */
    const char *tsrc = getenv("PHOS_TIMING_SOURCE");
    cfg.timing_source = (tsrc && !strcmp(tsrc, "cupti")) ? 1 : (tsrc && !strcmp(tsrc, "events")) ? 2 : 0;
    cfg.flush_ms = (int)phos_env_u64("PHOS_FLUSH_MS", 100);
    if (cfg.flush_ms <= 0) cfg.flush_ms = 100;
    const char *pat = getenv("PHOS_TRACE_OUT");
    if (!pat || !*pat) pat = "phos-%p.phos";
    phos_expand_pid(cfg.out_path, sizeof cfg.out_path, pat);
    ring = aligned_alloc(64, (size_t)RING_CAP * sizeof *ring);
    ring_seq = calloc(RING_CAP, sizeof *ring_seq);
    if (!ring || !ring_seq) { atomic_store(&g_state, 3); return; }
    memset(ring, 0, (size_t)RING_CAP * sizeof *ring);
    for (uint32_t i = 0; i < RING_CAP; i++) atomic_store(&ring_seq[i], i);
    /* i15-base: the launches' parameter area, reserved; its pages are filled as slots use them (without it, parameter
       bytes are copied as before: inline in the slot, else by malloc) */
    void *pa = mmap(NULL, (size_t)RING_CAP * PARENA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    parena = pa == MAP_FAILED ? NULL : pa;
    pbig_init();   /* i15-final */
    /* never blocks (a FIFO is refused), never truncates a trace a live process writes (a second one gets NAME.PID.phos) */
    if (phos_out_open(&out, cfg.out_path, "[phos]", "recording off, CUDA calls pass through unrecorded") != 0) {
        atomic_store(&g_state, 3);
        return;
    }
    snprintf(cfg.out_path, sizeof cfg.out_path, "%s", out.path);   /* the name written (phos_recorder_trace_path) */
    g_start_mono = mono_ns();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    g_start_unix = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    pbuf fh = {0};
    phos_file_header(&fh);
    write_unit(PHOS_CHUNK_HEADER, fh.p, fh.n);
    pb_free(&fh);
    atomic_store(&g_state, 1);
    if (pthread_create(&writer_tid, NULL, writer_main, NULL) != 0) { atomic_store(&g_state, 3); return; }
    writer_running = 1;
    pthread_atfork(NULL, NULL, in_child);
    atexit(at_exit);
    install_signals();
    DBG("recording to %s (timing %d, payload limit %llu, image limit %llu)", cfg.out_path, cfg.timing,
        (unsigned long long)cfg.payload_limit, (unsigned long long)cfg.image_limit);
}
void ensure_started(void) {
    if (atomic_load(&g_state) == 0) pthread_once(&g_once, start_once);
}
