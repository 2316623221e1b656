// Pillow's 8-bit resampling passes (Scale) on the tensor cores (Go caller:
// resample/pmma.go builds the operand tables; the CPU twin is resample/cpu.go's
// Pillow arithmetic, bit for bit).
//   gi_resize_mma_p_KS   one pass of Pillow's 8-bit arithmetic, KS = 1..4 steps of
//                        32 source bytes a tile of 16 outputs, sm_80 and newer.
//
// A pass is a banded matrix product whose result is written transposed:
//   out[m][n] = pillow8(2^21 + sum over bytes b of W[m][b] * X[n][b]),
// X a byte matrix (rows of L bytes, pitch sp), W the pass's 22-bit integer weights
// (output m weighs byte b of a row where b is one of its taps: row byte
// (start + j) * cn + c for output m = pixel * cn + c). Both of Scale's passes are
// this product: the horizontal one with X the source image (a row of X a source
// row, m an element of an intermediate row) into the intermediate transposed
// (mid[m][y], a row a column of the intermediate), the vertical one with X that
// intermediate (cn 1: m an output row, b a source row) into the output image. So
// each pass reads its taps along X's rows, whole words, and never unpacks a byte.
//   Each weight is split into three signed-byte digits (W = d0 + 256 d1 +
// 65536 d2), so a tile of 16 outputs by 8 rows of X is, per 32 bytes of the
// tile's span, three integer mma (m16n8k32, s8 digits times u8 bytes, exact int32
// sums) combined as d0 + (d1 << 8) + (d2 << 16) in wrapping 32-bit arithmetic,
// Pillow's int sum. The mma's operands, for k-step s of the tile's KS:
//   A[m][k] = digit of W[m0 + m][a0 + pi_s(k)]  (host-built, per tile: the
//            fragments of each k-step and digit as a lane's 4 words),
//   B[k][n] = X[row(n)][a0 + pi_s(k)],
// a0 the tile's first byte (a multiple of 8) and pi_s the order of the span's
// bytes that makes a lane's B registers (columns k = 4t..4t+3 and
// 16+4t..16+4t+3 for lane 4g + t) one 8-byte load: bytes 32s + 8t .. + 7
// (resample/pmma.go's pmmaSlot). The 8 columns of n-step q (of 4: 32 rows of X
// from n0) are rows row(n) = n0 + 8 (n >> 1) + 2q + (n & 1), so that a lane's
// results (columns 2t and 2t + 1 of each n-step) are rows n0 + 8t .. n0 + 8t + 7
// of its outputs: one 8-byte store for each of its two outputs m0 + g and
// m0 + g + 8.
//   Blocks of 4 warps (4 a multiprocessor at least: launch bounds), warp w taking
// tile 4 blockIdx.x + w (tiles next to each other read overlapping bytes of the
// same rows) and rows [blockIdx.y th, + th) of X, 32 at a time: the 32 rows'
// loads issued together, then their mma. (Measured on the H100, 4K -> 1080p
// Lanczos3 8UC3: loading the next 32 rows during the mma took more registers
// than it hid latency, 68.1 against 52.2 us; pairs of k-steps as one 16-byte
// load gained nothing there, 40.4 against 40.8, and lost on enlargements,
// 1080p -> 4K 212 against 160.)
#include "common.cuh"
#include "resample_params.h"

namespace pmma {

// pillowByte is Pillow's 8-bit value of the digit sums d0, d1, d2: the sum from
// 2^21 (its rounding), >> 22, clipped to 0..255.
__device__ __forceinline__ unsigned pillowByte(int d0, int d1, int d2) {
  const int acc = (int)((unsigned)d0 + ((unsigned)d1 << 8) + ((unsigned)d2 << 16) + (1u << 21));
  return (unsigned)min(max(acc >> 22, 0), 255);
}

// loadSpan is the NW words at byte o of row r (aligned to them), the bytes at or
// past len (the row's end) zero: a word at a time, the one the end cuts a byte
// at a time.
template <int NW>
__device__ __forceinline__ void loadSpan(const u8* r, int o, int len, unsigned (&w)[NW]) {
#pragma unroll
  for (int j = 0; j < NW; ++j) {
    const int b = o + 4 * j;
    if (b + 4 <= len) {
      w[j] = __ldg(reinterpret_cast<const unsigned*>(r + b));
    } else {
      w[j] = 0u;
#pragma unroll 1
      for (int i = 0; b + i < len; ++i) w[j] |= (unsigned)__ldg(r + b + i) << (8 * i);
    }
  }
}

// storeRow stores a lane's 8 results (lo, hi: bytes 0..3, 4..7) at columns
// n .. n + 7 of an output row d of nmax columns: one 8-byte store where they all
// lie in the row and d + n is aligned, else byte by byte.
__device__ __forceinline__ void storeRow(u8* d, int n, int nmax, unsigned lo, unsigned hi) {
  if (n + 8 <= nmax && (reinterpret_cast<size_t>(d + n) & 7) == 0) {
    *reinterpret_cast<uint2*>(d + n) = make_uint2(lo, hi);
    return;
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
    if (n + i < nmax) d[n + i] = (u8)((i < 4 ? lo : hi) >> (8 * (i & 3)));
}

// loadB is a lane's B registers of n-step q for each k-step s from row r (the
// tile's first byte; len bytes long from there): bytes 32s + 8t .. + 7, one
// 8-byte load. WHOLE: every load lies in the row.
template <int KS, bool WHOLE>
__device__ __forceinline__ void loadB(uint2 (&v)[KS], const u8* r, int len, int t) {
#pragma unroll
  for (int s = 0; s < KS; ++s) {
    const int o = 32 * s + 8 * t;
    unsigned w[2];
    if (WHOLE) {
      const uint2 x = __ldg(reinterpret_cast<const uint2*>(r + o));
      w[0] = x.x, w[1] = x.y;
    } else {
      loadSpan<2>(r, o, len, w);
    }
    v[s] = make_uint2(w[0], w[1]);
  }
}

// walk is a warp's walk down rows [n0, n1) of X, 32 at a time, its tile's A
// fragments a in registers: the 32 rows' loads issued together, then their mma
// (rows past X's end clamped to its last). X: the tile's first byte of row 0.
template <int KS, bool WHOLE>
__device__ __forceinline__ void walk(const unsigned (&a)[KS][3][4], const u8* X, int sp, int len, int N, int n0, int n1,
                                     int roff, int t, u8* out0, u8* out1, bool has0, bool has1) {
  for (int n = n0; n < n1; n += 32) {
    uint2 b[4][KS];
#pragma unroll
    for (int q = 0; q < 4; ++q)
      loadB<KS, WHOLE>(b[q], X + (size_t)min(n + roff + 2 * q, N - 1) * sp, len, t);
    unsigned lo0 = 0, hi0 = 0, lo1 = 0, hi1 = 0;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      int c[3][4] = {};
#pragma unroll
      for (int s = 0; s < KS; ++s)
#pragma unroll
        for (int d = 0; d < 3; ++d) mma16832<true, false>(c[d], a[s][d], b[q][s].x, b[q][s].y);
      // c[d][0], c[d][1]: output m0 + g, rows n + 8t + 2q, + 1; c[d][2], c[d][3]: m0 + g + 8.
      const unsigned v0 = pillowByte(c[0][0], c[1][0], c[2][0]) | pillowByte(c[0][1], c[1][1], c[2][1]) << 8;
      const unsigned v1 = pillowByte(c[0][2], c[1][2], c[2][2]) | pillowByte(c[0][3], c[1][3], c[2][3]) << 8;
      if (q < 2) {
        lo0 |= v0 << (16 * q), lo1 |= v1 << (16 * q);
      } else {
        hi0 |= v0 << (16 * (q - 2)), hi1 |= v1 << (16 * (q - 2));
      }
    }
    if (has0) storeRow(out0, n + 8 * t, n1, lo0, hi0);
    if (has1) storeRow(out1, n + 8 * t, n1, lo1, hi1);
  }
}

// pass: gi_resize_mma_p_KS. ResizeParams as it reads them: src, sp: X (8-byte
// aligned rows); sw: X's row length in bytes; sh: X's rows; dst, dp: the output
// (dw rows of sh bytes); dw: the outputs; xstart: each tile's a0; xw: the tiles'
// A fragments, as words ((tile * KS + s) * 3 + digit) * 128 + lane * 4 + reg; th:
// X's rows a block row (a multiple of 32).
template <int KS>
__device__ __forceinline__ void pass(const ResizeParams& p) {
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  const int tile = blockIdx.x * 4 + (threadIdx.x >> 5);
  const int m0 = tile * 16, M = p.dw, N = p.sh, L = p.sw;
  if (m0 >= M) return;
  const int a0 = __ldg(p.xstart + tile);
  const uint4* fr = reinterpret_cast<const uint4*>(p.xw) + (size_t)tile * KS * 3 * 32 + lane;
  unsigned a[KS][3][4];
#pragma unroll
  for (int s = 0; s < KS; ++s)
#pragma unroll
    for (int d = 0; d < 3; ++d) {
      const uint4 v = __ldg(fr + (s * 3 + d) * 32);
      a[s][d][0] = v.x, a[s][d][1] = v.y, a[s][d][2] = v.z, a[s][d][3] = v.w;
    }
  const u8* X = static_cast<const u8*>(p.src) + a0;
  u8* out0 = static_cast<u8*>(p.dst) + (size_t)(m0 + g) * p.dp;
  u8* out1 = out0 + (size_t)8 * p.dp;
  const bool has0 = m0 + g < M, has1 = m0 + g + 8 < M;
  const int n0 = blockIdx.y * p.th, n1 = min(N, n0 + p.th);
  const int roff = 8 * (g >> 1) + (g & 1), len = L - a0;
  if (a0 + 32 * KS <= L)
    walk<KS, true>(a, X, p.sp, len, N, n0, n1, roff, t, out0, out1, has0, has1);
  else
    walk<KS, false>(a, X, p.sp, len, N, n0, n1, roff, t, out0, out1, has0, has1);
}

}  // namespace pmma

// gi_resize_mma_p_KS: pmma::pass, KS k-steps of 32 bytes a tile.
#define GI_RESIZE_MMA(KS)                                                                                       \
  extern "C" __global__ void __launch_bounds__(128, 4) gi_resize_mma_p_##KS(__grid_constant__ const ResizeParams p) { \
    pmma::pass<KS>(p);                                                                                          \
  }
GI_RESIZE_MMA(1)
GI_RESIZE_MMA(2)
GI_RESIZE_MMA(3)
GI_RESIZE_MMA(4)
