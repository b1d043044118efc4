#include "recorder.h"
#include "phos_observed.h"

/*
 * i14-liveacc: observed accesses for attached readers, as an observation tool has them (the sanitizer tool calls
 * phos_recorder_observed after each read-back of its device records).
 *
 * The tool's thread encodes one ObservedBatch (accesses and coverage) and appends it to a queue of at most
 * 4 x PHOS_ATTACH_QUEUE bytes (a full queue drops the batch, counted); it never waits for the writer. The writer thread
 * sends a queued batch once every launch it names has been encoded, flushing the EventBatch being filled first, so a
 * reader always has a launch's event before its observations. The batches go to the readers only (rec_stream.c:
 * same per-reader queue and drop rules as EventBatch, an ObservedGap chunk tells a reader what it missed); the trace
 * file does not get them: the tool's side file <trace>.observed.phos remains the record of the run, and a saved
 * stream carries its own copy (merge-observed replaces a tool's observations, it does not add them twice).
 * TraceEnd field 20 counts the launches handed over, 21 those dropped before any reader could have them.
 */
typedef struct obs_item {
    struct obs_item *next;
    uint64_t last;       /* the highest event index the batch names */
    uint64_t launches;   /* launches it covers */
    size_t n;
    uint8_t b[];         /* the ObservedBatch message */
} obs_item;

static pthread_mutex_t obs_mu = PTHREAD_MUTEX_INITIALIZER;
static obs_item *obs_head, *obs_tail;
static size_t obs_bytes;
static int obs_closed;                       /* TraceEnd written: nothing more is sent */
static _Atomic uint64_t obs_handed, obs_dropped;
static uint64_t obs_limit;

EXPORT int phos_recorder_observed(const char *tool, const phos_observed_access *acc, size_t n_acc,
                                  const uint64_t *launches, size_t n_launches, const char *policy,
                                  uint64_t launches_seen) {
    if (atomic_load(&g_state) != 1 || (!n_acc && !n_launches)) return 1;
    atomic_fetch_add(&obs_handed, n_launches);
    if (!stream_active() || !stream_readers()) return 1;
    if (!tool || !*tool) tool = "unknown";
    pbuf msg = {0}, a = {0}, r = {0}, idx = {0};
    uint64_t last = 0;
    for (size_t i = 0; i < n_acc; i++) {
        const phos_observed_access *o = &acc[i];
        if (o->launch_index > last) last = o->launch_index;
        pb_reset(&a);
        pb_u64(&a, 1, o->launch_index);
        pb_u64(&a, 2, o->alloc);
        if (o->read_count) { pb_reset(&r); pb_u64(&r, 1, o->read_begin); pb_u64(&r, 2, o->read_end); pb_msg(&a, 3, &r); }
        if (o->write_count) { pb_reset(&r); pb_u64(&r, 1, o->write_begin); pb_u64(&r, 2, o->write_end); pb_msg(&a, 4, &r); }
        pb_u64(&a, 5, o->read_count);
        pb_u64(&a, 6, o->write_count);
        pb_str(&a, 7, tool);
        pb_msg(&msg, 1, &a);
    }
    if (n_launches) {
        for (size_t i = 0; i < n_launches; i++) {
            pb_varint(&idx, launches[i]);
            if (launches[i] > last) last = launches[i];
        }
        pb_reset(&a);
        pb_str(&a, 1, tool);
        pb_bytes(&a, 2, idx.p, idx.n);
        pb_str(&a, 3, policy ? policy : "");
        pb_u64(&a, 4, launches_seen);
        pb_msg(&msg, 2, &a);
    }
    int rc = -1;
    obs_item *it = msg.p ? malloc(sizeof *it + msg.n) : NULL;
    if (it) {
        it->next = NULL;
        it->last = last;
        it->launches = n_launches;
        it->n = msg.n;
        memcpy(it->b, msg.p, msg.n);
        pthread_mutex_lock(&obs_mu);
        /* drained at every writer turn: room for a few readers' queues' worth (each reader's own queue is
           PHOS_ATTACH_QUEUE, rec_stream.c) */
        if (!obs_limit) obs_limit = 4 * phos_env_u64("PHOS_ATTACH_QUEUE", 8u << 20);
        if (!obs_closed && obs_bytes + msg.n <= obs_limit) {
            if (obs_tail) obs_tail->next = it; else obs_head = it;
            obs_tail = it;
            obs_bytes += msg.n;
            rc = 0;
        }
        pthread_mutex_unlock(&obs_mu);
        if (rc) free(it);
    }
    if (rc) atomic_fetch_add(&obs_dropped, n_launches);
    pb_free(&msg); pb_free(&a); pb_free(&r); pb_free(&idx);
    if (!rc) wakeup_writer();
    return rc;
}

/* writer thread: whether the oldest queued batch names only launches below `encoded` (the events encoded so far) */
int observed_due(uint64_t encoded) {
    pthread_mutex_lock(&obs_mu);
    int due = obs_head && obs_head->last < encoded;
    pthread_mutex_unlock(&obs_mu);
    return due;
}

/* writer thread, after the EventBatch being filled went out: sends the queued batches whose launches are all below
   `encoded`, in order; final: the trace ends, the rest (naming launches never recorded) is dropped and counted */
static pbuf oframe;
void observed_send(uint64_t encoded, int final) {
    for (;;) {
        pthread_mutex_lock(&obs_mu);
        obs_item *it = obs_head;
        if (it && (it->last < encoded || final)) {
            obs_head = it->next;
            if (!obs_head) obs_tail = NULL;
            obs_bytes -= it->n;
        } else it = NULL;
        if (!it && final) obs_closed = 1;
        pthread_mutex_unlock(&obs_mu);
        if (!it) return;
        if (it->last < encoded) {
            pb_reset(&oframe);
            if (phos_frame_chunk(&oframe, PHOS_CHUNK_OBSERVED, it->b, it->n, cfg.compress) == 0)
                stream_chunk(PHOS_CHUNK_OBSERVED, oframe.p, oframe.n, 0, 0, 0, it->launches);
        } else {
            atomic_fetch_add(&obs_dropped, it->launches);
        }
        free(it);
    }
}

/* TraceEnd fields 20, 21 (only when an observer handed anything over) */
void observed_end(pbuf *end) {
    uint64_t h = atomic_load(&obs_handed), d = atomic_load(&obs_dropped);
    if (h) pb_u64(end, 20, h);
    if (d) pb_u64(end, 21, d);
}
