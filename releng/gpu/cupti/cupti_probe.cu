// What keeps cuCheckpointProcessLock from a process that uses CUPTI (issue #14, i14-cupti): a loop of small kernels
// with CUPTI set up in one configuration, then (optionally) released in one way; the checkpoint helper is run on it
// from outside (cupti.sh). Prints "ready PID" once set up, "released WHAT" after the release, "iter I sum S" per
// iteration, "records N" (CUPTI activity records received) and "done" at the end.
//   cupti_probe CONFIG RELEASE ITERATIONS SLEEP_MS
// CONFIG:  none       CUPTI never loaded
//          loaded     libcupti dlopened, no call
//          ts         cuptiGetTimestamp only (CUPTI initialised, nothing enabled)
//          subscribe  cuptiSubscribe, no callback enabled
//          callbacks  subscribe + driver-API callbacks for cuLaunch*
//          activity   activity buffers registered, CONCURRENT_KERNEL+MEMCPY+MEMSET enabled (no subscriber)
//          full       callbacks + activity (the recorder's default CUPTI timing)
// RELEASE (after iteration ITERATIONS/4): keep | flush (cuptiActivityFlushAll forced) | disable (flush + disable
//          the kinds) | unsub (disable + cuptiUnsubscribe) | finalize (unsub + cuptiFinalize)
// After the last iteration, for a released "full": re-enable (subscribe, callbacks, kinds) and run 5 more kernels,
// printing "reenabled records N" (CUPTI works again after the checkpoint).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <unistd.h>
#include <dlfcn.h>
#include <cuda_runtime.h>
#include <cupti.h>

static unsigned long long n_records;
static void CUPTIAPI buf_req(uint8_t **b, size_t *s, size_t *m) { *s = 1 << 20; *b = (uint8_t *)aligned_alloc(8, *s); *m = 0; }
static void CUPTIAPI buf_done(CUcontext, uint32_t, uint8_t *b, size_t, size_t valid) {
    CUpti_Activity *r = nullptr;
    while (valid && cuptiActivityGetNextRecord(b, valid, &r) == CUPTI_SUCCESS) n_records++;
    free(b);
}
static void CUPTIAPI cb(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *) {}
__global__ void k(uint32_t *s, int it) { s[threadIdx.x + blockIdx.x * blockDim.x] = s[threadIdx.x + blockIdx.x * blockDim.x] * 1664525u + it; }
#define C(x) do { CUptiResult r_ = (x); if (r_ != CUPTI_SUCCESS) { const char *m_ = "?"; cuptiGetResultString(r_, &m_); printf("cupti error %s: %s\n", #x, m_); fflush(stdout); } } while (0)
static CUpti_SubscriberHandle sub;
static void enable_cb() {
    C(cuptiSubscribe(&sub, cb, nullptr));
    C(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
    C(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx));
}
static void enable_act() {
    C(cuptiActivityRegisterCallbacks(buf_req, buf_done));
    C(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    C(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
    C(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
}
int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: %s CONFIG RELEASE ITERATIONS SLEEP_MS\n", argv[0]); return 2; }
    const char *cfg = argv[1], *rel = argv[2];
    int iters = atoi(argv[3]), sleep_ms = atoi(argv[4]);
    uint32_t *s, h[256];
    cudaMalloc(&s, sizeof h);
    cudaMemset(s, 0, sizeof h);
    bool act = !strcmp(cfg, "activity") || !strcmp(cfg, "full"), cbs = !strcmp(cfg, "callbacks") || !strcmp(cfg, "full");
    if (!strcmp(cfg, "loaded")) dlopen("libcupti.so.13", RTLD_NOW) || dlopen("libcupti.so", RTLD_NOW) || printf("dlopen failed\n");
    if (!strcmp(cfg, "ts")) { uint64_t t; C(cuptiGetTimestamp(&t)); }
    if (!strcmp(cfg, "subscribe")) C(cuptiSubscribe(&sub, cb, nullptr));
    if (cbs) enable_cb();
    if (act) enable_act();
    printf("ready %d\n", (int)getpid()); fflush(stdout);
    for (int i = 0; i < iters; i++) {
        k<<<1, 256>>>(s, i);
        cudaMemcpy(h, s, sizeof h, cudaMemcpyDeviceToHost);
        uint64_t sum = 0; for (int j = 0; j < 256; j++) sum = sum * 31 + h[j];
        printf("iter %d sum %llu\n", i, (unsigned long long)sum); fflush(stdout);
        if (i == iters / 4 && strcmp(rel, "keep")) {
            C(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
            if (strcmp(rel, "flush")) {
                if (act) { C(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)); C(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY)); C(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET)); }
                if (strcmp(rel, "disable") && (cbs || !strcmp(cfg, "subscribe"))) { C(cuptiEnableDomain(0, sub, CUPTI_CB_DOMAIN_DRIVER_API)); C(cuptiUnsubscribe(sub)); }
                if (!strcmp(rel, "finalize")) C(cuptiFinalize());
            }
            printf("released %s records %llu\n", rel, n_records); fflush(stdout);
        }
        usleep(sleep_ms * 1000);
    }
    if (strcmp(rel, "keep") && !strcmp(cfg, "full")) {
        unsigned long long before = n_records;
        if (strcmp(rel, "flush") && strcmp(rel, "disable")) enable_cb();
        if (strcmp(rel, "flush")) enable_act();
        for (int i = 0; i < 5; i++) k<<<1, 256>>>(s, i);
        cudaDeviceSynchronize();
        C(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
        printf("reenabled records %llu\n", n_records - before);
    }
    if (act) C(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    printf("records %llu\ndone\n", n_records); fflush(stdout);
    return 0;
}
