#include <utility>
#include <type_traits>
#include <cstddef>
namespace ops {
template <typename T> struct Add { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename... Ts> struct Tuple {};
template <typename T, int N> struct Array { T v[N]; };
enum class Mode : int { Fast = 1, Slow = 2 };
}
template <typename Op, typename... Args>
__global__ void variadic_kernel(Op op, float* out, Args... args) {}
template __global__ void variadic_kernel<ops::Add<float>, int, const float*, double>(ops::Add<float>, float*, int, const float*, double);
template __global__ void variadic_kernel<ops::Add<int>>(ops::Add<int>, float*);
template <typename T, std::size_t N>
__global__ void std_kernel(std::integral_constant<int, 3> ic, ops::Array<T, N> arr, T* out) {}
template __global__ void std_kernel<float, 4ul>(std::integral_constant<int, 3>, ops::Array<float, 4>, float*);
template <ops::Mode M> __global__ void enum_kernel(float* out) {}
template __global__ void enum_kernel<ops::Mode::Fast>(float*);
template <typename T> __global__ void tuple_kernel(ops::Tuple<T, T*, const T*> t, T* volatile p, const volatile T* q) {}
template __global__ void tuple_kernel<unsigned>(ops::Tuple<unsigned, unsigned*, const unsigned*>, unsigned* volatile, const volatile unsigned*);
template <typename T> __global__ void restrict_kernel(T* __restrict__ a, const T* __restrict__ b, std::size_t n, std::ptrdiff_t d) {}
template __global__ void restrict_kernel<long>(long*, const long*, std::size_t, std::ptrdiff_t);
template <int A, int B, unsigned C, long D, unsigned long long E> __global__ void ints_kernel(int* x) {}
template __global__ void ints_kernel<0, -1, 4000000000u, -5l, 18446744073709551615ull>(int*);
template <typename T> struct Outer { template <typename U> struct In { U u; T t; }; };
template <typename T, typename U> __global__ void nested_tmpl(typename Outer<T>::template In<U> x, U* y) {}
template __global__ void nested_tmpl<int, float>(Outer<int>::In<float>, float*);
__global__ void mixed(const int* const a, int* const b, const int** c, int* const* d, int& e, const int& f) {}
namespace a { namespace b { namespace { template <typename T> __global__ void anon_tmpl(T* p) {} } } }
void use_anon(int* p) { a::b::anon_tmpl<int><<<1,1>>>(p); }
struct Empty {};
template <typename T> __global__ void ptr_to_member(int Empty::* pm, T* p) {}
template __global__ void ptr_to_member<Empty>(int Empty::*, Empty*);
template <typename T> __global__ void cplx(std::pair<T, T*> pr, std::pair<const T*, std::size_t> pr2) {}
template __global__ void cplx<double>(std::pair<double, double*>, std::pair<const double*, std::size_t>);
template <template <typename> class TT> __global__ void tt_kernel(TT<int> x) {}
template __global__ void tt_kernel<ops::Add>(ops::Add<int>);
template <typename T> __global__ void bool_ptr(bool* b, const bool* cb, T v) {}
template __global__ void bool_ptr<float>(bool*, const bool*, float);
template __global__ void bool_ptr<std::nullptr_t>(bool*, const bool*, std::nullptr_t);
