/* i15-shapes: the argument shape of a launch, part of the launch shape by which the sampled sanitizer tool
 * (PHOS_SANITIZER_SHAPES) decides which launches to observe.
 *
 * What a launch's accesses depend on, besides its code and its grid and block: the scalars it is given (sizes,
 * strides, counts, flags) and where its pointers point. For judging a kernel's speculated accesses against the truth
 * what matters about a pointer is which allocation it points into and whether two pointers share one (aliasing), not
 * its exact address: a training loop's caching allocator hands the same kernel different blocks from one iteration
 * to the next, and treating each address as new would observe almost every launch. So the argument shape is a hash
 * over the parameter bytes, parameter by parameter, of:
 *   - each 8-byte word at an 8-byte aligned offset inside one parameter that points into a live allocation (the
 *     tool's allocation table): the allocation's number among the allocations this launch's pointers name, in order
 *     of first appearance (0 for the first, 1 for the next new one, ...; the 16th and later share 15), and the offset
 *     class: 0 at the allocation's base, 1 inside it;
 *   - every other 8-byte word, every parameter under 8 bytes (as one scalar) and the remaining bytes: their value
 *     (scalars exactly: a kernel given another size is another shape; pointers outside every allocation, e.g. host
 *     pointers or module globals, by value).
 * Struct parameters are scanned word by word like the rest; their padding is hashed as the application left it (a
 * struct whose padding changes from launch to launch becomes a new shape each time; the per-shape cap
 * PHOS_SANITIZER_ARG_SHAPES bounds what that costs). A launch whose parameter bytes the recorder cannot give (no
 * recorder, a graph's kernel node) has no argument shape: function + grid + block alone, as before.
 *
 * Two variants, measured offline on the H100 traces (bench/shape_rules_analyse.py, docs/benchmarks.md i15-shapes),
 * not yet on the GPU, so off by default:
 *   - PHOS_SHAPE_ANY_POINTER (PHOS_SANITIZER_ARG_POINTERS=any): a pointer word counts only as "a pointer into an
 *     allocation". PyTorch's caching allocator packs tensors into shared segments, so which segment a tensor lands
 *     in, and whether two tensors share one, is the allocator's placement rather than the program's.
 *   - a mask of scalar words that no longer count (PHOS_SANITIZER_ARG_STABLE=V): the tool masks a scalar word of a
 *     function+grid+block once it has taken V distinct values among its argument shapes (a step counter, an RNG
 *     offset), so such a word stops making every launch a new shape. */
#ifndef PHOS_SANITIZER_SHAPE_H
#define PHOS_SANITIZER_SHAPE_H
#include <stddef.h>
#include <stdint.h>

#define PHOS_SHAPE_FNV_BASIS 0xcbf29ce484222325ull
#define PHOS_SHAPE_FNV_PRIME 0x100000001b3ull

static inline uint64_t phos_shape_mix(uint64_t h, uint64_t v) {
    for (int i = 0; i < 8; i++) { h ^= (v >> (8 * i)) & 0xff; h *= PHOS_SHAPE_FNV_PRIME; }
    return h;
}

/* the dimension part: function + grid + block (the rule before i15-shapes) */
static inline uint64_t phos_shape_dims(uint64_t function, const uint32_t d[6]) {
    uint64_t h = PHOS_SHAPE_FNV_BASIS ^ function;
    for (int i = 0; i < 6; i++) h = (h ^ d[i]) * PHOS_SHAPE_FNV_PRIME;
    return h | 1;
}

/* the allocation containing addr in a sorted, disjoint table of [base, end) pairs (ranges[2i], ranges[2i+1]); -1 if none */
static inline long phos_shape_find(const uint64_t *ranges, size_t n, uint64_t addr) {
    size_t lo = 0, hi = n;
    while (lo < hi) { size_t m = (lo + hi) / 2; if (ranges[2 * m] <= addr) lo = m + 1; else hi = m; }
    if (lo == 0) return -1;
    return addr < ranges[2 * (lo - 1) + 1] ? (long)(lo - 1) : -1;
}

#define PHOS_SHAPE_ANY_POINTER 1u
#define PHOS_SHAPE_MASK_WORDS 1024  /* scalar slots that can be masked: one per 4 bytes of the first 4 KB of parameters */
typedef struct {
    unsigned flags;                 /* PHOS_SHAPE_ANY_POINTER */
    const uint64_t *mask;           /* NULL or PHOS_SHAPE_MASK_WORDS bits: the scalar at byte offset o (slot o/4) not counted */
    uint32_t *spos;                 /* NULL or receives the slots of the scalars (up to scap) ... */
    uint64_t *sval;                 /* ... and their values */
    uint32_t scap, ns;              /* ns: how many were written */
} phos_shape_opts;

static inline int phos_shape_masked(const uint64_t *mask, uint32_t o) {
    return mask && o / 4 < PHOS_SHAPE_MASK_WORDS && (mask[o / 4 / 64] >> (o / 4 % 64) & 1);
}

/* a scalar (an 8-byte word that points into no allocation, or a whole parameter under 8 bytes) at byte offset o */
static inline uint64_t phos_shape_scalar(uint64_t h, uint32_t o, uint64_t v, phos_shape_opts *opts, uint32_t counts[2]) {
    if (opts && phos_shape_masked(opts->mask, o)) return phos_shape_mix(h, 0x4dull << 56);   /* masked: "some value" */
    h = phos_shape_mix(h, 0x56ull << 56);
    h = phos_shape_mix(h, v);
    if (counts) counts[1]++;
    if (opts && opts->spos && opts->ns < opts->scap && o / 4 < PHOS_SHAPE_MASK_WORDS) {
        opts->spos[opts->ns] = o / 4;
        opts->sval[opts->ns++] = v;
    }
    return h;
}

/* the argument shape of parameter bytes p[0, len) laid out as nparams (offset, size) pairs (nparams 0: one parameter
   buffer of unknown layout, scanned as one parameter); counts, when not NULL: [0] pointer words, [1] scalar words;
   opts NULL: the default rule */
static inline uint64_t phos_shape_args(const uint8_t *p, uint32_t len, const uint32_t *layout, uint32_t nparams,
                                       const uint64_t *ranges, size_t nranges, uint32_t counts[2], phos_shape_opts *opts) {
    uint64_t h = PHOS_SHAPE_FNV_BASIS;
    long seen[16];
    int nseen = 0;
    uint32_t whole[2] = {0, len};
    if (!nparams) { layout = whole; nparams = 1; }
    if (counts) counts[0] = counts[1] = 0;
    unsigned flags = opts ? opts->flags : 0;
    if (opts) opts->ns = 0;
    for (uint32_t k = 0; k < nparams; k++) {
        uint32_t o = layout[2 * k], end = o + layout[2 * k + 1];
        if (end > len || end < o) end = len;
        h = phos_shape_mix(h, 0x5041524dull ^ k);   /* parameter boundary */
        if (layout != whole && end - o < 8) {     /* a parameter under 8 bytes: one scalar */
            uint64_t v = 0;
            for (uint32_t i = o; i < end; i++) v |= (uint64_t)p[i] << (8 * (i - o));
            h = phos_shape_scalar(h, o, v, opts, counts);
            continue;
        }
        while (o < end) {
            if (!(o & 7) && o + 8 <= end) {
                uint64_t v = 0;
                for (int i = 0; i < 8; i++) v |= (uint64_t)p[o + i] << (8 * i);
                long a = v ? phos_shape_find(ranges, nranges, v) : -1;
                if (a >= 0) {
                    int id = 0;
                    while (id < nseen && seen[id] != a) id++;
                    if (id == nseen) { if (nseen < 16) seen[nseen++] = a; else id = 15; }
                    if (flags & PHOS_SHAPE_ANY_POINTER) h = phos_shape_mix(h, 0x50ull << 56);
                    else h = phos_shape_mix(h, 0x50ull << 56 | (uint64_t)id << 8 | (v != ranges[2 * a]));
                    if (counts) counts[0]++;
                } else {
                    h = phos_shape_scalar(h, o, v, opts, counts);
                }
                o += 8;
            } else {
                h = (h ^ p[o]) * PHOS_SHAPE_FNV_PRIME;
                o++;
            }
        }
    }
    return h;
}
#endif
