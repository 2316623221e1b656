// Gaussian pyramid steps with OpenCV's pyrDown and pyrUp semantics (Go caller:
// resample/cuda.go; the CPU twin is resample/cpu.go's pyrT, and both compute as
// OpenCV 4.6 does: exact integer sums for the integer depths, float32 in OpenCV's
// order, without fused multiply-adds, for 32F).
//   gi_pyrdown_T  a thread an output element: the 5x5 kernel's row pass over the
//                 five source rows it needs, then the column pass, (sum + 128) >> 8.
//   gi_pyrup_T    a thread an output element of the upsampled grid: the row pass of
//                 three source rows (zeros between pixels, [1 4 6 4 1]), then the
//                 column pass, (sum + 32) >> 6.
#include "border.cuh"
#include "resample_params.h"

namespace pyr {

// Acc is a pass's value type: an exact integer sum, or a float for 32F.
template <typename T> struct Acc { typedef int type; };
template <> struct Acc<f32> { typedef float type; };

__device__ __forceinline__ int mul(int a, int k) { return a * k; }
__device__ __forceinline__ float mul(float a, int k) { return __fmul_rn(a, (float)k); }
__device__ __forceinline__ int add(int a, int b) { return a + b; }
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }

// five is 6*v2 + 4*(v1 + v3) + v0 + v4, summed in that order.
template <typename A>
__device__ __forceinline__ A five(const A (&v)[5]) {
  return add(add(add(mul(v[2], 6), mul(add(v[1], v[3]), 4)), v[0]), v[4]);
}

// Out::f is the result: (v + half) >> shift saturated, or v / 2^shift for 32F.
template <typename T> struct Out {
  static __device__ __forceinline__ T f(int v, int shift) { return sati<T>((v + (1 << (shift - 1))) >> shift); }
};
template <> struct Out<f32> {
  static __device__ __forceinline__ f32 f(float v, int shift) { return __fmul_rn(v, 1.f / (float)(1 << shift)); }
};

template <typename T>
__device__ __forceinline__ void down(const PyrParams& p) {
  typedef typename Acc<T>::type A;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= p.dw * p.cn) return;
  const int dx = x / p.cn, c = x - dx * p.cn;
  const int ctr = dx < p.width0 ? 2 * dx : 2 * p.width0 + dx - p.width0;
  int cols[5];
#pragma unroll
  for (int j = 0; j < 5; ++j) cols[j] = bmap(ctr + j - 2, p.sw, p.border) * p.cn + c;
  for (int y = blockIdx.y; y < p.dh; y += gridDim.y) {
    A h[5];
#pragma unroll
    for (int k = 0; k < 5; ++k) {
      const T* s = row<T>(p.src, p.sp, bmap(2 * y + k - 2, p.sh, p.border));
      A v[5];
#pragma unroll
      for (int j = 0; j < 5; ++j) v[j] = (A)__ldg(s + cols[j]);
      h[k] = five(v);
    }
    row<T>(p.dst, p.dp, y)[x] = Out<T>::f(five(h), 8);
  }
}

// hval is pyrUp's row pass at upsampled column X (channel c) of source row s.
template <typename T, typename A>
__device__ __forceinline__ A hval(const T* s, int X, int c, int w, int cn) {
  if (X == 2 * w) X = 2 * w - 1;  // an odd width's extra column repeats the one before
  const int x = X >> 1;
#define S(i) ((A)__ldg(s + (i) * cn + c))
  if (w == 1) return mul(S(0), 8);
  if (X & 1) return x == w - 1 ? mul(S(x), 8) : mul(add(S(x), S(x + 1)), 4);
  if (x == 0) return add(mul(S(0), 6), mul(S(1), 2));
  if (x == w - 1) return add(S(x - 1), mul(S(x), 7));
  return add(add(S(x - 1), mul(S(x), 6)), S(x + 1));
#undef S
}

template <typename T>
__device__ __forceinline__ void up(const PyrParams& p) {
  typedef typename Acc<T>::type A;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= p.dw * p.cn) return;
  const int X = x / p.cn, c = x - X * p.cn;
  for (int Y = blockIdx.y; Y < p.dh; Y += gridDim.y) {
    const int yy = Y == 2 * p.sh ? 2 * p.sh - 2 : Y;  // an odd height's extra row
    const int y = yy >> 1;
    const int y0 = bmap(2 * y - 2, 2 * p.sh, B_REFLECT101) >> 1, y2 = bmap(2 * y + 2, 2 * p.sh, B_REFLECT101) >> 1;
    const A h1 = hval<T, A>(row<T>(p.src, p.sp, y), X, c, p.sw, p.cn);
    const A h2 = hval<T, A>(row<T>(p.src, p.sp, y2), X, c, p.sw, p.cn);
    A v;
    if (yy & 1) {
      v = mul(add(h1, h2), 4);
    } else {
      const A h0 = hval<T, A>(row<T>(p.src, p.sp, y0), X, c, p.sw, p.cn);
      v = add(add(h0, mul(h1, 6)), h2);
    }
    row<T>(p.dst, p.dp, Y)[x] = Out<T>::f(v, 6);
  }
}

}  // namespace pyr

#define GI_PYR(T)                                                                                          \
  extern "C" __global__ void __launch_bounds__(256) gi_pyrdown_##T(__grid_constant__ const PyrParams p) { \
    pyr::down<T>(p);                                                                                       \
  }                                                                                                        \
  extern "C" __global__ void __launch_bounds__(256) gi_pyrup_##T(__grid_constant__ const PyrParams p) {   \
    pyr::up<T>(p);                                                                                         \
  }
GI_PYR(u8)
GI_PYR(u16)
GI_PYR(s16)
GI_PYR(f32)
