// CUDA C suite for speculation: every launch's real memory accesses are known by construction and written, with the
// real addresses of this run, to a machine-readable expected-accesses file (argv[1], JSON; format in
// sample-traces/README.md). Exercises: pointer-to-const and non-const parameters, a kernel that only reads through a
// non-const pointer, structs by value holding pointers (the live pointer at varying offsets across launches, other
// pointers present but never dereferenced), a pointer table in device memory written by a host-to-device copy,
// in-place kernels, sub-ranges of one large allocation (a caching-allocator pattern), two streams ordered by an
// event, async copies from pinned memory, a CUDA graph launched three times, templated kernels with mangled names.
// Prints "checksum <hex>" over all results (deterministic: no atomics, fixed summation order).
// Build: nvcc -O2 -arch=sm_90 -o cuda_suite cuda_suite.cu      Run: ./cuda_suite expected.json
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

constexpr int N = 4096;            // floats per buffer (16 KiB)
constexpr int TPB = 256, BLOCKS = N / TPB;

__global__ void scale_const(const float *__restrict__ in, float *out, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * in[i];
}
// reads through a NON-const pointer only; writes one partial sum per block
__global__ void sum_nonconst(float *data, int n, float *partial) {
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int i = blockIdx.x * blockDim.x; i < (blockIdx.x + 1) * blockDim.x && i < n; i++) s += data[i];
        partial[blockIdx.x] = s;
    }
}
__global__ void inplace_relu(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] > 0.f ? x[i] : 0.f;
}
__global__ void add_scalar(float *x, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += a;
}
// a struct by value with four pointers; only slots[sel] is read and slots[sel + 2] written
struct Desc { int count; int sel; float *slots[4]; int n; int pad_; };
static_assert(sizeof(Desc) == 48, "Desc layout");
__global__ void struct_desc(Desc d) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < d.n) d.slots[d.sel + 2][i] = d.slots[d.sel][i] + 1.f;
}
// pointer table in device memory: reads table[j] (8 bytes) for each bit j of mask, then that buffer
__global__ void indirect_sum(const float *const *table, unsigned mask, int n, float *dst) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.f;
    for (int j = 0; j < 4; j++)
        if (mask & (1u << j)) s += table[j][i];
    dst[i] = s;
}
template <typename T, int K>
__global__ void axpy_t(const T *x, T *y, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] + a * (T)K * x[i];
}

// ---------------------------------------------------------------- expected accesses, written as we go
struct Range { uint64_t b, e; };
struct Expect {
    std::string kernel, stream;
    unsigned grid, block;
    std::vector<uint8_t> params;
    std::vector<Range> reads, writes;
    std::vector<uint64_t> unaccessed;  // pointer values in the parameters that the kernel never dereferences
    bool graph_node = false;
};
static std::vector<Expect> launches;
static std::vector<std::string> allocs_json, copies_json;

template <typename F> static std::string kname(F f) {
    const char *n = nullptr;
    CK(cudaFuncGetName(&n, (const void *)f));
    return n;
}
static uint64_t P(const void *p) { return (uint64_t)(uintptr_t)p; }
template <typename T> static void put(std::vector<uint8_t> &b, size_t off, T v) {
    if (b.size() < off + sizeof v) b.resize(off + sizeof v);
    memcpy(b.data() + off, &v, sizeof v);
}
static Range R(const void *p, size_t bytes) { return {P(p), P(p) + bytes}; }
static std::string sname(cudaStream_t s) { char b[32]; snprintf(b, sizeof b, "%llu", (unsigned long long)(uintptr_t)s); return b; }
static void note_alloc(const char *name, const void *p, size_t n, const char *kind) {
    char b[200];
    snprintf(b, sizeof b, "{\"name\": \"%s\", \"address\": %llu, \"size\": %zu, \"kind\": \"%s\"}", name, (unsigned long long)P(p), n, kind);
    allocs_json.push_back(b);
}
static void note_copy(const char *kind, size_t n, cudaStream_t s, bool async) {
    char b[200];
    snprintf(b, sizeof b, "{\"kind\": \"%s\", \"bytes\": %zu, \"stream\": %s, \"async\": %s}", kind, n, sname(s).c_str(), async ? "true" : "false");
    copies_json.push_back(b);
}
static std::string ranges(const std::vector<Range> &v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); i++) {
        char b[64];
        snprintf(b, sizeof b, "%s[%llu, %llu]", i ? ", " : "", (unsigned long long)v[i].b, (unsigned long long)v[i].e);
        s += b;
    }
    return s + "]";
}

int main(int argc, char **argv) {
    const size_t FB = N * sizeof(float);
    // one big allocation carved into sub-buffers, as a caching allocator does
    char *big;
    CK(cudaMalloc(&big, 1 << 20));
    note_alloc("big", big, 1 << 20, "plain");
    float *in = (float *)big, *out = (float *)(big + 65536), *tmp = (float *)(big + 262144);
    float *b[4];
    for (int j = 0; j < 4; j++) {
        CK(cudaMalloc(&b[j], FB));
        note_alloc(("b" + std::to_string(j)).c_str(), b[j], FB, "plain");
    }
    float **table, *res;
    double *dd;
    CK(cudaMalloc(&table, 4 * sizeof(float *)));
    note_alloc("table", table, 32, "plain");
    CK(cudaMalloc(&res, 64 * sizeof(float)));
    note_alloc("res", res, 256, "plain");
    CK(cudaMalloc(&dd, 2 * N * sizeof(double)));
    note_alloc("dd", dd, 2 * N * sizeof(double), "plain");
    float *pin;
    CK(cudaMallocHost(&pin, FB));
    note_alloc("pinned", pin, FB, "host_pinned");

    std::vector<float> h(N), hb(N);
    for (int i = 0; i < N; i++) h[i] = (float)((i * 37) % 101) - 50.f;
    CK(cudaMemcpy(in, h.data(), FB, cudaMemcpyHostToDevice));
    note_copy("H2D", FB, 0, false);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < N; i++) hb[i] = (float)(j + 1) * 0.25f * (float)(i % 17);
        CK(cudaMemcpy(b[j], hb.data(), FB, cudaMemcpyHostToDevice));
        note_copy("H2D", FB, 0, false);
    }
    CK(cudaMemcpy(table, b, sizeof b, cudaMemcpyHostToDevice));  // pointers written into device memory
    note_copy("H2D", sizeof b, 0, false);
    CK(cudaMemset(res, 0, 64 * sizeof(float)));
    CK(cudaMemset(dd, 0, 2 * N * sizeof(double)));

    auto L = [&](const std::string &k, cudaStream_t s, std::vector<uint8_t> p, std::vector<Range> r, std::vector<Range> w,
                 std::vector<uint64_t> un = {}, bool graph = false) {
        Expect e;
        e.kernel = k; e.stream = sname(s); e.grid = BLOCKS; e.block = TPB; e.params = p; e.reads = r; e.writes = w;
        e.unaccessed = un; e.graph_node = graph;
        launches.push_back(e);
    };
    std::vector<uint8_t> p;
    // L0 const in, non-const out
    scale_const<<<BLOCKS, TPB>>>(in, out, N, 2.0f);
    p.clear(); put(p, 0, P(in)); put(p, 8, P(out)); put(p, 16, N); put(p, 20, 2.0f);
    L(kname(scale_const), 0, p, {R(in, FB)}, {R(out, FB)});
    // L1 only reads through a non-const pointer
    sum_nonconst<<<BLOCKS, TPB>>>(out, N, res);
    p.clear(); put(p, 0, P(out)); put(p, 8, N); put(p, 16, P(res));
    L(kname(sum_nonconst), 0, p, {R(out, FB)}, {R(res, BLOCKS * sizeof(float))});
    // L2 in place
    inplace_relu<<<BLOCKS, TPB>>>(out, N);
    p.clear(); put(p, 0, P(out)); put(p, 8, N);
    L(kname(inplace_relu), 0, p, {R(out, FB)}, {R(out, FB)});
    // L3, L4 struct by value: the live pointers move from slots[0]/[2] to slots[1]/[3]
    for (int sel = 0; sel < 2; sel++) {
        Desc d;
        memset(&d, 0, sizeof d);
        d.count = 4; d.sel = sel; d.n = N;
        for (int j = 0; j < 4; j++) d.slots[j] = b[j];
        struct_desc<<<BLOCKS, TPB>>>(d);
        p.assign((uint8_t *)&d, (uint8_t *)&d + sizeof d);
        L(kname(struct_desc), 0, p, {R(b[sel], FB)}, {R(b[sel + 2], FB)}, {P(b[1 - sel]), P(b[3 - sel])});
    }
    // L5 pointer table in device memory (entries 0 and 2 used)
    indirect_sum<<<BLOCKS, TPB>>>(table, 0x5u, N, tmp);
    p.clear(); put(p, 0, P(table)); put(p, 8, 0x5u); put(p, 12, N); put(p, 16, P(tmp));
    L(kname(indirect_sum), 0, p, {R(table, 8), R(table + 2, 8), R(b[0], FB), R(b[2], FB)}, {R(tmp, FB)});
    // L6, L7 templated kernels (float, K=1) and (double, K=2) on sub-ranges of dd
    axpy_t<float, 1><<<BLOCKS, TPB>>>(in, tmp, 0.5f, N);
    p.clear(); put(p, 0, P(in)); put(p, 8, P(tmp)); put(p, 16, 0.5f); put(p, 20, N);
    L(kname(axpy_t<float, 1>), 0, p, {R(in, FB), R(tmp, FB)}, {R(tmp, FB)});
    axpy_t<double, 2><<<BLOCKS, TPB>>>(dd, dd + N, 0.25, N);
    p.clear(); put(p, 0, P(dd)); put(p, 8, P(dd + N)); put(p, 16, 0.25); put(p, 24, N);
    L(kname(axpy_t<double, 2>), 0, p, {R(dd, N * 8), R(dd + N, N * 8)}, {R(dd + N, N * 8)});

    // two streams ordered by an event, async copies from pinned memory
    cudaStream_t s1, s2;
    cudaEvent_t ev;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    for (int i = 0; i < N; i++) pin[i] = (float)(i % 29) - 14.f;
    CK(cudaMemcpyAsync(b[1], pin, FB, cudaMemcpyHostToDevice, s1));
    note_copy("H2D", FB, s1, true);
    scale_const<<<BLOCKS, TPB, 0, s1>>>(b[1], b[2], N, 0.5f);  // L8
    p.clear(); put(p, 0, P(b[1])); put(p, 8, P(b[2])); put(p, 16, N); put(p, 20, 0.5f);
    L(kname(scale_const), s1, p, {R(b[1], FB)}, {R(b[2], FB)});
    CK(cudaEventRecord(ev, s1));
    CK(cudaStreamWaitEvent(s2, ev, 0));
    inplace_relu<<<BLOCKS, TPB, 0, s2>>>(b[2], N);  // L9
    p.clear(); put(p, 0, P(b[2])); put(p, 8, N);
    L(kname(inplace_relu), s2, p, {R(b[2], FB)}, {R(b[2], FB)});
    CK(cudaMemcpyAsync(pin, b[2], FB, cudaMemcpyDeviceToHost, s2));
    note_copy("D2H", FB, s2, true);
    CK(cudaStreamSynchronize(s2));

    // a CUDA graph of two kernels, launched three times (L10..L15 as graph nodes)
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    add_scalar<<<BLOCKS, TPB, 0, s1>>>(tmp, N, 1.0f);
    scale_const<<<BLOCKS, TPB, 0, s1>>>(tmp, out, N, 3.0f);
    CK(cudaStreamEndCapture(s1, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int it = 0; it < 3; it++) {
        CK(cudaGraphLaunch(ge, s1));
        p.clear(); put(p, 0, P(tmp)); put(p, 8, N); put(p, 12, 1.0f);
        L(kname(add_scalar), s1, p, {R(tmp, FB)}, {R(tmp, FB)}, {}, true);
        p.clear(); put(p, 0, P(tmp)); put(p, 8, P(out)); put(p, 16, N); put(p, 20, 3.0f);
        L(kname(scale_const), s1, p, {R(tmp, FB)}, {R(out, FB)}, {}, true);
    }
    CK(cudaStreamSynchronize(s1));
    // L16 a sub-range of a sub-range
    scale_const<<<BLOCKS, TPB>>>(in + 1024, out + 2048, 1024, 1.5f);
    p.clear(); put(p, 0, P(in + 1024)); put(p, 8, P(out + 2048)); put(p, 16, 1024); put(p, 20, 1.5f);
    L(kname(scale_const), 0, p, {R(in + 1024, 4096)}, {R(out + 2048, 4096)});
    CK(cudaDeviceSynchronize());

    // results
    uint64_t hsh = 0xcbf29ce484222325ull;
    auto mix = [&](const void *d, size_t n) {
        const uint8_t *q = (const uint8_t *)d;
        for (size_t i = 0; i < n; i++) { hsh ^= q[i]; hsh *= 0x100000001b3ull; }
    };
    std::vector<uint8_t> hbuf(2 * N * sizeof(double));
    const void *srcs[] = {out, tmp, b[2], b[3], res, dd};
    size_t sizes[] = {FB, FB, FB, FB, 64 * sizeof(float), 2 * N * sizeof(double)};
    for (int i = 0; i < 6; i++) {
        CK(cudaMemcpy(hbuf.data(), srcs[i], sizes[i], cudaMemcpyDeviceToHost));
        note_copy("D2H", sizes[i], 0, false);
        mix(hbuf.data(), sizes[i]);
    }
    mix(pin, FB);
    printf("checksum %016llx\n", (unsigned long long)hsh);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "w");
        fprintf(f, "{\n  \"program\": \"cuda_suite\",\n  \"note\": \"launch index = index among Launch events of the trace; ranges are [begin, end) device addresses of this run\",\n");
        fprintf(f, "  \"streams\": {\"default\": 0, \"s1\": %s, \"s2\": %s},\n", sname(s1).c_str(), sname(s2).c_str());
        fprintf(f, "  \"allocations\": [\n");
        for (size_t i = 0; i < allocs_json.size(); i++) fprintf(f, "    %s%s\n", allocs_json[i].c_str(), i + 1 < allocs_json.size() ? "," : "");
        fprintf(f, "  ],\n  \"copies\": [\n");
        for (size_t i = 0; i < copies_json.size(); i++) fprintf(f, "    %s%s\n", copies_json[i].c_str(), i + 1 < copies_json.size() ? "," : "");
        fprintf(f, "  ],\n  \"memsets\": [{\"bytes\": 256}, {\"bytes\": %zu}],\n  \"graph_launches\": 3, \"graph_kernel_nodes\": 2,\n  \"launches\": [\n", 2 * N * sizeof(double));
        for (size_t i = 0; i < launches.size(); i++) {
            const Expect &e = launches[i];
            std::string hex;
            for (uint8_t c : e.params) { char x[3]; snprintf(x, 3, "%02x", c); hex += x; }
            std::string un = "[";
            for (size_t j = 0; j < e.unaccessed.size(); j++) un += (j ? ", " : "") + std::to_string(e.unaccessed[j]);
            un += "]";
            fprintf(f, "    {\"index\": %zu, \"kernel\": \"%s\", \"grid\": [%u, 1, 1], \"block\": [%u, 1, 1], \"stream\": %s, \"graph_node\": %s,\n"
                       "     \"params\": \"%s\", \"param_bytes\": %zu, \"reads\": %s, \"writes\": %s, \"unaccessed_pointers\": %s}%s\n",
                    i, e.kernel.c_str(), e.grid, e.block, e.stream.c_str(), e.graph_node ? "true" : "false", hex.c_str(),
                    e.params.size(), ranges(e.reads).c_str(), ranges(e.writes).c_str(), un.c_str(), i + 1 < launches.size() ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
    }
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaEventDestroy(ev));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    for (int j = 0; j < 4; j++) CK(cudaFree(b[j]));
    CK(cudaFree(big)); CK(cudaFree(table)); CK(cudaFree(res)); CK(cudaFree(dd)); CK(cudaFreeHost(pin));
    return 0;
}
