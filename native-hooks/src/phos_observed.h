/* i14-liveacc: the recorder's entry point for an observation tool (the sanitizer tool, tests' fake observer) to hand
 * over the observed accesses of launches as soon as it has them, so that attached readers see truth while the
 * program runs (docs/trace-format.md, "Live attach", block i14-liveacc). Found with
 * dlsym(RTLD_DEFAULT, "phos_recorder_observed"); absent when the recorder is not loaded. */
#ifndef PHOS_OBSERVED_H
#define PHOS_OBSERVED_H
#include <stddef.h>
#include <stdint.h>

/* one ObservedAccess: a launch (its event index, phos_recorder_event_index) on one allocation (base address, 0 for
   accesses outside every allocation); a range counts only when its count is not 0 */
typedef struct {
    uint64_t launch_index, alloc;
    uint64_t read_begin, read_end, write_begin, write_end;
    uint64_t read_count, write_count;
} phos_observed_access;

/* Hands over the accesses of the launches `launches[0..n_launches)` (every one of them observed: a launch without an
 * access record touched no global memory) as one ObservedBatch (accesses with `tool`, coverage with `policy` and
 * `launches_seen`). Never blocks: the batch is encoded in the calling thread and queued; the recorder's writer
 * thread sends it to the attached readers once the launches' events are in the stream. Nothing is written to the
 * trace file (the tool's side file stays the saved record).
 * Returns 0 queued, 1 nobody to send it to (live attach off, no reader attached, not recording), -1 dropped (the
 * recorder's queue of 4 x PHOS_ATTACH_QUEUE bytes is full, or the trace is closed): counted in TraceEnd field 21. */
typedef int (*phos_recorder_observed_fn)(const char *tool, const phos_observed_access *acc, size_t n_acc,
                                         const uint64_t *launches, size_t n_launches, const char *policy,
                                         uint64_t launches_seen);
#endif
