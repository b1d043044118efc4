// Real mangled names for the demangler tests: kernels.cu / kernels2.cu compiled with nvcc 13.0 -arch=sm_90 -ptx (-std=c++17 --extended-lambda)
#include <cstdint>
struct Pair { float* data; int n; };
struct Params { const float* in; float* out; int count; float scale; };
namespace phos { namespace demo {
template <typename T, int BLOCK>
__global__ void scale_kernel(const T* __restrict__ in, T* out, int n, T s) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}
template __global__ void scale_kernel<float, 256>(const float*, float*, int, float);
template __global__ void scale_kernel<double, 128>(const double*, double*, int, double);
template <bool FLAG, typename T>
__global__ void flag_kernel(T* p, unsigned long long n) { if (FLAG && threadIdx.x < n) p[threadIdx.x] = T(1); }
template __global__ void flag_kernel<true, int>(int*, unsigned long long);
template __global__ void flag_kernel<false, short>(short*, unsigned long long);
} }
namespace {
__global__ void anon_kernel(float* a, const int* b) { a[threadIdx.x] += b[threadIdx.x]; }
}
void launch_anon(float* a, const int* b) { anon_kernel<<<1,1>>>(a, b); }
__global__ void struct_kernel(Pair p, Params q) { if (threadIdx.x < p.n) p.data[threadIdx.x] = q.in[threadIdx.x] * q.scale; }
__global__ void ptr_ptr(float** ptrs, const float* const* cptrs, int n) { ptrs[0][threadIdx.x] = cptrs[1][threadIdx.x]; }
__global__ void refs_and_more(const Pair& pr, volatile int* v, unsigned char c, long long ll, int64_t i64, uint8_t* bytes) { v[0] = c; }
template <typename A, typename B> __global__ void two_types(A* a, B* b, A* c, B* d) {}
template __global__ void two_types<float, int>(float*, int*, float*, int*);
template __global__ void two_types<Pair, Pair>(Pair*, Pair*, Pair*, Pair*);
template <int N> struct Vec { float v[N > 0 ? N : 1]; };
template <int N> __global__ void vec_kernel(Vec<N> v, Vec<N>* out) { out[0] = v; }
template __global__ void vec_kernel<4>(Vec<4>, Vec<4>*);
template __global__ void vec_kernel<-3>(Vec<-3>, Vec<-3>*);
template <char C> __global__ void char_kernel(char* s) { s[0] = C; }
template __global__ void char_kernel<'a'>(char*);
__global__ void builtins(bool b, char c, signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u,
  long l, unsigned long ul, long long ll, unsigned long long ull, float f, double d, __int128 x, unsigned __int128 ux, wchar_t w, char16_t c16, char32_t c32) {}
__global__ void halfs(const float2* h) {}
typedef void (*fnptr)(int);
__global__ void fptr_kernel(fnptr f, void* raw, const void* craw) {}
namespace outer { struct Inner { struct Deep { int x; }; }; 
  template <typename T> struct Holder { T* p; };
  __global__ void deep_kernel(Inner::Deep d, Holder<Inner::Deep> h, Holder<Holder<float>> hh, const Inner::Deep* dp) {} }
template <typename T, typename U = T> struct Functor { __device__ T operator()(U u) const { return T(u); } };
template <typename F> __global__ void apply_kernel(F f, float* out) { out[threadIdx.x] = f(threadIdx.x); }
template __global__ void apply_kernel<Functor<float>>(Functor<float>, float*);
template __global__ void apply_kernel<Functor<int, unsigned>>(Functor<int, unsigned>, float*);
void launch_lambda(float* out) {
  auto l = [] __device__ (int i) { return float(i) * 2.0f; };
  apply_kernel<<<1, 32>>>(l, out);
}
__global__ void arr_kernel(float (*rows)[16], int n) {}
struct alignas(16) Big { double a, b; float* c; };
__global__ void big_kernel(Big b, Big* bp, const Big* cbp) {}
