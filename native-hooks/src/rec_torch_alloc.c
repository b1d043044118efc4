#include "recorder.h"

/* i15-alloc: the blocks a caching allocator hands out, recorded beside the CUDA API (issue #15).
 *
 * PyTorch's caching allocator carves tensors out of cudaMalloc segments and frees, merges and re-uses them without any
 * CUDA call, so the trace alone cannot say where a tensor ends. The allocator reports each block it hands out or takes
 * back to trackers attached by c10::cuda::CUDACachingAllocator::attachAllocatorTraceTracker (a C++ std::function).
 * The recorder is C and must run where there is no torch, so the C++ side is a separate small library
 * (torch/phos_torch_alloc.cpp, `make torch-alloc TORCH_DIR=...`, built against the torch that runs) that the recorder
 * loads only when asked (PHOS_TORCH_ALLOC=1) and only once libc10_cuda is in the process. It attaches at the first
 * device allocation after PyTorch's allocator is initialised (its first segment, before any block of it is handed
 * out) and hands each event to phos_recorder_allocator_event below, which any other allocator (CuPy's, a test
 * program) may call as well: the events land in the ring, in order with the launches that use the blocks.
 *
 * Settings: PHOS_TORCH_ALLOC=1 asks for it; PHOS_TORCH_ALLOC_LIB=path names the library (default:
 * libphos_torch_alloc.so beside libphos_recorder.so). Whatever fails (no torch, a torch without the tracker, a library
 * built for another torch) is said in one stderr line and the recording goes on without block events. */

static int ta_wanted = -1;             /* PHOS_TORCH_ALLOC, read once */
static atomic_int ta_state;            /* 0 waiting for libc10_cuda / the allocator, 1 attached, 2 given up */
static atomic_uint_fast64_t ta_events; /* events handed in */
static pthread_mutex_t ta_mu = PTHREAD_MUTEX_INITIALIZER;

typedef void (*ta_emit_fn)(int action, uint64_t addr, uint64_t size, uint64_t stream, int device);
typedef int (*ta_attach_fn)(ta_emit_fn emit, char *err, size_t cap);

typedef void (*san_block_fn)(int action, uint64_t addr, uint64_t size);
static san_block_fn san_block;         /* the sanitizer tool's phos_sanitizer_allocator_block, when it is loaded */
static atomic_int san_looked;

/* an allocator's block event: action as AllocatorBlock.action (docs/trace-format.md, block i15-alloc), the block's
   address and size, the stream it belongs to, the device. The SASS-level sanitizer tool, when loaded beside the
   recorder, gets it too: it then observes per block (its ground truth no longer merges two tensors of a segment). */
EXPORT void phos_recorder_allocator_event(int action, uint64_t addr, uint64_t size, uint64_t stream, int device) {
    if (!atomic_load_explicit(&san_looked, memory_order_acquire)) {
        san_block = (san_block_fn)dlsym(RTLD_DEFAULT, "phos_sanitizer_allocator_block");
        atomic_store_explicit(&san_looked, 1, memory_order_release);
    }
    if (san_block) san_block(action, addr, size);
    uint64_t t = mono_ns();
    uint64_t pos;
    slot_t *s = ev_begin(&pos, EV_ABLOCK, t);
    if (!s) return;
    s->kind = (uint8_t)action; s->a0 = addr; s->a1 = size; s->stream = stream; s->u[0] = (uint32_t)device;
    slot_commit(pos, s);
    atomic_fetch_add_explicit(&ta_events, 1, memory_order_relaxed);
}

static int wanted(void) {
    if (ta_wanted < 0) ta_wanted = (int)phos_env_u64("PHOS_TORCH_ALLOC", 0) != 0;
    return ta_wanted;
}

static void give_up(const char *why) {
    atomic_store(&ta_state, 2);
    fprintf(stderr, "[phos] PHOS_TORCH_ALLOC=1: no allocator block events: %s; recording goes on without them\n", why);
}

void torch_alloc_poll(void) {
    if (atomic_load_explicit(&ta_state, memory_order_relaxed) != 0 || !wanted()) return;
    if (t_internal) return;
    pthread_mutex_lock(&ta_mu);
    if (atomic_load(&ta_state) == 0) {
        void *c10 = dlopen("libc10_cuda.so", RTLD_LAZY | RTLD_NOLOAD);
        if (c10) {   /* PyTorch's CUDA part is in the process: load the shim built against it */
            dlclose(c10);
            char path[PATH_MAX];
            const char *lib = getenv("PHOS_TORCH_ALLOC_LIB");
            Dl_info a;
            if ((!lib || !*lib) && dladdr((void *)&phos_recorder_allocator_event, &a) && a.dli_fname) {
                snprintf(path, sizeof path, "%s", a.dli_fname);
                char *slash = strrchr(path, '/');
                snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0), "%s", "libphos_torch_alloc.so");
                lib = path;
            }
            void *h = lib ? dlopen(lib, RTLD_NOW | RTLD_LOCAL) : NULL;
            ta_attach_fn attach = h ? (ta_attach_fn)dlsym(h, "phos_torch_alloc_attach") : NULL;
            if (!attach) {
                char why[PATH_MAX + 256];
                snprintf(why, sizeof why, "cannot load %s (%s; build it with `make -C native-hooks torch-alloc TORCH_DIR=...` "
                         "against this torch)", lib ? lib : "libphos_torch_alloc.so", h ? "no phos_torch_alloc_attach" : dlerror());
                give_up(why);
            } else {
                char err[512] = "";
                int r = attach(phos_recorder_allocator_event, err, sizeof err);
                if (r > 0) {
                    atomic_store(&ta_state, 1);
                    DBG("PHOS_TORCH_ALLOC: tracking PyTorch's caching allocator (%s)", err);
                } else if (r < 0) {
                    give_up(err[0] ? err : "the tracker could not be attached");
                }   /* 0: the allocator is not initialised yet (an allocation of someone else): try at the next one */
            }
        }
    }
    pthread_mutex_unlock(&ta_mu);
}

void torch_alloc_header(pbuf *h) {
    if (wanted()) pb_str(h, 45, "pytorch");
}

void torch_alloc_end(void) {
    if (!wanted()) return;
    if (atomic_load(&ta_state) == 0)
        fprintf(stderr, "[phos] PHOS_TORCH_ALLOC=1: no allocator block events: PyTorch's CUDA allocator never came up in this "
                "process (no libc10_cuda, or no allocation through it)\n");
    else if (atomic_load(&ta_state) == 1)
        DBG("PHOS_TORCH_ALLOC: %llu allocator block events", (unsigned long long)atomic_load(&ta_events));
}
