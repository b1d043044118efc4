/* The output file of the recorder and of the sanitizer tool: exclusive, regular, and honest about failed writes.
 *
 * A trace is written by one process only. phos_out_open creates the file exclusively and holds an flock on it for as
 * long as it writes, so a second process that asks for the same name (a child that initialises CUDA, a second run
 * started while the first is still recording) never truncates it: it records to NAME.PID.phos instead and says so in
 * one stderr line. So does a process that finds the file finished by another process after it started (a child
 * that used CUDA and ended before the parent's first CUDA call). A file left by an earlier run (no live process holds
 * its lock, last written before this process started) is replaced, as a re-recording expects. Only regular files are written: a FIFO, a device or a directory is refused without blocking (stat, then
 * O_NONBLOCK and fstat). phos_out_write writes whole units (chunks): after a failed or short write the file is cut
 * back to the end of the last whole unit, so what is there stays loadable, and nothing more is written. */
#ifndef PHOS_OUTPUT_H
#define PHOS_OUTPUT_H
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int fd;                /* -1 when not open */
    char path[PATH_MAX];   /* the file actually written (the name asked for, or its .PID variant) */
    uint64_t whole;        /* bytes of whole units written */
    int err;               /* errno of the first failed write, 0 while none failed */
} phos_out;

/* Opens path for writing by this process alone (see above). Returns 0, or -1 after one stderr line that starts with
   who (e.g. "[phos]") and ends with what follows from it (e.g. "recording off"). */
int phos_out_open(phos_out *o, const char *path, const char *who, const char *consequence);
/* Writes one whole unit. Returns 0, or -1 when this write or an earlier one failed (o->err says why; the file then
   ends at the last whole unit). */
int phos_out_write(phos_out *o, const void *p, size_t n);
/* Closes the file (and releases its lock). */
void phos_out_close(phos_out *o);
/* path with ".PID" before its ".phos" extension (or after it when there is none) */
void phos_out_pid_name(char *dst, size_t cap, const char *path, int pid);
#endif
