// Image resizing with cv::resize's semantics (Go caller: resample/cuda.go; the tables
// come from resample/resize.go's resizePlan; the CPU twin is resample/cpu.go's
// resizeCPU, and both reproduce OpenCV 4.6's arithmetic, so 8-bit results are
// OpenCV's own).
//   gi_resize_gather_T        nearest and nearest-exact: a thread a pixel, copied.
//   gi_resize_area_T          the integer-factor area average (resizeAreaFast_).
//   gi_resize_area2_u8cCN     its 2x2 case for 8U (InterLinear's and InterArea's
//                             halving): 8 output pixels a thread, 16-byte loads.
//   gi_resize_sep_MODE_K_T    every other case, separable: a block's tile of
//                             GI_RESIZE_TW output elements by th rows first computes
//                             the horizontal pass of each source row the tile needs
//                             into shared memory (a thread a column, coalesced
//                             loads), then the vertical pass of each output. MODE is
//                             the arithmetic (f: float in OpenCV's order, each product
//                             and sum rounded, no fused multiply-adds; x8: 8U fixed
//                             point with 11-bit taps; ex: INTER_LINEAR_EXACT's), K the
//                             taps an axis (2 linear, 4 cubic, 8 Lanczos4, 0 any:
//                             the area weights); p: Pillow's 8-bit fixed point
//                             (Scale), each pass rounded to 8 bits.
#include "common.cuh"
#include "resample_params.h"

namespace resize {

enum { kFloat = 0, kFix8 = 1, kExact = 2, kPillow = 3 };
enum { simdNone = 0, simdLinear = 1, simdCubic = 2 };

__device__ __forceinline__ int clampi(int i, int n) { return min(max(i, 0), n - 1); }

template <typename T>
__device__ __forceinline__ void gather(const ResizeParams& p) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= p.dw) return;
  const int sx = __ldg(p.xs + x) * p.cn;
  for (int y = blockIdx.y; y < p.dh; y += gridDim.y) {
    const T* s = row<T>(p.src, p.sp, __ldg(p.ys + y)) + sx;
    T* d = row<T>(p.dst, p.dp, y) + x * p.cn;
    for (int c = 0; c < p.cn; ++c) d[c] = s[c];
  }
}

template <typename T>
__device__ __forceinline__ void areaAt(const ResizeParams& p, int x, int y);

// area: element x of each row, as resizeAreaFast_ computes it.
template <typename T>
__device__ __forceinline__ void area(const ResizeParams& p) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= p.dw * p.cn) return;
  for (int y = blockIdx.y; y < p.dh; y += gridDim.y) areaAt<T>(p, x, y);
}

template <typename T>
__device__ __forceinline__ void areaAt(const ResizeParams& p, int x, int y) {
  const int cn = p.cn, dx = x / cn, c = x - dx * cn, sx0 = dx * p.ix, sy0 = y * p.iy;
  const bool full = sy0 + p.iy <= p.sh && dx < p.sw / p.ix;
  T* d = row<T>(p.dst, p.dp, y) + x;
  if (full && p.round2) {
    const T* a = row<T>(p.src, p.sp, sy0) + sx0 * cn + c;
    const T* b = row<T>(p.src, p.sp, sy0 + 1) + sx0 * cn + c;
    *d = (T)(((int)__ldg(a) + (int)__ldg(a + cn) + (int)__ldg(b) + (int)__ldg(b + cn) + 2) >> 2);
    return;
  }
  const int n = p.ix * p.iy;
  if (full) {
    // OpenCV adds the block's elements four at a time (an exact sum of four of the
    // integer depths), then into the running sum: int for 8U, float otherwise.
    int isum = 0;
    float fsum = 0.f, grp = 0.f;
    const int tail = n / 4 * 4;
    for (int k = 0; k < n; ++k) {
      const int ky = k / p.ix, kx = k - ky * p.ix;
      const T v = __ldg(row<T>(p.src, p.sp, sy0 + ky) + (sx0 + kx) * cn + c);
      if (sizeof(T) == 1) {
        isum += (int)v;
      } else if (sizeof(T) == 4) {
        grp = (k % 4 == 0 || k >= tail) ? (float)v : __fadd_rn(grp, (float)v);
        if (k % 4 == 3 || k >= tail) fsum = __fadd_rn(fsum, grp);
      } else {
        isum = (k % 4 == 0 || k >= tail) ? (int)v : isum + (int)v;
        if (k % 4 == 3 || k >= tail) fsum = __fadd_rn(fsum, (float)isum);
      }
    }
    if (sizeof(T) == 1) fsum = (float)isum;
    *d = sat<T>(__fmul_rn(fsum, 1.f / (float)n));
    return;
  }
  int isum = 0, cnt = 0;
  float fsum = 0.f;
  for (int sy = sy0; sy < min(sy0 + p.iy, p.sh); ++sy) {
    const T* s = row<T>(p.src, p.sp, sy);
    for (int sx = sx0; sx < min(sx0 + p.ix, p.sw); ++sx, ++cnt) {
      if (sizeof(T) == 1)
        isum += (int)__ldg(s + sx * cn + c);
      else
        fsum = __fadd_rn(fsum, (float)__ldg(s + sx * cn + c));
    }
  }
  if (sizeof(T) == 1) fsum = (float)isum;
  *d = sat<T>(__fdiv_rn(fsum, (float)cnt));
}

__device__ __forceinline__ unsigned word(const uint4& v, int k) { return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w; }
// byteOf is byte i of the 16-byte vectors v (i constant after unrolling: a bit-field
// extract, no local memory).
template <int N>
__device__ __forceinline__ unsigned byteOf(const uint4 (&v)[N], int i) {
  return (word(v[i / 16], (i % 16) / 4) >> (8 * (i % 4))) & 0xffu;
}

// area2u8: OpenCV's 2x2 fast path for 8U of CN channels, 8 output pixels a thread
// from 16-byte loads of the two source rows (src 16-byte and dst 8-byte aligned);
// the pixels past the last whole block, and the last row of an odd height, go to
// areaAt.
template <int CN>
__device__ __forceinline__ void area2u8(const ResizeParams& p) {
  const int dx0 = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (dx0 >= p.dw) return;
  const bool whole = dx0 + 8 <= p.sw / 2;
  for (int y = blockIdx.y; y < p.dh; y += gridDim.y) {
    if (whole && 2 * y + 2 <= p.sh) {
      const uint4* a = reinterpret_cast<const uint4*>(row<u8>(p.src, p.sp, 2 * y) + dx0 * 2 * CN);
      const uint4* b = reinterpret_cast<const uint4*>(row<u8>(p.src, p.sp, 2 * y + 1) + dx0 * 2 * CN);
      uint4 va[CN], vb[CN];
#pragma unroll
      for (int i = 0; i < CN; ++i) va[i] = __ldg(a + i), vb[i] = __ldg(b + i);
      uint2* d = reinterpret_cast<uint2*>(row<u8>(p.dst, p.dp, y) + dx0 * CN);
#pragma unroll
      for (int o = 0; o < CN; ++o) {  // output words of 8 bytes
        unsigned lo = 0, hi = 0;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const int e = o * 8 + j, k = e / CN, c = e % CN;  // output pixel k, channel c
          const int i0 = 2 * k * CN + c, i1 = i0 + CN;
          const unsigned v = (byteOf(va, i0) + byteOf(va, i1) + byteOf(vb, i0) + byteOf(vb, i1) + 2) >> 2;
          if (j < 4) lo |= v << (8 * j); else hi |= v << (8 * (j - 4));
        }
        d[o] = make_uint2(lo, hi);
      }
    } else {
      for (int e = 0; e < 8 * CN && dx0 + e / CN < p.dw; ++e) areaAt<u8>(p, dx0 * CN + e, y);
    }
  }
}

// hsum is one element's horizontal pass over n taps at clamped columns, as a 32-bit
// word: a float (kFloat), or an integer sum (uint32 for 16U in kExact, int else).
template <int MODE, typename T, int K>
__device__ __forceinline__ unsigned hsum(const T* s, int st, int n, int sw, int cn, const float* w) {
  if (MODE == kFloat) {
    float acc = 0.f;
#pragma unroll
    for (int j = 0; j < (K ? K : 1); ++j) {
      const float v = (float)__ldg(s + clampi(st + j, sw) * cn);
      const float pr = __fmul_rn(v, w[j]);
      acc = j == 0 ? pr : __fadd_rn(acc, pr);
    }
    for (int j = 1; K == 0 && j < n; ++j) acc = __fadd_rn(acc, __fmul_rn((float)__ldg(s + clampi(st + j, sw) * cn), __ldg(w + j)));
    return __float_as_uint(acc);
  }
  if (MODE == kPillow) {
    // Pillow's 8-bit pass: 22-bit taps, (sum + 2^21) >> 22 clipped to 0..255.
    int acc = 1 << 21;
    for (int j = 0; j < n; ++j) acc += (int)__ldg(s + clampi(st + j, sw) * cn) * (int)__ldg(w + j);
    return (unsigned)min(max(acc >> 22, 0), 255);
  }
  unsigned acc = 0;  // wraps as OpenCV's int does; no valid input overflows
#pragma unroll
  for (int j = 0; j < K; ++j) acc += (unsigned)((int)__ldg(s + clampi(st + j, sw) * cn) * (int)w[j]);
  return acc;
}

// vsum is output element x from its rows' horizontal sums h[j * GI_RESIZE_TW].
template <int MODE, typename T, int K>
__device__ __forceinline__ T vsum(const unsigned* h, const float* b, int n, int x, const ResizeParams& p) {
  if (MODE == kFloat) {
    float acc = __fmul_rn(__uint_as_float(h[0]), __ldg(b));
    for (int j = 1; j < (K ? K : n); ++j) acc = __fadd_rn(acc, __fmul_rn(__uint_as_float(h[j * GI_RESIZE_TW]), __ldg(b + j)));
    return sat<T>(acc);
  }
  if (MODE == kFix8) {
    if (p.simdkind == simdLinear) {
      // VResizeLinear's 8U arithmetic: (((h >> 4) * b) >> 16 summed, + 2) >> 2.
      int s = 0;
#pragma unroll
      for (int j = 0; j < K; ++j) s += (min(max((int)h[j * GI_RESIZE_TW] >> 4, -32768), 32767) * (int)__ldg(b + j)) >> 16;
      return sati<T>((min(max(s, -32768), 32767) + 2) >> 2);
    }
    if (x < p.simd) {
      // VResizeCubicVec_32s8u: float, products summed last to first.
      const float sc = 1.f / (2048.f * 2048.f);
      float acc = __fmul_rn((float)(int)h[(K - 1) * GI_RESIZE_TW], __fmul_rn(__ldg(b + K - 1), sc));
#pragma unroll
      for (int j = K - 2; j >= 0; --j) acc = __fadd_rn(__fmul_rn((float)(int)h[j * GI_RESIZE_TW], __fmul_rn(__ldg(b + j), sc)), acc);
      return sati<T>(__float2int_rn(acc));
    }
    int acc = 0;
#pragma unroll
    for (int j = 0; j < K; ++j) acc += (int)h[j * GI_RESIZE_TW] * (int)__ldg(b + j);
    return sati<T>((acc + (1 << 21)) >> 22);
  }
  if (MODE == kPillow) {
    int acc = 1 << 21;
    for (int j = 0; j < n; ++j) acc += (int)h[j * GI_RESIZE_TW] * (int)__ldg(b + j);
    return sati<T>(acc >> 22);
  }
  // kExact: 8 fraction bits a pass for 8U, 16 for 16-bit.
  if (sizeof(T) == 1) {
    int acc = 0;
#pragma unroll
    for (int j = 0; j < K; ++j) acc += (int)h[j * GI_RESIZE_TW] * (int)__ldg(b + j);
    return sati<T>((acc + (1 << 15)) >> 16);
  }
  long long acc = 0;
#pragma unroll
  for (int j = 0; j < K; ++j) {
    const long long hv = (T)-1 > 0 ? (long long)h[j * GI_RESIZE_TW] : (long long)(int)h[j * GI_RESIZE_TW];
    acc += hv * (long long)__ldg(b + j);
  }
  return sati<T>((int)max(min((acc + (1LL << 31)) >> 32, 65535LL), -32768LL));
}

template <int MODE, typename T, int K>
__device__ __forceinline__ void sep(const ResizeParams& p) {
  extern __shared__ unsigned hs[];  // [tr][GI_RESIZE_TW]
  const int t = threadIdx.x, cn = p.cn;
  const int x = blockIdx.x * GI_RESIZE_TW + t;
  const bool in = x < p.dw * cn;
  const int dx = in ? x / cn : 0, c = x - dx * cn;
  // The column's horizontal taps, in registers where their number is fixed.
  const int st = __ldg(p.xstart + dx);
  float w[K ? K : 1];
#pragma unroll
  for (int j = 0; j < (K ? K : 1); ++j) w[j] = __ldg(p.xw + dx * p.nx + j);
  for (int y0 = blockIdx.y * p.th; y0 < p.dh; y0 += gridDim.y * p.th) {
    const int y1 = min(y0 + p.th, p.dh);
    const int rlo = __ldg(p.ystart + y0);
    const int nr = __ldg(p.ystart + y1 - 1) + p.ny - rlo;
    if (K == 0 && nr > p.tr) {
      // A shrink too steep for one stage (th is 1 then): the rows in stages of tr,
      // the vertical sum carried across them in the same order.
      float acc = 0.f;
      int iacc = 1 << 21;
      const float* b = p.yw + (size_t)y0 * p.ny;
      for (int r0 = 0; r0 < nr; r0 += p.tr) {
        const int n = min(p.tr, nr - r0);
        __syncthreads();
        for (int r = 0; in && r < n; ++r) {
          const T* s = row<T>(p.src, p.sp, clampi(rlo + r0 + r, p.sh)) + c;
          hs[r * GI_RESIZE_TW + t] = hsum<MODE, T, K>(s, st, p.nx, p.sw, cn, p.xw + dx * p.nx);
        }
        __syncthreads();
        for (int r = 0; in && r < n; ++r) {
          if (MODE == kPillow) {
            iacc += (int)hs[r * GI_RESIZE_TW + t] * (int)__ldg(b + r0 + r);
          } else {
            const float pr = __fmul_rn(__uint_as_float(hs[r * GI_RESIZE_TW + t]), __ldg(b + r0 + r));
            acc = r0 + r == 0 ? pr : __fadd_rn(acc, pr);
          }
        }
      }
      if (in) row<T>(p.dst, p.dp, y0)[x] = MODE == kPillow ? sati<T>(iacc >> 22) : sat<T>(acc);
      continue;
    }
    __syncthreads();  // the last tile's vertical pass is done with hs
    if (in) {
      for (int r = 0; r < nr; ++r) {
        const T* s = row<T>(p.src, p.sp, clampi(rlo + r, p.sh)) + c;
        hs[r * GI_RESIZE_TW + t] = K ? hsum<MODE, T, K>(s, st, K, p.sw, cn, w)
                                     : hsum<MODE, T, K>(s, st, p.nx, p.sw, cn, p.xw + dx * p.nx);
      }
    }
    __syncthreads();
    if (in) {
      for (int y = y0; y < y1; ++y) {
        const int r0 = __ldg(p.ystart + y) - rlo;
        row<T>(p.dst, p.dp, y)[x] = vsum<MODE, T, K>(hs + r0 * GI_RESIZE_TW + t, p.yw + (size_t)y * p.ny, p.ny, x, p);
      }
    }
  }
}

}  // namespace resize

#define GI_RESIZE_GATHER(T)                                                                                      \
  extern "C" __global__ void __launch_bounds__(256) gi_resize_gather_##T(__grid_constant__ const ResizeParams p) { \
    resize::gather<T>(p);                                                                                          \
  }
GI_RESIZE_GATHER(u8)
GI_RESIZE_GATHER(u16)
GI_RESIZE_GATHER(f32)

#define GI_RESIZE_AREA(T)                                                                                      \
  extern "C" __global__ void __launch_bounds__(256) gi_resize_area_##T(__grid_constant__ const ResizeParams p) { \
    resize::area<T>(p);                                                                                          \
  }
GI_RESIZE_AREA(u8)
GI_RESIZE_AREA(u16)
GI_RESIZE_AREA(s16)
GI_RESIZE_AREA(f32)

#define GI_RESIZE_AREA2(CN)                                                                                       \
  extern "C" __global__ void __launch_bounds__(128, 8) gi_resize_area2_u8c##CN(__grid_constant__ const ResizeParams p) { \
    resize::area2u8<CN>(p);                                                                                             \
  }
GI_RESIZE_AREA2(1)
GI_RESIZE_AREA2(3)
GI_RESIZE_AREA2(4)

#define GI_RESIZE_SEP(NAME, MODE, K, T)                                                                  \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_TW, 2) gi_resize_sep_##NAME##_##K##_##T(           \
      __grid_constant__ const ResizeParams p) {                                                          \
    resize::sep<resize::MODE, T, K>(p);                                                                  \
  }
GI_RESIZE_SEP(f, kFloat, 0, u8)
GI_RESIZE_SEP(f, kFloat, 0, u16)
GI_RESIZE_SEP(f, kFloat, 0, s16)
GI_RESIZE_SEP(f, kFloat, 0, f32)
GI_RESIZE_SEP(f, kFloat, 2, u16)
GI_RESIZE_SEP(f, kFloat, 2, s16)
GI_RESIZE_SEP(f, kFloat, 2, f32)
GI_RESIZE_SEP(f, kFloat, 4, u16)
GI_RESIZE_SEP(f, kFloat, 4, s16)
GI_RESIZE_SEP(f, kFloat, 4, f32)
GI_RESIZE_SEP(f, kFloat, 8, u16)
GI_RESIZE_SEP(f, kFloat, 8, s16)
GI_RESIZE_SEP(f, kFloat, 8, f32)
GI_RESIZE_SEP(x8, kFix8, 2, u8)
GI_RESIZE_SEP(x8, kFix8, 4, u8)
GI_RESIZE_SEP(x8, kFix8, 8, u8)
GI_RESIZE_SEP(p, kPillow, 0, u8)
GI_RESIZE_SEP(ex, kExact, 2, u8)
GI_RESIZE_SEP(ex, kExact, 2, u16)
GI_RESIZE_SEP(ex, kExact, 2, s16)
