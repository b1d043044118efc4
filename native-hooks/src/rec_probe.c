#include "recorder.h"

/* ------------------------------------------------------------------ in-pair probe for gated event timing (i15-timing)
 * A launch timed by gated CUDA events (rec_timing.c, i15-cost2) spans more than the kernel: the start event, the
 * kernel's dispatch, the kernel, its drain and the end event. That overhead was a near constant 1.8-2.7 us on the
 * H100 (docs/benchmarks.md block i15-cost2) that an empty event pair measured at setup does not contain. With
 * PHOS_TIMING_PROBE=1 each timed launch carries its own calibration: behind the kernel's end event, still inside the
 * gate, the recorder launches its own empty kernel (one block of 32 threads, loaded from PTX) and records a third
 * event. The probe's span (end event of the kernel -> third event) is the same path around a kernel that does
 * nothing; the writer estimates the launch's GPU time as
 *     kernel span - (median of the last 63 probe spans - PHOS_TIMING_PROBE_NS)
 * where PHOS_TIMING_PROBE_NS is the probe kernel's own duration (what CUPTI reports for it on the device, measured
 * once per GPU model: 864 ns on the H100, docs/benchmarks.md block i15-timing). The median over the recent probes,
 * not the launch's own probe (PHOS_TIMING_PROBE=pair), because on the H100 the probe's span does not follow the
 * launch's own overhead (correlation 0.08 over 619 launches timed by CUPTI and events at once) and only adds its
 * jitter; the recent median follows the overhead of this process, stream and GPU state. Both spans come from cuEventElapsedTime between the two
 * events themselves (not through the trace's reference event, whose float milliseconds lose precision after seconds).
 * The probe runs only for timed launches (1 in N), on the launch's own stream, inside its context: where that fails
 * (another context, no PTX JIT) the launch keeps the setup bias of i15-cost2.
 * PHOS_TIMING_DIAG=FILE writes one CSV line per timed launch (kernel, grid, block, raw span, probe span and, with
 * PHOS_TIMING_BOTH=1, the CUPTI durations of the kernel and of the probe: CUPTI and gated events at once, for the
 * benchmark only). */
typedef CUresult (*pfn_modload)(CUmodule *, const void *);
typedef CUresult (*pfn_modfn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*pfn_launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                               void **, void **);
static const char probe_ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry phos_timing_probe()\n{\n\tret;\n}\n";
static CUfunction probe_fn;
static pfn_launch p_launch;
int timing_probe_on;
int64_t timing_probe_ref_ns = 864;   /* PHOS_TIMING_PROBE_NS: the H100's, docs/benchmarks.md block i15-timing */
int timing_probe_window = 63;          /* 1 with PHOS_TIMING_PROBE=pair: the launch's own probe */
#define PROBE_RING 63
static int64_t probe_ring[PROBE_RING];
static int probe_ring_n, probe_ring_at;
int timing_both;
static FILE *diag;
static pthread_mutex_t diag_mu = PTHREAD_MUTEX_INITIALIZER;
uint64_t probe_used, probe_failed;

/* from gate_setup (under the timing pool's lock, timing_ctx current, the gate working) */
void timing_probe_setup(void) {
    timing_probe_ref_ns = (int64_t)phos_env_u64("PHOS_TIMING_PROBE_NS", (uint64_t)timing_probe_ref_ns);
    const char *dp = getenv("PHOS_TIMING_DIAG");
    if (dp && *dp && !diag) {
        diag = fopen(dp, "w");
        if (!diag) DBG("PHOS_TIMING_DIAG: cannot write %s: %s", dp, strerror(errno));
        else fprintf(diag, "kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,span_ns,probe_span_ns,cupti_ns,probe_cupti_ns\n");
    }
    const char *pm = getenv("PHOS_TIMING_PROBE");
    if (!pm || !*pm || !strcmp(pm, "0")) return;
    timing_probe_window = !strcmp(pm, "pair") ? 1 : PROBE_RING;
    pfn_modload ml = (pfn_modload)own_real("cuModuleLoadData");
    pfn_modfn mf = (pfn_modfn)own_real("cuModuleGetFunction");
    p_launch = (pfn_launch)own_real("cuLaunchKernel");
    CUmodule m = NULL;
    CUresult r = CUDA_ERROR_NOT_FOUND;
    if (!ml || !mf || !p_launch || (r = ml(&m, probe_ptx)) != CUDA_SUCCESS || (r = mf(&probe_fn, m, "phos_timing_probe")) != CUDA_SUCCESS) {
        DBG("timing probe unavailable (%d): gated spans keep the setup bias", (int)r);
        probe_fn = NULL;
        return;
    }
    timing_probe_on = 1;
    DBG("timing probe on: each timed launch is followed by an empty kernel inside its gate; probe duration %lld ns added back",
        (long long)timing_probe_ref_ns);
}

/* behind a timed launch's end event, before its gate opens: the probe kernel and the event after it (NULL: none) */
CUevent timing_probe_after(CUstream st, uint32_t *corr) {
    if (!timing_probe_on) return NULL;
    if (p_launch(probe_fn, 1, 1, 1, 32, 1, 1, 0, st, NULL, NULL) != CUDA_SUCCESS) {
        __atomic_fetch_add(&probe_failed, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    if (corr) *corr = t_corr;   /* PHOS_TIMING_BOTH: CUPTI's callback noted the probe's correlation id */
    CUevent e = pool_get();
    if (e && p_evrecord(e, st) != CUDA_SUCCESS) { pool_put(e); e = NULL; }
    if (e) __atomic_fetch_add(&probe_used, 1, __ATOMIC_RELAXED);
    return e;
}

static int cmp_span(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int64_t span_ns(CUevent a, CUevent b) {
    float ms = 0;
    if (!a || !b || p_evel(&ms, a, b) != CUDA_SUCCESS) return -1;
    return (int64_t)((double)ms * 1e6 + 0.5);
}

/* the writer: GPU time of a gated launch (ns; -1 when the events say nothing); *probe_out the probe span or -1 */
int64_t timing_gated_span(CUevent e0, CUevent e1, CUevent e2, int64_t *probe_out) {
    int64_t k = span_ns(e0, e1), p = e2 ? span_ns(e1, e2) : -1;
    *probe_out = p;
    if (k < 0) return -1;
    if (p >= 0) {   /* the writer thread only: the ring needs no lock */
        int64_t over = p;
        if (timing_probe_window > 1) {
            probe_ring[probe_ring_at] = p;
            probe_ring_at = (probe_ring_at + 1) % PROBE_RING;
            if (probe_ring_n < PROBE_RING) probe_ring_n++;
            int64_t tmp[PROBE_RING];
            memcpy(tmp, probe_ring, (size_t)probe_ring_n * sizeof *tmp);
            qsort(tmp, (size_t)probe_ring_n, sizeof *tmp, cmp_span);
            over = tmp[probe_ring_n / 2];
        }
        int64_t est = k - over + timing_probe_ref_ns;
        return est > 1 ? est : 1;
    }
    if (timing_event_bias_ns > 0)   /* i15-cost2's rule: the setup bias, at most half of the span */
        return k > 2 * timing_event_bias_ns ? k - timing_event_bias_ns : k / 2;
    return k;
}

void timing_diag_line(const char *kernel, const uint32_t *dims, int64_t span, int64_t probe, int64_t cupti, int64_t probe_cupti) {
    if (!diag) return;
    pthread_mutex_lock(&diag_mu);
    fputc('"', diag);
    for (const char *c = kernel ? kernel : "?"; *c; c++) {
        if (*c == '"') fputc('"', diag);
        fputc(*c, diag);
    }
    fprintf(diag, "\",%u,%u,%u,%u,%u,%u,%lld,%lld,%lld,%lld\n", dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], (long long)span,
            (long long)probe, (long long)cupti, (long long)probe_cupti);
    pthread_mutex_unlock(&diag_mu);
}

void timing_diag_close(void) {
    pthread_mutex_lock(&diag_mu);
    if (diag) {
        fflush(diag);
        fclose(diag);
        diag = NULL;
    }
    pthread_mutex_unlock(&diag_mu);
    if (timing_probe_on) DBG("timing probe: %llu probes, %llu failed launches", (unsigned long long)probe_used, (unsigned long long)probe_failed);
}

/* TimingSampling fields 20-26 (docs/trace-format.md, block i15-timing): how the GPU times of this trace are taken and,
 * for event timing, corrected. Written with the header, so it states the configuration: 20 source ("auto": CUPTI,
 * else events; "cupti"; "events"), 21 1 when event-timed launches are gated, 22 the correction of a gated span
 * ("none", "setup-bias", "fixed-bias", "in-pair-probe"), 23 the probe kernel's duration added back (ns), 24 the fixed
 * bias (ns), 25 what a launch whose probe could not run gets instead, 26 how many recent probe spans give the
 * overhead (their median; 1: the launch's own probe). */
void timing_probe_header(pbuf *ts) {
    int src = cfg.timing_source;
    pb_str(ts, 20, src == 2 ? "events" : src == 1 ? "cupti" : "auto");
    int gate = tsp.sampled && src != 1 && phos_env_u64("PHOS_TIMING_GATE", 1) != 0;
    pb_u64(ts, 21, (uint64_t)gate);
    if (!gate) return;
    const char *bs = getenv("PHOS_TIMING_EVENT_BIAS");
    int fixed = bs && *bs && strcmp(bs, "auto");
    int64_t fixed_ns = fixed ? (int64_t)strtoll(bs, NULL, 10) : 0;
    const char *bias = fixed ? (fixed_ns > 0 ? "fixed-bias" : "none") : "setup-bias";
    const char *pm = getenv("PHOS_TIMING_PROBE");
    int probe = pm && *pm && strcmp(pm, "0");
    pb_str(ts, 22, probe ? "in-pair-probe" : bias);
    if (probe) {
        pb_u64(ts, 23, phos_env_u64("PHOS_TIMING_PROBE_NS", (uint64_t)timing_probe_ref_ns));
        pb_str(ts, 25, bias);
        pb_u64(ts, 26, !strcmp(pm, "pair") ? 1 : PROBE_RING);
    }
    if (fixed && fixed_ns > 0) pb_u64(ts, 24, (uint64_t)fixed_ns);
}
