// The Gaussian pyramid's downward step with OpenCV's pyrDown semantics (Go caller:
// resample/cuda.go; the CPU twin is resample/cpu.go's pyrT, and both compute as
// OpenCV 4.6 does: exact integer sums for the integer depths, float32 in OpenCV's
// order, without fused multiply-adds, for 32F). pyrUp runs as a separable resize
// (resample/pyr.go's pyrUpPlan, resample_resize.cu's kernels).
//   gi_pyrdown_T  a thread an output element: the 5x5 kernel's row pass over the
//                 five source rows it needs, then the column pass, (sum + 128) >> 8.
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

}  // namespace pyr

#define GI_PYR(T)                                                                                          \
  extern "C" __global__ void __launch_bounds__(256) gi_pyrdown_##T(__grid_constant__ const PyrParams p) { \
    pyr::down<T>(p);                                                                                       \
  }
GI_PYR(u8)
GI_PYR(u16)
GI_PYR(s16)
GI_PYR(f32)
