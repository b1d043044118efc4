/*
 * Test program for the recorder's CPU tests, run against the fake libcuda (tests/fake_cuda.c). It reaches libcuda
 * both ways real programs do: like cudart (dlopen + dlsym("cuGetProcAddress_v2") + cuGetProcAddress for every entry
 * point, including cuGetProcAddress itself) and like JCuda (linked against libcuda, calling the ABI names).
 * Usage: fake_app MODE EXPECT.json [N]
 *   basic  every kind of call once; writes what the trace must contain to EXPECT.json
 *   more   CUDA arrays, host functions, a tensor map passed by value, write-value calls (issue 16); EXPECT.json too
 *   many   N launches (chunking); crash: N launches then SIGSEGV; hang: N launches, prints "ready", sleeps
 *   fork   forks before touching CUDA; both processes record: the parent N launches, the child N/2
 *   exec   N launches, half-way through a child (fork + exec of this program, "many" N/2) records too
 * Prints "checksum <hex>" of the computed outputs so runs with and without the recorder can be compared.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#undef cuGetProcAddress
CUresult cuMemAllocAsync_ptsz(CUdeviceptr *, size_t, CUstream);
CUresult cuMemFreeAsync_ptsz(CUdeviceptr, CUstream);
typedef CUresult (*gpa_t)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
typedef int (*iswrap_t)(const void *);
typedef const char *(*wname_t)(const void *);
typedef long (*calls_t)(const char *);

static FILE *ex;
static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "fake_app: CHECK failed: " __VA_ARGS__); fputc('\n', stderr); } } while (0)
#define OK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { fprintf(stderr, "fake_app: %s -> %d\n", #call, r_); exit(3); } } while (0)

/* i14-liveacc: a fake observation tool. It plays the sanitizer tool's part against the recorder through the same
   exports: a launch hook gives the ring position of each launch (the event index through phos_recorder_event_index),
   and "observe" in live mode hands over made-up accesses of the launches since the last "observe" through
   phos_recorder_observed: launch k reads x and y and writes y (k % 4 == 1: only the first half of y), except k % 4 == 3,
   observed with no access at all (coverage only). */
#include "../src/phos_observed.h"
static uint64_t fo_pos[65536], fo_ord[65536];
static int fo_n;
static long fo_k;   /* launch ordinal of the launch being issued */
static void fo_hook(uint64_t pos, uint32_t nodes, const char *const *names) {
    if (fo_n < 65536) { fo_pos[fo_n] = pos; fo_ord[fo_n++] = (uint64_t)fo_k; }
}
static int fo_observe(uint64_t x, uint64_t y, int *launches_out) {
    uint64_t (*index)(uint64_t) = (uint64_t (*)(uint64_t))dlsym(RTLD_DEFAULT, "phos_recorder_event_index");
    phos_recorder_observed_fn give = (phos_recorder_observed_fn)dlsym(RTLD_DEFAULT, "phos_recorder_observed");
    *launches_out = fo_n;
    if (!index || !give) return 9;
    static phos_observed_access acc[2 * 65536];
    static uint64_t li[65536];
    size_t na = 0;
    for (int i = 0; i < fo_n; i++) {
        uint64_t e = index(fo_pos[i]), k = fo_ord[i];
        li[i] = e;
        if (k % 4 == 3) continue;
        acc[na++] = (phos_observed_access){e, x, x, x + 256, 0, 0, 64, 0};
        acc[na++] = (phos_observed_access){e, y, y, y + 256, y, y + (k % 4 == 1 ? 128 : 256), 64, k % 4 == 1 ? 32 : 64};
    }
    int rc = give("sanitizer", acc, na, li, (size_t)fo_n, "every launch", (uint64_t)fo_k);
    fo_n = 0;
    return rc;
}

static gpa_t gpa;
static void *get(const char *sym, int ver, cuuint64_t flags) {
    void *p = NULL;
    CUdriverProcAddressQueryResult st;
    if (gpa(sym, &p, ver, flags, &st) != CUDA_SUCCESS) return NULL;
    return p;
}

static int host_count;
static void host_fn(void *ud) { (*(int *)ud) += 1; }
static void stream_cb(CUstream st, CUresult r, void *ud) { (*(int *)ud) += 10; }

static uint64_t fnv(const void *d, size_t n) {
    const uint8_t *p = d;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ull; }
    return h;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "basic";
    long n_iter = argc > 3 ? atol(argv[3]) : 1000;
    pid_t child = 0;
    if (!strcmp(mode, "fork")) {
        /* before the first CUDA call: the child starts a recording of its own, under the same output name */
        fflush(NULL);
        child = fork();
        if (child < 0) { perror("fork"); return 2; }
        if (child == 0) { n_iter /= 2; argv[2] = "/dev/null"; }
    }
    ex = fopen(argc > 2 ? argv[2] : "/dev/null", "w");

    /* cudart's way in */
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) { fprintf(stderr, "no libcuda: %s\n", dlerror()); return 2; }
    gpa_t gpa0 = (gpa_t)dlsym(h, "cuGetProcAddress_v2");
    iswrap_t iswrap = (iswrap_t)dlsym(RTLD_DEFAULT, "phos_recorder_is_wrapper");
    wname_t wname = (wname_t)dlsym(RTLD_DEFAULT, "phos_recorder_wrapper_name");
    calls_t calls = (calls_t)dlsym(h, "fake_calls");
    int recorded = iswrap != NULL;
    void *p = NULL;
    CUdriverProcAddressQueryResult qr;
    OK(gpa0("cuGetProcAddress", &p, 13000, 0, &qr)); /* the self-query */
    gpa = (gpa_t)p;
    fprintf(ex, "{\"recorded\": %d", recorded);
    if (recorded) {
        CHECK(iswrap(gpa0), "dlsym(cuGetProcAddress_v2) did not return the wrapper");
        CHECK(iswrap(p) && !strcmp(wname(p), "cuGetProcAddress_v2"), "self-query not wrapped (%s)", wname(p) ? wname(p) : "-");
        void *old = get("cuGetProcAddress", 11000, 0);
        CHECK(old && wname(old) && !strcmp(wname(old), "cuGetProcAddress"), "old caller must get the v1 cuGetProcAddress wrapper");
        void *v1 = get("cuMemAlloc", 3000, 0);
        CHECK(v1 == dlsym(h, "cuMemAlloc"), "cuMemAlloc for CUDA 3.0 must be the real v1 entry point, untouched");
        void *v2 = get("cuMemAlloc", 13000, 0);
        CHECK(v2 && wname(v2) && !strcmp(wname(v2), "cuMemAlloc_v2"), "cuMemAlloc for 13.0 must be the cuMemAlloc_v2 wrapper");
        void *lk = get("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
        CHECK(lk && wname(lk) && !strcmp(wname(lk), "cuLaunchKernel_ptsz"), "per-thread cuLaunchKernel must be the _ptsz wrapper");
        void *lk0 = get("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
        CHECK(lk0 && wname(lk0) && !strcmp(wname(lk0), "cuLaunchKernel"), "legacy cuLaunchKernel must be the legacy wrapper");
        void *et = get("cuGetExportTable", 13000, 0);
        CHECK(et == dlsym(h, "cuGetExportTable") && !iswrap(et), "cuGetExportTable must pass through");
        void *fi = get("cuFakeInternal", 13000, 0);
        CHECK(fi && !iswrap(fi), "an unknown symbol must pass through");
        void *ss = get("cuStreamSynchronize", 13000, 0);
        CHECK(ss && wname(ss) && !strcmp(wname(ss), "cuStreamSynchronize"), "unexported 13.0 entry point must be wrapped");
        void *ss2 = get("cuStreamSynchronize", 13000, 0);
        CHECK(ss2 == ss, "table lookup must be stable");
    }

    CUresult (*pInit)(unsigned) = get("cuInit", 13000, 0);
    CUresult (*pAlloc)(CUdeviceptr *, size_t) = get("cuMemAlloc", 13000, 0);
    CUresult (*pHtoD)(CUdeviceptr, const void *, size_t) = get("cuMemcpyHtoD", 13000, 0);
    CUresult (*pHtoDpt)(CUdeviceptr, const void *, size_t) = get("cuMemcpyHtoD", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
    CUresult (*pLaunch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **, void **) =
        get("cuLaunchKernel", 13000, 0);
    CUresult (*pLaunchPt)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **, void **) =
        get("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
    CUresult (*pSync)(CUstream) = get("cuStreamSynchronize", 13000, 0);
    OK(pInit(0));
    /* i15-burst: FAKE_START_DELAY_MS: wait after cuInit, which starts the recorder's writer (it sets CUPTI up
       meanwhile: a test of CUPTI timing must not depend on the writer winning that race under load) */
    const char *delay = getenv("FAKE_START_DELAY_MS");
    if (delay && *delay) {
        long ms = atol(delay);
        struct timespec dts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&dts, NULL);
    }

    if (!strcmp(mode, "basic")) {
        CUdeviceptr x, y, sc;
        OK(pAlloc(&x, 4096));          /* through cuGetProcAddress */
        OK(cuMemAlloc_v2(&y, 1024));   /* through the ABI name, as JCuda does */
        OK(cuMemAlloc_v2(&sc, 8));
        float hx[64], hy[64], s = 2.0f;
        for (int i = 0; i < 64; i++) { hx[i] = (float)i; hy[i] = 1.0f; }
        OK(pHtoD(x, hx, sizeof hx));
        OK(pHtoDpt(y, hy, sizeof hy));
        OK(cuMemcpyHtoD_v2(sc, &s, sizeof s));
        fprintf(ex, ", \"x\": %llu, \"y\": %llu, \"sc\": %llu, \"hx_fnv\": %llu",
                (unsigned long long)x, (unsigned long long)y, (unsigned long long)sc, (unsigned long long)fnv(hx, sizeof hx));
        /* a PTX module and a fatbin library */
        static const char ptx[] = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry axpy() { ret; }\n";
        CUmodule mod;
        OK(cuModuleLoadData(&mod, ptx));
        static struct { uint32_t magic; uint16_t ver, hsize; uint64_t fsize; uint8_t body[48]; } fatbin = {0xBA55ED50u, 1, 16, 48, {1, 2, 3}};
        struct { int magic, version; const void *data; void *fn; } wrapper = {0x466243B1, 1, &fatbin, NULL};
        CUlibrary lib;
        OK(cuLibraryLoadData(&lib, &wrapper, NULL, NULL, 0, NULL, NULL, 0));
        fprintf(ex, ", \"ptx_fnv\": %llu, \"ptx_len\": %zu, \"fatbin_fnv\": %llu", (unsigned long long)fnv(ptx, strlen(ptx)),
                strlen(ptx), (unsigned long long)fnv(&fatbin, 64));
        CUfunction axpy;
        OK(cuModuleGetFunction(&axpy, mod, "axpy"));
        CUkernel scale;
        OK(cuLibraryGetKernel(&scale, lib, "_Z5scalePfif"));
        /* axpy(const float *x, float *y, int n, struct {float *s; int k}) through kernelParams */
        int n = 64;
        struct { float *s; int k; } st = {(float *)(uintptr_t)sc, 3};
        void *kp[] = {&x, &y, &n, &st};
        OK(pLaunch(axpy, 2, 1, 1, 32, 1, 1, 0, NULL, kp, NULL));
        /* scale(float *a, int n, float f): a CUkernel cast to CUfunction, per-thread stream, through extra */
        uint8_t buf[16];
        float f = 0.5f;
        memcpy(buf, &y, 8);
        memcpy(buf + 8, &n, 4);
        memcpy(buf + 12, &f, 4);
        size_t bsz = sizeof buf;
        void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bsz, CU_LAUNCH_PARAM_END};
        OK(pLaunchPt((CUfunction)scale, 1, 1, 1, 64, 1, 1, 128, NULL, NULL, extra));
        /* a CUkernel only cuKernelGetName can name */
        CUdeviceptr dummy = x;
        void *kp2[] = {&dummy, &dummy};
        CUkernel (*hidden)(void) = (CUkernel(*)(void))dlsym(h, "fake_hidden_kernel");
        OK(pLaunch((CUfunction)hidden(), 1, 1, 1, 1, 1, 1, 0, NULL, kp2, NULL));
        /* streams, events, cuLaunchKernelEx */
        CUstream s1;
        CUevent ev;
        OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
        OK(cuEventCreate(&ev, 0));
        CUlaunchConfig cfg = {4, 2, 1, 8, 4, 1, 0, s1, NULL, 0};
        OK(cuLaunchKernelEx(&cfg, axpy, kp, NULL));
        OK(cuEventRecord(ev, s1));
        OK(cuStreamWaitEvent(NULL, ev, 0));
        OK(pSync(s1));
        fprintf(ex, ", \"s1\": %llu, \"ev\": %llu", (unsigned long long)(uintptr_t)s1, (unsigned long long)(uintptr_t)ev);
        /* capture two launches into a graph, launch it twice */
        CUgraph g;
        CUgraphExec ge;
        OK(cuStreamBeginCapture_v2(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
        OK(pLaunch(axpy, 3, 1, 1, 16, 1, 1, 0, s1, kp, NULL));
        void *kps[] = {&y, &n, &f};
        OK(pLaunch((CUfunction)scale, 5, 1, 1, 16, 1, 1, 0, s1, kps, NULL));
        OK(cuStreamEndCapture(s1, &g));
        CUresult (*pInst)(CUgraphExec *, CUgraph, unsigned long long) = get("cuGraphInstantiate", 13000, 0);
        if (recorded) CHECK(pInst && wname(pInst) && !strcmp(wname(pInst), "cuGraphInstantiateWithFlags"), "cuGraphInstantiate answered with the WithFlags variant must be wrapped");
        OK(pInst(&ge, g, 0));
        OK(cuGraphLaunch(ge, s1));
        OK(cuGraphLaunch(ge, s1));
        fprintf(ex, ", \"graph_exec\": %llu", (unsigned long long)(uintptr_t)ge);
        /* memset, async alloc, read back */
        CUdeviceptr z;
        OK(cuMemAllocAsync_ptsz(&z, 256, NULL));
        OK(cuMemsetD32_v2(z, 0xdeadbeef, 64));
        OK(cuMemFreeAsync_ptsz(z, NULL));
        float out[64];
        OK(cuMemcpyDtoH_v2(out, y, sizeof out));
        OK(cuMemFree_v2(x));
        fprintf(ex, ", \"z\": %llu", (unsigned long long)z);
        if (recorded) {
            CHECK(calls("internal_stream_sync") == 1, "wrapper must call the internal entry point the driver gave");
            CHECK(calls("cuMemcpyHtoD_v2_ptds") == 1, "per-thread HtoD must reach the _ptds variant");
            CHECK(calls("cuLaunchKernel_ptsz") == 1, "per-thread launch must reach the _ptsz variant");
        }
        printf("checksum %016llx\n", (unsigned long long)fnv(out, sizeof out));
    } else if (!strcmp(mode, "alloc-blocks")) {
        /* i15-alloc: an allocator's block events handed to the recorder's phos_recorder_allocator_event (what the
           PyTorch shim does), in order with the CUDA calls around them: a 1 MiB segment, two blocks in it, a fill of
           the second, the first freed, a larger block re-using its start, the segment freed */
        typedef void (*ablock_t)(int, uint64_t, uint64_t, uint64_t, int);
        ablock_t ab = (ablock_t)dlsym(RTLD_DEFAULT, "phos_recorder_allocator_event");
        CUdeviceptr seg;
        OK(cuMemAlloc_v2(&seg, 1 << 20));
        uint64_t s0 = (uint64_t)seg, st = 0x5a00;
        if (ab) {
            ab(4, s0, 1 << 20, st, 0);            /* SEGMENT_ALLOC */
            ab(1, s0, 4096, st, 0);               /* ALLOC a */
            ab(1, s0 + 4096, 1000, st, 0);        /* ALLOC b */
        }
        OK(cuMemsetD32_v2(seg + 4096, 7, 250));
        if (ab) {
            ab(2, s0, 4096, st, 0);               /* FREE_REQUESTED a */
            ab(3, s0, 4096, st, 0);               /* FREE_COMPLETED a */
            ab(1, s0, 3072, st, 0);               /* ALLOC c: a's start, smaller */
        }
        OK(cuMemFree_v2(seg));
        fprintf(ex, ", \"seg\": %llu, \"blocks\": %d", (unsigned long long)s0, ab != NULL);
        printf("checksum %016llx\n", (unsigned long long)fnv(&s0, 0));
    } else if (!strcmp(mode, "more")) {
        /* issue 16: CUDA arrays, host functions in streams, a tensor map passed to a kernel by value, calls counted as
           unrecorded (write-value) */
        CUdeviceptr src, dst;
        OK(cuMemAlloc_v2(&src, 4096));
        OK(cuMemAlloc_v2(&dst, 4096));
        float hsrc[256], hback[256];
        for (int i = 0; i < 256; i++) hsrc[i] = (float)i * 0.5f;
        OK(cuMemcpyHtoD_v2(src, hsrc, 1024));
        CUDA_ARRAY_DESCRIPTOR ad = {64, 4, CU_AD_FORMAT_FLOAT, 1};             /* 64 x 4 floats: 1024 bytes */
        CUDA_ARRAY3D_DESCRIPTOR a3 = {16, 4, 2, CU_AD_FORMAT_UNSIGNED_INT16, 2, 0}; /* 16 x 4 x 2 x 2 channels x 2 B: 512 */
        CUarray arr, arrb, arr3;
        OK(cuArrayCreate_v2(&arr, &ad));
        OK(cuArray3DCreate_v2(&arr3, &a3));
        OK(cuArrayCreate_v2(&arrb, &ad));
        OK(cuMemcpyHtoA_v2(arr, 0, hsrc, 512));
        OK(cuMemcpyDtoA_v2(arr, 512, src + 512, 512));
        OK(cuMemcpyAtoA_v2(arrb, 0, arr, 0, 1024));
        OK(cuMemcpyAtoD_v2(dst, arrb, 256, 768));
        OK(cuMemcpyAtoH_v2(hback, arrb, 0, 1024));
        CUstream s1;
        OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
        OK(cuMemcpyHtoAAsync_v2(arr3, 0, hsrc + 128, 512, s1));
        OK(cuMemcpyAtoHAsync_v2(hback + 128, arr3, 0, 512, s1));
        CUDA_MEMCPY2D c2;
        memset(&c2, 0, sizeof c2);
        c2.srcMemoryType = CU_MEMORYTYPE_HOST; c2.srcHost = hsrc; c2.srcPitch = 256;
        c2.dstMemoryType = CU_MEMORYTYPE_ARRAY; c2.dstArray = arr; c2.WidthInBytes = 128; c2.Height = 4;
        OK(cuMemcpy2D_v2(&c2));
        CUDA_MEMCPY2D c3;
        memset(&c3, 0, sizeof c3);
        c3.srcMemoryType = CU_MEMORYTYPE_ARRAY; c3.srcArray = arr;
        c3.dstMemoryType = CU_MEMORYTYPE_DEVICE; c3.dstDevice = dst; c3.dstPitch = 256; c3.WidthInBytes = 256; c3.Height = 4;
        OK(cuMemcpy2D_v2(&c3));
        OK(cuLaunchHostFunc(s1, host_fn, &host_count));
        OK(cuStreamAddCallback(s1, stream_cb, &host_count, 0));
        CUtensorMap tm;
        cuuint64_t gd[2] = {64, 16}, gs[1] = {256};
        cuuint32_t box[2] = {32, 8}, es[2] = {1, 1};
        OK(cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)(uintptr_t)src, gd, gs, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
        static const char ptx[] = ".version 9.0\n.target sm_90\n.visible .entry tma_copy() { ret; }\n";
        CUmodule mod;
        OK(cuModuleLoadData(&mod, ptx));
        CUfunction tk;
        OK(cuModuleGetFunction(&tk, mod, "tma_copy"));
        CUdeviceptr out = dst + 2048;
        void *kp[] = {&tm, &out};
        OK(cuLaunchKernel(tk, 1, 1, 1, 32, 1, 1, 0, s1, kp, NULL));
        OK(cuStreamWriteValue32_v2(s1, dst + 4000, 7, 0));
        OK(cuStreamWriteValue32_v2(s1, dst + 4004, 9, 0));
        OK(cuStreamWriteValue64_v2(s1, dst + 4008, 11, 0));
        OK(cuStreamSynchronize(s1));
        float dback[1024];
        OK(cuMemcpyDtoH_v2(dback, dst, 4096));
        OK(cuArrayDestroy(arr));
        OK(cuArrayDestroy(arrb));
        OK(cuArrayDestroy(arr3));
        fprintf(ex, ", \"arr\": %llu, \"arrb\": %llu, \"arr3\": %llu, \"src\": %llu, \"dst\": %llu, \"s1\": %llu, \"host_fn\": %llu, "
                "\"stream_cb\": %llu, \"host_data\": %llu, \"host_count\": %d, \"hsrc\": %llu, \"hback\": %llu, \"tm\": \"",
                (unsigned long long)(uintptr_t)arr, (unsigned long long)(uintptr_t)arrb, (unsigned long long)(uintptr_t)arr3,
                (unsigned long long)src, (unsigned long long)dst, (unsigned long long)(uintptr_t)s1,
                (unsigned long long)(uintptr_t)host_fn, (unsigned long long)(uintptr_t)stream_cb, (unsigned long long)(uintptr_t)&host_count,
                host_count, (unsigned long long)(uintptr_t)hsrc, (unsigned long long)(uintptr_t)hback);
        for (size_t i = 0; i < sizeof tm; i++) fprintf(ex, "%02x", ((const uint8_t *)&tm)[i]);
        fprintf(ex, "\"");
        uint64_t h1 = fnv(hback, sizeof hback), h2 = fnv(dback, sizeof dback);
        printf("checksum %016llx\n", (unsigned long long)(h1 ^ (h2 * 31) ^ (uint64_t)host_count));
    } else {
        /* many / crash / hang: n_iter launches of axpy */
        CUmodule mod;
        static const char ptx[] = ".version 9.0\n.target sm_90\n.visible .entry axpy() { ret; }\n";
        OK(cuModuleLoadData(&mod, ptx));
        const char *cubin = getenv("FAKE_APP_CUBIN");   /* i15-cost: a cubin loaded as Triton does (bytes, not a path) */
        if (cubin && *cubin) {
            FILE *cf = fopen(cubin, "rb");
            static uint8_t img[1 << 16];
            size_t cn = cf ? fread(img, 1, sizeof img, cf) : 0;
            if (cf) fclose(cf);
            CUmodule cm;
            if (cn) OK(cuModuleLoadData(&cm, img));
        }
        CUfunction axpy;
        OK(cuModuleGetFunction(&axpy, mod, "axpy"));
        CUdeviceptr x, y, sc;
        OK(pAlloc(&x, 256));
        OK(pAlloc(&y, 256));
        OK(pAlloc(&sc, 8));
        float one = 1.0f;
        OK(pHtoD(sc, &one, 4));
        if (getenv("FAKE_CUDA_QUERY_BLOCK_MS")) /* the recorder's writer is now blocked in the driver (on the copy's timing) */
            for (int w = 0; w < 5000 && calls("cuEventQuery") == 0; w++) usleep(1000);
        int n = 64;
        if (!strcmp(mode, "live")) {
            /* driven by commands on stdin, one per line (the live attach tests): "launch N", "rate PER_S SECONDS", "alloc BYTES", "free",
               "refuse SPEC" (i14-ckpt)
               (the last allocation), "exit"; each answers "ok EVENTS" with the events issued so far */
            CUdeviceptr held[256];
            int nheld = 0;
            long events = 4, k = 0;   /* 3 allocations, 1 copy (a module load is a Module chunk, not an event) */
            char line[128];
            double secs = 0;
            setvbuf(stdout, NULL, _IOLBF, 0);
            /* i14-liveacc: FAKE_OBSERVER=1: the fake observation tool (fo_hook, "observe") */
            if (getenv("FAKE_OBSERVER")) {
                void (*set_hook)(void (*)(uint64_t, uint32_t, const char *const *)) =
                    (void (*)(void (*)(uint64_t, uint32_t, const char *const *)))dlsym(RTLD_DEFAULT, "phos_recorder_set_launch_hook");
                if (set_hook) set_hook(fo_hook);
            }
            printf("ready %d\n", (int)getpid());
            while (fgets(line, sizeof line, stdin)) {
                long v = 0;
                if (sscanf(line, "launch %ld", &v) == 1) {
                    for (long i = 0; i < v; i++, k++) {
                        struct { float *s; int k; } st = {(float *)(uintptr_t)sc, (int)k};
                        void *kp[] = {&x, &y, &n, &st};
                        fo_k = k;   /* i14-liveacc */
                        OK(pLaunch(axpy, 1, 1, 1, 64, 1, 1, 0, NULL, kp, NULL));
                    }
                    fo_k = k;
                    events += v;
                } else if (sscanf(line, "rate %ld %lf", &v, &secs) == 2 && v > 0) {
                    /* i14-attachui: launches at v per second for secs seconds, paced per millisecond (benchmarks) */
                    struct timespec t0, now;
                    clock_gettime(CLOCK_MONOTONIC, &t0);
                    long done = 0, total = (long)(v * secs);
                    while (done < total) {
                        clock_gettime(CLOCK_MONOTONIC, &now);
                        double el = (now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) * 1e-9;
                        long due = (long)(el * v);
                        if (due > total) due = total;
                        for (; done < due; done++, k++) {
                            struct { float *s; int k; } st = {(float *)(uintptr_t)sc, (int)k};
                            void *kp[] = {&x, &y, &n, &st};
                            OK(pLaunch(axpy, 1, 1, 1, 64, 1, 1, 0, NULL, kp, NULL));
                        }
                        if (done < total) usleep(200);
                    }
                    events += total;
                } else if (sscanf(line, "alloc %ld", &v) == 1 && nheld < 256) {
                    OK(pAlloc(&held[nheld++], (size_t)v));
                    events++;
                } else if (!strncmp(line, "free", 4) && nheld > 0) {
                    OK(cuMemFree_v2(held[--nheld]));
                    events++;
                } else if (!strncmp(line, "refuse", 6)) {
                    /* i14-ckpt: "refuse STEP:CODE[,...]" (or "refuse" alone: none): how the fake driver answers a
                       checkpoint controller from now on (fake_cuda.c, checkpoint API) */
                    void (*refuse)(const char *) = (void (*)(const char *))dlsym(RTLD_DEFAULT, "fake_checkpoint_refuse");
                    char *spec = line + 6;
                    while (*spec == ' ') spec++;
                    spec[strcspn(spec, "\r\n")] = 0;
                    if (refuse) refuse(spec);
                } else if (!strncmp(line, "observe", 7)) {
                    /* i14-liveacc: "ok EVENTS observed LAUNCHES rc RC" */
                    int nl = 0, rc = fo_observe((uint64_t)x, (uint64_t)y, &nl);
                    printf("ok %ld observed %d rc %d\n", events, nl, rc);
                    continue;
                } else if (!strncmp(line, "forget", 6)) {
                    fo_n = 0;   /* i14-liveacc: the launches so far are not observed */
                } else if (!strncmp(line, "exit", 4)) break;
                printf("ok %ld\n", events);
            }
            n_iter = 0;
        }
        /* i15-settle: FAKE_NEW_SHAPE_EVERY=K FAKE_SHAPES=S: launch i has grid 1 + min(i / K, S - 1), a new launch
           shape every K launches until there are S */
        long shape_every = getenv("FAKE_NEW_SHAPE_EVERY") ? atol(getenv("FAKE_NEW_SHAPE_EVERY")) : 0;
        long shapes = getenv("FAKE_SHAPES") ? atol(getenv("FAKE_SHAPES")) : 1;
        long gap_us = getenv("FAKE_LAUNCH_GAP_US") ? atol(getenv("FAKE_LAUNCH_GAP_US")) : 0;   /* i15-settle */
        long spin_ns = getenv("FAKE_SPIN_NS") ? atol(getenv("FAKE_SPIN_NS")) : 0;   /* i15-settle: busy time between launches */
        /* i15-base: FAKE_WIDE_PARAMS=B (>= 40): each launch passes a parameter buffer of B bytes through extra: axpy's
           40 bytes, then byte j of launch i is (uint8_t)(i * 7 + j) */
        long wide = getenv("FAKE_WIDE_PARAMS") ? atol(getenv("FAKE_WIDE_PARAMS")) : 0;
        uint8_t *wb = wide >= 40 ? calloc(1, (size_t)wide) : NULL;
        /* i15-final: FAKE_WIDE_KP=S: each launch is wide_meta(y, meta) through kernelParams, meta a by-value struct of
           S bytes whose byte j is (uint8_t)(i * 7 + j) in launch i */
        long widekp = getenv("FAKE_WIDE_KP") ? atol(getenv("FAKE_WIDE_KP")) : 0;
        uint8_t *meta = widekp > 0 ? calloc(1, (size_t)widekp) : NULL;
        CUfunction wk = NULL;
        if (meta) OK(cuModuleGetFunction(&wk, mod, "wide_meta"));
        for (long i = 0; i < n_iter; i++) {
            struct { float *s; int k; } st = {(float *)(uintptr_t)sc, (int)i};
            if (meta) {
                for (long j = 0; j < widekp; j++) meta[j] = (uint8_t)(i * 7 + j);
                void *wkp[] = {&y, meta};
                OK(pLaunch(wk, 1, 1, 1, 64, 1, 1, 0, NULL, wkp, NULL));
                continue;
            }
            void *kp[] = {&x, &y, &n, &st};
            unsigned gx = shape_every > 0 ? 1 + (unsigned)(i / shape_every < shapes - 1 ? i / shape_every : shapes - 1) : 1;
            if (wb) {
                memcpy(wb, &x, 8); memcpy(wb + 8, &y, 8); memcpy(wb + 16, &n, 4); memcpy(wb + 24, &st, 16);
                for (long j = 40; j < wide; j++) wb[j] = (uint8_t)(i * 7 + j);
                size_t bsz = (size_t)wide;
                void *ex[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, wb, CU_LAUNCH_PARAM_BUFFER_SIZE, &bsz, CU_LAUNCH_PARAM_END};
                OK(pLaunch(axpy, gx, 1, 1, 64, 1, 1, 0, NULL, NULL, ex));
            } else OK(pLaunch(axpy, gx, 1, 1, 64, 1, 1, 0, NULL, kp, NULL));
            if (gap_us > 0) usleep((useconds_t)gap_us);
            if (spin_ns > 0) { struct timespec a0, a1; clock_gettime(CLOCK_MONOTONIC, &a0);   /* i15-settle: a host-bound loop's work */
                do clock_gettime(CLOCK_MONOTONIC, &a1); while ((a1.tv_sec - a0.tv_sec) * 1000000000L + (a1.tv_nsec - a0.tv_nsec) < spin_ns); }
            if (!strcmp(mode, "exec") && i == n_iter / 2) {
                /* a child process that uses CUDA (a compile worker, a helper script), same environment */
                char cnt[32];
                snprintf(cnt, sizeof cnt, "%ld", n_iter / 2);
                fflush(NULL);
                pid_t c = fork();
                if (c == 0) { execl(argv[0], argv[0], "many", "/dev/null", cnt, (char *)NULL); _exit(127); }
                int st = 0;
                if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st)) { fprintf(stderr, "fake_app: exec child failed\n"); failures++; }
            }
        }
        fprintf(ex, ", \"launches\": %ld, \"stream_waits\": %ld, \"probe_launches\": %ld, \"kernel_record_enables\": %ld}\n",
                n_iter, calls ? calls("cuStreamWaitValue32_v2") : -1L, calls ? calls("probe_launch") : -1L,   /* i15-timing: probes */
                calls ? calls("cuptiActivityEnable_kernel") : -1L);   /* i15-burst */
        fclose(ex);
        ex = NULL;
        if (!strcmp(mode, "crash")) { fflush(stdout); raise(SIGSEGV); }
        if (!strcmp(mode, "hang")) { printf("ready\n"); fflush(stdout); sleep(30); }
        float out[64];
        OK(cuMemcpyDtoH_v2(out, y, sizeof out));
        printf("checksum %016llx\n", (unsigned long long)fnv(out, sizeof out));
    }
    if (child > 0) {
        int st = 0;
        if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st)) { fprintf(stderr, "fake_app: fork child failed\n"); failures++; }
    }
    if (ex) { fprintf(ex, ", \"failures\": %d}\n", failures); fclose(ex); }
    if (getenv("FAKE_PRINT_HWM")) {   /* i15-base: this process's peak resident memory (not its parent's, as ru_maxrss) */
        FILE *st = fopen("/proc/self/status", "r");
        char l[256];
        while (st && fgets(l, sizeof l, st)) if (!strncmp(l, "VmHWM:", 6)) fprintf(stderr, "fake_app: %s", l);
        if (st) fclose(st);
    }
    return failures ? 1 : 0;
}
