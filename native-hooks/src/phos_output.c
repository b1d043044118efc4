/* The output file of the recorder and of the sanitizer tool (phos_output.h). */
#define _GNU_SOURCE
#include "phos_output.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* when this process began (exec, or fork for a child), on the coarse clock the kernel stamps file times with: a file
   last written after it was written by another process while this one ran (a sibling, a child that finished first),
   not left by an earlier run. With multigrain file timestamps (Linux 6.13+) a file's mtime can be a few ms ahead of
   this coarse clock, so a run started within that tick of an earlier run's end may take the file as written since:
   it then records under its pid and says so (safe; never the other way, truncating a sibling's trace) */
static struct timespec proc_start;
static void note_start(void) { clock_gettime(CLOCK_REALTIME_COARSE, &proc_start); }
__attribute__((constructor)) static void phos_output_init(void) {
    note_start();
    pthread_atfork(NULL, NULL, note_start);
}
static int after_start(const struct timespec *t) {
    return t->tv_sec > proc_start.tv_sec || (t->tv_sec == proc_start.tv_sec && t->tv_nsec > proc_start.tv_nsec);
}

void phos_out_pid_name(char *dst, size_t cap, const char *path, int pid) {
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".phos")) snprintf(dst, cap, "%.*s.%d.phos", (int)(n - 5), path, pid);
    else snprintf(dst, cap, "%s.%d", path, pid);
}

enum { OPENED = 1, HELD = 0, FAILED = -1, NOT_REGULAR = -2, WRITTEN_SINCE = -3 };

/* one attempt at path: OPENED (o->fd set, file empty and locked), HELD (a live process writes it), WRITTEN_SINCE
   (another process wrote it while this one ran), FAILED (errno), NOT_REGULAR */
static int try_open(phos_out *o, const char *path) {
    struct stat st;
    /* refuse a FIFO or device before opening it: opening one can block or have effects */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return NOT_REGULAR;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0644);
    int fresh = fd >= 0;
    if (fd < 0 && errno == EEXIST) fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return (errno == ENXIO || errno == EISDIR) ? NOT_REGULAR : FAILED;  /* ENXIO: a FIFO without reader */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); return NOT_REGULAR; }   /* replaced meanwhile */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        /* EWOULDBLOCK: a live process writes it. Other errors: no locks on this file system, so a file this call did
           not create may belong to a live process: never truncate it */
        if (e == EWOULDBLOCK || !fresh) { close(fd); return HELD; }
    } else if (!fresh && after_start(&st.st_mtim)) {
        close(fd);
        return WRITTEN_SINCE;
    } else if (!fresh && ftruncate(fd, 0) != 0) {
        /* an earlier run's file, no live writer: replaced (unless it cannot be) */
        int e = errno;
        close(fd);
        errno = e;
        return FAILED;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    o->fd = fd;
    snprintf(o->path, sizeof o->path, "%s", path);
    return OPENED;
}

int phos_out_open(phos_out *o, const char *path, const char *who, const char *consequence) {
    char alt[PATH_MAX];
    o->fd = -1;
    o->whole = 0;
    o->err = 0;
    snprintf(o->path, sizeof o->path, "%s", path);
    int r = try_open(o, path);
    if (r == HELD || r == WRITTEN_SINCE) {
        int why = r;
        phos_out_pid_name(alt, sizeof alt, path, (int)getpid());
        r = try_open(o, alt);
        if (r == OPENED) {
            fprintf(stderr, "%s %s %s: this process (pid %d) records to %s\n", who, path,
                    why == HELD ? "is being written by another process" : "was written by another process while this one ran",
                    (int)getpid(), alt);
            return 0;
        }
        if (r == HELD || r == WRITTEN_SINCE) {
            fprintf(stderr, "%s %s and %s are being written by other processes: %s\n", who, path, alt, consequence);
            return -1;
        }
        path = alt;
    }
    if (r == OPENED) return 0;
    if (r == NOT_REGULAR)
        fprintf(stderr, "%s %s is not a regular file (a FIFO, device or directory): not written, %s\n", who, path, consequence);
    else
        fprintf(stderr, "%s cannot write %s: %s; %s\n", who, path, strerror(errno), consequence);
    return -1;
}

int phos_out_write(phos_out *o, const void *p, size_t n) {
    if (o->fd < 0 || o->err) return -1;
    const unsigned char *b = p;
    size_t left = n;
    while (left) {
        ssize_t w = write(o->fd, b, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            /* full disk (ENOSPC), file size limit (EFBIG), I/O error: keep whole units only */
            o->err = w < 0 ? errno : EIO;
            (void)!ftruncate(o->fd, (off_t)o->whole);   /* if this fails too, readers stop at the partial unit */
            return -1;
        }
        b += w;
        left -= (size_t)w;
    }
    o->whole += n;
    return 0;
}

void phos_out_close(phos_out *o) {
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
}
