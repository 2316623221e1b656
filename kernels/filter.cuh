// Linear filters (package convolve, launched from convolve/cuda.go): what the kernel
// families share (Geo, Taps, element conversion, tile loading through the border
// rule). Each family lives in its own file:
//   filter_tiled.cu  gi_sep_*, gi_conv2d_*: tiles with their apron in shared memory,
//                    several outputs per thread from registers
//   filter_reg.cu    gi_reg_*: centred 3x3/5x5 (and 7x7 32F) in registers
//   filter_rsep.cu   gi_rsep_*: streaming separable kernels for 8-bit sources
//   filter_isep.cu   gi_isep3_u8_{s16,u8}: integer 3x3 separable (Sobel, Scharr)
//   filter_p2d.cu    gi_p2d_*: centred 3x3/5x5 on 8U, 16U, 16S from packed rows in registers
//   filter_ipack.cu  gi_ipack_*: packed integer box and Gaussian, 8U to 8U
//   filter_imma.cu   gi_imma_*: integer tensor cores, 8U to 8U
//
//   gi_sep_k<K>_c<C>  separable kernel, taps padded to K, C channels per block: the tile is
//                     filtered along rows into a second shared buffer, then along
//                     columns; 32x32 outputs per 32x8-thread block.
//   gi_conv2d_k<K>    2-D kernel padded to KxK (zeros), one channel per block;
//                     8 (K = 3) or 16 outputs per thread down a column, the
//                     taps of one kernel column at a time in registers;
//                     7x7: gi_conv2d_k7_py8 (8 outputs) for one-channel images,
//                     gi_conv2d_px2_k7 (two columns of 8) for the others, and
//                     gi_conv2d_u8c<C>_k7 (the same, leaner) from 8U to 8U on 3 or
//                     4 channels where the tensor-core kernel does not take it.
//   gi_imma_k7_c<C>_d<D>  kernels of up to 7 rows, 8U to 8U, on integer tensor cores
//                     (sm_80 and newer; see the last section).
//   Outputs per thread: 8 rows (4 when a block does 3 or 4 channels) for the
//   separable kernel; the tile is 32 columns by 8x that many rows.
//   gi_conv2d_any     any size: one output per thread, taps from global memory.
//   gi_reg_k<K>_<in>_<out>  centred 3x3 or 5x5 kernels on one-channel 8U or 32F
//                     images, and 7x7 from 32F to 32F, all in registers (see reg_kernel).
//   gi_isep3_u8_<out> centred 3x3 separable kernels with small integer taps (Sobel,
//                     Scharr), one-channel 8U to 16S or 8U, in integers (see below).
//   gi_p2d_k<K>_c<C>_<in>_<out>  centred 3x3 and 5x5 kernels on 8U, 16U and 16S images of
//                     1, 3 or 4 channels, rows loaded packed into registers (see p2d_strip).
//   gi_rsep_k<K>_c1_<out>  centred separable kernels up to 7x7 on one-channel 8U
//                     images, streamed down strips of rows in registers (see rsep_kernel).
//   gi_ipack_{box,gauss}_k<K>_c<C>  3x3 and 5x5 normalized box filters and OpenCV's
//                     fixed-point Gaussian, 8U to 8U, two elements per 32-bit
//                     integer (see below).
#pragma once
#include "common.cuh"
#include <limits.h>
#include "border.cuh"
#include "filter_params.h"

// Geo (the geometry of one call), the taps structs, the tap limit and the launch
// bounds the Go side relies on are declared once, in filter_params.h.
#define TAPS GI_TAPS
#define SEP_Y GI_SEP_Y

// bval is the constant border value of channel c (selects keep Geo out of local memory).
__device__ __forceinline__ float bval(const Geo& g, int c) {
  return c == 0 ? g.bval[0] : c == 1 ? g.bval[1] : c == 2 ? g.bval[2] : g.bval[3];
}

// store_col writes acc[k] + delta to rows y..y+PY-1 (those inside the image) of
// column x, channel ch, with the output depth's switch outside the loop.
template <typename T, int PY>
__device__ __forceinline__ void store_col_t(const Geo& g, char* d, int n, int i, const float (&acc)[PY]) {
#pragma unroll
  for (int k = 0; k < PY; k++)
    if (k < n) reinterpret_cast<T*>(d + (size_t)k * g.dp)[i] = sat<T>(acc[k] + g.delta);
}
template <int PY>
__device__ __forceinline__ void store_col(const Geo& g, int x, int y, int ch, const float (&acc)[PY]) {
  if (x >= g.cols) return;
  char* d = static_cast<char*>(g.dst) + (size_t)y * g.dp;
  const int n = min(PY, g.rows - y), i = x * g.cn + ch;
  if (g.halfup) {
#pragma unroll
    for (int k = 0; k < PY; k++)
      if (k < n) reinterpret_cast<u8*>(d + (size_t)k * g.dp)[i] = (u8)min(max(__float2int_rd(acc[k] + 0.5f), 0), 255);
    return;
  }
  switch (g.ddepth) {
    case 0: store_col_t<u8, PY>(g, d, n, i, acc); break;
    case 2: store_col_t<u16, PY>(g, d, n, i, acc); break;
    case 3: store_col_t<s16, PY>(g, d, n, i, acc); break;
    default: store_col_t<f32, PY>(g, d, n, i, acc);
  }
}

// elem_f is a source element as a float; 8U and 16U go through 2^23 + v and one
// subtraction (full-rate instructions instead of a conversion).
template <typename T>
__device__ __forceinline__ float elem_f(T v) { return (float)v; }
template <>
__device__ __forceinline__ float elem_f<u8>(u8 v) { return __uint_as_float(0x4B000000u | v) - 8388608.f; }
template <>
__device__ __forceinline__ float elem_f<u16>(u16 v) { return __uint_as_float(0x4B000000u | v) - 8388608.f; }

// load_inside is load_tile for a tile that lies inside the whole image (no border
// rule), with the element type and the tile's shape known at compile time. Each
// thread owns one element of a tile row and walks down every DR-th row, issuing all
// its global loads before the first shared-memory store, so they are in flight
// together (the loads' latency, not their number, bounds these small filters).
template <typename T, int CP, int IW, int IH>
__device__ __forceinline__ void load_inside(const Geo& g, float* tile, int x0, int y0, int c0) {
  constexpr int NT = 256, ROWN = IW * CP, DR = NT / ROWN, NR = DR > 0 ? (IH + DR - 1) / DR : 1;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const char* base = static_cast<const char*>(g.src) + (ptrdiff_t)y0 * g.sp + (ptrdiff_t)x0 * g.cn * (int)sizeof(T);
  if (DR > 0 && NR <= 24) {
    const int r0 = tid / ROWN, e = tid - r0 * ROWN;
    if (r0 >= DR) return;
    const int px = e / CP, c = e - px * CP;
    const char* p = base + (ptrdiff_t)r0 * g.sp + (ptrdiff_t)(px * g.cn + c0 + c) * (int)sizeof(T);
    const ptrdiff_t step = (ptrdiff_t)DR * g.sp;
    T v[NR];
#pragma unroll
    for (int k = 0; k < NR; k++)
      if (r0 + k * DR < IH) v[k] = *reinterpret_cast<const T*>(p + k * step);
    float* t = tile + (c * IH + r0) * IW + px;
#pragma unroll
    for (int k = 0; k < NR; k++)
      if (r0 + k * DR < IH) t[k * DR * IW] = elem_f(v[k]);
    return;
  }
  // Wide tiles: one flat walk over the elements.
  int r = tid / ROWN, e = tid - r * ROWN;
  const int dr = NT / ROWN, de = NT - dr * ROWN;
  for (int i = tid; i < IH * ROWN; i += NT) {
    const int px = e / CP, c = e - px * CP;
    const T* srow = reinterpret_cast<const T*>(base + (ptrdiff_t)r * g.sp);
    tile[(c * IH + r) * IW + px] = elem_f(srow[px * g.cn + c0 + c]);
    e += de;
    r += dr;
    if (e >= ROWN) {
      e -= ROWN;
      r++;
    }
  }
}

// load fills the tile, taking the fast path when no pixel needs the border rule.
template <int CP, int IW, int IH>
__device__ __forceinline__ void load(const Geo& g, float* tile, int x0, int y0, int c0);

// load_tile fills tile[c][r][x] (CP planes of ih rows of iw floats, rows ls floats
// apart) with the source pixels from (x0, y0) of the view, channels c0.., through
// the border rule.
template <int CP>
__device__ __forceinline__ void load_tile(const Geo& g, float* tile, int iw, int ls, int ih, int x0, int y0, int c0) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int wx0 = g.ox + x0, wy0 = g.oy + y0;
  const bool inside = wx0 >= 0 && wy0 >= 0 && wx0 + iw <= g.wcols && wy0 + ih <= g.wrows;
  for (int r = ty; r < ih; r += blockDim.y) {
    int my = inside ? wy0 + r : bmap(wy0 + r, g.wrows, g.border);
    const char* srow = static_cast<const char*>(g.src) + (ptrdiff_t)(my - g.oy) * g.sp;
    for (int e = tx; e < iw * CP; e += blockDim.x) {
      const int px = e / CP, c = e - px * CP;
      const int mx = inside ? wx0 + px : bmap(wx0 + px, g.wcols, g.border);
      float v;
      if (my < 0 || mx < 0)
        v = bval(g, c0 + c);
      else
        v = ldelem(srow, (mx - g.ox) * g.cn + c0 + c, g.sdepth);
      tile[(c * ih + r) * ls + px] = v;
    }
  }
}

template <int CP, int IW, int IH>
__device__ __forceinline__ void load(const Geo& g, float* tile, int x0, int y0, int c0) {
  const int wx0 = g.ox + x0, wy0 = g.oy + y0;
  if (wx0 >= 0 && wy0 >= 0 && wx0 + IW <= g.wcols && wy0 + IH <= g.wrows) {
    switch (g.sdepth) {
      case 0: load_inside<u8, CP, IW, IH>(g, tile, x0, y0, c0); return;
      case 2: load_inside<u16, CP, IW, IH>(g, tile, x0, y0, c0); return;
      case 3: load_inside<s16, CP, IW, IH>(g, tile, x0, y0, c0); return;
      default: load_inside<f32, CP, IW, IH>(g, tile, x0, y0, c0); return;
    }
  }
  load_tile<CP>(g, tile, IW, IW, IH, x0, y0, c0);
}

// Shared by several families (the 8-bit kernels).
// u8_rn_sat is saturate_cast<uchar>(f): round half to even, clamp to 0..255, NaN 0.
__device__ __forceinline__ unsigned u8_rn_sat(float f) {
  unsigned r;
  asm("cvt.rni.sat.u8.f32 %0, %1;" : "=r"(r) : "f"(f));
  return r;
}
// strip_rows sets rr[i] to the view row that input row r0 + i reads under the border
// rule of the whole image, and returns a mask whose bit i says that row i is
// BORDER_CONSTANT's value (rr[i] is then 0, a row that exists).
template <int N>
__device__ __forceinline__ unsigned strip_rows(const Geo& g, int r0, int (&rr)[N]) {
  unsigned konst = 0;
#pragma unroll
  for (int i = 0; i < N; i++) {
    int r = r0 + i;
    const int wy = r + g.oy;
    if ((unsigned)wy >= (unsigned)g.wrows) {
      const int m = bmap(wy, g.wrows, g.border);
      if (m < 0) konst |= 1u << i;
      r = m < 0 ? 0 : m - g.oy;
    }
    rr[i] = r;
  }
  return konst;
}
// u8f is byte k of w as a float (exact).
__device__ __forceinline__ float u8f(unsigned w, int k) {
  return __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7540 | k)) - 8388608.f;
}
// to_u8 rounds f (half to even, or half up) and saturates to 0..255; the result is
// in the low byte of a float's bit pattern.
__device__ __forceinline__ unsigned to_u8_bits(float f, int halfup) {
  return halfup ? __float_as_uint(__fadd_rd(fminf(fmaxf(f, 0.f), 255.f) + 0.5f, 8388608.f)) : sat8bits(f);
}
// pack_u8 packs E results (f + g.delta, rounded as g.halfup says and saturated to
// 0..255) four a word, the first lowest.
template <int E>
__device__ __forceinline__ void pack_u8(const Geo& g, const float (&f)[E], unsigned (&w)[E / 4]) {
#pragma unroll
  for (int q = 0; q < E / 4; q++)
    w[q] = packLow(to_u8_bits(f[4 * q] + g.delta, g.halfup), to_u8_bits(f[4 * q + 1] + g.delta, g.halfup),
                   to_u8_bits(f[4 * q + 2] + g.delta, g.halfup), to_u8_bits(f[4 * q + 3] + g.delta, g.halfup));
}

// isep_map is the view column that column x reads under the border rule of the
// whole image, or INT_MIN for BORDER_CONSTANT's value.
__device__ __forceinline__ int isep_map(const Geo& g, int x) {
  const int wx = x + g.ox;
  if ((unsigned)wx < (unsigned)g.wcols) return x;
  const int m = bmap(wx, g.wcols, g.border);
  return m < 0 ? INT_MIN : m - g.ox;
}

// ipk_cval is BORDER_CONSTANT's value for byte q of a row (its channel's, from t.cval).
template <int C, typename TT>
__device__ __forceinline__ unsigned ipk_cval(const TT& t, int q) {
  const int ch = (q % C + C) % C;
  return ch == 0 ? t.cval[0] : ch == 1 ? t.cval[1] : ch == 2 ? t.cval[2] : t.cval[3];
}

// ipk_off is the offset in a row of the byte that byte q of the view's rows reads
// (q counted from the view's first byte; outside its columns through the border rule
// of the whole image; negative into a parent image left of a view), or INT_MIN for
// BORDER_CONSTANT's value.
template <int C>
__device__ __forceinline__ int ipk_off(const Geo& g, int q) {
  if (q >= 0 && q < g.cols * C) return q;
  const int x = q >= 0 ? q / C : -((-q + C - 1) / C);  // pixel, rounded down
  const int m = isep_map(g, x);
  return m == INT_MIN ? INT_MIN : m * C + (q - x * C);
}

// strip_load fills w[i] with the Q words of input row i (view row r0 + i) that a
// lane of E elements of T from element e of the view's rows (C interleaved channels)
// holds: by one vector load a row where the lane lies inside the view's columns
// (rows outside the view through the border rule of the whole image, BORDER_CONSTANT's
// rows from t.cval), else element by element through the border rule, and then only
// those that outputs use (lane 0 supplies its last H elements, lane 31 its first H,
// and past the row's end only the first H matter; the others are left unset). The
// whole warp loads one such lane's elements at a time, all in flight together, and
// passes them on through buf (NR * E elements of the warp's shared memory).
template <typename T, int C, int E, int H, int NR, typename TT>
__device__ __forceinline__ void strip_load(const Geo& g, const TT& t, T* buf, int lane, int e, int r0,
                                           unsigned (&w)[NR][E * sizeof(T) / 4]) {
  constexpr int Q = E * (int)sizeof(T) / 4, PW = 4 / (int)sizeof(T);  // words a row, elements a word
  static_assert(Q == 2 || Q == 4, "a lane's row is one 8- or 16-byte load");
  const int nb = g.cols * C;
  int rr[NR];  // the view row that input row i reads
  const unsigned konst = strip_rows(g, r0, rr);
  const bool full = e >= 0 && e + E <= nb;
  unsigned kw[Q];  // a BORDER_CONSTANT row: each element its channel's value
#pragma unroll
  for (int q = 0; q < Q; q++) kw[q] = 0;
  if (konst) {
#pragma unroll
    for (int o = 0; o < E; o++) kw[o / PW] |= (ipk_cval<C>(t, e + o) & (0xffffffffu >> (32 - 32 / PW))) << (32 / PW * (o % PW));
  }
#pragma unroll
  for (int i = 0; i < NR; i++) {
    if (konst >> i & 1) {
#pragma unroll
      for (int q = 0; q < Q; q++) w[i][q] = kw[q];
    } else if (full) {
      const char* p = static_cast<const char*>(g.src) + (long long)rr[i] * g.sp + (long long)e * (int)sizeof(T);
      if (Q == 4) {
        const uint4 v = *reinterpret_cast<const uint4*>(p);
        w[i][0] = v.x, w[i][1] = v.y, w[i][Q - 2] = v.z, w[i][Q - 1] = v.w;
      } else {
        const uint2 v = *reinterpret_cast<const uint2*>(p);
        w[i][0] = v.x, w[i][Q - 1] = v.y;
      }
    }
  }
  const int b0 = lane == 0 ? E - H : 0, b1 = min(lane == 31 ? H : E, nb + H - e);
  for (unsigned slow = __ballot_sync(0xffffffffu, !full && b1 > b0); slow; slow &= slow - 1) {
    const int sl = __ffs(slow) - 1;
    const int se = __shfl_sync(0xffffffffu, e, sl), sb0 = __shfl_sync(0xffffffffu, b0, sl),
              sb1 = __shfl_sync(0xffffffffu, b1, sl);
#pragma unroll
    for (int u = 0; u < (NR * E + 31) / 32; u++) {
      const int it = lane + 32 * u, i = it / E, o = it % E;
      if (it >= NR * E) break;
      T v = 0;
      if (o >= sb0 && o < sb1 && !(konst >> i & 1)) {
        int r = r0 + i;
        if ((unsigned)(r + g.oy) >= (unsigned)g.wrows) r = bmap(r + g.oy, g.wrows, g.border) - g.oy;
        const int f = ipk_off<C>(g, se + o);
        v = f == INT_MIN ? (T)ipk_cval<C>(t, se + o)
                         : reinterpret_cast<const T*>(static_cast<const char*>(g.src) + (long long)r * g.sp)[f];
      }
      buf[it] = v;
    }
    __syncwarp();
    if (lane == sl) {
#pragma unroll
      for (int i = 0; i < NR; i++)
        if (!(konst >> i & 1))
#pragma unroll
          for (int q = 0; q < Q; q++) w[i][q] = reinterpret_cast<const unsigned*>(buf)[i * Q + q];
    }
    __syncwarp();
  }
}
