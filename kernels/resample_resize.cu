// Image resizing with cv::resize's semantics (Go caller: resample/cuda.go; the tables
// come from resample/resize.go's resizePlan; the CPU twin is resample/cpu.go's
// resizeCPU, and both reproduce OpenCV 4.6's arithmetic, so 8-bit results are
// OpenCV's own).
//   gi_resize_gather_T        nearest and nearest-exact: 4 output elements a thread
//                             (whole pixels of 2, 4, 8 or 16 bytes as one element:
//                             T u16, f32, w8, w16).
//   gi_resize_area_T          the integer-factor area average (resizeAreaFast_).
//   gi_resize_area2_TcCN      its 2x2 case (InterLinear's and InterArea's halving)
//                             for CN = 1, 3, 4: 8 output pixels a thread (4 of
//                             f32), 16-byte loads.
//   gi_resize_reg_MODE_K_T[cCN] separable filters of at most K = 2, 4 or 8 taps an
//                             axis (linear, cubic, Lanczos4, short area and Pillow
//                             filters): each thread E elements (a block width
//                             apart; consecutive for f; one for f1) down a tile
//                             of rows, the horizontal sums of the K source rows
//                             the current output row needs slid down in
//                             registers; cCN: CN channels (the taps' offsets
//                             constants), else any.
//   gi_resize_sep8_K_cCN[e2]  kFix8's plans of 2 or 4 taps (linear, cubic) for 8U
//                             of 1, 3 or 4 channels: 4 (e2: 2) consecutive output
//                             bytes a thread, stored as one word.
//   gi_resize_lin2x_u8cCN     InterLinear's 8-bit enlargement by exactly 2 (1, 3
//                             or 4 channels): VResizeLinear's result from its
//                             fixed weights in a few integer operations an
//                             element, 4 output pixels a thread down a tile.
//   gi_resize_cub2x_u8cCN,    InterCubic's 8-bit enlargement and shrink by
//   gi_resize_cubhalf_u8cCN   exactly 2 (1, 3 or 4 channels): the same weights
//                             for every pixel of a parity, read once; float
//                             sums on the FP32 pipe; 4 output pixels a thread
//                             down a tile.
//   gi_resize_tile_f_u8cCN,   a block a tile of 32 output pixels by a few rows, in
//   gi_resize_tile_x8_K_u8cCN one pass through shared memory: the tile's source
//                             rows staged by cp.async, the horizontal pass of each
//                             into shared memory, then the vertical one (f:
//                             InterArea's fractional 8-bit shrinks; x8: kFix8's
//                             cubic shrinks (K 4) and Lanczos4 (K 8), dp4a sums).
//   gi_resize_h[e]_MODE_T,    longer filters, in two passes through an intermediate
//   gi_resize_v_MODE_T        image of the output's width (Pillow's order): the
//                             horizontal pass of every source row (a thread a
//                             pixel; he: an element, for steep shrinks), then the
//                             vertical pass (E elements a thread; for p, 4 taps at
//                             a time by dp4a).
//   gi_resize_hw_p_K_u8cCN    Pillow's horizontal pass for 8U of CN channels and at
//                             most K taps: a pixel's taps read as whole words and
//                             summed 4 at a time by dp4a.
// MODE is the arithmetic: f, float in OpenCV's order, each product and sum
// rounded, no fused multiply-adds; x8, 8U fixed point with 11-bit taps; ex,
// INTER_LINEAR_EXACT's; p, Pillow's 8-bit fixed point (Scale), each pass rounded
// to 8 bits.
#include "common.cuh"
#include "resample_params.h"

namespace resize {

enum { kFloat = 0, kFix8 = 1, kExact = 2, kPillow = 3 };
enum { simdNone = 0, simdLinear = 1, simdCubic = 2 };

__device__ __forceinline__ int clampi(int i, int n) { return min(max(i, 0), n - 1); }

// gather: 4 consecutive output elements a thread, each copied from its source
// element, stored as one vector where aligned. The host moves whole pixels of 2,
// 4, 8 or 16 bytes as one element of that size (cn 1).
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
    // The block row by row (k = ky * ix + kx counts its elements in OpenCV's
    // order), each row's loads unrolled so that they are in flight together.
    int isum = 0;
    float fsum = 0.f, grp = 0.f;
    const int tail = n / 4 * 4;
    const T* s = row<T>(p.src, p.sp, sy0) + sx0 * cn + c;
    for (int ky = 0, k = 0; ky < p.iy; ++ky, s = reinterpret_cast<const T*>(reinterpret_cast<const char*>(s) + p.sp)) {
#pragma unroll 8
      for (int kx = 0; kx < p.ix; ++kx, ++k) {
        const T v = __ldg(s + kx * cn);
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
// elemOf is element i of type T of the 16-byte vectors v, as an int (float: its
// bits) (i constant after unrolling: a bit-field extract, no local memory).
template <typename T, int N>
__device__ __forceinline__ int elemOf(const uint4 (&v)[N], int i) {
  constexpr int S = sizeof(T), PER = 16 / S;
  const unsigned w = word(v[i / PER], (i % PER) * S / 4), sh = 8 * ((i * S) % 4);
  if (S == 4) return (int)w;
  if (S == 1) return (int)((w >> sh) & 0xffu);
  return (T)(-1) < (T)0 ? (int)(short)(w >> sh) : (int)((w >> sh) & 0xffffu);  // 16S: sign-extended
}

// area2: OpenCV's 2x2 fast path (InterLinear's and InterArea's halving) for CN
// channels of 8U, 16U and 16S ((sum + 2) >> 2) and 32F (the four summed in
// order, each sum rounded, times 0.25: areaAt's arithmetic), P output pixels a
// thread (8, or 4 of 32F) from 16-byte loads of the two source rows (src
// 16-byte aligned, dst to its stores: 8 bytes for 8U, else 16); the pixels past
// the last whole group, and the last row of an odd height, go to areaAt.
template <typename T, int CN>
__device__ __forceinline__ void area2(const ResizeParams& p) {
  constexpr int S = sizeof(T), P = S == 4 ? 4 : 8, V = P * 2 * CN * S / 16, NW = P * CN * S / 4;
  const int dx0 = (blockIdx.x * blockDim.x + threadIdx.x) * P;
  if (dx0 >= p.dw) return;
  const bool whole = dx0 + P <= p.sw / 2;
  for (int y = blockIdx.y; y < p.dh; y += gridDim.y) {
    if (whole && 2 * y + 2 <= p.sh) {
      const uint4* a = reinterpret_cast<const uint4*>(row<T>(p.src, p.sp, 2 * y) + dx0 * 2 * CN);
      const uint4* b = reinterpret_cast<const uint4*>(row<T>(p.src, p.sp, 2 * y + 1) + dx0 * 2 * CN);
      uint4 va[V], vb[V];
#pragma unroll
      for (int i = 0; i < V; ++i) va[i] = __ldg(a + i), vb[i] = __ldg(b + i);
      unsigned ow[NW] = {};
#pragma unroll
      for (int e = 0; e < P * CN; ++e) {
        const int k = e / CN, c = e % CN, i0 = 2 * k * CN + c, i1 = i0 + CN;  // output pixel k, channel c
        const int q0 = elemOf<T>(va, i0), q1 = elemOf<T>(va, i1), q2 = elemOf<T>(vb, i0), q3 = elemOf<T>(vb, i1);
        unsigned r;
        if (S == 4) {
          const float g = __fadd_rn(__fadd_rn(__fadd_rn(__int_as_float(q0), __int_as_float(q1)), __int_as_float(q2)), __int_as_float(q3));
          r = __float_as_uint(__fmul_rn(__fadd_rn(0.f, g), 0.25f));
        } else {
          r = (unsigned)((q0 + q1 + q2 + q3 + 2) >> 2) & (S == 1 ? 0xffu : 0xffffu);
        }
        ow[e * S / 4] |= r << (8 * ((e * S) % 4));
      }
      T* const d = row<T>(p.dst, p.dp, y) + dx0 * CN;
#pragma unroll
      for (int o = 0; o < NW; o += S == 1 ? 2 : 4) {
        if (S == 1)
          reinterpret_cast<uint2*>(d)[o / 2] = make_uint2(ow[o], ow[o + 1]);
        else
          reinterpret_cast<uint4*>(d)[o / 4] = make_uint4(ow[o], ow[o + 1], ow[o + 2], ow[o + 3]);
      }
    } else {
      for (int e = 0; e < P * CN && dx0 + e / CN < p.dw; ++e) areaAt<T>(p, dx0 * CN + e, y);
    }
  }
}

// HWeight is the type a register kernel keeps its horizontal weights in: float
// for kFloat, the fixed-point modes' integers else (converted once a thread).
template <int MODE> struct HWeight { typedef int type; };
template <> struct HWeight<kFloat> { typedef float type; };

// The taps' element offsets, as taps reads them: OffTab from a table (clamped at
// the image's edges), OffStride every CN elements from the element's first tap
// (inside the image: constants).
struct OffTab {
  const int* o;
  __device__ __forceinline__ int operator()(int j) const { return o[j]; }
};
template <int CN>
struct OffStride {
  __device__ __forceinline__ int operator()(int j) const { return j * CN; }
};

// taps loads one element's K taps (at the element offsets off(j) of s, which
// must lie in the image) as floats for kFloat and ints else.
template <int MODE, typename T, int K, typename Off>
__device__ __forceinline__ void taps(const T* s, const Off& off, typename HWeight<MODE>::type (&v)[K]) {
#pragma unroll
  for (int j = 0; j < K; ++j) v[j] = (typename HWeight<MODE>::type)__ldg(s + off(j));
}

// pillow8 is Pillow's 8-bit result of a pass's sum: >> 22, clipped to 0..255.
__device__ __forceinline__ int pillow8(int acc) { return min(max(acc >> 22, 0), 255); }

// hsumTaps is one element's horizontal pass over its taps v (K at most, n of them)
// as a 32-bit word: a float (kFloat), Pillow's clipped 8-bit value, or the exact
// integer sum (its low 32 bits: uint32 for 16U in kExact, int else; OpenCV's int
// wraps as it does). The integer modes' weights past n are zero, so all K taps
// are summed.
template <int MODE, int K, typename W>
__device__ __forceinline__ unsigned hsumTaps(const W (&v)[K], const W (&w)[K], int n) {
  if (MODE == kFloat) {
    float acc = __fmul_rn(v[0], w[0]);
#pragma unroll
    for (int j = 1; j < K; ++j)
      if (j < n) acc = __fadd_rn(acc, __fmul_rn(v[j], w[j]));
    return __float_as_uint(acc);
  }
  unsigned acc = MODE == kPillow ? 1u << 21 : 0u;
#pragma unroll
  for (int j = 0; j < K; ++j) acc += (unsigned)v[j] * (unsigned)w[j];
  if (MODE == kPillow) return (unsigned)pillow8((int)acc);
  return acc;
}

// RegW holds a row's K vertical weights in registers, in the forms vcomb's
// arithmetic wants, converted once a row for all of a thread's elements: f(j) the
// float weight, i(j) its integer value (the fixed-point modes' tables hold
// integers), s(j) the float scaled by 2^-22 (VResizeCubicVec_32s8u's).
template <int K>
struct RegW {
  float fv[K], sv[K];
  int iv[K];
  __device__ __forceinline__ RegW(const float* b, int n) {
#pragma unroll
    for (int j = 0; j < K; ++j) {
      fv[j] = j < n ? __ldg(b + j) : 0.f;
      iv[j] = (int)fv[j];
      sv[j] = __fmul_rn(fv[j], 1.f / (2048.f * 2048.f));
    }
  }
  __device__ __forceinline__ float f(int j) const { return fv[j]; }
  __device__ __forceinline__ int i(int j) const { return iv[j]; }
  __device__ __forceinline__ float s(int j) const { return sv[j]; }
};

// vcomb is output element x from its rows' horizontal sums h[j] and the vertical
// weights b (n of them, K at most). LIN: kFix8's VResizeLinear arithmetic (the
// register kernels decide once for all their elements).
template <int MODE, typename T, int K, bool LIN>
__device__ __forceinline__ T vcomb(const unsigned* h, const RegW<K>& b, int n, int x, const ResizeParams& p) {
  if (MODE == kFloat) {
    float acc = __fmul_rn(__uint_as_float(h[0]), b.f(0));
#pragma unroll
    for (int j = 1; j < K; ++j)
      if (j < n) acc = __fadd_rn(acc, __fmul_rn(__uint_as_float(h[j]), b.f(j)));
    return sat<T>(acc);
  }
  if (MODE == kPillow) {
    int acc = 1 << 21;
#pragma unroll
    for (int j = 0; j < K; ++j)
      if (j < n) acc += (int)h[j] * b.i(j);
    return sati<T>(acc >> 22);
  }
  if (MODE == kFix8) {
    if (LIN) {
      // VResizeLinear's 8U arithmetic: (((h >> 4) * b) >> 16 summed, + 2) >> 2.
      int s = 0;
#pragma unroll
      for (int j = 0; j < K; ++j) s += (min(max((int)h[j] >> 4, -32768), 32767) * b.i(j)) >> 16;
      return sati<T>((min(max(s, -32768), 32767) + 2) >> 2);
    }
    if (x < p.simd) {
      // VResizeCubicVec_32s8u: float, products summed last to first.
      float acc = __fmul_rn((float)(int)h[K - 1], b.s(K - 1));
#pragma unroll
      for (int j = K - 2; j >= 0; --j) acc = __fadd_rn(__fmul_rn((float)(int)h[j], b.s(j)), acc);
      return sati<T>(__float2int_rn(acc));
    }
    int acc = 0;
#pragma unroll
    for (int j = 0; j < K; ++j) acc += (int)h[j] * b.i(j);
    return sati<T>((acc + (1 << 21)) >> 22);
  }
  // kExact: 8 fraction bits a pass for 8U, 16 for 16-bit.
  if (sizeof(T) == 1) {
    int acc = 0;
#pragma unroll
    for (int j = 0; j < K; ++j)
      if (j < n) acc += (int)h[j] * b.i(j);
    return sati<T>((acc + (1 << 15)) >> 16);
  }
  long long acc = 0;
#pragma unroll
  for (int j = 0; j < K; ++j) {
    const long long hv = (T)-1 > 0 ? (long long)h[j] : (long long)(int)h[j];
    if (j < n) acc += hv * (long long)b.i(j);
  }
  return sati<T>((int)max(min((acc + (1LL << 31)) >> 32, 65535LL), -32768LL));
}

// Strided says where a register kernel thread's E elements lie: GI_RESIZE_RT
// apart (the fixed-point kernels: a warp's loads and stores of one tap cover
// consecutive elements) or consecutive (the float ones, stored as one vector: they
// measured faster so on the H100). xb is the thread's first element.
template <int MODE> struct Strided { static constexpr bool value = MODE != kFloat; };
template <int MODE, int E>
__device__ __forceinline__ int regFirst() {
  return Strided<MODE>::value ? blockIdx.x * GI_RESIZE_RT * E + threadIdx.x : (blockIdx.x * GI_RESIZE_RT + threadIdx.x) * E;
}
template <int MODE>
__device__ __forceinline__ int regElem(int xb, int e) {
  return Strided<MODE>::value ? xb + e * GI_RESIZE_RT : xb + e;
}

// regRow stores a register kernel thread's E elements of output row d.
template <int MODE, typename T, int K, int E, bool LIN>
__device__ __forceinline__ void regRow(const unsigned (&h)[K][E], const RegW<K>& b, const ResizeParams& p, int xb, int w, T* d) {
  Vec<T, E> out;
#pragma unroll
  for (int e = 0; e < E; ++e) {
    unsigned col[K];
#pragma unroll
    for (int j = 0; j < K; ++j) col[j] = h[j][e];
    out.v[e] = vcomb<MODE, T, K, LIN>(col, b, p.ny, regElem<MODE>(xb, e), p);
  }
  if (!Strided<MODE>::value && xb + E <= w && reinterpret_cast<size_t>(d + xb) % sizeof(out) == 0) {
    *reinterpret_cast<Vec<T, E>*>(d + xb) = out;
    return;
  }
#pragma unroll
  for (int e = 0; e < E; ++e)
    if (regElem<MODE>(xb, e) < w) d[regElem<MODE>(xb, e)] = out.v[e];
}

// reg: E output elements a thread (where: Strided) down th output rows of a tile;
// the horizontal sums of the K source rows the current output row needs kept in
// registers and slid down as the rows advance (ystart never decreases), so each
// source row's pass is computed once per tile; the weights in registers too,
// converted once (a row's vertical weights once for the thread's E elements). A
// thread of a kernel for CN channels whose taps all lie inside the image (all but
// the edges) reads them every CN elements from its element's first tap (immediate
// offsets); the others (and every thread for any cn, CN 0) through the clamped
// offsets.
template <int MODE, typename T, int K, int E, int CN>
__device__ __forceinline__ void reg(const ResizeParams& p) {
  typedef typename HWeight<MODE>::type W;
  const int cn = CN ? CN : p.cn, w = p.dw * cn;
  const int xb = regFirst<MODE, E>();
  if (xb >= w) return;
  const T* const src = static_cast<const T*>(p.src);
  const int sp = p.sp, sw = p.sw, sh = p.sh;
  // The clamped offsets: kept for few taps, recomputed for many, where the
  // registers are better spent on the sums and weights.
  constexpr bool keep = K * E <= 16;
  int first0[E], st[E], ch[E], off[keep ? E : 1][keep ? K : 1];
  W xw[E][K];
  bool inside = CN != 0;  // without a fixed CN the table of offsets is as fast
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int x = min(regElem<MODE>(xb, e), w - 1);
    const int dx = x / cn;
    ch[e] = x - dx * cn;
    st[e] = __ldg(p.xstart + dx);
    inside = inside && st[e] >= 0 && st[e] + K <= sw;
    first0[e] = st[e] * cn + ch[e];
#pragma unroll
    for (int j = 0; j < K; ++j) {
      if (keep) off[keep ? e : 0][keep ? j : 0] = clampi(st[e] + j, sw) * cn + ch[e];
      xw[e][j] = (W)(j < p.nx ? __ldg(p.xw + dx * p.nx + j) : 0.f);
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
      const T* s = row<T>(src, sp, clampi(first + K - 1, sh));
      W v[K];
      if (inside) {
#pragma unroll
        for (int e = 0; e < E; ++e) {
          taps<MODE, T, K>(s + first0[e], OffStride<CN ? CN : 1>{}, v);  // inside: CN != 0
          h[K - 1][e] = hsumTaps<MODE, K>(v, xw[e], p.nx);
        }
      } else {
#pragma unroll
        for (int e = 0; e < E; ++e) {
          int o[K];
#pragma unroll
          for (int j = 0; j < K; ++j) o[j] = keep ? off[keep ? e : 0][keep ? j : 0] : clampi(st[e] + j, sw) * cn + ch[e];
          taps<MODE, T, K>(s, OffTab{o}, v);
          h[K - 1][e] = hsumTaps<MODE, K>(v, xw[e], p.nx);
        }
      }
    }
    const RegW<K> b(p.yw + (size_t)y * p.ny, p.ny);
    T* out = row<T>(p.dst, p.dp, y);
    if (MODE == kFix8 && p.simdkind == simdLinear)
      regRow<MODE, T, K, E, true>(h, b, p, xb, w, out);
    else
      regRow<MODE, T, K, E, false>(h, b, p, xb, w, out);
  }
}

// sep8: kFix8's plans of K = 2 (linear, enlarging area) or 4 (cubic) taps an axis
// for 8U of CN = 1, 3 or 4 channels, E consecutive output bytes a thread (4, or 2
// for cubic shrinks) stored as one word, down the tile's rows: the horizontal sums
// of the K source rows the current output row needs kept in registers and slid
// down (each source row's pass once a tile), the tile's rows (source row,
// vertical weights) staged in shared memory first. A thread whose taps all lie
// inside the image reads them CN bytes apart from its elements' first taps
// (immediate offsets); the others (at the image's edges) clamp each tap's column.
//   K = 2: VResizeLinear's arithmetic, with weights the host checked to be
//   non-negative and to sum to at most 2050 an axis (resample/cuda.go's
//   resizeSep8): there its clamps cannot act (a horizontal sum is at most
//   255 * 2050, so h >> 4 < 2^15; the vertical sum of ((h >> 4) * b) >> 16 is at
//   most 1021, 255 once rounded), so they are left out, and each
//   ((h >> 4) * b) >> 16 is the high word of (h >> 4) * (b << 16).
//   K = 4: VResizeCubicVec_32s8u's float arithmetic for the row's first p.simd
//   elements (a multiple of 8: a thread's elements all lie on one side; its sums
//   kept as floats there), the integer (sum + 2^21) >> 22 past them, as vcomb.
template <int K, int E, int CN>
__device__ __forceinline__ void sep8(const ResizeParams& p) {
  static_assert((E == 4 || (E == 2 && K == 4)) && (K == 2 || K == 4) && CN > 0, "sep8: 4 elements (2 for cubic), 2 or 4 taps, 1-4 channels");
  __shared__ int rsy[GI_RESIZE_THMAX];
  __shared__ __align__(16) int rbi[GI_RESIZE_THMAX][K];    // K = 2: b << 16; else b
  __shared__ __align__(16) float rbs[K == 4 ? GI_RESIZE_THMAX : 1][K];  // b * 2^-22
  const int y0 = blockIdx.y * p.th, n = min(p.th, p.dh - y0);
  for (int i = threadIdx.x; i < n; i += GI_RESIZE_RT) {
    const int y = y0 + i;
    rsy[i] = __ldg(p.ystart + y);
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const float b = __ldg(p.yw + K * y + j);
      rbi[i][j] = K == 2 ? (int)b << 16 : (int)b;
      if (K == 4) rbs[K == 4 ? i : 0][j] = __fmul_rn(b, 1.f / (2048.f * 2048.f));
    }
  }
  __syncthreads();
  const int w = p.dw * CN, xb = (blockIdx.x * GI_RESIZE_RT + threadIdx.x) * E;
  if (xb >= w) return;
  const int sw = p.sw, sh = p.sh, sp = p.sp;
  const u8* const src = static_cast<const u8*>(p.src);
  unsigned o0[E];  // element e's first tap (inside)
  int a[K][E];
  bool inside = true;
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int x = min(xb + e, w - 1), dx = x / CN, st = __ldg(p.xstart + dx);
    inside = inside && st >= 0 && st + K <= sw;
    o0[e] = st * CN + x - dx * CN;
#pragma unroll
    for (int j = 0; j < K; ++j) a[j][e] = (int)__ldg(p.xw + K * dx + j);
  }
  const bool vec = K == 4 && xb < p.simd;  // the cubic float arithmetic, its sums kept as floats
  // hrow: the horizontal sums of source row y (clamped) into h (>> 4 for K = 2).
  // The row's address is taken once (the empty asm keeps nvcc from folding the
  // row's multiply into every tap's address).
  int h[K][E] = {};  // h[j]: source row first + j; zeroed: see reg
  auto hrow = [&](int y, int(&h)[E]) {
    const u8* s = src + (size_t)clampi(y, sh) * sp;
    asm("" : "+l"(s));
    if (inside) {
#pragma unroll
      for (int e = 0; e < E; ++e) {
        int acc = 0;
#pragma unroll
        for (int j = 0; j < K; ++j) acc += (int)__ldg(s + o0[e] + j * CN) * a[j][e];
        h[e] = K == 2 ? acc >> 4 : K == 4 && vec ? __float_as_int((float)acc) : acc;
      }
    } else {
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const int x = min(xb + e, w - 1), dx = x / CN, c = x - dx * CN, st = __ldg(p.xstart + dx);
        int acc = 0;
#pragma unroll
        for (int j = 0; j < K; ++j) acc += (int)__ldg(s + clampi(st + j, sw) * CN + c) * a[j][e];
        h[e] = K == 2 ? acc >> 4 : K == 4 && vec ? __float_as_int((float)acc) : acc;
      }
    }
  };
  // shift drops the first m rows' sums (m constant after unrolling).
  auto shift = [&](int m) {
#pragma unroll
    for (int j = 0; j < K; ++j)
#pragma unroll
      for (int e = 0; e < E; ++e)
        if (j + m < K) h[j][e] = h[j + m][e];
  };
  int first = -(1 << 30);
  u8* d = static_cast<u8*>(p.dst) + (size_t)y0 * p.dp + xb;
  const bool whole = xb + E <= w;
  for (int i = 0; i < n; ++i, d += p.dp) {
    const int sy = rsy[i];
    const int k = sy - first;
    // The rows the sums move on by: one or two at a time in straight-line code
    // (their loads issued together), all K afresh, or a loop.
    if (k == 1) {
      shift(1);
      hrow(sy + K - 1, h[K - 1]);
    } else if (k == 2 && K > 2) {
      shift(2);
      hrow(sy + K - 2, h[K - 2]);
      hrow(sy + K - 1, h[K - 1]);
    } else if (k != 0) {
      if (k < 0 || k >= K) {
#pragma unroll
        for (int j = 0; j < K; ++j) hrow(sy + j, h[j]);
      } else {
        for (int m = 0; m < k; ++m) {
          shift(1);
          hrow(first + K + m, h[K - 1]);
        }
      }
    }
    first = sy;
    unsigned word = 0;
    if (K == 2) {
      const int2 b = *reinterpret_cast<const int2*>(rbi[i]);
#pragma unroll
      for (int e = 0; e < E; ++e)
        word |= ((__umulhi((unsigned)h[0][e], (unsigned)b.x) + __umulhi((unsigned)h[K - 1][e], (unsigned)b.y) + 2) >> 2) << (8 * e);
    } else if (K == 4 && vec) {
      const float4 b = *reinterpret_cast<const float4*>(rbs[K == 4 ? i : 0]);
      const float bs[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
      for (int e = 0; e < E; ++e) {
        float acc = __fmul_rn(__int_as_float(h[K - 1][e]), bs[K - 1]);
#pragma unroll
        for (int j = K - 2; j >= 0; --j) acc = __fadd_rn(__fmul_rn(__int_as_float(h[j][e]), bs[j]), acc);
        word |= (unsigned)sati<u8>(__float2int_rn(acc)) << (8 * e);
      }
    } else {
      int bi[K];
#pragma unroll
      for (int j = 0; j < K; j += 4) {
        const int4 b = *reinterpret_cast<const int4*>(&rbi[i][j]);
        bi[j] = b.x, bi[j + 1] = b.y, bi[j + 2] = b.z, bi[j + 3] = b.w;
      }
#pragma unroll
      for (int e = 0; e < E; ++e) {
        int acc = 0;
#pragma unroll
        for (int j = 0; j < K; ++j) acc += h[j][e] * bi[j];
        word |= (unsigned)sati<u8>((acc + (1 << 21)) >> 22) << (8 * e);
      }
    }
    if (whole && reinterpret_cast<size_t>(d) % E == 0) {
      if (E == 4)
        *reinterpret_cast<unsigned*>(d) = word;
      else
        *reinterpret_cast<unsigned short*>(d) = (unsigned short)word;
    } else {
#pragma unroll
      for (int e = 0; e < E; ++e)
        if (xb + e < w) d[e] = (u8)(word >> (8 * e));
    }
  }
}

// lin2x: InterLinear's 8-bit enlargement by exactly 2 on both axes, CN = 1, 3 or 4
// channels (resample/cuda.go's resizeLin2x checks the plan). Output column 2i + b
// takes 3/4 of source pixel i and 1/4 of pixel i - 1 + 2b, clamped to the row
// (VResizeLinear's weights 1536 and 512; 2048 on one pixel at the edges, the same
// sum): a horizontal sum 512 A, A = s[far] + 3 s[near], that VResizeLinear's
// vector arithmetic shifts to 32 A. Output row 2j + b takes source rows j - 1 + b
// and j + b (clamped), weighted 512 and 1536 (b = 0) or 1536 and 512 (b = 1), and
// ((32 A * w) >> 16) is then L = A >> 2 for 512 and M = 3A >> 2 for 1536, so
//   out(2j) = (L[j - 1] + M[j] + 2) >> 2,  out(2j + 1) = (M[j] + L[j + 1] + 2) >> 2,
// VResizeLinear's result to the bit, in a few integer operations an element
// instead of the general kernel's weight loads and products. A thread takes 4
// output pixels (source pixels 2t - 1 .. 2t + 2) down p.th output rows (even, from
// an even row): each source row's L and M once for the two output rows on either
// side of it.
template <int CN>
__device__ __forceinline__ void lin2x(const ResizeParams& p) {
  constexpr int NE = 4 * CN;  // a thread's output elements
  const int t = blockIdx.x * GI_RESIZE_RT + threadIdx.x;
  if (4 * t >= p.dw) return;
  const int sw = p.sw, sh = p.sh, sp = p.sp;
  const int q[4] = {clampi(2 * t - 1, sw) * CN, clampi(2 * t, sw) * CN, clampi(2 * t + 1, sw) * CN, clampi(2 * t + 2, sw) * CN};
  const u8* const src = static_cast<const u8*>(p.src);
  // row: source row j's L (l) and M (m) of the thread's elements.
  auto row = [&](int j, int(&l)[NE], int(&m)[NE]) {
    const u8* s = src + (size_t)clampi(j, sh) * sp;
    asm("" : "+l"(s));  // one address a row, the taps at immediate offsets from it
#pragma unroll
    for (int c = 0; c < CN; ++c) {
      const int s0 = __ldg(s + q[0] + c), s1 = __ldg(s + q[1] + c), s2 = __ldg(s + q[2] + c), s3 = __ldg(s + q[3] + c);
      const int t1 = 3 * s1, t2 = 3 * s2;
      const int a[4] = {s0 + t1, t1 + s2, s1 + t2, t2 + s3};
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        l[k * CN + c] = a[k] >> 2;
        m[k * CN + c] = (int)__umulhi((unsigned)a[k], 0xC0000000u);  // floor(3a / 4)
      }
    }
  };
  const int w = p.dw * CN, e0 = NE * t;
  const bool whole = e0 + NE <= w && (reinterpret_cast<size_t>(p.dst) + e0) % 4 == 0;  // the host checks p.dp % 4
  // emit stores (u[e] + v[e] + 2) >> 2 at d, the thread's elements of an output
  // row, and moves d on to the next row.
  const int dp = p.dp;
  auto emit = [&](u8*& d, const int(&u)[NE], const int(&v)[NE]) {
    unsigned word[NE / 4];
#pragma unroll
    for (int g = 0; g < NE / 4; ++g) {
      word[g] = 0;
#pragma unroll
      for (int k = 0; k < 4; ++k) word[g] |= (unsigned)((u[4 * g + k] + v[4 * g + k] + 2) >> 2) << (8 * k);
    }
    if (whole) {
#pragma unroll
      for (int g = 0; g < NE / 4; ++g) reinterpret_cast<unsigned*>(d)[g] = word[g];
    } else {
#pragma unroll
      for (int e = 0; e < NE; ++e)
        if (e0 + e < w) d[e] = (u8)(word[e / 4] >> (8 * (e % 4)));
    }
    d += dp;
  };
  const int y0 = blockIdx.y * p.th, y1 = min(y0 + p.th, p.dh);  // both even
  u8* d = static_cast<u8*>(p.dst) + (size_t)y0 * dp + e0;
  // Source rows j - 1 and j in a and b by turns (no copies between them).
  int la[NE], ma[NE], lb[NE], mb[NE];
  int j = y0 / 2;
  row(j - 1, la, ma);
  row(j, lb, mb);
  emit(d, la, mb);  // out(2j)
  for (;;) {
    row(++j, la, ma);
    emit(d, mb, la);  // out(2j - 1)
    if (2 * j >= y1) break;
    emit(d, lb, ma);  // out(2j)
    row(++j, lb, mb);
    emit(d, ma, lb);
    if (2 * j >= y1) break;
    emit(d, la, mb);
  }
}

// fixedRows is the output rows [y0, y1) of the fixed-weight cubic kernels' block
// row blockIdx.y: the dh rows split evenly among gridDim.y block rows (one wave of
// blocks, each as much work), bounds even where Even (cub2x starts on an even row;
// its dh is even). Empty where gridDim.y > dh / 2 (the host avoids it).
template <bool Even>
__device__ __forceinline__ void fixedRows(int dh, int& y0, int& y1) {
  const long long b = blockIdx.y, n = gridDim.y;
  y0 = (int)(b * dh / n), y1 = (int)((b + 1) * dh / n);
  if (Even) y0 &= ~1, y1 &= ~1;
}

// The fixed-weight cubic kernels below (cub2x, cubhalf) keep their arithmetic on
// the FP32 pipe: a byte becomes a float from its bits (u8f) and a sum becomes a
// byte by a rounding add (rnu8), where __float2int_rn and (float)int would issue
// on the conversion unit, at an eighth of the FP32 rate on sm_80 and sm_90.
// u8f is float(b) for b the low byte of x (the rest of x zero) or for the bits
// 2^23 + b (f8bits): 2^23 + b, less 2^23, exact.
__device__ __forceinline__ float u8f(unsigned bits) { return __fsub_rn(__uint_as_float(bits), 8388608.f); }
__device__ __forceinline__ unsigned f8bits(unsigned b) { return 0x4B000000u | b; }
// byteBits is the bits 2^23 + byte k (0..3) of word w, for u8f: one byte permute.
__device__ __forceinline__ unsigned byteBits(unsigned w, int k) { return __byte_perm(w, 0x4B000000u, 0x7440 + k); }
// rnu8 is cvRound(x) saturated to 0..255 in the low byte of its result (the high
// bytes are not zero; pack4 takes the low ones), from y = x * 2^-8: y saturated
// to 0..1 (a FADD.SAT where the caller's last add is fused in) and held to
// 255/256, x so clamped to 0..255 (which commutes with the rounding); then
// y + 1.5 * 2^15 rounds y to a multiple of 2^-8 half to even, so its last bits
// are x rounded. (Held to 255 after the add instead, as an integer minimum,
// ptxas 11.8 dropped the minimum.)
__device__ __forceinline__ unsigned rnu8(float y) {
  return __float_as_uint(__fadd_rn(fminf(__saturatef(y), 255.f / 256.f), 49152.f));
}
// pack4 is the word of the low bytes of a, b, c and d, a lowest.
__device__ __forceinline__ unsigned pack4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return __byte_perm(__byte_perm(a, b, 0x0040), __byte_perm(c, d, 0x0040), 0x5410);
}

// CubicTaps is a fixed-weight cubic kernel's vertical weights: as floats scaled by
// 2^-30 (VResizeCubicVec_32s8u's 2^-22, and 2^-8 for rnu8: a power of two, so
// every product and sum is OpenCV's scaled exactly) and as the integers of the
// scalar tail.
struct CubicTaps {
  float f[4];
  int i[4];
  __device__ __forceinline__ void load(const float* w) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float b = __ldg(w + j);
      f[j] = __fmul_rn(b, 1.f / (2048.f * 2048.f * 256.f)), i[j] = (int)b;
    }
  }
};

// cubicRow stores the vertical pass over the horizontal sums of four source rows
// (r0..r3, exact integers as floats) of a thread's NE output elements, from
// element e0 of a w-element row at d: VResizeCubicVec_32s8u's float arithmetic
// for elements before simd (each product and sum rounded, in its order, the sum
// rounded half to even: rnu8, the sum scaled by 2^-8), past it the integer (sum + 2^21) >> 22 (as sep8), each
// saturated; whole: all NE elements lie in the row and d is 4-byte aligned.
template <int NE>
__device__ __forceinline__ void cubicRow(u8* d, int e0, int w, int simd, bool whole, const float (&r0)[NE],
                                         const float (&r1)[NE], const float (&r2)[NE], const float (&r3)[NE],
                                         const CubicTaps& b) {
  unsigned v[NE];
  if (e0 + NE <= simd) {
#pragma unroll
    for (int e = 0; e < NE; ++e) {
      float acc = __fmul_rn(r3[e], b.f[3]);
      acc = __fadd_rn(__fmul_rn(r2[e], b.f[2]), acc);
      acc = __fadd_rn(__fmul_rn(r1[e], b.f[1]), acc);
      v[e] = rnu8(__fadd_rn(__fmul_rn(r0[e], b.f[0]), acc));
    }
  } else {
#pragma unroll
    for (int e = 0; e < NE; ++e) {
      if (e0 + e < simd) {
        float acc = __fmul_rn(r3[e], b.f[3]);
        acc = __fadd_rn(__fmul_rn(r2[e], b.f[2]), acc);
        acc = __fadd_rn(__fmul_rn(r1[e], b.f[1]), acc);
        v[e] = rnu8(__fadd_rn(__fmul_rn(r0[e], b.f[0]), acc));
      } else {
        const int acc = __float2int_rz(r0[e]) * b.i[0] + __float2int_rz(r1[e]) * b.i[1] +
                        __float2int_rz(r2[e]) * b.i[2] + __float2int_rz(r3[e]) * b.i[3];
        v[e] = sati<u8>((acc + (1 << 21)) >> 22);
      }
    }
  }
  if (whole) {
#pragma unroll
    for (int g = 0; g < NE / 4; ++g)
      reinterpret_cast<unsigned*>(d)[g] = pack4(v[4 * g], v[4 * g + 1], v[4 * g + 2], v[4 * g + 3]);
  } else {
#pragma unroll
    for (int e = 0; e < NE; ++e)
      if (e0 + e < w) d[e] = (u8)v[e];
  }
}

// cub2x: InterCubic's 8-bit enlargement by exactly 2 on both axes, CN = 1, 3 or 4
// channels (resample/fixed.go's resizeFixed checks the plan): output column 2i + b
// reads source pixels i - 2 + b .. i + 1 + b (clamped) with the weights of output
// column b (p.xw[4b ..]: the same for every column of its parity), output row
// 2j + b rows j - 2 + b .. j + 1 + b with those of output row b (p.yw[4b ..]). So
// output rows 2r + 1 and 2r + 2 both read rows r - 1 .. r + 2, and a thread's 4
// output pixels (4t .. 4t + 3) source pixels 2t - 2 .. 2t + 3: each source row's
// horizontal sums (float, exact) serve two output rows, and a thread walks down
// its block's rows (fixedRows: even bounds) with four rows' sums in registers,
// rotated without copies.
template <int CN>
__device__ __forceinline__ void cub2x(const ResizeParams& p) {
  constexpr int NE = 4 * CN;  // a thread's output elements
  const int t = blockIdx.x * GI_RESIZE_FT + threadIdx.x;
  if (4 * t >= p.dw) return;
  const int sw = p.sw, sh = p.sh, sp = p.sp;
  float xe[4], xo[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) xe[j] = __ldg(p.xw + j), xo[j] = __ldg(p.xw + 4 + j);
  CubicTaps ye, yo;
  ye.load(p.yw), yo.load(p.yw + 4);
  int q[6];
#pragma unroll
  for (int i = 0; i < 6; ++i) q[i] = clampi(2 * t - 2 + i, sw) * CN;
  const u8* const src = static_cast<const u8*>(p.src);
  auto row = [&](int j, float(&h)[NE]) {
    const u8* s = src + (size_t)clampi(j, sh) * sp;
    asm("" : "+l"(s));
#pragma unroll
    for (int c = 0; c < CN; ++c) {
      float v[6];
#pragma unroll
      for (int i = 0; i < 6; ++i) v[i] = u8f(f8bits(__ldg(s + q[i] + c)));
#pragma unroll
      for (int k = 0; k < 4; ++k) {  // pixel 4t + k: taps from v[k / 2 + k % 2]
        const float* x = k % 2 ? xo : xe;
        const int o = k / 2 + k % 2;
        h[k * CN + c] = fmaf(v[o + 3], x[3], fmaf(v[o + 2], x[2], fmaf(v[o + 1], x[1], v[o] * x[0])));
      }
    }
  };
  const int w = p.dw * CN, e0 = NE * t, simd = p.simd, dp = p.dp;
  const bool whole = e0 + NE <= w && (reinterpret_cast<size_t>(p.dst) + e0) % 4 == 0;  // the host checks p.dp % 4
  int y0, y1;
  fixedRows<true>(p.dh, y0, y1);
  if (y0 >= y1) return;
  u8* d = static_cast<u8*>(p.dst) + (size_t)y0 * dp + e0;
  auto out = [&](const float(&a)[NE], const float(&b)[NE], const float(&c)[NE], const float(&e)[NE], const CubicTaps& y) {
    cubicRow<NE>(d, e0, w, simd, whole, a, b, c, e, y);
    d += dp;
  };
  // Rows j0 - 2 .. j0 + 1 in h0 .. h3 for output row y0 = 2 j0; then each new row
  // replaces the oldest.
  float h0[NE], h1[NE], h2[NE], h3[NE];
  int j = y0 / 2 - 2;
  row(j, h0), row(j + 1, h1), row(j + 2, h2), row(j + 3, h3);
  out(h0, h1, h2, h3, ye);
  for (int y = y0 + 1;; y += 8) {
    row(j + 4, h0);
    out(h1, h2, h3, h0, yo);
    if (y + 1 >= y1) break;
    out(h1, h2, h3, h0, ye);
    row(j + 5, h1);
    out(h2, h3, h0, h1, yo);
    if (y + 3 >= y1) break;
    out(h2, h3, h0, h1, ye);
    row(j + 6, h2);
    out(h3, h0, h1, h2, yo);
    if (y + 5 >= y1) break;
    out(h3, h0, h1, h2, ye);
    row(j + 7, h3);
    out(h0, h1, h2, h3, yo);
    if (y + 7 >= y1) break;
    out(h0, h1, h2, h3, ye);
    j += 4;
  }
}

// cubhalf: InterCubic's 8-bit shrink by exactly 2 on both axes, CN = 1, 3 or 4
// channels (resample/fixed.go's resizeFixed checks the plan): output column i reads
// source pixels 2i - 1 .. 2i + 2 (clamped) and output row y rows 2y - 1 .. 2y + 2,
// every one with the same weights (p.xw[0 ..], p.yw[0 ..]). A group g of 4 output
// pixels (4g .. 4g + 3) reads source pixels 8g - 1 .. 8g + 8. Groups 1 .. p.gin - 1
// read them as CN + 2 aligned 8-byte words from byte 8g * CN - 8, inside the row
// (the host checks that the source's rows are 8-byte aligned), their bytes
// picked by permutes: a thread a group, walking down its block's rows (fixedRows),
// each output row taking two new source rows' horizontal sums, four rows' sums in
// registers. The others (group 0, whose first pixel is clamped, and those at the
// row's end) are the last block column's, a thread an output pixel group and row
// at a time, a byte at a time, clamped: apart, so that no warp of the word path
// also runs the byte path (a warp that ran both took a third longer, and held
// up the whole grid: 4K -> 1080p 8UC3 21.5 us, 15.9 without them, H200).
template <int CN>
__device__ __forceinline__ void cubhalf(const ResizeParams& p) {
  constexpr int NE = 4 * CN, NP = 10, NW = CN + 2;
  int y0, y1;
  fixedRows<false>(p.dh, y0, y1);
  if (y0 >= y1) return;
  const int sw = p.sw, sh = p.sh, sp = p.sp, w = p.dw * CN, simd = p.simd, dp = p.dp;
  float xw[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) xw[j] = __ldg(p.xw + j);
  CubicTaps yw;
  yw.load(p.yw);
  const u8* const src = static_cast<const u8*>(p.src);
  // hsums sets h to the horizontal sums of a row whose pixel 8g - 1 + i has byte c
  // in b[i * CN + c] (f8bits).
  auto hsums = [&](const unsigned(&b)[NP * CN], float(&h)[NE]) {
#pragma unroll
    for (int c = 0; c < CN; ++c) {
      float v[NP];
#pragma unroll
      for (int i = 0; i < NP; ++i) v[i] = u8f(b[i * CN + c]);
#pragma unroll
      for (int k = 0; k < 4; ++k)
        h[k * CN + c] = fmaf(v[2 * k + 3], xw[3], fmaf(v[2 * k + 2], xw[2], fmaf(v[2 * k + 1], xw[1], v[2 * k] * xw[0])));
    }
  };
  // whole: a group's elements all lie in the row, 4-byte aligned (the host checks p.dp % 4).
  auto whole = [&](int e0) { return e0 + NE <= w && (reinterpret_cast<size_t>(p.dst) + e0) % 4 == 0; };
  if (blockIdx.x == gridDim.x - 1) {  // the byte path's groups: 0, then lo .. ng - 1
    const int ng = (p.dw + 3) / 4, lo = max(p.gin, 1), ne = 1 + max(0, ng - lo);
    for (int i = threadIdx.x; i < ne * (y1 - y0); i += GI_RESIZE_FT) {
      const int e = i % ne, g = e == 0 ? 0 : lo + e - 1, y = y0 + i / ne, e0 = NE * g;
      int q[NP];
#pragma unroll
      for (int k = 0; k < NP; ++k) q[k] = clampi(8 * g - 1 + k, sw) * CN;
      float h[4][NE];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const u8* s = src + (size_t)clampi(2 * y - 1 + r, sh) * sp;
        unsigned b[NP * CN];
#pragma unroll
        for (int k = 0; k < NP * CN; ++k) b[k] = f8bits(__ldg(s + q[k / CN] + k % CN));
        hsums(b, h[r]);
      }
      cubicRow<NE>(static_cast<u8*>(p.dst) + (size_t)y * dp + e0, e0, w, simd, whole(e0), h[0], h[1], h[2], h[3], yw);
    }
    return;
  }
  const int g = blockIdx.x * GI_RESIZE_FT + threadIdx.x + 1, e0 = NE * g;
  if (g >= p.gin) return;
  const bool full = whole(e0);
  // row sets h to the horizontal sums of source row j, from its words.
  auto row = [&](int j, float(&h)[NE]) {
    const uint2* wp = reinterpret_cast<const uint2*>(src + (size_t)clampi(j, sh) * sp + 8 * g * CN - 8);
    unsigned u[2 * NW];
#pragma unroll
    for (int k = 0; k < NW; ++k) {
      const uint2 x = __ldg(wp + k);
      u[2 * k] = x.x, u[2 * k + 1] = x.y;
    }
    unsigned b[NP * CN];
#pragma unroll
    for (int i = 0; i < NP * CN; ++i) b[i] = byteBits(u[(i + 8 - CN) / 4], (i + 8 - CN) % 4);
    hsums(b, h);
  };
  u8* d = static_cast<u8*>(p.dst) + (size_t)y0 * dp + e0;
  float h0[NE], h1[NE], h2[NE], h3[NE];
  row(2 * y0 - 1, h0), row(2 * y0, h1), row(2 * y0 + 1, h2), row(2 * y0 + 2, h3);
  for (int y = y0;; y += 2) {
    cubicRow<NE>(d, e0, w, simd, full, h0, h1, h2, h3, yw);
    d += dp;
    if (y + 1 >= y1) break;
    row(2 * y + 3, h0), row(2 * y + 4, h1);
    cubicRow<NE>(d, e0, w, simd, full, h2, h3, h0, h1, yw);
    d += dp;
    if (y + 2 >= y1) break;
    row(2 * y + 5, h2), row(2 * y + 6, h3);
  }
}

// The two passes of the longer filters (more than 8 taps an axis: Pillow's
// shrinks, steep area shrinks), through an intermediate image of the source's
// height and the output's width (Pillow's own order): hpass writes the horizontal
// pass of every source row into it (p.dst, p.dh = the source's height), vpass the
// vertical pass from it (p.src, p.sh). The intermediate's elements: Pillow's
// clipped 8-bit values for kPillow, float sums for kFloat.
template <int MODE, typename T> struct Mid { typedef float type; };

// accTap adds tap j (value v, weight w) to a pass's sum: Pillow's integer sum
// from 2^21 (its rounding), or OpenCV's float sum, each product and sum rounded.
template <int MODE, typename A>
__device__ __forceinline__ void accTap(A& acc, int j, A v, A w) {
  if (MODE == kPillow) {
    acc = (j == 0 ? 1 << 21 : acc) + v * w;
  } else {
    const float pr = __fmul_rn(v, w);
    acc = j == 0 ? pr : __fadd_rn(acc, pr);
  }
}

template <> struct Mid<kPillow, u8> { typedef u8 type; };

// hpass: a thread an output pixel (its CN channels) of GI_RESIZE_RT consecutive
// ones, down the rows (grid-stride); taps clamped to the row, as the CPU twin
// reads them. Where p.ws is not 0 the block first stages its pixels' weights in
// shared memory, p.ws words apart (odd: no bank conflicts; Pillow's converted to
// int once), else it reads them from the table. The parameters are read into
// registers first (else nvcc reloads them from the constant bank at every tap).
template <int MODE, typename T, int CN, bool STAGED>
__device__ __forceinline__ void hpassT(const ResizeParams& p, const unsigned* stage) {
  typedef typename Mid<MODE, T>::type M;
  typedef typename HWeight<MODE>::type W;
  const int dx = blockIdx.x * GI_RESIZE_RT + threadIdx.x;
  if (dx >= p.dw) return;
  const int st = __ldg(p.xstart + dx), n = p.nx, last = p.sw - 1 - st, rows = p.dh, sp = p.sp, dp = p.dp;
  const char* const src = static_cast<const char*>(p.src) + (size_t)st * CN * sizeof(T);
  char* const dst = static_cast<char*>(p.dst) + (size_t)dx * CN * sizeof(M);
  const float* wg = p.xw + (size_t)dx * n;
  const unsigned* wsm = stage + threadIdx.x * p.ws;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const T* s = reinterpret_cast<const T*>(src + (size_t)y * sp);
    W acc[CN];
    for (int j = 0; j < n; ++j) {
      const W wj = STAGED ? (MODE == kPillow ? (W)(int)wsm[j] : (W)__uint_as_float(wsm[j])) : (W)__ldg(wg + j);
      const T* sj = s + min(j, last) * CN;
#pragma unroll
      for (int c = 0; c < CN; ++c) accTap<MODE>(acc[c], j, (W)__ldg(sj + c), wj);
    }
    M* d = reinterpret_cast<M*>(dst + (size_t)y * dp);
#pragma unroll
    for (int c = 0; c < CN; ++c) d[c] = MODE == kPillow ? (M)pillow8((int)acc[c]) : (M)acc[c];
  }
}

template <int MODE, typename T, bool STAGED>
__device__ __forceinline__ void hpassCN(const ResizeParams& p, const unsigned* stage) {
  switch (p.cn) {
    case 1: hpassT<MODE, T, 1, STAGED>(p, stage); break;
    case 2: hpassT<MODE, T, 2, STAGED>(p, stage); break;
    case 3: hpassT<MODE, T, 3, STAGED>(p, stage); break;
    default: hpassT<MODE, T, 4, STAGED>(p, stage); break;
  }
}

// hpassE: hpass with a thread an output element (consecutive threads, consecutive
// elements), for steep horizontal shrinks, where a thread a pixel would spread a
// warp's loads of one tap over many cache lines.
template <int MODE, typename T, bool STAGED>
__device__ __forceinline__ void hpassE(const ResizeParams& p, const unsigned* stage, int p0) {
  typedef typename Mid<MODE, T>::type M;
  typedef typename HWeight<MODE>::type W;
  const int cn = p.cn, x = blockIdx.x * GI_RESIZE_RT + threadIdx.x;
  if (x >= p.dw * cn) return;
  const int dx = x / cn, c = x - dx * cn;
  const int st = __ldg(p.xstart + dx), n = p.nx, last = p.sw - 1 - st, rows = p.dh, sp = p.sp, dp = p.dp;
  const char* const src = static_cast<const char*>(p.src) + ((size_t)st * cn + c) * sizeof(T);
  char* const dst = static_cast<char*>(p.dst) + (size_t)x * sizeof(M);
  const float* wg = p.xw + (size_t)dx * n;
  const unsigned* wsm = stage + (dx - p0) * p.ws;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const T* s = reinterpret_cast<const T*>(src + (size_t)y * sp);
    W acc;
    for (int j = 0; j < n; ++j) {
      const W wj = STAGED ? (MODE == kPillow ? (W)(int)wsm[j] : (W)__uint_as_float(wsm[j])) : (W)__ldg(wg + j);
      accTap<MODE>(acc, j, (W)__ldg(s + min(j, last) * cn), wj);
    }
    *reinterpret_cast<M*>(dst + (size_t)y * dp) = MODE == kPillow ? (M)pillow8((int)acc) : (M)acc;
  }
}

// hpass runs hpassT (ELEM false) or hpassE (true), first staging the weights of
// the block's pixels (contiguous in the table) where p.ws says.
template <int MODE, typename T, bool ELEM>
__device__ __forceinline__ void hpass(const ResizeParams& p) {
  extern __shared__ unsigned stage[];  // [the block's pixels][p.ws]
  const int x0 = blockIdx.x * GI_RESIZE_RT;
  const int p0 = ELEM ? x0 / p.cn : x0;  // the block's first pixel
  if (!p.ws) {
    if (ELEM)
      hpassE<MODE, T, false>(p, stage, p0);
    else
      hpassCN<MODE, T, false>(p, stage);
    return;
  }
  const int p1 = ELEM ? (min(x0 + GI_RESIZE_RT, p.dw * p.cn) - 1) / p.cn + 1 : min(x0 + GI_RESIZE_RT, p.dw);
  const int n = p.nx, m = (p1 - p0) * n, ws = p.ws;
  const float* w = p.xw + (size_t)p0 * n;
  for (int i = threadIdx.x; i < m; i += GI_RESIZE_RT) {
    const int px = i / n;
    const float v = __ldg(w + i);
    stage[px * ws + i - px * n] = MODE == kPillow ? (unsigned)(int)v : __float_as_uint(v);
  }
  __syncthreads();
  if (ELEM)
    hpassE<MODE, T, true>(p, stage, p0);
  else
    hpassCN<MODE, T, true>(p, stage);
}

// storeVec stores a thread's E output elements out at element x0 of a row d of w
// elements: one vector where they all lie in the row and d is aligned, else
// element by element.
template <typename T, int E>
__device__ __forceinline__ void storeVec(T* d, int x0, int w, const Vec<T, E>& out) {
  if (x0 + E <= w && reinterpret_cast<size_t>(d) % sizeof(out) == 0) {
    *reinterpret_cast<Vec<T, E>*>(d) = out;
  } else {
#pragma unroll
    for (int e = 0; e < E; ++e)
      if (x0 + e < w) d[e] = out.v[e];
  }
}

// vpass: the vertical pass of OpenCV's float arithmetic (kFloat; Pillow's is
// vpassP8), E consecutive output elements a thread (one aligned vector load of
// the intermediate a tap: its rows are padded to the pitch), down the rows
// (grid-stride): each the vertical pass over its row's ny taps (rows clamped),
// in vcomb's arithmetic.
template <typename T, int E>
__device__ __forceinline__ void vpass(const ResizeParams& p) {
  const int w = p.dw * p.cn, x0 = (blockIdx.x * GI_RESIZE_RT + threadIdx.x) * E;
  if (x0 >= w) return;
  const int rows = p.dh, n = p.ny, sh = p.sh, sp = p.sp, dp = p.dp;
  const char* const src = static_cast<const char*>(p.src) + (size_t)x0 * sizeof(float);
  char* const dst = static_cast<char*>(p.dst);
  const int* const ystart = p.ystart;
  const float* const yw = p.yw;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const int st = __ldg(ystart + y);
    const float* b = yw + (size_t)y * n;
    float acc[E];
#pragma unroll 4
    for (int j = 0; j < n; ++j) {
      const Vec<float, E> v = *reinterpret_cast<const Vec<float, E>*>(src + (size_t)clampi(st + j, sh) * sp);
      const float wf = __ldg(b + j);
#pragma unroll
      for (int e = 0; e < E; ++e) accTap<kFloat>(acc[e], j, v.v[e], wf);
    }
    Vec<T, E> out;
#pragma unroll
    for (int e = 0; e < E; ++e) out.v[e] = sat<T>(acc[e]);
    storeVec<T, E>(reinterpret_cast<T*>(dst + (size_t)y * dp) + x0, x0, w, out);
  }
}

// tile: InterArea's 8-bit shrinks by other than whole factors (OpenCV's float
// arithmetic, kFloat), CN channels, any number of taps, in one pass: a block
// computes GI_RESIZE_TW output pixels of up to p.th rows. Its shared memory
// (resample/cuda.go's resizeTile sizes it):
//   stage  the p.fr source rows the tile reads, the 16-byte vectors that cover
//          the columns its pixels' taps span, p.rs bytes apart, copied by
//          cp.async (byte b of the span at stage[r * p.rs + al[r] + b], al[r]
//          the row's address mod 16; the host checks that the vectors lie in the
//          image's allocation);
//   mid    the horizontal pass of each staged row;
//   wx     the pixels' horizontal weights, rows of p.ws (a multiple of 4 whose
//          quarter is odd: a warp's 16-byte loads of them fall in distinct
//          banks; tileX8's: K / 2 words, the weights' bytes split as its dp4a
//          sums take them);
//   wy, ry each output row's vertical weights (16-byte aligned) and first staged row;
//   al     the staged rows' alignments.
// The horizontal pass runs a warp a row and a thread a pixel, reading its taps as
// whole words realigned with a funnel shift and 4 weights at a time; the vertical
// pass a group of 4 consecutive elements a thread, down the tile's rows
// (tileX8's tileVert, below, two groups, with kFix8's arithmetic). The arithmetic
// is hpass's and vpass's, operation for operation. The tables' starts must not
// decrease (the host checks); a pixel whose taps leave the image reads them one
// by one, clamped.
// divMagic is 2^32 / n rounded up, for n > 1: __umulhi(i, divMagic(n)) is i / n
// for non-negative i < 2^32 / n. Divider divides by any n > 0 so.
__device__ __forceinline__ unsigned divMagic(int n) { return 0xffffffffu / n + 1; }
struct Divider {
  int n;
  unsigned m;
  __device__ explicit Divider(int n) : n(n), m(n > 1 ? divMagic(n) : 0) {}
  __device__ __forceinline__ int operator()(int i) const { return n > 1 ? (int)__umulhi((unsigned)i, m) : i; }
};

// TileSmem is a tile block's shared memory, laid out as the comment above says
// (the weights as 32-bit words: floats for kFloat, for kFix8 their integer
// values, the horizontal ones split: tileStage), with the tile's place: its
// first output pixel and row, how many of each, the staged rows' first source
// row and count, and the span's first column.
struct TileSmem {
  unsigned char* stage;
  unsigned* mid;
  unsigned* wx;
  int* ry;
  unsigned* wy;
  int* al;
  int px0, npx, y0, nrow, r0, fr, cs;
};

// tileStage lays out the block's shared memory and fills it: the source rows by
// cp.async (a thread a vector), the weights and the rows' starts by loads.
//   K = 0 (kFloat): the p.nx horizontal weights of each pixel and the p.ny
//   vertical ones of each row as they lie in the tables.
//   K = 4 or 8 (kFix8, p.nx = p.ny = K): a thread a pixel (the first
//   GI_RESIZE_TW) or a row (the next p.th <= GI_RESIZE_THMAX), its K loads issued
//   together; a pixel's horizontal weights staged as tileX8 sums with them,
//   their low bytes (unsigned) in words 0 .. K/4 - 1 and their high bytes
//   (signed) in words K/4 .. K/2 - 1, 4 taps a word (p.ws = K/2), the vertical
//   ones as integers (K = 8) or as floats scaled by 2^-22 (K = 4: the cubic
//   float arithmetic's weights, exact; tileVert).
// The caller synchronizes the block before reading them.
template <int MODE, int CN, int K>
__device__ __forceinline__ TileSmem tileStage(const ResizeParams& p) {
  static_assert((MODE == kFloat && K == 0) || (MODE == kFix8 && (K == 4 || K == 8)), "tileStage: float, or 4 or 8 fixed-point taps");
  static_assert(GI_RESIZE_TW + GI_RESIZE_THMAX <= GI_RESIZE_RT, "tileStage: a thread a pixel and a thread a row");
  constexpr int TW = GI_RESIZE_TW, NE = TW * CN;
  extern __shared__ __align__(16) unsigned char smem[];
  const int nx = K ? K : p.nx, ny = K ? K : p.ny, sw = p.sw, sh = p.sh, rs = p.rs, ws = K ? K / 2 : p.ws, sp = p.sp;
  TileSmem t;
  t.px0 = blockIdx.x * TW, t.npx = min(TW, p.dw - t.px0);
  t.y0 = blockIdx.y * p.th, t.nrow = min(p.th, p.dh - t.y0);
  t.cs = clampi(__ldg(p.xstart + t.px0), sw);
  const int nb = (min(sw, __ldg(p.xstart + t.px0 + t.npx - 1) + nx) - t.cs) * CN;  // the span's bytes a row
  t.r0 = __ldg(p.ystart + t.y0);                                                     // staged row r: source row clampi(r0 + r)
  t.fr = __ldg(p.ystart + t.y0 + t.nrow - 1) + ny - t.r0;                            // at most p.fr
  t.stage = smem;
  t.mid = reinterpret_cast<unsigned*>(smem + p.fr * rs);
  t.wx = t.mid + p.fr * NE;
  t.wy = t.wx + TW * ws;  // 16-byte aligned: rows of 2, 4 or 8 taps load as vectors
  t.ry = reinterpret_cast<int*>(t.wy + p.th * ny);
  t.al = t.ry + p.th;
  const unsigned char* const src = static_cast<const unsigned char*>(p.src) + (size_t)t.cs * CN;
  {
    // The rows' vectors in one flat loop over the block, f = r * nv + k (row r,
    // vector k): its vectors past the row's last one (rs leaves room for the
    // alignment) are skipped. The rows' alignments are written apart (one row a
    // thread).
    const int nv = rs >> 4, nf = t.fr * nv, last = sh - 1;
    const unsigned magic = divMagic(nv);  // nv >= 3: rs >= 48
    unsigned char* d = t.stage + 16 * threadIdx.x;
    for (int f = threadIdx.x; f < nf; f += GI_RESIZE_RT, d += 16 * GI_RESIZE_RT) {
      const int r = (int)__umulhi((unsigned)f, magic), k = f - r * nv;
      const unsigned char* const b = src + (size_t)min(max(t.r0 + r, 0), last) * sp;
      const int al = (int)(reinterpret_cast<size_t>(b) & 15);
      if (k < (al + nb + 15) >> 4) copyAsync16(d, b - al + 16 * k);
    }
    for (int r = threadIdx.x; r < t.fr; r += GI_RESIZE_RT)
      t.al[r] = (int)(reinterpret_cast<size_t>(src + (size_t)clampi(t.r0 + r, sh) * sp) & 15);
  }
  if (K == 0) {
    // The tile's weights lie together in the tables: flat loops over them, each
    // thread's loads issued together (unrolled), a pixel's row of them ws apart
    // here.
    const float* const xw = p.xw + (size_t)t.px0 * nx;
    const Divider byNx(nx);
#pragma unroll 4
    for (int i = threadIdx.x; i < t.npx * nx; i += GI_RESIZE_RT) t.wx[i + byNx(i) * (ws - nx)] = __float_as_uint(__ldg(xw + i));
    const float* const yw = p.yw + (size_t)t.y0 * ny;
#pragma unroll 4
    for (int i = threadIdx.x; i < t.nrow * ny; i += GI_RESIZE_RT) t.wy[i] = __float_as_uint(__ldg(yw + i));
    for (int yl = threadIdx.x; yl < t.nrow; yl += GI_RESIZE_RT) t.ry[yl] = __ldg(p.ystart + t.y0 + yl) - t.r0;
  } else if (threadIdx.x < TW) {
    const int px = threadIdx.x;
    if (px < t.npx) {
      constexpr int NG = K / 4;
      float w[K ? K : 1];
#pragma unroll
      for (int j = 0; j < K; ++j) w[j] = __ldg(p.xw + (size_t)(t.px0 + px) * K + j);
#pragma unroll
      for (int g = 0; g < NG; ++g) {
        unsigned lo = 0, hi = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const int a = (int)w[4 * g + k];
          lo |= (unsigned)(a & 255) << (8 * k);
          hi |= (unsigned)((a >> 8) & 255) << (8 * k);
        }
        t.wx[px * ws + g] = lo;
        t.wx[px * ws + NG + g] = hi;
      }
    }
  } else if (threadIdx.x - TW < t.nrow) {
    const int yl = threadIdx.x - TW;
    t.ry[yl] = __ldg(p.ystart + t.y0 + yl) - t.r0;
    float w[K ? K : 1];
#pragma unroll
    for (int j = 0; j < K; ++j) w[j] = __ldg(p.yw + (size_t)(t.y0 + yl) * K + j);
    constexpr float kScale = K == 4 ? 1.f / (2048.f * 2048.f) : 1.f;
#pragma unroll
    for (int j = 0; j < K; j += 4) {
      if (K == 4)
        *reinterpret_cast<float4*>(t.wy + yl * K + j) =
            make_float4(__fmul_rn(w[j], kScale), __fmul_rn(w[j + 1], kScale), __fmul_rn(w[j + 2], kScale), __fmul_rn(w[j + 3], kScale));
      else
        *reinterpret_cast<int4*>(t.wy + yl * K + j) = make_int4((int)w[j], (int)w[j + 1], (int)w[j + 2], (int)w[j + 3]);
    }
  }
  copyWait();
  return t;
}

// tileTaps reads a pixel's NB consecutive staged bytes from byte o of row r as
// whole words, realigned with a funnel shift: byte k of the taps is byte k % 4 of
// v[k / 4]. (The stage's rows have room for the word read past the span.)
template <int NW>
__device__ __forceinline__ void tileTaps(const unsigned char* row, int o, unsigned (&v)[NW]) {
  const int sft = (o & 3) * 8;
  const unsigned* wp = reinterpret_cast<const unsigned*>(row) + (o >> 2);
  unsigned prev = wp[0];
#pragma unroll
  for (int q = 0; q < NW; ++q) {
    const unsigned next = wp[q + 1];
    v[q] = __funnelshift_r(prev, next, sft);
    prev = next;
  }
}

// tileStoreWord stores an output group's 4 bytes (out, lowest first) at d, its
// element e of the tile's ne: one word where they all lie in the tile and d is
// aligned, else byte by byte.
__device__ __forceinline__ void tileStoreWord(u8* d, int e, int ne, unsigned out) {
  if (e + 4 <= ne && reinterpret_cast<size_t>(d) % 4 == 0) {
    *reinterpret_cast<unsigned*>(d) = out;
  } else {
#pragma unroll
    for (int q = 0; q < 4; ++q)
      if (e + q < ne) d[q] = (u8)(out >> (8 * q));
  }
}

template <int CN>
__device__ __forceinline__ void tile(const ResizeParams& p) {
  constexpr int NE = GI_RESIZE_TW * CN;
  const int nx = p.nx, ny = p.ny, sw = p.sw, rs = p.rs, ws = p.ws;
  const TileSmem t = tileStage<kFloat, CN, 0>(p);
  float* const mid = reinterpret_cast<float*>(t.mid);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = GI_RESIZE_RT / 32;
  __syncthreads();
  if (lane < t.npx) {
    const int st = __ldg(p.xstart + t.px0 + lane), off = (st - t.cs) * CN;
    const bool inside = st >= 0 && st + nx <= sw;
    const float* const w = reinterpret_cast<const float*>(t.wx) + lane * ws;
    const unsigned magic = 0x4B000000;  // 2^23: a byte b in its low mantissa bits is 2^23 + b
    for (int r = warp; r < t.fr; r += warps) {
      const int al = t.al[r];
      float acc[CN] = {};
      if (inside) {
        const int o = al + off, sft = (o & 3) * 8;
        const unsigned* wp = reinterpret_cast<const unsigned*>(t.stage + r * rs) + (o >> 2);
        unsigned prev = wp[0];
        // A group of 4 taps: their words realigned, their weights one vector;
        // the taps past nx (the last group's) left out.
        auto group = [&](int j0, bool last) {
          unsigned v4[CN];
#pragma unroll
          for (int q = 0; q < CN; ++q) {
            const unsigned next = wp[q + 1];
            v4[q] = __funnelshift_r(prev, next, sft);
            prev = next;
          }
          wp += CN;
          const float4 g = *reinterpret_cast<const float4*>(w + j0);
          const float gw[4] = {g.x, g.y, g.z, g.w};
#pragma unroll
          for (int tp = 0; tp < 4; ++tp) {
            if (!last || j0 + tp < nx) {
#pragma unroll
              for (int c = 0; c < CN; ++c) {
                const int k = tp * CN + c;
                const float v = __int_as_float(__byte_perm(magic, v4[k / 4], 0x3104 + k % 4)) - 8388608.f;
                accTap<kFloat>(acc[c], j0 + tp, v, gw[tp]);
              }
            }
          }
        };
        int j0 = 0;
        for (; j0 + 4 <= nx; j0 += 4) group(j0, false);
        if (j0 < nx) group(j0, true);
      } else {
        const unsigned char* s = t.stage + r * rs + al;
        for (int j = 0; j < nx; ++j) {
          const unsigned char* sj = s + (clampi(st + j, sw) - t.cs) * CN;
#pragma unroll
          for (int c = 0; c < CN; ++c) accTap<kFloat>(acc[c], j, (float)sj[c], w[j]);
        }
      }
#pragma unroll
      for (int c = 0; c < CN; ++c) mid[r * NE + lane * CN + c] = acc[c];
    }
  }
  __syncthreads();
  // The vertical pass: a thread a group of 4 consecutive elements down the
  // tile's rows, as tileVert (below) has them.
  constexpr int NQ = NE / 4, S = GI_RESIZE_RT / NQ;
  const int s = threadIdx.x / NQ, e = 4 * (threadIdx.x % NQ), ne = t.npx * CN;
  if (s >= S || e >= ne) return;
  const size_t step = (size_t)S * p.dp;
  u8* d = static_cast<u8*>(p.dst) + (size_t)(t.y0 + s) * p.dp + t.px0 * CN + e;
  const float* const wy = reinterpret_cast<const float*>(t.wy);
  for (int yl = s; yl < t.nrow; yl += S, d += step) {
    const float* m = mid + t.ry[yl] * NE + e;
    const float* const b = wy + yl * ny;
    float acc[4];
    for (int j = 0; j < ny; ++j, m += NE) {
      const float4 v = *reinterpret_cast<const float4*>(m);
      const float bj = b[j];
      accTap<kFloat>(acc[0], j, v.x, bj);
      accTap<kFloat>(acc[1], j, v.y, bj);
      accTap<kFloat>(acc[2], j, v.z, bj);
      accTap<kFloat>(acc[3], j, v.w, bj);
    }
    const unsigned out = packLow(sat8bits(acc[0]), sat8bits(acc[1]), sat8bits(acc[2]), sat8bits(acc[3]));
    tileStoreWord(d, e, ne, out);
  }
}

// dot4 is c plus the dot product of the 4 bytes of a (unsigned) with those of w
// (unsigned for lo, signed else): dp4a, exact in 32 bits.
template <bool SIGNED>
__device__ __forceinline__ int dot4(unsigned a, unsigned w, int c) {
  int d;
  if (SIGNED)
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(w), "r"(c));
  else
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(w), "r"(c));
  return d;
}

// chanTaps is channel c's taps 4g .. 4g+3 of a pixel whose CN-channel taps are
// the bytes of v (tap j of channel c at byte j * CN + c), one tap a byte (g, c
// constant after unrolling: byte permutes only).
template <int CN, int NW>
__device__ __forceinline__ unsigned chanTaps(const unsigned (&v)[NW], int g, int c) {
  if (CN == 1) return v[g];
  if (CN == 3) {
    // Bytes 12g + c + {0, 3, 6, 9}: words 3g .. 3g+2.
    const unsigned w0 = v[3 * g], w1 = v[3 * g + 1], w2 = v[3 * g + 2];
    if (c == 0) return __byte_perm(__byte_perm(w0, w1, 0x0630), w2, 0x5210);
    if (c == 1) return __byte_perm(__byte_perm(w0, w1, 0x0741), w2, 0x6210);
    return __byte_perm(__byte_perm(w0, w1, 0x0052), w2, 0x7410);
  }
  // CN 4: byte c of words 4g .. 4g+3 (a 4x4 byte transpose, shared by the
  // channels once unrolled).
  const unsigned w0 = v[4 * g], w1 = v[4 * g + 1], w2 = v[4 * g + 2], w3 = v[4 * g + 3];
  const unsigned a = __byte_perm(w0, w1, c < 2 ? 0x5140 : 0x7362), b = __byte_perm(w2, w3, c < 2 ? 0x5140 : 0x7362);
  return __byte_perm(a, b, c % 2 == 0 ? 0x5410 : 0x7632);
}

// tileVert is tileX8's vertical pass: thread i takes the groups of 4
// consecutive elements e and e + NE / 2 of the tile's row, e = 4 * (i % (NE / 8))
// (a warp's 16-byte loads of a row's intermediates are consecutive: no bank
// conflicts), in every S-th output row from row i / (NE / 8) (S = the groups of
// rows the block's threads make), its output two words a row. Each group lies on
// one side of p.simd (a multiple of 8; the tile's first element is a multiple of
// 32): before it (K = 4), VResizeCubicVec_32s8u's float arithmetic (the
// intermediates are floats, and tileStage staged the weights already scaled by
// 2^-22), the products summed last to first, each rounded; past it, the integer
// (sum + 2^21) >> 22 (K = 4 takes its weights back from the scaled floats,
// exactly).
template <int K, int CN>
__device__ __forceinline__ void tileVert(const ResizeParams& p, const TileSmem& t) {
  constexpr int NE = GI_RESIZE_TW * CN, NH = NE / 2, NQ = NE / 8, S = GI_RESIZE_RT / NQ;
  const int s = threadIdx.x / NQ, e = 4 * (threadIdx.x % NQ), ne = t.npx * CN;
  if (s >= S || e >= ne) return;
  bool fl[2];
#pragma unroll
  for (int v = 0; v < 2; ++v) fl[v] = K == 4 && t.px0 * CN + e + v * NH < p.simd;
  const size_t step = (size_t)S * p.dp;
  u8* d = static_cast<u8*>(p.dst) + (size_t)(t.y0 + s) * p.dp + t.px0 * CN + e;
  const bool aligned = (reinterpret_cast<size_t>(d) | (size_t)p.dp) % 4 == 0;  // every row's words
  for (int yl = s; yl < t.nrow; yl += S, d += step) {
    const unsigned* const m = t.mid + t.ry[yl] * NE + e;
    float bs[K];  // K = 4: the scaled weights
    int b[K];
#pragma unroll
    for (int j = 0; j < K; j += 4) {
      if (K == 4) {
        const float4 bw = *reinterpret_cast<const float4*>(reinterpret_cast<const float*>(t.wy) + yl * K + j);
        bs[j] = bw.x, bs[j + 1] = bw.y, bs[j + 2] = bw.z, bs[j + 3] = bw.w;
      } else {
        const int4 bw = *reinterpret_cast<const int4*>(reinterpret_cast<const int*>(t.wy) + yl * K + j);
        b[j] = bw.x, b[j + 1] = bw.y, b[j + 2] = bw.z, b[j + 3] = bw.w;
      }
    }
#pragma unroll
    for (int v = 0; v < 2; ++v) {
      unsigned out;
      if (fl[v]) {
        float acc[4];
#pragma unroll
        for (int j = K - 1; j >= 0; --j) {
          const uint4 h = *reinterpret_cast<const uint4*>(m + v * NH + j * NE);
#pragma unroll
          for (int q = 0; q < 4; ++q) {
            const float pr = __fmul_rn(__uint_as_float(word(h, q)), bs[j]);
            acc[q] = j == K - 1 ? pr : __fadd_rn(pr, acc[q]);
          }
        }
        out = packLow(sat8bits(acc[0]), sat8bits(acc[1]), sat8bits(acc[2]), sat8bits(acc[3]));
      } else {
        if (K == 4) {
#pragma unroll
          for (int j = 0; j < K; ++j) b[j] = __float2int_rn(__fmul_rn(bs[j], 2048.f * 2048.f));
        }
        int acc[4] = {};
#pragma unroll
        for (int j = 0; j < K; ++j) {
          const uint4 h = *reinterpret_cast<const uint4*>(m + v * NH + j * NE);
#pragma unroll
          for (int q = 0; q < 4; ++q) acc[q] += (int)word(h, q) * b[j];
        }
        unsigned o[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) o[q] = (unsigned)sati<u8>((acc[q] + (1 << 21)) >> 22);
        out = packLow(o[0], o[1], o[2], o[3]);
      }
      if (aligned && e + v * NH + 4 <= ne)
        *reinterpret_cast<unsigned*>(d + v * NH) = out;
      else if (e + v * NH < ne)
        tileStoreWord(d + v * NH, e + v * NH, ne, out);
    }
  }
}

// tileX8: kFix8's plans of K = 4 taps (cubic: VResizeCubicVec_32s8u's float
// arithmetic for the row's first p.simd elements, the integer rounding past
// them) or 8 (Lanczos4, integer) an axis, CN channels, as tile does them. The
// horizontal pass (a thread a pixel, a warp a staged row) reads a pixel's K * CN
// taps as whole words and sums each channel's taps 4 at a time with dp4a (the
// 11-bit weights split into a low unsigned and a high signed byte: the sum of the
// low products plus 256 times that of the high ones, exact); it leaves each sum
// in mid as the vertical pass (tileVert) wants it: a float for K = 4 before
// p.simd, the integer else.
template <int K, int CN>
__device__ __forceinline__ void tileX8(const ResizeParams& p) {
  static_assert(K == 4 || K == 8, "tileX8: 4 or 8 taps");
  constexpr int NE = GI_RESIZE_TW * CN, NB = K * CN, NW = (NB + 3) / 4, NG = K / 4;
  constexpr int ws = K / 2;  // tileStage's split weights (p.ws)
  const int sw = p.sw, rs = p.rs;
  const TileSmem t = tileStage<kFix8, CN, K>(p);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = GI_RESIZE_RT / 32;
  __syncthreads();
  if (lane < t.npx) {
    const int st = __ldg(p.xstart + t.px0 + lane), off = (st - t.cs) * CN;
    const bool inside = st >= 0 && st + K <= sw;
    // The weights' low (unsigned) and high (signed) bytes, 4 taps a word, as
    // tileStage staged them.
    unsigned wlo[NG], whi[NG];
    if (NG == 2) {
      const uint4 g = *reinterpret_cast<const uint4*>(t.wx + lane * ws);
      wlo[0] = g.x, wlo[NG - 1] = g.y, whi[0] = g.z, whi[NG - 1] = g.w;
    } else {
      const uint2 g = *reinterpret_cast<const uint2*>(t.wx + lane * ws);
      wlo[0] = g.x, whi[0] = g.y;
    }
    const int x0 = (t.px0 + lane) * CN;  // the pixel's first element in the output row
    for (int r = warp; r < t.fr; r += warps) {
      int acc[CN] = {};
      if (inside) {
        unsigned v[NW];
        tileTaps<NW>(t.stage + r * rs, t.al[r] + off, v);
#pragma unroll
        for (int c = 0; c < CN; ++c) {
          int lo = 0, hi = 0;
#pragma unroll
          for (int g = 0; g < NG; ++g) {
            const unsigned tp = chanTaps<CN>(v, g, c);
            lo = dot4<false>(tp, wlo[g], lo);
            hi = dot4<true>(tp, whi[g], hi);
          }
          acc[c] = lo + (hi << 8);
        }
      } else {
        // A pixel at the image's edge: its taps one by one, clamped, with the
        // weights from the table (rare: kept out of the loop's registers).
        const unsigned char* const srow = t.stage + r * rs + t.al[r];
#pragma unroll
        for (int j = 0; j < K; ++j) {
          const unsigned char* sj = srow + (clampi(st + j, sw) - t.cs) * CN;
          const int a = (int)__ldg(p.xw + (size_t)(t.px0 + lane) * K + j);
#pragma unroll
          for (int c = 0; c < CN; ++c) acc[c] += (int)sj[c] * a;
        }
      }
      unsigned h[CN];
#pragma unroll
      for (int c = 0; c < CN; ++c) h[c] = K == 4 && x0 + c < p.simd ? __float_as_uint((float)acc[c]) : (unsigned)acc[c];
      unsigned* const m = t.mid + r * NE + lane * CN;
      if (CN == 4) {
        *reinterpret_cast<uint4*>(m) = make_uint4(h[0], h[CN > 1 ? 1 : 0], h[CN > 2 ? 2 : 0], h[CN > 3 ? 3 : 0]);
      } else {
#pragma unroll
        for (int c = 0; c < CN; ++c) m[c] = h[c];
      }
    }
  }
  __syncthreads();
  tileVert<K, CN>(p, t);
}

// splitWeights packs bits 0-7, 8-15 and 16-23 of 4 of Pillow's integer weights
// (|w| < 2^23) into wb[0..2], a byte a weight, weight k in byte k: a sum of
// bytes times the weights is then exactly dp4a(wb[0]) + dp4a(wb[1]) << 8 +
// dp4a(wb[2], signed) << 16 (pillowSum), in 32 bits.
__device__ __forceinline__ void splitWeights(const int (&w)[4], unsigned (&wb)[3]) {
#pragma unroll
  for (int b = 0; b < 3; ++b)
    wb[b] = packLow((unsigned)(w[0] >> (8 * b)), (unsigned)(w[1] >> (8 * b)), (unsigned)(w[2] >> (8 * b)), (unsigned)(w[3] >> (8 * b)));
}

// dotSplit adds 4 taps (bytes of tp) times their split weights wb to sum.
__device__ __forceinline__ void dotSplit(unsigned tp, const unsigned (&wb)[3], int (&sum)[3]) {
  sum[0] = dot4<false>(tp, wb[0], sum[0]);
  sum[1] = dot4<false>(tp, wb[1], sum[1]);
  sum[2] = dot4<true>(tp, wb[2], sum[2]);
}

// pillowSum is Pillow's pass sum from dotSplit's three sums: 2^21 (its rounding)
// plus the exact sum of products, wrapping as 32-bit integers do.
__device__ __forceinline__ int pillowSum(const int (&sum)[3]) {
  return (int)((1u << 21) + (unsigned)sum[0] + ((unsigned)sum[1] << 8) + ((unsigned)sum[2] << 16));
}

// hwRow stores a pixel's Pillow-rounded 8-bit values (CN channels) at d from its
// taps at s: ng groups of 4 taps (NG at most) read as whole words, realigned
// with a funnel shift, and summed with dp4a against their split weights wb.
template <int NG, int CN>
__device__ __forceinline__ void hwRow(const unsigned char* s, const unsigned (&wb)[NG][3], int ng, unsigned char* d) {
  const size_t a = reinterpret_cast<size_t>(s);
  const unsigned* const wp = reinterpret_cast<const unsigned*>(a & ~(size_t)3);
  const int sft = (int)(a & 3) * 8;
  unsigned prev = __ldg(wp);
  int sum[CN][3] = {};
#pragma unroll
  for (int g = 0; g < NG; ++g) {
    if (g < ng) {
      unsigned v[CN];
#pragma unroll
      for (int q = 0; q < CN; ++q) {
        const unsigned next = __ldg(wp + g * CN + q + 1);
        v[q] = __funnelshift_r(prev, next, sft);
        prev = next;
      }
#pragma unroll
      for (int c = 0; c < CN; ++c) dotSplit(chanTaps<CN>(v, 0, c), wb[g], sum[c]);
    }
  }
#pragma unroll
  for (int c = 0; c < CN; ++c) d[c] = (unsigned char)pillow8(pillowSum(sum[c]));
}

// hpassW: Pillow's horizontal pass (hpass's kPillow arithmetic, bit for bit) for
// 8U of CN = 1, 3 or 4 channels and at most 4 * NG taps: a thread an output pixel
// down the rows (grid-stride), its taps read as whole words and summed 4 at a
// time with dp4a (hwRow) against the weights split in registers
// (splitWeights). Taps past the pixel's nx have zero weights; a pixel whose
// words would leave its row (at the right edge) reads its taps one by one,
// clamped, as hpass.
template <int NG, int CN>
__device__ __forceinline__ void hpassW(const ResizeParams& p) {
  const int dx = blockIdx.x * GI_RESIZE_RT + threadIdx.x;
  if (dx >= p.dw) return;
  const int st = __ldg(p.xstart + dx), n = p.nx, ng = (n + 3) >> 2, sw = p.sw, rows = p.dh, sp = p.sp, dp = p.dp;
  const float* const wg = p.xw + (size_t)dx * n;
  unsigned wb[NG][3];
#pragma unroll
  for (int g = 0; g < NG; ++g) {
    int w[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) w[k] = 4 * g + k < n ? (int)__ldg(wg + 4 * g + k) : 0;
    splitWeights(w, wb[g]);
  }
  // The words a row's pixel reads lie in [its first byte - 3, + 4 * ng * CN + 4).
  const bool words = st >= 0 && (st + 4 * ng) * CN + 4 <= sw * CN;
  const int last = sw - 1 - st;
  const unsigned char* const src = static_cast<const unsigned char*>(p.src) + (size_t)st * CN;
  unsigned char* const dst = static_cast<unsigned char*>(p.dst) + (size_t)dx * CN;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const unsigned char* const s = src + (size_t)y * sp;
    unsigned char* const d = dst + (size_t)y * dp;
    if (words) {
      hwRow<NG, CN>(s, wb, ng, d);
      continue;
    }
    unsigned acc[CN];
    for (int j = 0; j < n; ++j) {
      const unsigned char* const sj = s + min(j, last) * CN;
      const unsigned w = (unsigned)(int)__ldg(wg + j);
#pragma unroll
      for (int c = 0; c < CN; ++c) acc[c] = (j == 0 ? 1u << 21 : acc[c]) + sj[c] * w;
    }
#pragma unroll
    for (int c = 0; c < CN; ++c) d[c] = (unsigned char)pillow8((int)acc[c]);
  }
}

// vpassP8: vpass for Pillow's arithmetic on 8U (bit for bit), GI_RESIZE_VE8 = 8
// consecutive output elements a thread down the rows (grid-stride): the taps 4
// rows at a time (rows clamped; weights past ny zero), each element's 4 bytes
// gathered into one word by a 4x4 byte transpose of the rows' words and summed
// with dp4a against the split weights (splitWeights), as hpassW sums.
__device__ __forceinline__ void vpassP8(const ResizeParams& p) {
  constexpr int E = GI_RESIZE_VE8;
  static_assert(E == 8, "vpassP8: 8 elements a thread");
  const int w = p.dw * p.cn, x0 = (blockIdx.x * GI_RESIZE_RT + threadIdx.x) * E;
  if (x0 >= w) return;
  const int rows = p.dh, n = p.ny, sh = p.sh, sp = p.sp, dp = p.dp;
  const unsigned char* const src = static_cast<const unsigned char*>(p.src) + x0;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const int st = __ldg(p.ystart + y);
    const float* const b = p.yw + (size_t)y * n;
    int sum[E][3] = {};
    for (int j0 = 0; j0 < n; j0 += 4) {
      uint2 r[4];
      int wk[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        r[k] = *reinterpret_cast<const uint2*>(src + (size_t)clampi(st + j0 + k, sh) * sp);
        wk[k] = j0 + k < n ? (int)__ldg(b + j0 + k) : 0;  // integers, below 2^23 (not 2^22: a magic-number add would round)
      }
      unsigned wb[3];
      splitWeights(wk, wb);
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        const unsigned a0 = hf ? r[0].y : r[0].x, a1 = hf ? r[1].y : r[1].x, a2 = hf ? r[2].y : r[2].x, a3 = hf ? r[3].y : r[3].x;
        const unsigned t0 = __byte_perm(a0, a1, 0x5140), t1 = __byte_perm(a0, a1, 0x7362);
        const unsigned u0 = __byte_perm(a2, a3, 0x5140), u1 = __byte_perm(a2, a3, 0x7362);
        dotSplit(__byte_perm(t0, u0, 0x5410), wb, sum[4 * hf]);
        dotSplit(__byte_perm(t0, u0, 0x7632), wb, sum[4 * hf + 1]);
        dotSplit(__byte_perm(t1, u1, 0x5410), wb, sum[4 * hf + 2]);
        dotSplit(__byte_perm(t1, u1, 0x7632), wb, sum[4 * hf + 3]);
      }
    }
    Vec<u8, E> out;
#pragma unroll
    for (int e = 0; e < E; ++e) out.v[e] = sati<u8>(pillowSum(sum[e]) >> 22);
    storeVec<u8, E>(static_cast<u8*>(p.dst) + (size_t)y * dp + x0, x0, w, out);
  }
}

// VPass is the two passes' vertical kernel: vpass (OpenCV's float arithmetic), or
// for Pillow's 8-bit arithmetic vpassP8.
template <int MODE, typename T>
struct VPass {
  static_assert(MODE == kFloat, "VPass: kFloat, or kPillow on 8U");
  static __device__ __forceinline__ void run(const ResizeParams& p) { vpass<T, GI_RESIZE_VEF>(p); }
};
template <>
struct VPass<kPillow, u8> {
  static __device__ __forceinline__ void run(const ResizeParams& p) { vpassP8(p); }
};

}  // namespace resize

#define GI_RESIZE_GATHER(NAME, T)                                                                                   \
  extern "C" __global__ void __launch_bounds__(256) gi_resize_gather_##NAME(__grid_constant__ const ResizeParams p) { \
    resize::gather<T>(p);                                                                                             \
  }
GI_RESIZE_GATHER(u8, u8)
GI_RESIZE_GATHER(u16, u16)
GI_RESIZE_GATHER(f32, f32)
GI_RESIZE_GATHER(w8, uint2)
GI_RESIZE_GATHER(w16, uint4)

#define GI_RESIZE_AREA(T)                                                                                      \
  extern "C" __global__ void __launch_bounds__(256) gi_resize_area_##T(__grid_constant__ const ResizeParams p) { \
    resize::area<T>(p);                                                                                          \
  }
GI_RESIZE_AREA(u8)
GI_RESIZE_AREA(u16)
GI_RESIZE_AREA(s16)
GI_RESIZE_AREA(f32)

#define GI_RESIZE_AREA2(T, CN)                                                                                    \
  extern "C" __global__ void __launch_bounds__(128, 8) gi_resize_area2_##T##c##CN(__grid_constant__ const ResizeParams p) { \
    resize::area2<T, CN>(p);                                                                                                \
  }
GI_RESIZE_AREA2(u8, 1)
GI_RESIZE_AREA2(u8, 3)
GI_RESIZE_AREA2(u8, 4)
GI_RESIZE_AREA2(u16, 1)
GI_RESIZE_AREA2(u16, 3)
GI_RESIZE_AREA2(u16, 4)
GI_RESIZE_AREA2(s16, 1)
GI_RESIZE_AREA2(s16, 3)
GI_RESIZE_AREA2(s16, 4)
GI_RESIZE_AREA2(f32, 1)
GI_RESIZE_AREA2(f32, 3)
GI_RESIZE_AREA2(f32, 4)

// sm_75 holds at most 1024 threads a multiprocessor: 8 of these blocks.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define GI_RESIZE_SEP8_BOUND(K, E) (GI_RESIZE_SEP8_BLOCKS(K, E) < 8 ? GI_RESIZE_SEP8_BLOCKS(K, E) : 8)
#else
#define GI_RESIZE_SEP8_BOUND(K, E) GI_RESIZE_SEP8_BLOCKS(K, E)
#endif
// gi_resize_sep8_K_cCN[e2]: sep8, K taps, CN channels, 4 output bytes a thread
// (e2: 2, for cubic shrinks, where more threads hide more of the loads' latency).
#define GI_RESIZE_SEP8(K, E, CN, SFX)                                                                            \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT, GI_RESIZE_SEP8_BOUND(K, E)) gi_resize_sep8_##K##_c##CN##SFX( \
      __grid_constant__ const ResizeParams p) {                                                                  \
    resize::sep8<K, E, CN>(p);                                                                                   \
  }
GI_RESIZE_SEP8(2, 4, 1, )
GI_RESIZE_SEP8(2, 4, 3, )
GI_RESIZE_SEP8(2, 4, 4, )
GI_RESIZE_SEP8(4, 4, 1, )
GI_RESIZE_SEP8(4, 4, 3, )
GI_RESIZE_SEP8(4, 4, 4, )
GI_RESIZE_SEP8(4, 2, 1, e2)
GI_RESIZE_SEP8(4, 2, 3, e2)
GI_RESIZE_SEP8(4, 2, 4, e2)

// gi_resize_lin2x_u8cCN: lin2x, CN channels.
#define GI_RESIZE_LIN2X(CN)                                                                                    \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT) gi_resize_lin2x_u8c##CN(__grid_constant__ const ResizeParams p) { \
    resize::lin2x<CN>(p);                                                                                        \
  }
GI_RESIZE_LIN2X(1)
GI_RESIZE_LIN2X(3)
GI_RESIZE_LIN2X(4)

// gi_resize_cub2x_u8cCN, gi_resize_cubhalf_u8cCN: cub2x and cubhalf, CN channels.
#define GI_RESIZE_CUBIC_FIXED(CN)                                                                               \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_FT) gi_resize_cub2x_u8c##CN(__grid_constant__ const ResizeParams p) { \
    resize::cub2x<CN>(p);                                                                                         \
  }                                                                                                               \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_FT) gi_resize_cubhalf_u8c##CN(__grid_constant__ const ResizeParams p) { \
    resize::cubhalf<CN>(p);                                                                                       \
  }
GI_RESIZE_CUBIC_FIXED(1)
GI_RESIZE_CUBIC_FIXED(3)
GI_RESIZE_CUBIC_FIXED(4)

// gi_resize_h_MODE_T, gi_resize_v_MODE_T: the two passes of the longer filters.
// gi_resize_h_MODE_T, gi_resize_he_MODE_T (a thread an element), gi_resize_v_MODE_T:
// the two passes of the longer filters.
#define GI_RESIZE_HV(NAME, MODE, T)                                                                         \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT) gi_resize_h_##NAME##_##T(                      \
      __grid_constant__ const ResizeParams p) {                                                             \
    resize::hpass<resize::MODE, T, false>(p);                                                               \
  }                                                                                                         \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT) gi_resize_he_##NAME##_##T(                     \
      __grid_constant__ const ResizeParams p) {                                                             \
    resize::hpass<resize::MODE, T, true>(p);                                                                \
  }                                                                                                         \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT) gi_resize_v_##NAME##_##T(                      \
      __grid_constant__ const ResizeParams p) {                                                             \
    resize::VPass<resize::MODE, T>::run(p);                                                                 \
  }
GI_RESIZE_HV(f, kFloat, u8)
GI_RESIZE_HV(f, kFloat, u16)
GI_RESIZE_HV(f, kFloat, s16)
GI_RESIZE_HV(f, kFloat, f32)
GI_RESIZE_HV(p, kPillow, u8)

// gi_resize_hw_p_K_u8cCN: hpassW, at most K taps, CN channels.
#define GI_RESIZE_HW(K, CN)                                                                                 \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT) gi_resize_hw_p_##K##_u8c##CN(                  \
      __grid_constant__ const ResizeParams p) {                                                             \
    resize::hpassW<K / 4, CN>(p);                                                                           \
  }
GI_RESIZE_HW(16, 1)
GI_RESIZE_HW(16, 3)
GI_RESIZE_HW(16, 4)
GI_RESIZE_HW(32, 1)
GI_RESIZE_HW(32, 3)
GI_RESIZE_HW(32, 4)

// gi_resize_tile_f_u8cCN: tile, CN channels.
#define GI_RESIZE_TILE(CN)                                                                                  \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT, 8) gi_resize_tile_f_u8c##CN(                    \
      __grid_constant__ const ResizeParams p) {                                                             \
    resize::tile<CN>(p);                                                                                    \
  }
GI_RESIZE_TILE(1)
GI_RESIZE_TILE(3)
GI_RESIZE_TILE(4)

// gi_resize_tile_x8_K_u8cCN: tileX8, K taps, CN channels.
#define GI_RESIZE_TILEX8(K, CN)                                                                             \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT, 8) gi_resize_tile_x8_##K##_u8c##CN(             \
      __grid_constant__ const ResizeParams p) {                                                             \
    resize::tileX8<K, CN>(p);                                                                               \
  }
GI_RESIZE_TILEX8(4, 1)
GI_RESIZE_TILEX8(4, 3)
GI_RESIZE_TILEX8(4, 4)
GI_RESIZE_TILEX8(8, 1)
GI_RESIZE_TILEX8(8, 3)
GI_RESIZE_TILEX8(8, 4)

// gi_resize_reg_MODE_K_T: any channel count; _cCN: CN channels.
#define GI_RESIZE_REG_CN(NAME, MODE, K, E, T, CN, SFX)                                                     \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT) gi_resize_reg_##NAME##_##K##_##T##SFX(        \
      __grid_constant__ const ResizeParams p) {                                                            \
    resize::reg<resize::MODE, T, K, E, CN>(p);                                                             \
  }
#define GI_RESIZE_REG(NAME, MODE, K, E, T) GI_RESIZE_REG_CN(NAME, MODE, K, E, T, 0, )
// The 8-bit kernels also for 1, 3 and 4 channels (the images most resized).
#define GI_RESIZE_REG134(NAME, MODE, K, E, T)  \
  GI_RESIZE_REG(NAME, MODE, K, E, T)           \
  GI_RESIZE_REG_CN(NAME, MODE, K, E, T, 1, c1) \
  GI_RESIZE_REG_CN(NAME, MODE, K, E, T, 3, c3) \
  GI_RESIZE_REG_CN(NAME, MODE, K, E, T, 4, c4)
GI_RESIZE_REG134(x8, kFix8, 2, 4, u8)
GI_RESIZE_REG134(x8, kFix8, 4, 2, u8)
GI_RESIZE_REG134(x8, kFix8, 8, 2, u8)
#define GI_RESIZE_REGEX(T)           \
  GI_RESIZE_REG(ex, kExact, 2, 4, T) \
  GI_RESIZE_REG(ex, kExact, 4, 4, T)
GI_RESIZE_REGEX(u8)
GI_RESIZE_REGEX(u16)
GI_RESIZE_REGEX(s16)
GI_RESIZE_REG(f, kFloat, 4, 4, u8)
GI_RESIZE_REG(f, kFloat, 8, 2, u8)
GI_RESIZE_REG134(p, kPillow, 4, 2, u8)
GI_RESIZE_REG134(p, kPillow, 8, 2, u8)
// f1: an element a thread, for short tiles (resample/cuda.go's resizeRegLaunch);
// c3: Lanczos4's enlargements of 3 channels (resizeRegKernel).
#define GI_RESIZE_REGF(T)                      \
  GI_RESIZE_REG(f, kFloat, 2, 4, T)            \
  GI_RESIZE_REG(f, kFloat, 4, 4, T)            \
  GI_RESIZE_REG(f, kFloat, 8, 2, T)            \
  GI_RESIZE_REG(f1, kFloat, 4, 1, T)           \
  GI_RESIZE_REG(f1, kFloat, 8, 1, T)           \
  GI_RESIZE_REG_CN(f, kFloat, 8, 2, T, 3, c3)
GI_RESIZE_REGF(u16)
GI_RESIZE_REGF(s16)
GI_RESIZE_REGF(f32)
