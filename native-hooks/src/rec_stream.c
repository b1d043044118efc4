#include "recorder.h"

/*
 * Live attach: every recording process offers its trace, as it is written, on a Unix domain socket
 * ($XDG_RUNTIME_DIR/phos/PID.sock, else /tmp/phos-UID/PID.sock; the directory 0700 and owned by the user). Only the
 * same user may read it: the peer's credentials (SO_PEERCRED) are checked on every connection, another uid is
 * refused and said on stderr. No TCP, ever. PHOS_ATTACH=0 leaves the socket off.
 *
 * Everything here runs on the writer thread: the program's threads never touch a socket, so a reader costs them
 * nothing but what the writer thread's CPU time costs the machine. The stream is the .phos format itself (the
 * chunks are the very bytes written to the file): a reader that connects late first gets the file header, the
 * TraceHeader, a StreamStart chunk (where it joined), every Module and Function chunk so far, the allocations
 * still live (as EventBatch chunks at their own event indices) with EventGap chunks for the events in between,
 * then every chunk from then on. Each reader has a bounded queue: an EventBatch that does not fit is dropped for
 * that reader and counted, and an EventGap chunk tells it which events it missed before its next batch. Metadata
 * (Module, Function, TraceEnd) is never dropped; a reader that lets more than READER_HARD_LIMIT bytes of it pile up
 * is disconnected. Writes are non-blocking with MSG_NOSIGNAL, made as each chunk is written to the file (and again at each writer turn
 * for what the socket did not take): a reader that goes away costs a closed descriptor.
 */
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#define MAX_READERS 8
#define READER_EVENT_LIMIT (8u << 20)    /* PHOS_ATTACH_QUEUE: queued EventBatch bytes per reader; a batch beyond is dropped for it */
#define READER_HARD_LIMIT (256u << 20)   /* queued bytes of any kind per reader; beyond, the reader is disconnected */
#define GAP_ATTACHED_LATE 1
#define GAP_READER_BEHIND 2

typedef struct qchunk {
    struct qchunk *next;
    size_t n;
    int events;        /* an EventBatch (counts against READER_EVENT_LIMIT) */
    uint8_t b[];
} qchunk;

typedef struct {
    int fd;
    pid_t pid;
    size_t meta_next, meta_end;      /* Module/Function chunks of the snapshot still to send */
    void *cur_mem;                   /* the allocation holding the unit being sent */
    const uint8_t *cur;              /* the unit being sent (in cur_mem) */
    size_t cur_n, cur_off;
    qchunk *qh, *qt;                 /* then these, in order */
    size_t q_bytes, q_event_bytes;
    uint64_t gap_first, gap_count;   /* events dropped for this reader, not yet announced by an EventGap */
    uint64_t missed;                 /* events dropped for this reader in all */
    int dead;                        /* a send failed: closed at the next poll */
    int pending;                     /* i14-cupti: connected, its first bytes not seen yet (reader or control?) */
    int ctl;                         /* i14-cupti: a control connection (said "phos-ctl 1"), not a reader */
    int prepared;                    /* i14-cupti: this connection released CUPTI (checkpoint-prepare) */
    uint64_t since;
    uint64_t obs_gap_batches, obs_gap_launches;   /* i14-liveacc: ObservedBatch chunks dropped for it, not yet announced */
    char line[256];
    size_t line_n;
} reader_t;

typedef struct {
    uint64_t off;     /* offset of the chunk in the trace file */
    uint32_t n;
    uint8_t *mem;     /* a copy, when the file could not take the chunk */
} meta_ref;

static int listen_fd = -1;
static int trace_rd = -1;            /* the trace file, opened again for reading (the writer's descriptor is write-only) */
static char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static reader_t readers[MAX_READERS];
static int n_readers;
static int stream_on;                /* the socket was opened: keep the snapshot state */
static pbuf header_chunk;            /* the framed TraceHeader chunk */
static meta_ref *meta;
static size_t meta_n, meta_cap;
static kvmap live_allocs;            /* address -> event index (val), encoded Event with its length first (ptr) */
static uint64_t stream_readers_total, stream_refused;
static pbuf sbuf, spay;
static uint64_t event_limit = READER_EVENT_LIMIT;

/* ------------------------------------------------------------------ the socket */
/* $XDG_RUNTIME_DIR/phos, else /tmp/phos-UID: created 0700; refused unless a directory of this user that nobody
   else may enter */
static int attach_dir(char *dir, size_t cap) {
    uid_t uid = geteuid();
    const char *x = getenv("XDG_RUNTIME_DIR");
    if (x && x[0] == '/') snprintf(dir, cap, "%s/phos", x);
    else snprintf(dir, cap, "/tmp/phos-%u", (unsigned)uid);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "[phos] live attach off: cannot create %s (%s)\n", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "[phos] live attach off: %s is not a directory\n", dir);
        return -1;
    }
    if (st.st_uid != uid || (st.st_mode & 077)) {
        fprintf(stderr, "[phos] live attach off: %s is owned by uid %u with mode %03o; it must be this user's (uid %u) "
                "and closed to others (0700)\n", dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777), (unsigned)uid);
        return -1;
    }
    return 0;
}

/* called by the writer thread before its first chunk */
void stream_init(void) {
    const char *a = getenv("PHOS_ATTACH");
    if (a && *a && !strcmp(a, "0")) return;
    char dir[PATH_MAX];
    if (attach_dir(dir, sizeof dir) != 0) return;
    event_limit = phos_env_u64("PHOS_ATTACH_QUEUE", READER_EVENT_LIMIT);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    int len = snprintf(sa.sun_path, sizeof sa.sun_path, "%s/%d.sock", dir, (int)getpid());
    if (len < 0 || (size_t)len >= sizeof sa.sun_path) {
        fprintf(stderr, "[phos] live attach off: socket path %s/%d.sock is longer than %zu bytes\n", dir, (int)getpid(),
                sizeof sa.sun_path - 1);
        return;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    /* bound and listening under a hidden name first, then renamed into place: a reader that sees PID.sock can
       connect (bound but not yet listening, a connect is refused) */
    struct sockaddr_un tmp = sa;
    len = snprintf(tmp.sun_path, sizeof tmp.sun_path, "%s/.%d.sock.new", dir, (int)getpid());
    if (len < 0 || (size_t)len >= sizeof tmp.sun_path) {
        fprintf(stderr, "[phos] live attach off: socket path %s/.%d.sock.new is longer than %zu bytes\n", dir,
                (int)getpid(), sizeof tmp.sun_path - 1);
        close(fd);
        return;
    }
    unlink(tmp.sun_path);   /* sockets left by an earlier process of this pid (killed): ours now */
    mode_t old = umask(0077);
    int ok = bind(fd, (struct sockaddr *)&tmp, sizeof tmp) == 0 && listen(fd, 8) == 0
             && rename(tmp.sun_path, sa.sun_path) == 0;
    umask(old);
    if (!ok) {
        fprintf(stderr, "[phos] live attach off: cannot listen on %s (%s)\n", sa.sun_path, strerror(errno));
        unlink(tmp.sun_path);
        close(fd);
        return;
    }
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", out.fd);
    trace_rd = open(self, O_RDONLY | O_CLOEXEC);   /* Module/Function chunks for late readers come from the file */
    snprintf(sock_path, sizeof sock_path, "%s", sa.sun_path);
    listen_fd = fd;
    stream_on = 1;
    DBG("live attach on %s", sock_path);
}

int stream_active(void) { return stream_on; }

/* ------------------------------------------------------------------ per-reader queues */
static void ctl_resume(reader_t *r, const char *why);
static void reader_close(reader_t *r, const char *why) {
    if (r->prepared) ctl_resume(r, why ? why : "the control connection closed before checkpoint-done");
    if (r->missed || why) DBG("attach: reader pid %d %s (%llu events dropped for it)", (int)r->pid, why ? why : "left",
                              (unsigned long long)r->missed);
    close(r->fd);
    free(r->cur_mem);
    for (qchunk *q = r->qh, *n; q; q = n) { n = q->next; free(q); }
    *r = readers[--n_readers];
}

static void enqueue(reader_t *r, const uint8_t *p, size_t n, int events) {
    qchunk *q = malloc(sizeof *q + n);
    if (!q) { r->q_bytes = (size_t)-1; return; }   /* disconnected by the hard limit below */
    q->next = NULL;
    q->n = n;
    q->events = events;
    memcpy(q->b, p, n);
    if (r->qt) r->qt->next = q; else r->qh = q;
    r->qt = q;
    r->q_bytes += n;
    if (events) r->q_event_bytes += n;
}

static void frame(pbuf *dst, uint16_t type, const pbuf *payload) {
    pb_reset(dst);
    phos_frame_chunk(dst, type, payload->p, payload->n, 0);
}

/* an EventGap chunk: events [first, first + count) are not in this stream */
static void enqueue_gap(reader_t *r, uint64_t first, uint64_t count, int reason) {
    pb_reset(&spay);
    pb_u64(&spay, 1, first);
    pb_u64(&spay, 2, count);
    pb_u64(&spay, 3, (uint64_t)reason);
    frame(&sbuf, PHOS_CHUNK_EVENT_GAP, &spay);
    enqueue(r, sbuf.p, sbuf.n, 0);
}

static void announce_gap(reader_t *r) {
    if (!r->gap_count) return;
    enqueue_gap(r, r->gap_first, r->gap_count, GAP_READER_BEHIND);
    r->gap_count = 0;
}

/* the next unit to send into r->cur; 0 when there is none */
static int next_unit(reader_t *r) {
    if (r->meta_next < r->meta_end) {
        meta_ref *m = &meta[r->meta_next++];
        uint8_t *b = malloc(m->n);
        if (!b) return 0;
        if (m->mem) memcpy(b, m->mem, m->n);
        else {
            size_t got = 0;
            while (got < m->n) {
                ssize_t k = pread(trace_rd, b + got, m->n - got, (off_t)(m->off + got));
                if (k < 0 && errno == EINTR) continue;
                if (k <= 0) break;
                got += (size_t)k;
            }
            if (got < m->n) { free(b); return next_unit(r); }   /* cannot happen while the file is ours */
        }
        r->cur_mem = b; r->cur = b; r->cur_n = m->n; r->cur_off = 0;
        return 1;
    }
    qchunk *q = r->qh;
    if (!q) return 0;
    r->qh = q->next;
    if (!r->qh) r->qt = NULL;
    r->q_bytes -= q->n;
    if (q->events) r->q_event_bytes -= q->n;
    r->cur_mem = q; r->cur = q->b; r->cur_n = q->n; r->cur_off = 0;
    return 1;
}

/* sends what the socket takes now; returns -1 when the reader is gone */
static int reader_pump(reader_t *r) {
    for (;;) {
        if (!r->cur && !next_unit(r)) return 0;
        while (r->cur_off < r->cur_n) {
            ssize_t k = send(r->fd, r->cur + r->cur_off, r->cur_n - r->cur_off, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (k > 0) { r->cur_off += (size_t)k; continue; }
            if (k < 0 && errno == EINTR) continue;
            if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
            return -1;   /* EPIPE, ECONNRESET: the reader went away */
        }
        free(r->cur_mem);
        r->cur_mem = NULL;
        r->cur = NULL;
    }
}

/* i14-liveacc: an ObservedGap chunk (type 9): the observations of `launches` launches in `batches` ObservedBatch
   chunks were dropped for this reader (its queue was full) */
static void announce_obs_gap(reader_t *r) {
    if (!r->obs_gap_batches) return;
    pb_reset(&spay);
    pb_u64(&spay, 1, r->obs_gap_batches);
    pb_u64(&spay, 2, r->obs_gap_launches);
    frame(&sbuf, PHOS_CHUNK_OBSERVED_GAP, &spay);
    enqueue(r, sbuf.p, sbuf.n, 0);
    r->obs_gap_batches = r->obs_gap_launches = 0;
}
int stream_readers(void) { return n_readers; }

static int reader_idle(const reader_t *r) { return !r->cur && r->meta_next >= r->meta_end && !r->qh; }

/* ------------------------------------------------------------------ a new reader: what the process has so far */
typedef struct { uint64_t index; const uint8_t *ev; uint32_t n; } live_ev;
static int by_index(const void *a, const void *b) {
    uint64_t x = ((const live_ev *)a)->index, y = ((const live_ev *)b)->index;
    return x < y ? -1 : x > y;
}

static void snapshot(reader_t *r, uint64_t first_live) {
    /* file header, TraceHeader, StreamStart */
    pbuf fh = {0};
    phos_file_header(&fh);
    pb_raw(&fh, header_chunk.p, header_chunk.n);
    size_t n_live = 0, cap = 0;
    live_ev *lv = NULL;
    for (size_t i = 0; i < live_allocs.cap; i++) {
        kv_t *e = &live_allocs.e[i];
        if (!e->key || !e->ptr || e->val >= first_live) continue;
        if (n_live == cap) {
            cap = cap ? cap * 2 : 256;
            live_ev *nl = realloc(lv, cap * sizeof *nl);
            if (!nl) break;
            lv = nl;
        }
        uint32_t len;
        memcpy(&len, e->ptr, 4);
        lv[n_live++] = (live_ev){e->val, (const uint8_t *)e->ptr + 4, len};
    }
    qsort(lv, n_live, sizeof *lv, by_index);
    pb_reset(&spay);
    pb_u64(&spay, 1, first_live);
    pb_u64(&spay, 2, ev_index);
    pb_u64(&spay, 3, atomic_load(&g_dropped));
    pb_str(&spay, 4, cfg.out_path);
    pb_u64(&spay, 5, (uint64_t)getpid());
    pb_u64(&spay, 6, n_live);
    pb_u64(&spay, 7, mono_ns() - g_start_mono);
    frame(&sbuf, PHOS_CHUNK_STREAM_START, &spay);
    pb_raw(&fh, sbuf.p, sbuf.n);
    r->cur_mem = fh.p; r->cur = fh.p; r->cur_n = fh.n; r->cur_off = 0;   /* owned by the reader now */
    r->meta_next = 0;
    r->meta_end = meta_n;
    /* the live allocations at their own indices, the events between them as gaps */
    uint64_t at = 0;
    pbuf batch = {0}, msg = {0};
    for (size_t i = 0; i < n_live;) {
        if (lv[i].index > at) enqueue_gap(r, at, lv[i].index - at, GAP_ATTACHED_LATE);
        size_t j = i;
        pb_reset(&batch);
        pb_u64(&batch, 1, lv[i].index);
        for (; j < n_live && lv[j].index == lv[i].index + (j - i); j++) {
            pb_varint(&batch, (2 << 3) | 2);
            pb_varint(&batch, lv[j].n);
            pb_raw(&batch, lv[j].ev, lv[j].n);
        }
        frame(&msg, PHOS_CHUNK_EVENTS, &batch);
        enqueue(r, msg.p, msg.n, 0);
        at = lv[j - 1].index + 1;
        i = j;
    }
    if (first_live > at) enqueue_gap(r, at, first_live - at, GAP_ATTACHED_LATE);
    pb_free(&batch);
    pb_free(&msg);
    free(lv);
}

static void accept_readers(void) {
    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        struct ucred cr;
        socklen_t cl = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || cr.uid != geteuid()) {
            stream_refused++;
            fprintf(stderr, "[phos] live attach: refused a connection from uid %d (pid %d) to %s: only uid %u may attach\n",
                    cl == sizeof cr ? (int)cr.uid : -1, cl == sizeof cr ? (int)cr.pid : -1, sock_path, (unsigned)geteuid());
            close(fd);
            continue;
        }
        if (n_readers == MAX_READERS) {
            fprintf(stderr, "[phos] live attach: refused reader pid %d: %d readers are attached already\n", (int)cr.pid, MAX_READERS);
            close(fd);
            continue;
        }
        reader_t *r = &readers[n_readers++];
        memset(r, 0, sizeof *r);
        r->fd = fd;
        r->pid = cr.pid;
        /* the events of the batch being filled come live: the snapshot covers those before it */
        snapshot(r, batch_count ? batch_first : ev_index);
        stream_readers_total++;
        r->pending = 1;   /* nothing is sent until it is known to be a reader, not a control connection (stream_poll) */
        r->since = mono_ns();
    }
}

/* i14-cupti: begin
 * Control connections. A connection whose first bytes (within CTL_WAIT_NS of connecting) are "phos-ctl 1\n" gets no
 * stream: it sends lines and gets one line back for each (the peer check above is the same for both):
 *   checkpoint-prepare  -> "ready WHAT" (CUPTI released: WHAT lists the steps; "ready events ..." when the process
 *                          had no CUPTI timing) or "refused WHY"
 *   checkpoint-prepare hold  the same, but CUPTI stays released when this connection closes (a lock in one call, the
 *                          unlock in a later one): until a checkpoint-done on any control connection
 *   checkpoint-done     -> "resumed cupti|events ..." (timing source from now on)
 *   anything else       -> "error unknown command ..."
 * A control connection that closes after prepare without done resumes CUPTI itself. */
#define CTL_HELLO "phos-ctl 1\n"
#define CTL_WAIT_NS 30000000ull
static void ctl_reply(reader_t *r, const char *line) {
    char b[512];
    int n = snprintf(b, sizeof b, "%s\n", line);
    if (n > 0 && send(r->fd, b, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) != n) r->dead = 1;
}
static void ctl_resume(reader_t *r, const char *why) {
    char what[256];
    cupti_resume(what, sizeof what);
    r->prepared = 0;
    DBG("attach: checkpoint-done by pid %d (%s): timing by %s", (int)r->pid, why, what);
}
static void ctl_command(reader_t *r, const char *cmd) {
    char what[256], out[400];
    if (!strcmp(cmd, "checkpoint-prepare") || !strcmp(cmd, "checkpoint-prepare hold")) {
        /* "hold": released until a checkpoint-done on any control connection (a lock now, the unlock in a later call) */
        int rc = cupti_release(what, sizeof what);
        if (rc == 0 && !strchr(cmd, ' ')) r->prepared = 1;
        if (rc < 0) snprintf(out, sizeof out, "refused %s", what);
        else snprintf(out, sizeof out, "ready %s", rc == 0 ? what : "events (nothing to release)");
    } else if (!strcmp(cmd, "checkpoint-done")) {
        if (atomic_load(&cupti_released)) {
            cupti_resume(what, sizeof what);
            r->prepared = 0;
            snprintf(out, sizeof out, "resumed %s; operations between prepare and done were timed by CUDA events", what);
        } else snprintf(out, sizeof out, "resumed events (nothing was released)");
    } else {
        snprintf(out, sizeof out, "error unknown command \"%.60s\" (checkpoint-prepare, checkpoint-done)", cmd);
    }
    ctl_reply(r, out);
}
/* reads what a control connection sent; -1 when it closed */
static int ctl_read(reader_t *r) {
    for (;;) {
        ssize_t k = recv(r->fd, r->line + r->line_n, sizeof r->line - 1 - r->line_n, MSG_DONTWAIT);
        if (k == 0) return -1;
        if (k < 0) return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? 0 : -1;
        r->line_n += (size_t)k;
        char *nl;
        while ((nl = memchr(r->line, '\n', r->line_n))) {
            *nl = 0;
            if (nl > r->line && nl[-1] == '\r') nl[-1] = 0;
            ctl_command(r, r->line);
            size_t used = (size_t)(nl + 1 - r->line);
            memmove(r->line, nl + 1, r->line_n - used);
            r->line_n -= used;
        }
        if (r->line_n == sizeof r->line - 1) return -1;   /* a line longer than any command */
    }
}
/* a new connection: a control connection, a reader (snapshot now), 0 still undecided, -1 gone */
static int settle(reader_t *r) {
    char b[sizeof CTL_HELLO];
    ssize_t k = recv(r->fd, b, sizeof CTL_HELLO - 1, MSG_PEEK | MSG_DONTWAIT);
    if (k == 0) return -1;
    size_t hl = sizeof CTL_HELLO - 1;
    if (k > 0 && (size_t)k >= hl && !memcmp(b, CTL_HELLO, hl)) {
        recv(r->fd, b, hl, MSG_DONTWAIT);
        r->pending = 0;
        r->ctl = 1;
        free(r->cur_mem);   /* not a reader: what was queued for it goes */
        r->cur_mem = NULL;
        r->cur = NULL;
        for (qchunk *q = r->qh, *n; q; q = n) { n = q->next; free(q); }
        r->qh = r->qt = NULL;
        r->q_bytes = r->q_event_bytes = 0;
        r->meta_next = r->meta_end;
        stream_readers_total--;
        DBG("attach: control connection from pid %d", (int)r->pid);
        return 1;
    }
    int undecided = k > 0 ? !memcmp(b, CTL_HELLO, (size_t)k) : (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
    if (undecided && mono_ns() - r->since < CTL_WAIT_NS) return 0;
    r->pending = 0;   /* a reader: its snapshot and what came since go out now */
    DBG("attach: reader pid %d connected at event %llu", (int)r->pid, (unsigned long long)ev_index);
    return 1;
}
/* i14-cupti: end */

/* ------------------------------------------------------------------ the writer's calls */
/* each writer turn: new readers, what the sockets take, readers that left */
void stream_poll(void) {
    if (listen_fd < 0) return;
    accept_readers();
    for (int i = 0; i < n_readers;) {
        reader_t *r = &readers[i];
        if (r->pending && settle(r) < 0) { reader_close(r, NULL); continue; }   /* i14-cupti */
        if (r->pending) { i++; continue; }
        if (r->ctl) {
            if (r->dead || ctl_read(r) < 0) { reader_close(r, NULL); continue; }
            i++;
            continue;
        }
        if (r->q_bytes > READER_HARD_LIMIT) { reader_close(r, "disconnected: it read nothing while its queue grew past the limit"); continue; }
        if (r->dead || reader_pump(r) < 0) { reader_close(r, NULL); continue; }
        if (reader_idle(r) && (r->gap_count || r->obs_gap_batches)) {
            /* i15-base: a reader that caught up learns at once what was dropped for it, not only with the next batch
               (a program that goes quiet after the drops sent none, and the reader waited for events that never came) */
            announce_gap(r);
            announce_obs_gap(r);
            if (reader_pump(r) < 0) { reader_close(r, NULL); continue; }
        }
        if (reader_idle(r)) {
            /* nothing to send: a reader that closed shows as readable with 0 bytes (whatever it sends is ignored) */
            char b[256];
            ssize_t k = recv(r->fd, b, sizeof b, MSG_DONTWAIT);
            if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) { reader_close(r, NULL); continue; }
        }
        i++;
    }
}

/* a chunk the writer framed (p, n): at file offset off when in_file; first/count: an EventBatch's events */
void stream_chunk(uint16_t type, const uint8_t *p, size_t n, uint64_t off, int in_file, uint64_t first, uint64_t count) {
    if (!stream_on) return;
    if (type == PHOS_CHUNK_HEADER) {
        pb_reset(&header_chunk);
        pb_raw(&header_chunk, p, n);
        return;
    }
    if (type == PHOS_CHUNK_MODULE || type == PHOS_CHUNK_FUNCTION) {
        if (meta_n == meta_cap) {
            size_t nc = meta_cap ? meta_cap * 2 : 64;
            meta_ref *nm = realloc(meta, nc * sizeof *nm);
            if (nm) { meta = nm; meta_cap = nc; }
        }
        if (meta_n < meta_cap) {
            meta_ref *m = &meta[meta_n++];
            m->off = off;
            m->n = (uint32_t)n;
            m->mem = NULL;
            if (!in_file && (m->mem = malloc(n))) memcpy(m->mem, p, n);
            if (!in_file && !m->mem) meta_n--;
        }
    }
    for (int i = 0; i < n_readers; i++) {
        reader_t *r = &readers[i];
        if (r->dead || r->ctl) continue;   /* i14-cupti: a control connection gets no stream */
        if (type == PHOS_CHUNK_EVENTS) {
            if (r->q_event_bytes + n > event_limit) {
                if (!r->gap_count) r->gap_first = first;
                r->gap_count += count;
                r->missed += count;
                continue;
            }
            announce_gap(r);
            enqueue(r, p, n, 1);
        } else if (type == PHOS_CHUNK_MODULE || type == PHOS_CHUNK_FUNCTION) {
            /* a reader still sending its snapshot gets this one after it, in order with the events */
            enqueue(r, p, n, 0);
        } else if (type == PHOS_CHUNK_OBSERVED) {
            /* i14-liveacc: a tool's observations (rec_observed.c), stream only: dropped like an EventBatch */
            if (r->q_event_bytes + n > event_limit) {
                r->obs_gap_batches++;
                r->obs_gap_launches += count;
                continue;
            }
            announce_obs_gap(r);
            enqueue(r, p, n, 1);
        } else if (type == PHOS_CHUNK_END) {
            announce_gap(r);
            announce_obs_gap(r);   /* i14-liveacc */
            enqueue(r, p, n, 0);
        } else {
            continue;
        }
        /* into the socket now, as into the file: what a SIGKILL leaves the reader is what the file has (a connection
           not yet known to be a reader gets it queued: i14-cupti) */
        if (!r->pending && reader_pump(r) < 0) r->dead = 1;
    }
}

/* the writer encoded Alloc/Free event `index` (evb: the Event message): the allocations still live, for late readers */
void stream_alloc(uint64_t addr, uint64_t index, const uint8_t *ev, size_t n) {
    if (!stream_on || !addr) return;
    kv_t *e = kv_put(&live_allocs, addr);
    if (!e) return;
    free(e->ptr);
    e->ptr = malloc(n + 4);
    if (!e->ptr) return;
    uint32_t len = (uint32_t)n;
    memcpy(e->ptr, &len, 4);
    memcpy((uint8_t *)e->ptr + 4, ev, n);
    e->val = index;
}
void stream_free(uint64_t addr) {
    if (!stream_on) return;
    kv_t *e = kv_find(&live_allocs, addr);
    if (e) { free(e->ptr); e->ptr = NULL; }
}

/* the writer wrote TraceEnd: readers get what is queued for them (at most 200 ms), then the socket goes */
void stream_finish(void) {
    if (listen_fd < 0) return;
    close(listen_fd);
    listen_fd = -1;
    unlink(sock_path);
    uint64_t t0 = mono_ns();
    while (n_readers && mono_ns() - t0 < 200000000ull) {
        int busy = 0;
        for (int i = 0; i < n_readers;) {
            reader_t *r = &readers[i];
            if (r->dead || reader_pump(r) < 0 || reader_idle(r)) { reader_close(r, NULL); continue; }
            busy = 1;
            i++;
        }
        if (busy) { struct timespec ts = {0, 1000000}; nanosleep(&ts, NULL); }
    }
    while (n_readers) reader_close(&readers[0], "had not read everything when the process ended");
    if (trace_rd >= 0) close(trace_rd);
    trace_rd = -1;
    DBG("attach: %llu readers in all, %llu connections refused", (unsigned long long)stream_readers_total,
        (unsigned long long)stream_refused);
}

/* a forked child: the sockets are the parent's (its name too: not unlinked) */
void stream_in_child(void) {
    if (trace_rd >= 0) close(trace_rd);
    trace_rd = -1;
    if (listen_fd >= 0) close(listen_fd);
    listen_fd = -1;
    for (int i = 0; i < n_readers; i++) close(readers[i].fd);
    n_readers = 0;
    stream_on = 0;
}
