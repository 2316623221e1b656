// Image resizing with cv::resize's semantics (Go caller: resample/cuda.go; the tables
// come from resample/resize.go's resizePlan; the CPU twin is resample/cpu.go's
// resizeCPU, and both reproduce OpenCV 4.6's arithmetic, so 8-bit results are
// OpenCV's own).
//   gi_resize_gather_T        nearest and nearest-exact: 4 output elements a thread.
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

// gather: 4 consecutive output elements a thread, each copied from its source
// element, stored as one vector where aligned.
template <typename T>
__device__ __forceinline__ void gather(const ResizeParams& p) {
  constexpr int E = 4;
  const int w = p.dw * p.cn, x0 = (blockIdx.x * blockDim.x + threadIdx.x) * E;
  if (x0 >= w) return;
  int so[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int x = min(x0 + e, w - 1), dx = x / p.cn;
    so[e] = __ldg(p.xs + dx) * p.cn + x - dx * p.cn;
  }
  for (int y = blockIdx.y; y < p.dh; y += gridDim.y) {
    const T* s = row<T>(p.src, p.sp, __ldg(p.ys + y));
    Vec<T, E> out;
#pragma unroll
    for (int e = 0; e < E; ++e) out.v[e] = __ldg(s + so[e]);
    T* d = row<T>(p.dst, p.dp, y) + x0;
    if (x0 + E <= w && reinterpret_cast<size_t>(d) % sizeof(out) == 0) {
      *reinterpret_cast<Vec<T, E>*>(d) = out;
    } else {
#pragma unroll
      for (int e = 0; e < E; ++e)
        if (x0 + e < w) d[e] = out.v[e];
    }
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
// word (the staged kernel's any number of taps: kFloat's float, kPillow's clipped
// 8-bit value).
template <int MODE, typename T>
__device__ __forceinline__ unsigned hsum(const T* s, int st, int n, int sw, int cn, const float* w) {
  if (MODE == kFloat) {
    float acc = __fmul_rn((float)__ldg(s + clampi(st, sw) * cn), __ldg(w));
    for (int j = 1; j < n; ++j) acc = __fadd_rn(acc, __fmul_rn((float)__ldg(s + clampi(st + j, sw) * cn), __ldg(w + j)));
    return __float_as_uint(acc);
  }
  // Pillow's 8-bit pass: 22-bit taps, (sum + 2^21) >> 22 clipped to 0..255.
  int acc = 1 << 21;
  for (int j = 0; j < n; ++j) acc += (int)__ldg(s + clampi(st + j, sw) * cn) * (int)__ldg(w + j);
  return (unsigned)min(max(acc >> 22, 0), 255);
}

// hrow is one element's horizontal pass over its taps (K at most, n of them, at
// the precomputed element offsets off of row s) as a 32-bit word: a float
// (kFloat), Pillow's clipped 8-bit value, or the exact integer sum (its low 32
// bits: uint32 for 16U in kExact, int else; OpenCV's int wraps as it does).
template <int MODE, typename T, int K>
__device__ __forceinline__ unsigned hrow(const T* s, const int* off, const float* w, int n) {
  if (MODE == kFloat) {
    float acc = __fmul_rn((float)__ldg(s + off[0]), w[0]);
#pragma unroll
    for (int j = 1; j < K; ++j)
      if (j < n) acc = __fadd_rn(acc, __fmul_rn((float)__ldg(s + off[j]), w[j]));
    return __float_as_uint(acc);
  }
  unsigned acc = MODE == kPillow ? 1u << 21 : 0u;
#pragma unroll
  for (int j = 0; j < K; ++j)
    if (j < n) acc += (unsigned)(int)__ldg(s + off[j]) * (unsigned)(int)w[j];
  if (MODE == kPillow) return (unsigned)min(max((int)acc >> 22, 0), 255);
  return acc;
}

// vcomb is output element x from its rows' horizontal sums h[j * hs] and the
// vertical weights b (n of them, K at most; K = 0: any number).
template <int MODE, typename T, int K>
__device__ __forceinline__ T vcomb(const unsigned* h, int hs, const float* b, int n, int x, const ResizeParams& p) {
  const int k = K ? K : n;
  if (MODE == kFloat) {
    float acc = __fmul_rn(__uint_as_float(h[0]), b[0]);
#pragma unroll
    for (int j = 1; j < k; ++j)
      if (j < n) acc = __fadd_rn(acc, __fmul_rn(__uint_as_float(h[j * hs]), b[j]));
    return sat<T>(acc);
  }
  if (MODE == kPillow) {
    int acc = 1 << 21;
#pragma unroll
    for (int j = 0; j < k; ++j)
      if (j < n) acc += (int)h[j * hs] * (int)b[j];
    return sati<T>(acc >> 22);
  }
  if (MODE == kFix8) {
    if (p.simdkind == simdLinear) {
      // VResizeLinear's 8U arithmetic: (((h >> 4) * b) >> 16 summed, + 2) >> 2.
      int s = 0;
#pragma unroll
      for (int j = 0; j < k; ++j) s += (min(max((int)h[j * hs] >> 4, -32768), 32767) * (int)b[j]) >> 16;
      return sati<T>((min(max(s, -32768), 32767) + 2) >> 2);
    }
    if (x < p.simd) {
      // VResizeCubicVec_32s8u: float, products summed last to first.
      const float sc = 1.f / (2048.f * 2048.f);
      float acc = __fmul_rn((float)(int)h[(k - 1) * hs], __fmul_rn(b[k - 1], sc));
#pragma unroll
      for (int j = k - 2; j >= 0; --j) acc = __fadd_rn(__fmul_rn((float)(int)h[j * hs], __fmul_rn(b[j], sc)), acc);
      return sati<T>(__float2int_rn(acc));
    }
    int acc = 0;
#pragma unroll
    for (int j = 0; j < k; ++j) acc += (int)h[j * hs] * (int)b[j];
    return sati<T>((acc + (1 << 21)) >> 22);
  }
  // kExact: 8 fraction bits a pass for 8U, 16 for 16-bit.
  if (sizeof(T) == 1) {
    int acc = 0;
#pragma unroll
    for (int j = 0; j < k; ++j)
      if (j < n) acc += (int)h[j * hs] * (int)b[j];
    return sati<T>((acc + (1 << 15)) >> 16);
  }
  long long acc = 0;
#pragma unroll
  for (int j = 0; j < k; ++j) {
    const long long hv = (T)-1 > 0 ? (long long)h[j * hs] : (long long)(int)h[j * hs];
    if (j < n) acc += hv * (long long)b[j];
  }
  return sati<T>((int)max(min((acc + (1LL << 31)) >> 32, 65535LL), -32768LL));
}

// reg: a thread's E consecutive output elements down th output rows of a tile,
// the horizontal sums of the K source rows the current output row needs kept in
// registers and slid down as the rows advance (ystart never decreases), so each
// source row's pass is computed once per tile; the taps' element offsets (clamped)
// and weights in registers too. E elements are stored as one vector where aligned.
template <int MODE, typename T, int K, int E>
__device__ __forceinline__ void reg(const ResizeParams& p) {
  const int cn = p.cn, w = p.dw * cn;
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * E;
  if (x0 >= w) return;
  // The taps' element offsets: kept for few taps, recomputed (clamped) for many,
  // where the registers are better spent on the sums and weights.
  constexpr bool keep = K * E <= 16;
  int off[keep ? E : 1][keep ? K : 1], st[E], ch[E];
  float xw[E][K];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int x = min(x0 + e, w - 1);
    const int dx = x / cn;
    ch[e] = x - dx * cn;
    st[e] = __ldg(p.xstart + dx);
#pragma unroll
    for (int j = 0; j < K; ++j) {
      if (keep) off[keep ? e : 0][keep ? j : 0] = clampi(st[e] + j, p.sw) * cn + ch[e];
      xw[e][j] = j < p.nx ? __ldg(p.xw + dx * p.nx + j) : 0.f;
    }
  }
  const int y0 = blockIdx.y * p.th, y1 = min(y0 + p.th, p.dh);
  // Zeroed: the slide reads the rows it drops, and nvcc 11.8 miscompiled
  // the shift of an uninitialised register array (wrong results on the H100).
  unsigned h[K][E] = {};
  int first = -(1 << 30);  // the source row of h[0]
  for (int y = y0; y < y1; ++y) {
    const int sy = __ldg(p.ystart + y);
    int d = sy - first;
    if (d >= K) {
      first = sy - K;
      d = K;
    }
    for (; d > 0; --d) {  // slide one row: drop h[0], compute the next into h[K-1]
#pragma unroll
      for (int j = 0; j < K - 1; ++j)
#pragma unroll
        for (int e = 0; e < E; ++e) h[j][e] = h[j + 1][e];
      ++first;
      const T* s = row<T>(p.src, p.sp, clampi(first + K - 1, p.sh));
#pragma unroll
      for (int e = 0; e < E; ++e) {
        int o[K];
#pragma unroll
        for (int j = 0; j < K; ++j) o[j] = keep ? off[keep ? e : 0][keep ? j : 0] : clampi(st[e] + j, p.sw) * cn + ch[e];
        h[K - 1][e] = hrow<MODE, T, K>(s, o, xw[e], p.nx);
      }
    }
    float b[K];
#pragma unroll
    for (int j = 0; j < K; ++j) b[j] = j < p.ny ? __ldg(p.yw + (size_t)y * p.ny + j) : 0.f;
    Vec<T, E> out;
#pragma unroll
    for (int e = 0; e < E; ++e) {
      unsigned col[K];
#pragma unroll
      for (int j = 0; j < K; ++j) col[j] = h[j][e];
      out.v[e] = vcomb<MODE, T, K>(col, 1, b, p.ny, x0 + e, p);
    }
    T* d0 = row<T>(p.dst, p.dp, y) + x0;
    if (x0 + E <= w && (reinterpret_cast<size_t>(d0) % sizeof(out)) == 0) {
      *reinterpret_cast<Vec<T, E>*>(d0) = out;
    } else {
#pragma unroll
      for (int e = 0; e < E; ++e)
        if (x0 + e < w) d0[e] = out.v[e];
    }
  }
}

// sep: any number of taps (the steep shrinks of InterArea and Scale), a thread an
// output element: a tile of GI_RESIZE_TW elements by th rows first computes the
// horizontal pass of each source row it needs into shared memory, then the
// vertical pass; a tile of one row whose rows outnumber the stage (tr) stages
// them tr at a time, carrying the vertical sum in the same order.
template <int MODE, typename T>
__device__ __forceinline__ void sep(const ResizeParams& p) {
  extern __shared__ unsigned hs[];  // [tr][GI_RESIZE_TW]
  const int t = threadIdx.x, cn = p.cn;
  const int x = blockIdx.x * GI_RESIZE_TW + t;
  const bool in = x < p.dw * cn;
  const int dx = in ? x / cn : 0, c = x - dx * cn;
  const int st = __ldg(p.xstart + dx);
  const float* xw = p.xw + dx * p.nx;
  for (int y0 = blockIdx.y * p.th; y0 < p.dh; y0 += gridDim.y * p.th) {
    const int y1 = min(y0 + p.th, p.dh);
    const int rlo = __ldg(p.ystart + y0);
    const int nr = __ldg(p.ystart + y1 - 1) + p.ny - rlo;
    if (nr > p.tr) {
      float acc = 0.f;
      int iacc = 1 << 21;
      const float* b = p.yw + (size_t)y0 * p.ny;
      for (int r0 = 0; r0 < nr; r0 += p.tr) {
        const int n = min(p.tr, nr - r0);
        __syncthreads();
        for (int r = 0; in && r < n; ++r)
          hs[r * GI_RESIZE_TW + t] = hsum<MODE, T>(row<T>(p.src, p.sp, clampi(rlo + r0 + r, p.sh)) + c, st, p.nx, p.sw, cn, xw);
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
    for (int r = 0; in && r < nr; ++r)
      hs[r * GI_RESIZE_TW + t] = hsum<MODE, T>(row<T>(p.src, p.sp, clampi(rlo + r, p.sh)) + c, st, p.nx, p.sw, cn, xw);
    __syncthreads();
    for (int y = y0; in && y < y1; ++y) {
      const int r0 = __ldg(p.ystart + y) - rlo;
      row<T>(p.dst, p.dp, y)[x] = vcomb<MODE, T, 0>(hs + r0 * GI_RESIZE_TW + t, GI_RESIZE_TW, p.yw + (size_t)y * p.ny, p.ny, x, p);
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

#define GI_RESIZE_SEP(NAME, MODE, T)                                                                       \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_TW, 2) gi_resize_sep_##NAME##_##T(                \
      __grid_constant__ const ResizeParams p) {                                                            \
    resize::sep<resize::MODE, T>(p);                                                                       \
  }
GI_RESIZE_SEP(f, kFloat, u8)
GI_RESIZE_SEP(f, kFloat, u16)
GI_RESIZE_SEP(f, kFloat, s16)
GI_RESIZE_SEP(f, kFloat, f32)
GI_RESIZE_SEP(p, kPillow, u8)

#define GI_RESIZE_REG(NAME, MODE, K, E, T)                                                                 \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT) gi_resize_reg_##NAME##_##K##_##T(             \
      __grid_constant__ const ResizeParams p) {                                                            \
    resize::reg<resize::MODE, T, K, E>(p);                                                                 \
  }
GI_RESIZE_REG(x8, kFix8, 2, 4, u8)
GI_RESIZE_REG(x8, kFix8, 4, 4, u8)
GI_RESIZE_REG(x8, kFix8, 8, 2, u8)
GI_RESIZE_REG(ex, kExact, 2, 4, u8)
GI_RESIZE_REG(ex, kExact, 2, 4, u16)
GI_RESIZE_REG(ex, kExact, 2, 4, s16)
GI_RESIZE_REG(ex, kExact, 4, 4, u8)
GI_RESIZE_REG(ex, kExact, 4, 4, u16)
GI_RESIZE_REG(ex, kExact, 4, 4, s16)
GI_RESIZE_REG(f, kFloat, 4, 4, u8)
GI_RESIZE_REG(f, kFloat, 8, 2, u8)
GI_RESIZE_REG(p, kPillow, 4, 4, u8)
GI_RESIZE_REG(p, kPillow, 8, 2, u8)
#define GI_RESIZE_REGF(T)        \
  GI_RESIZE_REG(f, kFloat, 2, 4, T)  \
  GI_RESIZE_REG(f, kFloat, 4, 4, T)  \
  GI_RESIZE_REG(f, kFloat, 8, 2, T)
GI_RESIZE_REGF(u16)
GI_RESIZE_REGF(s16)
GI_RESIZE_REGF(f32)
