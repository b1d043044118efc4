// Device patches of the SASS-level tool (phos_sanitizer.c): the Compute Sanitizer inserts a call to one of these
// before every global memory access, cp.async and bulk copy of a patched module. Each call folds its access into the
// launch's record on the device: the allocation it falls in (a hint table indexed by address bits, else a binary
// search over the sorted allocation table of the launch's chunk, see phos_sanitizer_layout.h), then per allocation
// and direction the lowest address, the highest end address and a count, by atomics. Threads of a warp that touch
// the same allocation in the same direction (global accesses and cp.async) are first combined (one vote when the
// whole warp agrees, else match_any; then shuffles), so one lane does the atomics for all of them. Accesses outside
// every allocation go to the overflow slot (index n).
// Build: nvcc --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch -arch=sm_90 (see the Makefile).
#include <sanitizer_patching.h>
#include "phos_sanitizer_layout.h"

static __device__ __forceinline__ unsigned lane_id() {
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

// Experiment switches (docs/benchmarks.md, "SASS-level sanitizer tool cost"; not for normal use): -DPHOS_PATCH_NULL makes
// every patch return at once (the cost of the Sanitizer's call alone), -DPHOS_PATCH_NOATOMIC computes everything but
// folds nothing, -DPHOS_PATCH_NOHINT searches the table without the hints, -DPHOS_PATCH_CG reads the accumulators
// from L2 (never stale) before folding. Build one with PATCH_DEFS=-DPHOS_PATCH_... (Makefile) into another file and
// point PHOS_SANITIZER_PATCH at it.
#if defined(PHOS_PATCH_NULL)
#define NULL_PATCH() return SANITIZER_PATCH_SUCCESS
#else
#define NULL_PATCH() do { } while (0)
#endif
#if defined(PHOS_PATCH_CG)
#define CUR_LOAD(p) __ldcg(p)     /* from L2: never stale */
#else
#define CUR_LOAD(p) (*(p))        /* may come from L1 and be stale: then an atomic more */
#endif
#if defined(PHOS_PATCH_NOATOMIC)
static __device__ __forceinline__ void fold(PhosAcc *acc, unsigned dirs, unsigned long long lo, unsigned long long hi,
                                            unsigned long long count) {
    if (lo == ~0ull && hi == 0ull) acc->rcount = count + dirs;   // never true (hi > lo): keeps the computation alive
}
#else
// fold [lo, hi) and count into the accumulator of each direction: min/max are read first (one 16-byte load per
// direction; a stale value only costs an unneeded atomic) so that most folds are a single atomicAdd
static __device__ __forceinline__ void fold(PhosAcc *acc, unsigned dirs, unsigned long long lo, unsigned long long hi,
                                            unsigned long long count) {
    if (dirs & 1) {
        const ulonglong2 cur = CUR_LOAD((const ulonglong2 *)&acc->rmin_inv);
        if (~lo > cur.x) atomicMax(&acc->rmin_inv, ~lo);
        if (hi > cur.y) atomicMax(&acc->rmax, hi);
        atomicAdd(&acc->rcount, count);
    }
    if (dirs & 2) {
        const ulonglong2 cur = CUR_LOAD((const ulonglong2 *)&acc->wmin_inv);
        if (~lo > cur.x) atomicMax(&acc->wmin_inv, ~lo);
        if (hi > cur.y) atomicMax(&acc->wmax, hi);
        atomicAdd(&acc->wcount, count);
    }
}
#endif

// the record's accumulators and its chunk's table, from ud = PHOS_UD(record address, k) (phos_sanitizer_layout.h)
struct Where { PhosAcc *acc; const PhosRange *t; unsigned n; };
static __device__ __forceinline__ Where where(void *ud) {
    const unsigned long long u = (unsigned long long)ud;
    const unsigned long long slot = u & PHOS_UD_ADDR_MASK;
    const unsigned long long chunk = slot & ~((1ull << (unsigned)(u >> PHOS_UD_ADDR_BITS)) - 1ull);
    Where w;
    w.acc = (PhosAcc *)slot;
    w.t = (const PhosRange *)(chunk + sizeof(PhosChunkHdr));   // the table follows the header
    w.n = __ldg(&((const PhosChunkHdr *)chunk)->n);
    return w;
}

// index of the allocation holding address a, or n (overflow slot); the table is read-only during the launch
static __device__ __forceinline__ unsigned find_range_ro(const PhosRange *t, unsigned n, unsigned long long a) {
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = (lo + hi) >> 1;
        if (__ldg(&t[mid].base) <= a) lo = mid + 1; else hi = mid;
    }
    if (lo == 0) return n;
    return a < __ldg(&t[lo - 1].end) ? lo - 1 : n;
}

#if !defined(PHOS_PATCH_NOHINT)
// the allocation of address a through the chunk's hint table (one load and one range check when the hint is right;
// hints are written by whichever lane missed, races only cost another search, a stale hint fails the range check)
static __device__ __forceinline__ unsigned find_hinted(const PhosRange *t, unsigned n, unsigned long long a) {
    unsigned *hints = (unsigned *)((const char *)t + 16ull * n);
    const unsigned h = (unsigned)(a >> 16) & (PHOS_HINTS - 1);
    unsigned idx = hints[h] - 1u;
    if (idx < n) {
        const ulonglong2 r = __ldg((const ulonglong2 *)&t[idx]);
        if (r.x <= a && a < r.y) return idx;
    }
    idx = find_range_ro(t, n, a);
    if (idx < n) hints[h] = idx + 1u;
    return idx;
}
#define FIND find_hinted
#else
#define FIND find_range_ro
#endif

// one access of `size` bytes at a, by this thread; warp-aggregated when agg: the lanes of the warp that hit the same
// allocation in the same direction are combined so that one lane folds for all. The common case, every active lane
// on one allocation in one direction, is found with one shuffle and one vote; other cases group with match_any.
static __device__ __forceinline__ void record(void *ud, unsigned long long a, unsigned long long size, unsigned dirs, bool agg) {
    const Where w = where(ud);
    const unsigned idx = FIND(w.t, w.n, a);
    PhosAcc *acc = w.acc + idx;
    const unsigned long long end = a + size;
    if (agg && idx < w.n) {
        const unsigned long long base = __ldg(&w.t[idx].base);
        if (__ldg(&w.t[idx].end) - base <= 0xFFFF0000ull) {
            const unsigned active = __activemask(), key = (idx << 2) | dirs;
            const unsigned first = (unsigned)(__ffs(active) - 1);
            unsigned group;
            if (__all_sync(active, key == __shfl_sync(active, key, first))) group = active;
            else group = __match_any_sync(active, key);
            // the group's lowest lane collects the others' offsets (redux is not allowed in tool patches)
            const unsigned me = lane_id(), leader = (unsigned)(__ffs(group) - 1);
            unsigned lo = (unsigned)(a - base), hi = (unsigned)(end - base);
            if (group == 0xFFFFFFFFu) {
                for (unsigned o = 16; o; o >>= 1) {
                    const unsigned l2 = __shfl_xor_sync(group, lo, o), h2 = __shfl_xor_sync(group, hi, o);
                    lo = l2 < lo ? l2 : lo;
                    hi = h2 > hi ? h2 : hi;
                }
            } else for (unsigned rest = group & (group - 1); rest; rest &= rest - 1) {
                const unsigned src = (unsigned)(__ffs(rest) - 1);
                const unsigned l2 = __shfl_sync(group, lo, src), h2 = __shfl_sync(group, hi, src);
                lo = l2 < lo ? l2 : lo;
                hi = h2 > hi ? h2 : hi;
            }
            if (me == leader) fold(acc, dirs, base + lo, base + hi, __popc(group));
            return;
        }
    }
    fold(acc, dirs, a, end, 1);
}

static __device__ __forceinline__ unsigned dirs_of(uint32_t flags) {
    unsigned d = (flags & SANITIZER_MEMORY_DEVICE_FLAG_READ ? 1u : 0u) | (flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE ? 2u : 0u);
    return d ? d : 3u;  // an access with neither flag (atomic) reads and writes
}

extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_global(void *ud, uint64_t pc, void *ptr, uint32_t size,
                                                                       uint32_t flags, const void *pData) {
    NULL_PATCH();
    if (ud && !(flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH)) record(ud, (unsigned long long)ptr, size, dirs_of(flags), true);
    return SANITIZER_PATCH_SUCCESS;
}

// the same without warp aggregation (PHOS_SANITIZER_WARP_AGG=0): one set of atomics per thread and access
extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_global_plain(void *ud, uint64_t pc, void *ptr, uint32_t size,
                                                                             uint32_t flags, const void *pData) {
    NULL_PATCH();
    if (ud && !(flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH)) record(ud, (unsigned long long)ptr, size, dirs_of(flags), false);
    return SANITIZER_PATCH_SUCCESS;
}

// cp.async global -> shared: reads accessSize bytes at src
extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_memcpy_async(void *ud, uint64_t pc, void *src, uint32_t dst,
                                                                             uint32_t accessSize) {
    NULL_PATCH();
    if (ud && src && accessSize) record(ud, (unsigned long long)src, accessSize, 1u, true);
    return SANITIZER_PATCH_SUCCESS;
}

// bulk copies: all active lanes pass the same values, the lowest active lane records them once
static __device__ __forceinline__ bool first_active() { return lane_id() == (unsigned)(__ffs(__activemask()) - 1); }

extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_bulk_g2s(void *ud, uint64_t pc, uint64_t src, uint32_t dst,
                                                                         uint32_t barrier, uint32_t data, uint32_t isMulticast) {
    NULL_PATCH();
    if (ud && first_active()) record(ud, src, 16ull * (data & 0xFFFFu), 1u, false);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_bulk_s2g(void *ud, uint64_t pc, uint64_t dst, uint32_t src,
                                                                         uint32_t numBlocks) {
    NULL_PATCH();
    if (ud && first_active()) record(ud, dst, 16ull * numBlocks, 2u, false);
    return SANITIZER_PATCH_SUCCESS;
}

// cp.reduce.async.bulk shared -> global: read-modify-write of the destination
extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_bulk_red(void *ud, uint64_t pc, uint64_t dst, uint32_t src,
                                                                         uint32_t numBlocks) {
    NULL_PATCH();
    if (ud && first_active()) record(ud, dst, 16ull * numBlocks, 3u, false);
    return SANITIZER_PATCH_SUCCESS;
}
