// i15-alloc: libphos_torch_alloc.so, PyTorch's caching-allocator block events for the recorder (issue #15).
//
// Built against the torch that runs (`make -C native-hooks torch-alloc TORCH_DIR=<site-packages>/torch`); the
// recorder loads it with PHOS_TORCH_ALLOC=1 once libc10_cuda is in the process (src/rec_torch_alloc.c) and calls
// phos_torch_alloc_attach at each device allocation until the allocator is initialised. It attaches one tracker
// (c10::cuda::CUDACachingAllocator attachAllocatorTraceTracker) that hands every block and segment event to the
// recorder's emit function. The tracker runs with the allocator's per-device lock held: emit takes no lock of
// PyTorch's and never calls into Python (it only reserves a slot of the recorder's ring).
#include <c10/cuda/CUDACachingAllocator.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <type_traits>

namespace {

using EmitFn = void (*)(int action, uint64_t addr, uint64_t size, uint64_t stream, int device);
EmitFn g_emit = nullptr;

template <class T>
uint64_t as_u64(const T& v) {
    if constexpr (std::is_pointer_v<T>) {
        return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(v));
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
        return static_cast<uint64_t>(v);
    } else {
        return 0;   // a stream type this shim does not know: 0
    }
}

// AllocatorBlock.action (docs/trace-format.md, block i15-alloc): 1 ALLOC, 2 FREE_REQUESTED, 3 FREE_COMPLETED,
// 4 SEGMENT_ALLOC, 5 SEGMENT_FREE, 6 SEGMENT_MAP, 7 SEGMENT_UNMAP, 8 OOM; 0 = not recorded (SNAPSHOT, later ones)
template <class E>
int action_code(const E& te) {
    using T = std::decay_t<E>;
    switch (te.action_) {
    case T::ALLOC: return 1;
    case T::FREE_REQUESTED: return 2;
    case T::FREE_COMPLETED: return 3;
    case T::SEGMENT_ALLOC: return 4;
    case T::SEGMENT_FREE: return 5;
    case T::SEGMENT_MAP: return 6;
    case T::SEGMENT_UNMAP: return 7;
    case T::OOM: return 8;
    default: return 0;
    }
}

}  // namespace

// 1: attached (err gets a note), 0: the allocator is not initialised yet (call again later), -1: cannot (err says why)
extern "C" __attribute__((visibility("default"))) int phos_torch_alloc_attach(EmitFn emit, char* err, size_t cap) {
    namespace A = c10::cuda::CUDACachingAllocator;
    try {
        A::CUDAAllocator* a = A::get();
        if (!a) return 0;
        if (!a->initialized()) return 0;
        g_emit = emit;
        A::AllocatorTraceTracker tracker = [](const auto& te) {
            int code = action_code(te);
            if (code && g_emit) g_emit(code, as_u64(te.addr_), as_u64(te.size_), as_u64(te.stream_), (int)te.device_);
        };
        a->attachAllocatorTraceTracker(std::move(tracker));
        std::snprintf(err, cap, "tracker attached");
        return 1;
    } catch (const std::exception& e) {
        // the cudaMallocAsync backend refuses trackers (TORCH_CHECK): one line, from the recorder
        std::snprintf(err, cap, "PyTorch's allocator refused the tracker: %.400s", e.what());
        return -1;
    }
}
