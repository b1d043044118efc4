// Device patches of the SASS-level tool (phos_sanitizer.c): the Compute Sanitizer inserts a call to one of these
// before every global memory access, cp.async and bulk copy of a patched module. Each call folds its access into the
// launch's record on the device: the allocation it falls in (binary search over the launch's sorted allocation table),
// then per allocation and direction the lowest address, the highest end address and a count, by atomics. Threads of a
// warp that touch the same allocation in the same direction are first combined (match + reduce), so one lane does the
// atomics for all of them. Accesses outside every allocation go to the overflow slot (index n).
// Build: nvcc --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch -arch=sm_90 (see the Makefile).
#include <sanitizer_patching.h>
#include "phos_sanitizer_layout.h"

static __device__ __forceinline__ unsigned lane_id() {
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

// index of the allocation holding address a, or n (overflow slot)
static __device__ __forceinline__ unsigned find_range(const PhosRange *t, unsigned n, unsigned long long a) {
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = (lo + hi) >> 1;
        if (t[mid].base <= a) lo = mid + 1; else hi = mid;
    }
    if (lo == 0) return n;
    return a < t[lo - 1].end ? lo - 1 : n;
}

static __device__ __forceinline__ void fold(PhosAcc *acc, unsigned dirs, unsigned long long lo, unsigned long long hi,
                                            unsigned long long count) {
    if (dirs & 1) {
        if (~lo > acc->rmin_inv) atomicMax(&acc->rmin_inv, ~lo);
        if (hi > acc->rmax) atomicMax(&acc->rmax, hi);
        atomicAdd(&acc->rcount, count);
    }
    if (dirs & 2) {
        if (~lo > acc->wmin_inv) atomicMax(&acc->wmin_inv, ~lo);
        if (hi > acc->wmax) atomicMax(&acc->wmax, hi);
        atomicAdd(&acc->wcount, count);
    }
}

// one access of `size` bytes at a, by this thread; warp-aggregated when agg
static __device__ __forceinline__ void record(void *ud, unsigned long long a, unsigned long long size, unsigned dirs, bool agg) {
    PhosLaunchRec *rec = (PhosLaunchRec *)ud;
    const unsigned n = rec->n;
    const PhosRange *t = (const PhosRange *)rec->table;
    const unsigned idx = find_range(t, n, a);
    PhosAcc *acc = &rec->acc[idx];
    const unsigned long long end = a + size;
    if (agg && idx < n) {
        const unsigned long long base = t[idx].base;
        if (t[idx].end - base <= 0xFFFF0000ull) {
            const unsigned active = __activemask();
            const unsigned group = __match_any_sync(active, (idx << 2) | dirs);
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
    if (ud && !(flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH)) record(ud, (unsigned long long)ptr, size, dirs_of(flags), true);
    return SANITIZER_PATCH_SUCCESS;
}

// the same without warp aggregation (PHOS_SANITIZER_WARP_AGG=0): one set of atomics per thread and access
extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_global_plain(void *ud, uint64_t pc, void *ptr, uint32_t size,
                                                                             uint32_t flags, const void *pData) {
    if (ud && !(flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH)) record(ud, (unsigned long long)ptr, size, dirs_of(flags), false);
    return SANITIZER_PATCH_SUCCESS;
}

// cp.async global -> shared: reads accessSize bytes at src
extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_memcpy_async(void *ud, uint64_t pc, void *src, uint32_t dst,
                                                                             uint32_t accessSize) {
    if (ud && src && accessSize) record(ud, (unsigned long long)src, accessSize, 1u, false);
    return SANITIZER_PATCH_SUCCESS;
}

// bulk copies: all active lanes pass the same values, the lowest active lane records them once
static __device__ __forceinline__ bool first_active() { return lane_id() == (unsigned)(__ffs(__activemask()) - 1); }

extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_bulk_g2s(void *ud, uint64_t pc, uint64_t src, uint32_t dst,
                                                                         uint32_t barrier, uint32_t data, uint32_t isMulticast) {
    if (ud && first_active()) record(ud, src, 16ull * (data & 0xFFFFu), 1u, false);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_bulk_s2g(void *ud, uint64_t pc, uint64_t dst, uint32_t src,
                                                                         uint32_t numBlocks) {
    if (ud && first_active()) record(ud, dst, 16ull * numBlocks, 2u, false);
    return SANITIZER_PATCH_SUCCESS;
}

// cp.reduce.async.bulk shared -> global: read-modify-write of the destination
extern "C" __device__ __noinline__ SanitizerPatchResult phos_san_bulk_red(void *ud, uint64_t pc, uint64_t dst, uint32_t src,
                                                                         uint32_t numBlocks) {
    if (ud && first_active()) record(ud, dst, 16ull * numBlocks, 3u, false);
    return SANITIZER_PATCH_SUCCESS;
}
