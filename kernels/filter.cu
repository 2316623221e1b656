// Linear filters (package convolve): tiles with their apron in shared memory, the
// border rule applied while loading, several outputs per thread from registers.
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
//   gi_isep3_u8_s16   centred 3x3 separable kernels with small integer taps (Sobel,
//                     Scharr), one-channel 8U to 16S, in integers (see below).
//   gi_rsep_k<K>_c1_<out>  centred separable kernels up to 7x7 on one-channel 8U
//                     images, streamed down strips of rows in registers (see rsep_kernel).
//   gi_ipack_{box,gauss}_k<K>_c<C>  3x3 and 5x5 normalized box filters and OpenCV's
//                     fixed-point Gaussian, 8U to 8U, two elements per 32-bit
//                     integer (see below).
#include "common.cuh"
#include <limits.h>
#include "border.cuh"

// Geo is the geometry of one call; convolve/cuda.go passes its fields in this order.
struct Geo {
  const void* src;
  int sp;
  void* dst;
  int dp;
  int rows, cols;          // size of the view filtered (and of the output)
  int sdepth, ddepth, cn;  // OpenCV depth codes (0 8U, 2 16U, 3 16S, 5 32F), channels
  int wrows, wcols, ox, oy;  // whole image the border applies to, view's offset in it
  int border;
  float bval[4];
  int kw, kh, ax, ay;
  float delta;
  int halfup;  // 8U results rounded half up (OpenCV's fixed-point GaussianBlur)
  int pad_;
};
static_assert(sizeof(Geo) == 112, "Geo layout must match convolve/cuda.go");

#define TAPS 964
struct Taps {
  float v[TAPS];
};
#define SEP_Y 64

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

// The taps are padded with zeros to K (after the anchor), so every loop has a
// compile-time trip count and each tap is a constant-bank operand.
template <int K, int CP>
__device__ __forceinline__ void sep_kernel(Geo g, Taps t) {
  constexpr int PY = CP == 1 ? 8 : 4, TW = 32, TH = 8 * PY, IW = TW + K - 1, IH = TH + K - 1;
  extern __shared__ float sm[];
  float* tin = sm;
  float* mid = sm + CP * IH * IW;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int c0 = blockIdx.z * CP;
  const int x0 = blockIdx.x * TW;
  const int ntY = (g.rows + TH - 1) / TH;
  for (int by = blockIdx.y; by < ntY; by += gridDim.y) {
    const int y0 = by * TH;
    load<CP, IW, IH>(g, tin, x0 - g.ax, y0 - g.ay, c0);
    __syncthreads();
    // Row pass: mid[c][r][x] for every row of the tile, one column per thread.
#pragma unroll 1
    for (int c = 0; c < CP; c++) {
      for (int r = ty; r < IH; r += 8) {
        const float* in = tin + (c * IH + r) * IW + tx;
        float acc = 0.f;
#pragma unroll
        for (int j = 0; j < K; j++) acc = fmaf(t.v[j], in[j], acc);
        mid[(c * IH + r) * TW + tx] = acc;
      }
    }
    __syncthreads();
    // Column pass: PY consecutive outputs per thread share the loaded values.
    const int x = x0 + tx;
#pragma unroll 1
    for (int c = 0; c < CP; c++) {
      float acc[PY];
#pragma unroll
      for (int k = 0; k < PY; k++) acc[k] = 0.f;
      const float* col = mid + (c * IH + ty * PY) * TW + tx;
#pragma unroll
      for (int m = 0; m < PY + K - 1; m++) {
        const float v = col[m * TW];
#pragma unroll
        for (int k = 0; k < PY; k++) {
          const int i = m - k;
          if (i >= 0 && i < K) acc[k] = fmaf(t.v[SEP_Y + i], v, acc[k]);
        }
      }
      store_col<PY>(g, x, y0 + ty * PY, c0 + c, acc);
    }
    __syncthreads();
  }
}

// The 2-D kernels take one channel of a column of tiles per block: blockIdx.x is
// the tile column times the channels plus the channel, so that the blocks of one
// tile's channels run together and read (and write) the same interleaved bytes
// through L2 once. They walk their tiles of TH output rows down the image:
//   for (int by = blockIdx.y; next_tile<IW, IH, TH>(g, tile, x0, c, ntY, by); by += gridDim.y)
// next_tile reports whether tile row by (of ntY) exists and, if so, loads it with
// its apron (channel c, columns from x0) and waits for the block; the caller waits
// again before the next one.
// tile_col is the block's first output column and its channel (see above).
template <int TW>
__device__ __forceinline__ int2 tile_col(const Geo& g) {
  const int bx = blockIdx.x / g.cn;
  return make_int2(bx * TW, blockIdx.x - bx * g.cn);
}
template <int IW, int IH, int TH>
__device__ __forceinline__ bool next_tile(const Geo& g, float* tile, int x0, int c, int ntY, int by) {
  if (by >= ntY) return false;
  load<1, IW, IH>(g, tile, x0 - g.ax, by * TH - g.ay, c);
  __syncthreads();
  return true;
}

// Each thread keeps PY outputs of one column; for each kernel column j it holds the
// K taps of that column in registers and walks down the PY+K-1 tile values once.
template <int K, int PY>
__device__ __forceinline__ void conv2d_kernel(Geo g, Taps t) {
  constexpr int TW = 32, TH = 8 * PY, IW = TW + K - 1, IH = TH + K - 1;
  __shared__ float tile[IH * IW];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int2 col = tile_col<TW>(g);
  const int x0 = col.x, c = col.y;
  const int ntY = (g.rows + TH - 1) / TH;
  for (int by = blockIdx.y; next_tile<IW, IH, TH>(g, tile, x0, c, ntY, by); by += gridDim.y) {
    const int y0 = by * TH;
    float acc[PY];
#pragma unroll
    for (int k = 0; k < PY; k++) acc[k] = 0.f;
    const float* base = tile + ty * PY * IW + tx;
    // Kernels up to 7x7 unroll this loop too, so the taps are constant operands
    // (filter2D 7x7 32FC1 at 4K on the H100: 57.2 us against 63.0 rolled).
#pragma unroll(K <= 7 ? K : 1)
    for (int j = 0; j < K; j++) {
      float w[K];
#pragma unroll
      for (int i = 0; i < K; i++) w[i] = t.v[i * K + j];
#pragma unroll
      for (int m = 0; m < PY + K - 1; m++) {
        const float v = base[m * IW + j];
#pragma unroll
        for (int k = 0; k < PY; k++) {
          const int i = m - k;
          if (i >= 0 && i < K) acc[k] = fmaf(w[i], v, acc[k]);
        }
      }
    }
    store_col<PY>(g, x0 + tx, y0 + ty * PY, c, acc);
    __syncthreads();
  }
}

// px2_rows adds to a0 and a1 the outputs of PY rows of two adjacent columns whose
// K+1 inputs of the first row start at base (8-byte aligned), rows LS floats apart:
// each tile row comes into registers once, as (K+1)/2 8-byte loads, and serves the
// 2K taps of every output row it reaches in both columns.
template <int K, int PY, int LS>
__device__ __forceinline__ void px2_rows(const float* base, const Taps& t, float (&a0)[PY], float (&a1)[PY]) {
#pragma unroll
  for (int m = 0; m < PY + K - 1; m++) {
    float v[K + 1];
#pragma unroll
    for (int q = 0; q < (K + 1) / 2; q++) {
      const float2 p = *reinterpret_cast<const float2*>(base + m * LS + 2 * q);
      v[2 * q] = p.x, v[2 * q + 1] = p.y;
    }
#pragma unroll
    for (int k = 0; k < PY; k++) {
      const int i = m - k;
      if (i >= 0 && i < K) {
#pragma unroll
        for (int j = 0; j < K; j++) {
          a0[k] = fmaf(t.v[i * K + j], v[j], a0[k]);
          a1[k] = fmaf(t.v[i * K + j], v[j + 1], a1[k]);
        }
      }
    }
  }
}

// conv2d_px2_kernel is conv2d_kernel with two adjacent output columns per thread
// (tiles of 64 columns): each tile row comes into registers once, as (K+1)/2
// 8-byte loads, and serves the 2K taps of every output row it reaches in both
// columns, so a thread does 3.5 times more multiply-adds per shared-memory load
// than gi_conv2d_k7 (which reloads a column for each of the K kernel columns).
// Measured on the H100 at 4K: 8UC3 122.6 against gi_conv2d_k7's 135.2 us, but
// 32FC1 53.3 against gi_conv2d_k7_py8's 50.8, so one-channel images keep that.
// (Fetching the next tile into registers while computing one, with a column of
// tiles per block, took 72 registers and measured 112.7 us for 32FC1.) With a
// tile's channels in neighbouring blocks (next_tile) 8UC3 went from 124 to 101 us:
// the blocks of one tile share its bytes in L2 instead of reading them 3 times.
// (A tensor-core version, bytes as halves and each kernel row one m16n8k16 MMA with
// Toeplitz taps split into high and low halves, was exact to +-1 but measured
// 127-185 us; its warps mostly waited on the MMA and shared-memory chains. Four
// columns per thread, 128-column tiles, measured 147.6 us with 80 registers (3
// blocks per SM) and 170.2 with 2 blocks, against 98.6 for two columns.) From 8U to
// 8U on 3 or 4 channels conv2d_u8_kernel takes its place.
template <int K, int PY>
__device__ __forceinline__ void conv2d_px2_kernel(Geo g, Taps t) {
  constexpr int TW = 64, TH = 8 * PY, IW = TW + K - 1, IH = TH + K - 1;
  static_assert(K % 2 == 1, "rows of K + 1 values move as pairs");
  __shared__ __align__(16) float tile[IH * IW];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int2 col = tile_col<TW>(g);
  const int x0 = col.x, c = col.y;
  const int ntY = (g.rows + TH - 1) / TH;
  for (int by = blockIdx.y; next_tile<IW, IH, TH>(g, tile, x0, c, ntY, by); by += gridDim.y) {
    const int y0 = by * TH;
    float a0[PY], a1[PY];
#pragma unroll
    for (int k = 0; k < PY; k++) a0[k] = a1[k] = 0.f;
    px2_rows<K, PY, IW>(tile + ty * PY * IW + 2 * tx, t, a0, a1);  // IW is even: 8-byte aligned
    store_col<PY>(g, x0 + 2 * tx, y0 + ty * PY, c, a0);
    store_col<PY>(g, x0 + 2 * tx + 1, y0 + ty * PY, c, a1);
    __syncthreads();
  }
}

// conv2d_u8_kernel is conv2d_px2_kernel (tiles of 64 columns by 8*PY rows of one
// channel, the blocks of a tile's channels side by side, two columns of PY outputs
// per thread, px2_rows) for 8U images of C = 3 or 4 interleaved channels filtered
// to 8U, with fewer instructions around the multiply-adds:
//   - A tile whose columns lie inside the whole image, with 8-byte aligned rows, is
//     read as chunks of 8 pixels (C 8-byte loads) from column x0 - 8 to x0 + 72
//     (the apron and then some); rows outside the image go through the border rule
//     once per chunk row. Its channel's 8 bytes become floats by a byte permute
//     and one subtraction each (chunk_f) and go to shared memory as two 16-byte
//     stores. Other tiles take load_tile (the border rule element by element).
//   - Tile rows are LS = 80 floats with the chunks at multiples of 8; an odd anchor
//     column moves them up one float (stored as 4 + 1 accesses) so that the 8-byte
//     loads of px2_rows stay aligned.
//   - Sums start at delta; each result is rounded and saturated by one conversion
//     (u8_rn_sat) and stored without predicates where the thread's outputs lie in
//     the image.
//   - One tile per block: the grid covers the rows (convolve/cuda.go).
// Tried and dropped (4K 8UC3 on the H100, against 93.9 us): persistent blocks that
// fetch their next tile's rows by cp.async while filtering one, 111.6 (more barrier
// and shared-memory stalls, 5 blocks per SM instead of 6).
// u8_rn_sat is saturate_cast<uchar>(f): round half to even, clamp to 0..255, NaN 0.
__device__ __forceinline__ unsigned u8_rn_sat(float f) {
  unsigned r;
  asm("cvt.rni.sat.u8.f32 %0, %1;" : "=r"(r) : "f"(f));
  return r;
}
// chunk_f is channel J of the 8 pixels of w (8*C interleaved bytes) as floats.
template <int C, int J>
__device__ __forceinline__ void chunk_f(const unsigned (&w)[2 * C], float (&f)[8]) {
#pragma unroll
  for (int p = 0; p < 8; p++) {
    constexpr int s = 0x7440;  // byte 0 from w, then 0x00, 0x00, 0x4B: 2^23 + byte
    const int b = p * C + J;
    f[p] = __uint_as_float(__byte_perm(w[b / 4], 0x4B000000u, s | (b % 4))) - 8388608.f;
  }
}
// load_chunks fills the IH rows of the tile (LS floats apart, pixel x0 - 8 at float
// d) with channel J of image rows ys.. from column x0 - 8: each thread takes one
// chunk column and every RPP-th row, all its loads in flight at once. rin: the rows
// lie inside the whole image (else each goes through the border rule).
template <int IH, int LS, int C, int J>
__device__ __forceinline__ void load_chunks(const Geo& g, float* tile, int x0, int ys, int d, bool rin) {
  constexpr int NCH = LS / 8, RPP = 256 / NCH, NP = (IH + RPP - 1) / RPP;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x, r0 = tid / NCH, k = tid - r0 * NCH;
  if (r0 >= RPP) return;
  const char* col = static_cast<const char*>(g.src) + (ptrdiff_t)(x0 - 8 + 8 * k) * C;
  unsigned w[NP][2 * C];
  bool cst[NP];
#pragma unroll
  for (int i = 0; i < NP; i++) {
    const int r = r0 + i * RPP;
    int y = ys + r;
    cst[i] = false;
    if (r < IH) {
      if (!rin) {
        const int my = bmap(g.oy + y, g.wrows, g.border);
        cst[i] = my < 0;
        y = cst[i] ? 0 : my - g.oy;
      }
      const uint2* p = reinterpret_cast<const uint2*>(col + (ptrdiff_t)y * g.sp);
#pragma unroll
      for (int j = 0; j < C; j++) {
        const uint2 v = __ldg(p + j);
        w[i][2 * j] = v.x, w[i][2 * j + 1] = v.y;
      }
    }
  }
  float* o = tile + r0 * LS + 8 * k + d;
#pragma unroll
  for (int i = 0; i < NP; i++) {
    if (r0 + i * RPP < IH) {
      float f[8];
      chunk_f<C, J>(w[i], f);
      if (cst[i]) {
#pragma unroll
        for (int q = 0; q < 8; q++) f[q] = bval(g, J);
      }
      float* t = o + i * RPP * LS;
      if (d == 0) {
        reinterpret_cast<float4*>(t)[0] = make_float4(f[0], f[1], f[2], f[3]);
        reinterpret_cast<float4*>(t)[1] = make_float4(f[4], f[5], f[6], f[7]);
      } else {
        t[0] = f[0];
        *reinterpret_cast<float2*>(t + 1) = make_float2(f[1], f[2]);
        *reinterpret_cast<float2*>(t + 3) = make_float2(f[3], f[4]);
        *reinterpret_cast<float2*>(t + 5) = make_float2(f[5], f[6]);
        t[7] = f[7];
      }
    }
  }
}
template <int K, int PY, int C>
__device__ __forceinline__ void conv2d_u8_kernel(Geo g, Taps t) {
  constexpr int TW = 64, TH = 8 * PY, IW = TW + K - 1, IH = TH + K - 1, LS = TW + 16;
  static_assert(K % 2 == 1 && K <= 9, "the apron lies in the chunks either side of the tile");
  static_assert(C == 3 || C == 4, "3 or 4 channels");
  __shared__ __align__(16) float tile[IH * LS + 4];  // + the last odd-anchor store
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int2 col = tile_col<TW>(g);
  const int x0 = col.x, c = col.y, y0 = blockIdx.y * TH, ys = y0 - g.ay;  // one tile per block
  const int d = g.ax & 1, o0 = 8 - g.ax + d;  // column x0 - ax is tile float o0 (even)
  const int wx = g.ox + x0 - 8, wy = g.oy + ys;
  if (((reinterpret_cast<size_t>(g.src) | (size_t)g.sp) & 7) == 0 && wx >= 0 && wx + LS <= g.wcols) {
    const bool rin = wy >= 0 && wy + IH <= g.wrows;
    if (c == 0)
      load_chunks<IH, LS, C, 0>(g, tile, x0, ys, d, rin);
    else if (c == 1)
      load_chunks<IH, LS, C, 1>(g, tile, x0, ys, d, rin);
    else if (C == 3 || c == 2)
      load_chunks<IH, LS, C, 2>(g, tile, x0, ys, d, rin);
    else
      load_chunks<IH, LS, C, C - 1>(g, tile, x0, ys, d, rin);
  } else {
    load_tile<1>(g, tile + o0, IW, LS, IH, x0 - g.ax, ys, c);
  }
  __syncthreads();
  float a0[PY], a1[PY];
#pragma unroll
  for (int k = 0; k < PY; k++) a0[k] = a1[k] = g.delta;
  px2_rows<K, PY, LS>(tile + ty * PY * LS + o0 + 2 * tx, t, a0, a1);
  const int yb = y0 + ty * PY, xb = x0 + 2 * tx;
  u8* out = static_cast<u8*>(g.dst) + (ptrdiff_t)yb * g.dp + xb * C + c;
  if (xb + 1 < g.cols && yb + PY <= g.rows) {
#pragma unroll
    for (int k = 0; k < PY; k++, out += g.dp) {
      out[0] = (u8)u8_rn_sat(a0[k]);
      out[C] = (u8)u8_rn_sat(a1[k]);
    }
  } else if (xb < g.cols) {
#pragma unroll
    for (int k = 0; k < PY; k++, out += g.dp) {
      if (yb + k < g.rows) {
        out[0] = (u8)u8_rn_sat(a0[k]);
        if (xb + 1 < g.cols) out[C] = (u8)u8_rn_sat(a1[k]);
      }
    }
  }
}

// Register kernel for centred 3x3 and 5x5 kernels (2-D, or separable ones as their
// outer product) on one-channel 8U or 32F images, and 7x7 ones from 32F to 32F (the
// 3 neighbours each side still come from the next lanes; at 4K on the H100: 36.2
// against gi_conv2d_k7_py8's 50.6 us): no shared memory. A warp covers 128
// columns, each lane 4 of them (one vector load per row), and computes the 120 in
// the middle (lanes 1-30); the K/2 neighbours on each side come from the next
// lanes by shuffles. Each lane keeps R rows of 4 outputs in registers and loads the
// R+K-1 input rows it needs at once. Warps whose rows and columns all lie inside the
// whole image (and whose rows are 4-element aligned: checked by the caller) load
// vectors; the others go through the border rule pixel by pixel.
// RegRows holds N rows of 4 input values: floats, or for 8U one packed word per row
// (a quarter of the registers), unpacked when used.
template <typename TI, int N>
struct RegRows {
  float v[N][4];
  __device__ __forceinline__ void load(int r, const char* p) {
    const Vec<TI, 4> q = *reinterpret_cast<const Vec<TI, 4>*>(p);
#pragma unroll
    for (int c = 0; c < 4; c++) v[r][c] = (float)q.v[c];
  }
  __device__ __forceinline__ void set(int r, const float (&f)[4]) {
#pragma unroll
    for (int c = 0; c < 4; c++) v[r][c] = f[c];
  }
  __device__ __forceinline__ float get(int r, int c) const { return v[r][c]; }
};
template <int N>
struct RegRows<u8, N> {
  unsigned w[N];
  __device__ __forceinline__ void load(int r, const char* p) { w[r] = *reinterpret_cast<const unsigned*>(p); }
  __device__ __forceinline__ void set(int r, const float (&f)[4]) {
    // border values of 8U images are whole numbers in 0..255 (saturated by the caller)
    w[r] = (unsigned)f[0] | (unsigned)f[1] << 8 | (unsigned)f[2] << 16 | (unsigned)f[3] << 24;
  }
  __device__ __forceinline__ float get(int r, int c) const { return (float)((w[r] >> (8 * c)) & 0xffu); }
};

template <int K, typename TI, typename TO>
__device__ __forceinline__ void reg_kernel(const Geo& g, const Taps& t) {
  constexpr int R = K <= 3 ? 8 : 6, A = K / 2, W = 120, N = R + K - 1;
  const int lane = threadIdx.x;
  const int xb = blockIdx.x * W - 4;  // the warp's first column (view coordinates)
  const int x = xb + 4 * lane;        // this lane's first column
  const int ntY = (g.rows + 4 * R - 1) / (4 * R);
  for (int by = blockIdx.y; by < ntY; by += gridDim.y) {
    const int y0 = by * 4 * R + threadIdx.y * R;  // the same for the whole warp
    if (y0 >= g.rows) continue;
    const int wx0 = g.ox + xb, wy0 = g.oy + y0 - A;
    const bool inside = wx0 >= 0 && wx0 + 128 <= g.wcols && wy0 >= 0 && wy0 + N <= g.wrows;
    RegRows<TI, N> v;
    if (inside) {
      const char* p = static_cast<const char*>(g.src) + (ptrdiff_t)(y0 - A) * g.sp + (ptrdiff_t)x * (ptrdiff_t)sizeof(TI);
#pragma unroll
      for (int r = 0; r < N; r++) v.load(r, p + (ptrdiff_t)r * g.sp);
    } else {
      int mx[4];
#pragma unroll
      for (int c = 0; c < 4; c++) mx[c] = bmap(g.ox + x + c, g.wcols, g.border);
#pragma unroll
      for (int r = 0; r < N; r++) {
        const int my = bmap(wy0 + r, g.wrows, g.border);
        const TI* row = reinterpret_cast<const TI*>(static_cast<const char*>(g.src) + (ptrdiff_t)(my - g.oy) * g.sp);
        float f[4];
#pragma unroll
        for (int c = 0; c < 4; c++) f[c] = (my < 0 || mx[c] < 0) ? g.bval[0] : (float)row[mx[c] - g.ox];
        v.set(r, f);
      }
    }
    float acc[R][4];
#pragma unroll
    for (int i = 0; i < R; i++)
#pragma unroll
      for (int c = 0; c < 4; c++) acc[i][c] = 0.f;
#pragma unroll
    for (int r = 0; r < N; r++) {
      float e[12];  // columns x-4 .. x+7: the left lane's, this lane's, the right lane's
#pragma unroll
      for (int c = 0; c < 4; c++) {
        const float f = v.get(r, c);
        e[4 + c] = f;
        e[c] = __shfl_up_sync(0xffffffffu, f, 1);
        e[8 + c] = __shfl_down_sync(0xffffffffu, f, 1);
      }
#pragma unroll
      for (int k = 0; k < K; k++) {
        const int i = r - k;  // the output row this input row meets kernel row k in
        if (i < 0 || i >= R) continue;
#pragma unroll
        for (int j = 0; j < K; j++) {
          const float w = t.v[k * K + j];
#pragma unroll
          for (int c = 0; c < 4; c++) acc[i][c] = fmaf(w, e[4 - A + c + j], acc[i][c]);
        }
      }
    }
    if (lane == 0 || lane == 31) continue;  // halo lanes
#pragma unroll
    for (int i = 0; i < R; i++) {
      const int y = y0 + i;
      if (y >= g.rows) break;
      TO* d = reinterpret_cast<TO*>(static_cast<char*>(g.dst) + (size_t)y * g.dp) + x;
      Vec<TO, 4> o;
#pragma unroll
      for (int c = 0; c < 4; c++) {
        const float f = acc[i][c] + g.delta;
        o.v[c] = g.halfup ? (TO)min(max(__float2int_rd(f + 0.5f), 0), 255) : sat<TO>(f);
      }
      if (x + 3 < g.cols && reinterpret_cast<size_t>(d) % sizeof(o) == 0) {
        *reinterpret_cast<Vec<TO, 4>*>(d) = o;
      } else {
#pragma unroll
        for (int c = 0; c < 4; c++)
          if (x + c < g.cols) d[c] = o.v[c];
      }
    }
  }
}

#define REG(K, TI, TO)                                                                                \
  extern "C" __global__ void __launch_bounds__(128, 3) gi_reg_k##K##_##TI##_##TO(Geo g, Taps t) { \
    reg_kernel<K, TI, TO>(g, t);                                                                      \
  }
#define REGS(K) REG(K, u8, u8) REG(K, u8, u16) REG(K, u8, s16) REG(K, u8, f32) REG(K, f32, f32)
REGS(3)
REGS(5)
REG(7, f32, f32)

// ---- Streaming separable kernel for 8-bit sources (gi_rsep_k<K>_c<C>_<out>): centred
// separable kernels up to KxK on 8U images of C interleaved channels, no shared memory.
// Each warp owns a span of 32 lanes x E elements of a row and walks down a strip of S output rows: per input row it loads one
// or two words per lane, takes the A*C neighbouring elements of each side from the
// next lanes by shuffles of the packed words, filters along the row in registers
// and adds the row into K rotating column accumulators; an output row is complete
// (and stored) K rows after it starts. Lanes 0 and 31 only supply neighbours, so a
// warp writes the 30*E elements of lanes 1-30. Input rows are loaded one group of
// K ahead of their use, so the loads overlap the arithmetic. Bytes become floats by
// a byte permute into 2^23 + b and one subtraction; results go back through the
// same trick (full-rate instructions instead of conversions).
struct SepTaps {
  float x[8], y[8];  // kernelX and kernelY, centred in K taps (zero padded)
};

// u8f is byte k of w as a float (exact).
__device__ __forceinline__ float u8f(unsigned w, int k) {
  return __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7540 | k)) - 8388608.f;
}
// to_u8 rounds f (half to even, or half up) and saturates to 0..255; the result is
// in the low byte of a float's bit pattern.
__device__ __forceinline__ unsigned to_u8_bits(float f, int halfup) {
  f = fminf(fmaxf(f, 0.f), 255.f);
  return halfup ? __float_as_uint(__fadd_rd(f + 0.5f, 8388608.f)) : __float_as_uint(f + 8388608.f);
}

// RsepOut stores E results of one lane (elements x.. of row y) in the output depth.
template <typename TO, int E>
struct RsepOut {
  static __device__ __forceinline__ void store(const Geo& g, int y, int x, int ne, bool aligned, const float (&f)[E]) {
    TO* d = reinterpret_cast<TO*>(static_cast<char*>(g.dst) + (size_t)y * g.dp) + x;
    Vec<TO, E> o;
#pragma unroll
    for (int e = 0; e < E; e++) o.v[e] = sat<TO>(f[e] + g.delta);
    if (x + E <= ne && aligned) {
      *reinterpret_cast<Vec<TO, E>*>(d) = o;
    } else {
#pragma unroll
      for (int e = 0; e < E; e++)
        if (x + e < ne) d[e] = o.v[e];
    }
  }
};
template <int E>
struct RsepOut<u8, E> {
  static __device__ __forceinline__ void store(const Geo& g, int y, int x, int ne, bool aligned, const float (&f)[E]) {
    u8* d = static_cast<u8*>(g.dst) + (size_t)y * g.dp + x;
    unsigned w[E / 4];
#pragma unroll
    for (int q = 0; q < E / 4; q++) {
      const unsigned a = to_u8_bits(f[4 * q] + g.delta, g.halfup), b = to_u8_bits(f[4 * q + 1] + g.delta, g.halfup);
      const unsigned c = to_u8_bits(f[4 * q + 2] + g.delta, g.halfup), e = to_u8_bits(f[4 * q + 3] + g.delta, g.halfup);
      w[q] = __byte_perm(__byte_perm(a, b, 0x0040), __byte_perm(c, e, 0x0040), 0x5410);
    }
    if (x + E <= ne && aligned) {
      if (E == 8)
        *reinterpret_cast<uint2*>(d) = make_uint2(w[0], w[E / 4 - 1]);
      else
        *reinterpret_cast<unsigned*>(d) = w[0];
    } else {
#pragma unroll
      for (int e = 0; e < E; e++)
        if (x + e < ne) d[e] = (u8)(w[e / 4] >> (8 * (e % 4)));
    }
  }
};

// rsep_strip filters the strip of output rows y0..y0+n-1 for one lane (see above).
// FAST: every input row of the strip and every column of the warp lie inside the
// whole image, so rows are loaded by pointer steps with no border rule.
template <int K, int C, typename TO, int E, int Q, bool FAST>
__device__ __forceinline__ void rsep_strip(const Geo& g, const SepTaps& t, int n, int y0, int x, int ne,
                                           bool inside, bool aligned) {
  constexpr int A = K / 2, H = A * C;
  constexpr int QL = (E - H) / 4;  // first word of the left lane holding a neighbour
  constexpr int QR = (H + 3) / 4;  // words of the right lane holding neighbours
  const int lane = threadIdx.x & 31;
  const int wx = g.ox * C + x;
  const char* src = static_cast<const char*>(g.src);
  const u8* p0 = reinterpret_cast<const u8*>(src + (ptrdiff_t)(y0 - A) * g.sp) + x;  // FAST: row 0 of the strip
  // Column map for the border path: element e of this lane in the view's row, or
  // INT_MIN for the constant, and the constant's bytes.
  int mx[E];
  unsigned cb[Q];
#pragma unroll
  for (int q = 0; q < Q; q++) cb[q] = 0;
#pragma unroll
  for (int e = 0; e < E; e++) mx[e] = 0;
  if (!FAST && !inside) {
#pragma unroll
    for (int e = 0; e < E; e++) {
      const int we = wx + e;
      const int wc = we >= 0 ? we / C : -((-we + C - 1) / C);
      const int ch = we - wc * C;
      const int m = bmap(wc, g.wcols, g.border);
      mx[e] = m < 0 ? INT_MIN : (m - g.ox) * C + ch;  // -1 is a real element (left of the view)
      cb[e / 4] |= (unsigned)sat<u8>(bval(g, ch)) << (8 * (e % 4));
    }
  }
  // fetch loads input row r of the strip (view row y0 - A + r) as Q packed words.
  auto fetch = [&](int r, unsigned (&w)[Q]) {
    if (FAST) {
      const u8* rp = p0 + (ptrdiff_t)r * g.sp;
      if (Q == 2) {
        const uint2 v = *reinterpret_cast<const uint2*>(rp);
        w[0] = v.x, w[Q - 1] = v.y;
      } else {
        w[0] = *reinterpret_cast<const unsigned*>(rp);
      }
      return;
    }
    const int my = bmap(g.oy + y0 - A + r, g.wrows, g.border);
    if (my < 0) {  // constant border row
#pragma unroll
      for (int q = 0; q < Q; q++) w[q] = inside ? 0u : cb[q];
      if (inside) {
#pragma unroll
        for (int e = 0; e < E; e++) w[e / 4] |= (unsigned)sat<u8>(bval(g, (wx + e) % C)) << (8 * (e % 4));
      }
      return;
    }
    const u8* rowp = reinterpret_cast<const u8*>(src + (ptrdiff_t)(my - g.oy) * g.sp);
    if (inside) {
      if (Q == 2) {
        const uint2 v = *reinterpret_cast<const uint2*>(rowp + x);
        w[0] = v.x, w[Q - 1] = v.y;
      } else {
        w[0] = *reinterpret_cast<const unsigned*>(rowp + x);
      }
    } else {
#pragma unroll
      for (int q = 0; q < Q; q++) w[q] = 0;
#pragma unroll
      for (int e = 0; e < E; e++) w[e / 4] |= (unsigned)(mx[e] == INT_MIN ? (cb[e / 4] >> (8 * (e % 4))) & 0xffu : rowp[mx[e]]) << (8 * (e % 4));
    }
  };
  float acc[K][E];
#pragma unroll
  for (int k = 0; k < K; k++)
#pragma unroll
    for (int e = 0; e < E; e++) acc[k][e] = 0.f;
  const int NI = n + K - 1;  // input rows of the strip
  const bool writer = lane != 0 && lane != 31;
  unsigned cur[K][Q], nxt[K][Q];
#pragma unroll
  for (int u = 0; u < K; u++)
    if (u < NI) fetch(u, cur[u]);
  for (int gb = 0; gb < NI; gb += K) {
#pragma unroll
    for (int u = 0; u < K; u++)
      if (gb + K + u < NI) fetch(gb + K + u, nxt[u]);
#pragma unroll
    for (int u = 0; u < K; u++) {
      const int i = gb + u;
      if (i >= NI) break;
      // This lane's elements with H neighbours each side, as floats.
      float ev[E + 2 * H];
#pragma unroll
      for (int q = QL; q < Q; q++) {
        const unsigned l = __shfl_up_sync(0xffffffffu, cur[u][q], 1);
#pragma unroll
        for (int k = 0; k < 4; k++)
          if (4 * q + k >= E - H) ev[4 * q + k - (E - H)] = u8f(l, k);
      }
#pragma unroll
      for (int e = 0; e < E; e++) ev[H + e] = u8f(cur[u][e / 4], e % 4);
#pragma unroll
      for (int q = 0; q < QR; q++) {
        const unsigned r = __shfl_down_sync(0xffffffffu, cur[u][q], 1);
#pragma unroll
        for (int k = 0; k < 4; k++)
          if (4 * q + k < H) ev[H + E + 4 * q + k] = u8f(r, k);
      }
      float h[E];
#pragma unroll
      for (int e = 0; e < E; e++) {
        float s = t.x[0] * ev[e];
#pragma unroll
        for (int j = 1; j < K; j++) s = fmaf(t.x[j], ev[e + j * C], s);
        h[e] = s;
      }
      // Input row i meets kernel row d in output row i - d (slot (u - d) mod K).
#pragma unroll
      for (int d = 0; d < K; d++)
#pragma unroll
        for (int e = 0; e < E; e++) acc[(u - d + K) % K][e] = fmaf(t.y[d], h[e], acc[(u - d + K) % K][e]);
      const int o = i - (K - 1);  // the output row completed by this input row
      const int slot = (u + 1) % K;
      if (o >= 0 && writer) RsepOut<TO, E>::store(g, y0 + o, x, ne, aligned, acc[slot]);
#pragma unroll
      for (int e = 0; e < E; e++) acc[slot][e] = 0.f;
    }
#pragma unroll
    for (int u = 0; u < K; u++)
#pragma unroll
      for (int q = 0; q < Q; q++) cur[u][q] = nxt[u][q];
  }
}

template <int K, int C, typename TO, int E>
__device__ __forceinline__ void rsep_kernel(const Geo& g, const SepTaps& t, int S) {
  constexpr int Q = E / 4;
  static_assert(K / 2 * C <= E, "the neighbours must come from the next lane");
  const int lane = threadIdx.x & 31;
  const int ne = g.cols * C;                                   // elements per row
  const int xb = (blockIdx.x * 4 + (threadIdx.x >> 5)) * 30 * E - E;  // lane 0's first element
  if (xb + E >= ne) return;  // the whole warp: no outputs
  const int x = xb + E * lane;
  const bool inside = g.ox * C + xb >= 0 && g.ox * C + xb + 32 * E <= g.wcols * C;
  const bool aligned = reinterpret_cast<size_t>(g.dst) % (E * sizeof(TO)) == 0 && g.dp % (E * sizeof(TO)) == 0;
  for (int y0 = blockIdx.y * S; y0 < g.rows; y0 += gridDim.y * S) {
    const int n = min(S, g.rows - y0);
    if (inside && g.oy + y0 - K / 2 >= 0 && g.oy + y0 + n + K / 2 <= g.wrows)
      rsep_strip<K, C, TO, E, Q, true>(g, t, n, y0, x, ne, inside, aligned);
    else
      rsep_strip<K, C, TO, E, Q, false>(g, t, n, y0, x, ne, inside, aligned);
  }
}

// E elements per lane: 8 for 3x3 and 7x7, 4 for 5x5, where halving the per-lane
// state (64 registers instead of 121) doubles the resident warps and measured
// faster on the H100 (Gaussian 5x5 8UC1 at 4K: 23.6 against 25.5 us; 8K: 80.0
// against 83.4); for 3x3 it measured slower (Sobel at 4K: 18.9 against 17.7).
#define RSEP(K, C, TO, E) \
  extern "C" __global__ void __launch_bounds__(128, E == 4 ? 8 : C > 1 || K > 5 ? 3 : K > 3 ? 4 : 5) gi_rsep_k##K##_c##C##_##TO(Geo g, SepTaps t, int S) { rsep_kernel<K, C, TO, E>(g, t, S); }
#define RSEPS(K, C, E) RSEP(K, C, u8, E) RSEP(K, C, u16, E) RSEP(K, C, s16, E) RSEP(K, C, f32, E)
// One channel only: on 3-channel images (C = 3, 8 elements per lane) this kernel
// measured slower than gi_sep_k5_c3 on the H100 (80 against 72 us at 4K).
RSEPS(3, 1, 8)
RSEPS(5, 1, 4)
RSEPS(7, 1, 8)

extern "C" __global__ void __launch_bounds__(256) gi_conv2d_any(Geo g, const float* __restrict__ w) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = blockIdx.z;
  if (x >= g.cols) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < g.rows; y += gridDim.y * blockDim.y) {
    float acc = 0.f;
    for (int i = 0; i < g.kh; i++) {
      const int my = bmap(g.oy + y + i - g.ay, g.wrows, g.border);
      const char* srow = static_cast<const char*>(g.src) + (ptrdiff_t)(my - g.oy) * g.sp;
      for (int j = 0; j < g.kw; j++) {
        const int mx = bmap(g.ox + x + j - g.ax, g.wcols, g.border);
        const float v = (my < 0 || mx < 0) ? bval(g, c) : ldelem(srow, (mx - g.ox) * g.cn + c, g.sdepth);
        acc = fmaf(w[i * g.kw + j], v, acc);
      }
    }
    stelem(static_cast<char*>(g.dst) + (size_t)y * g.dp, x * g.cn + c, g.ddepth, acc + g.delta, g.halfup);
  }
}

#define SEP(K, C) \
  extern "C" __global__ void __launch_bounds__(256, 4) gi_sep_k##K##_c##C(Geo g, Taps t) { sep_kernel<K, C>(g, t); }
#define SEPS(K) SEP(K, 1) SEP(K, 3) SEP(K, 4)
SEPS(3)
SEPS(5)
SEPS(7)
SEPS(9)
SEPS(11)
// Wider kernels do not fit 3 or 4 channels in 48 KiB of shared memory: one per block.
SEP(15, 1) SEP(15, 3)
SEP(31, 1)
SEP(63, 1)

#define CONV(K) \
  extern "C" __global__ void __launch_bounds__(256, K <= 3 ? 4 : 2) gi_conv2d_k##K(Geo g, Taps t) { conv2d_kernel<K, (K <= 3 ? 8 : 16)>(g, t); }
CONV(3)
CONV(5)
// 7x7: 8 outputs per thread (tiles of 64 rows) on one-channel images (filter2D 7x7
// 32FC1 on the H100, 1080p / 4K / 8K: 18.6 / 51.0 / 156.6 us against 22.7-23.6 /
// 57.1 / 164.1 with 16); two columns of 8 on the others (conv2d_px2_kernel).
extern "C" __global__ void __launch_bounds__(256, 2) gi_conv2d_k7_py8(Geo g, Taps t) { conv2d_kernel<7, 8>(g, t); }
extern "C" __global__ void __launch_bounds__(256, 4) gi_conv2d_px2_k7(Geo g, Taps t) { conv2d_px2_kernel<7, 8>(g, t); }
// 8U to 8U on 3 or 4 channels (filter2D 7x7 8UC3 on the H100, 1080p / 4K / 8K:
// 31.8 / 93.9 / 331.3 us against gi_conv2d_px2_k7's 34.5 / 101.1 / 347.7; tiles of
// 96 rows: 36.0 / 96.6 / 328.8; 128 rows: 38.5 / 107.7 / 350.1).
// 6 blocks of 256 threads per SM where it holds 1536 threads or more (not sm_75).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define U8_BLOCKS 4
#else
#define U8_BLOCKS 6
#endif
#define CONVU8(C)                                                                                             \
  extern "C" __global__ void __launch_bounds__(256, U8_BLOCKS) gi_conv2d_u8c##C##_k7(Geo g, Taps t) { \
    conv2d_u8_kernel<7, 8, C>(g, t);                                                                          \
  }
CONVU8(3)
CONVU8(4)
CONV(9)
CONV(11)
CONV(13)
CONV(15)
CONV(17)
CONV(19)
CONV(21)
CONV(25)
CONV(31)

// ---- Integer 3x3 separable kernel, 8U to 16S (gi_isep3_u8_s16): Sobel and Scharr
// derivatives (ksize 3, scale 1) and any centred 3x3 separable kernel whose taps
// are small integers, on one-channel 8U images. The sums are exact in int32, as
// OpenCV's float sums of these integers are, so the results match. Each thread
// takes 8 columns (one 8-byte load per row) and ISEP_R output rows: it loads all
// ISEP_R + 2 input rows first, so that many bytes are in flight, then filters them
// in registers (4K Sobel on the H100: 14.0 us; loading and using row by row, 20.1;
// the float streaming kernel, 17.8). The column neighbours come from the next
// lanes by shuffles (lanes 0 and 31 load theirs); rows and columns outside the view
// go through the border rule of the whole image.
#define ISEP_R 8
struct ISepTaps {
  int kx[3], ky[3];
  int delta;  // added to each sum (an integer)
  int cval;   // BORDER_CONSTANT's value (0..255)
  int dvec;   // 1: every output row's start is 16-byte aligned
};
// isep_map is the view column that column x reads under the border rule of the
// whole image, or INT_MIN for BORDER_CONSTANT's value.
__device__ __forceinline__ int isep_map(const Geo& g, int x) {
  const int wx = x + g.ox;
  if ((unsigned)wx < (unsigned)g.wcols) return x;
  const int m = bmap(wx, g.wcols, g.border);
  return m < 0 ? INT_MIN : m - g.ox;
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
// isep_strip filters output rows y0..y0+ISEP_R-1 of the lane's 8 columns from x0.
// All loads of the strip are issued before any is used: the row pointers and the
// two neighbour columns are mapped first, then the 8-byte loads, then the few
// single-byte ones (lanes 0 and 31, a row's last lane, rows outside the image).
__device__ __forceinline__ void isep_strip(const Geo& g, const ISepTaps& t, int lane, int x0, int y0) {
  const bool live = x0 < g.cols, full = x0 + 8 <= g.cols;
  const int nl = live ? min(8, g.cols - x0) : 0;
  const int cl = isep_map(g, x0 - 1), cr = isep_map(g, x0 + nl);
  int rr[ISEP_R + 2];  // the view row that input row i reads
  const unsigned konst = strip_rows(g, y0 - 1, rr);
  auto rp = [&](int i) { return static_cast<const u8*>(g.src) + (long long)rr[i] * g.sp; };
  unsigned lo[ISEP_R + 2], hi[ISEP_R + 2];
  const unsigned cw = t.cval * 0x01010101u;
#pragma unroll
  for (int i = 0; i < ISEP_R + 2; i++) {
    lo[i] = hi[i] = cw;
    if (full && !(konst >> i & 1)) {
      const uint2 v = *reinterpret_cast<const uint2*>(rp(i) + x0);
      lo[i] = v.x, hi[i] = v.y;
    }
  }
  int lr[ISEP_R + 2];  // the left neighbour's byte, and the right one's << 8
  const bool ownLeft = lane == 0, ownRight = lane == 31 || x0 + 8 >= g.cols;
#pragma unroll
  for (int i = 0; i < ISEP_R + 2; i++) {
    const bool k = konst >> i & 1;
    int left = t.cval, right = t.cval;
    if (live && ownLeft && !k && cl != INT_MIN) left = rp(i)[cl];
    if (live && ownRight && !k && cr != INT_MIN) right = rp(i)[cr];
    lr[i] = left | right << 8;
    if (live && !full && !k) {  // a row's last lane: byte by byte
      unsigned w[2] = {0, 0};
#pragma unroll
      for (int b = 0; b < 8; b++)
        if (b < nl) w[b >> 2] |= (unsigned)rp(i)[x0 + b] << (8 * (b & 3));
      lo[i] = w[0], hi[i] = w[1];
    }
  }
#pragma unroll
  for (int i = 0; i < ISEP_R + 2; i++) {
    const unsigned fromLeft = __shfl_up_sync(0xffffffffu, hi[i], 1);
    const unsigned fromRight = __shfl_down_sync(0xffffffffu, lo[i], 1);
    if (!ownLeft) lr[i] = (lr[i] & ~0xff) | (int)(fromLeft >> 24);
    if (!ownRight) lr[i] = (lr[i] & 0xff) | (int)(fromRight & 0xffu) << 8;
  }
  if (!live) return;
  // h(i) is input row i filtered along the row: 8 sums.
  auto hrow = [&](int i, int (&h)[8]) {
    int p[10];
    p[0] = lr[i] & 0xff;
#pragma unroll
    for (int k = 0; k < 4; k++) p[1 + k] = (lo[i] >> (8 * k)) & 0xff, p[5 + k] = (hi[i] >> (8 * k)) & 0xff;
    p[9] = lr[i] >> 8;
    if (!full) {  // the right neighbour follows the lane's last column
#pragma unroll
      for (int k = 1; k < 9; k++)
        if (k == nl + 1) p[k] = lr[i] >> 8;
    }
#pragma unroll
    for (int k = 0; k < 8; k++) h[k] = t.kx[0] * p[k] + t.kx[1] * p[k + 1] + t.kx[2] * p[k + 2];
  };
  int h0[8], h1[8];
  hrow(0, h0);
  hrow(1, h1);
  const bool vec = full && t.dvec;
#pragma unroll
  for (int j = 0; j < ISEP_R; j++) {
    int h2[8];
    hrow(j + 2, h2);
    const int y = y0 + j;
    if (y < g.rows) {
      s16 o[8];
#pragma unroll
      for (int k = 0; k < 8; k++) o[k] = sati<s16>(t.ky[0] * h0[k] + t.ky[1] * h1[k] + t.ky[2] * h2[k] + t.delta);
      s16* d = reinterpret_cast<s16*>(static_cast<char*>(g.dst) + (size_t)y * g.dp) + x0;
      if (vec) {
        uint4 w;
        w.x = (unsigned)(u16)o[0] | (unsigned)(u16)o[1] << 16;
        w.y = (unsigned)(u16)o[2] | (unsigned)(u16)o[3] << 16;
        w.z = (unsigned)(u16)o[4] | (unsigned)(u16)o[5] << 16;
        w.w = (unsigned)(u16)o[6] | (unsigned)(u16)o[7] << 16;
        *reinterpret_cast<uint4*>(d) = w;
      } else {
#pragma unroll
        for (int k = 0; k < 8; k++)
          if (k < nl) d[k] = o[k];
      }
    }
#pragma unroll
    for (int k = 0; k < 8; k++) h0[k] = h1[k], h1[k] = h2[k];
  }
}
// A block's 4 warps take the same 256 columns and 4 strips of ISEP_R rows, and walk
// further down (blocks of 1024 columns left a quarter of the last one idle at 3840
// columns).
extern "C" __global__ void __launch_bounds__(128, 5) gi_isep3_u8_s16(Geo g, ISepTaps t) {
  const int lane = threadIdx.x & 31, x0 = blockIdx.x * 256 + lane * 8;
  for (int y0 = (blockIdx.y * 4 + (threadIdx.x >> 5)) * ISEP_R; y0 < g.rows; y0 += gridDim.y * 4 * ISEP_R)
    isep_strip(g, t, lane, x0, y0);
}

// ---- Packed integer separable kernels, 8U to 8U (gi_ipack_box_k<K>_c<C> and
// gi_ipack_gauss_k<K>_c<C>): the normalized KxK box filter (K = 3, 5: taps 1, the
// sum divided by D = K*K, which is odd, so no ties) and OpenCV's fixed-point
// GaussianBlur with ksize K and sigma 0 (binomial taps 1 2 1 and 1 4 6 4 1, the sum
// in 1/256ths rounded half up), on 8U images of C interleaved channels. Every sum
// fits in 16 bits, so each 32-bit register holds two elements: the even bytes of a
// word (lo plane) and the odd ones (hi plane), and one integer add filters two
// elements. The taps are compile-time constants (adds and shifts, no multiplies).
// The column pass comes first (on the planes of the input rows), then the row pass,
// whose neighbours C, 2C... bytes away are the next plane word or a funnel shift of
// two. The results are exact, as OpenCV's fixed-point sums are.
//   Each lane takes IPK_B bytes of a row (one 16-byte load) and IPK_R output rows,
// loading all IPK_R + K - 1 input rows before using any (the Sobel kernel's lesson).
// Lanes 0 and 31 only supply neighbours (their last or first bytes), so a warp writes
// 30 * IPK_B bytes; bytes outside the view's rows go through the border rule of the
// whole image byte by byte (edge lanes and the top and bottom strips only).
#ifndef IPK_R
#define IPK_R 8
#endif
#define IPK_B 16
#define IPK_E (IPK_B / 4)
enum { IPK_BOX = 1, IPK_GAUSS = 2 };
struct IPackTaps {
  unsigned magic;  // box: floor(2^32/D) + 1, so that umulhi(s, magic) = s/D for s < 2^16
  unsigned k16;    // 65536
  int cval[4];     // BORDER_CONSTANT's value per channel (0..255)
};
// ipk_tap is tap i of the row (X) or column pass: the Gaussian's 3-tap row taps are
// 16x, so that its sums are in 1/256ths as the 5-tap one's are.
template <int F, int K, bool X>
__device__ __forceinline__ constexpr unsigned ipk_tap(int i) {
  return F == IPK_BOX ? 1 : K == 5 ? (i == 2 ? 6 : i == 1 || i == 3 ? 4 : 1) : (i == 1 ? 2 : 1) * (X ? 16 : 1);
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

// ipk_at returns the plane word holding elements e+D of plane P's word J (X: the
// lo and hi planes of the words the lane sees, NW words of each neighbour first).
template <int P, int D, int J, int NW, int N>
__device__ __forceinline__ unsigned ipk_at(const unsigned (&xl)[N], const unsigned (&xh)[N]) {
  constexpr int PP = (P + D) & 1;
  constexpr int M = (P + D - PP) / 2;  // in plane lanes (pairs of elements)
  constexpr int W0 = J + NW + (M - (M & 1)) / 2;
  const unsigned a = PP ? xh[W0] : xl[W0];
  if (M % 2 == 0) return a;
  return __funnelshift_r(a, PP ? xh[W0 + 1] : xl[W0 + 1], 16);
}

// IpkRow adds taps KK.. of the row pass for plane word Q to the lo and hi sums.
template <int F, int K, int C, int NW, int Q, int KK, int N>
struct IpkRow {
  static __device__ __forceinline__ void add(const unsigned (&xl)[N], const unsigned (&xh)[N], unsigned& sl,
                                             unsigned& sh) {
    sl += ipk_tap<F, K, true>(KK) * ipk_at<0, (KK - K / 2) * C, Q, NW>(xl, xh);
    sh += ipk_tap<F, K, true>(KK) * ipk_at<1, (KK - K / 2) * C, Q, NW>(xl, xh);
    IpkRow<F, K, C, NW, Q, KK + 1, N>::add(xl, xh, sl, sh);
  }
};
template <int F, int K, int C, int NW, int Q, int N>
struct IpkRow<F, K, C, NW, Q, K, N> {
  static __device__ __forceinline__ void add(const unsigned (&)[N], const unsigned (&)[N], unsigned&, unsigned&) {}
};

// ipk_word is output word Q of the lane: the row pass over the column sums, divided
// by D (rounded half up: D/2 added first).
template <int F, int K, int C, int NW, int Q, int N>
__device__ __forceinline__ unsigned ipk_word(const IPackTaps& t, const unsigned (&xl)[N], const unsigned (&xh)[N]) {
  const unsigned half = (F == IPK_GAUSS ? 128 : K * K / 2) * 0x10001u;
  unsigned sl = half, sh = half;
  IpkRow<F, K, C, NW, Q, 0, N>::add(xl, xh, sl, sh);
  if (F == IPK_GAUSS) return __byte_perm(sl, sh, 0x7351);  // byte 1 of each half: the sums / 256
  // The box's quotients, all on the multiply pipe (the row pass keeps the other
  // integer pipe busy): each half split off by multiplies by t.k16 = 65536 (a
  // parameter, so that they stay multiplies), divided by D, paired as two bytes.
  const unsigned k16 = t.k16, k8 = k16 >> 8, nk16 = 0u - k16;
  unsigned hl, hh, ll, lh, q0, q1, q2, q3, a, b;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(hl) : "r"(sl), "r"(k16));
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(hh) : "r"(sh), "r"(k16));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(ll) : "r"(hl), "r"(nk16), "r"(sl));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(lh) : "r"(hh), "r"(nk16), "r"(sh));
  q0 = __umulhi(ll, t.magic), q1 = __umulhi(lh, t.magic), q2 = __umulhi(hl, t.magic), q3 = __umulhi(hh, t.magic);
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(a) : "r"(q1), "r"(k8), "r"(q0));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(b) : "r"(q3), "r"(k8), "r"(q2));
  return __byte_perm(a, b, 0x5410);
}

template <int F, int K, int C>
__device__ __forceinline__ void ipk_strip(const Geo& g, const IPackTaps& t, u8* buf, int lane, int e, int y0) {
  constexpr int A = K / 2, H = A * C, NW = (H + 3) / 4, NR = IPK_R + K - 1;
  static_assert(NW <= IPK_E && IPK_E == 4, "the neighbours must come from the next lane");
  static_assert(NR * IPK_B % 32 == 0, "the warp shares out a lane's bytes evenly");
  const int nb = g.cols * C;
  int rr[NR];  // the view row that input row i reads
  const unsigned konst = strip_rows(g, y0 - A, rr);
  auto rp = [&](int i) { return static_cast<const u8*>(g.src) + (long long)rr[i] * g.sp; };
  const bool full = e >= 0 && e + IPK_B <= nb;
  unsigned kw[IPK_E] = {0, 0, 0, 0};  // a BORDER_CONSTANT row: each byte its channel's value
  if (konst) {
#pragma unroll
    for (int o = 0; o < IPK_B; o++) kw[o / 4] |= ipk_cval<C>(t, e + o) << (8 * (o % 4));
  }
  unsigned w[NR][IPK_E];
#pragma unroll
  for (int i = 0; i < NR; i++) {
    if (konst >> i & 1) {
#pragma unroll
      for (int q = 0; q < IPK_E; q++) w[i][q] = kw[q];
    } else if (full) {
      const uint4 v = *reinterpret_cast<const uint4*>(rp(i) + e);
      w[i][0] = v.x, w[i][1] = v.y, w[i][2] = v.z, w[i][3] = v.w;
    }  // else: filled below where an output uses them (the others reach no output)
  }
  // The other lanes' bytes, through the border rule one by one: only those that
  // outputs use (lane 0 supplies its last H, lane 31 its first H, and past the
  // row's end only the first H matter). The whole warp loads them for one such lane
  // at a time, all in flight together, and passes them on in shared memory.
  const int b0 = lane == 0 ? IPK_B - H : 0, b1 = min(lane == 31 ? H : IPK_B, nb + H - e);
  for (unsigned slow = __ballot_sync(0xffffffffu, !full && b1 > b0); slow; slow &= slow - 1) {
    const int sl = __ffs(slow) - 1;
    const int se = __shfl_sync(0xffffffffu, e, sl), sb0 = __shfl_sync(0xffffffffu, b0, sl),
              sb1 = __shfl_sync(0xffffffffu, b1, sl);
#pragma unroll
    for (int u = 0; u < NR * IPK_B / 32; u++) {
      const int it = lane + 32 * u, i = it / IPK_B, o = it % IPK_B;
      unsigned v = 0;
      if (o >= sb0 && o < sb1 && !(konst >> i & 1)) {
        int r = y0 + i - A;
        if ((unsigned)(r + g.oy) >= (unsigned)g.wrows) r = bmap(r + g.oy, g.wrows, g.border) - g.oy;
        const int f = ipk_off<C>(g, se + o);
        v = f == INT_MIN ? ipk_cval<C>(t, se + o) : static_cast<const u8*>(g.src)[(long long)r * g.sp + f];
      }
      buf[it] = (u8)v;
    }
    __syncwarp();
    if (lane == sl) {
#pragma unroll
      for (int i = 0; i < NR; i++)
        if (!(konst >> i & 1))
#pragma unroll
          for (int q = 0; q < IPK_E; q++) w[i][q] = reinterpret_cast<const unsigned*>(buf)[i * IPK_E + q];
    }
    __syncwarp();
  }
  const bool writer = lane >= 1 && lane <= 30 && e < nb;
  const bool vec = full;  // the caller checks that output rows are 16-byte aligned
#pragma unroll
  for (int j = 0; j < IPK_R; j++) {
    // The column pass: lo and hi planes of the lane's words, with the neighbours'.
    unsigned xl[IPK_E + 2 * NW], xh[IPK_E + 2 * NW];
#pragma unroll
    for (int q = 0; q < IPK_E; q++) {
      unsigned l = 0, h = 0;
#pragma unroll
      for (int k = 0; k < K; k++) {
        l += ipk_tap<F, K, false>(k) * __byte_perm(w[j + k][q], 0, 0x4240);
        h += ipk_tap<F, K, false>(k) * __byte_perm(w[j + k][q], 0, 0x4341);
      }
      xl[NW + q] = l, xh[NW + q] = h;
    }
#pragma unroll
    for (int q = 0; q < NW; q++) {
      xl[q] = __shfl_up_sync(0xffffffffu, xl[NW + IPK_E - NW + q], 1);
      xh[q] = __shfl_up_sync(0xffffffffu, xh[NW + IPK_E - NW + q], 1);
      xl[NW + IPK_E + q] = __shfl_down_sync(0xffffffffu, xl[NW + q], 1);
      xh[NW + IPK_E + q] = __shfl_down_sync(0xffffffffu, xh[NW + q], 1);
    }
    const int y = y0 + j;
    if (!writer || y >= g.rows) continue;
    // The row pass, then the quotient by D of each element.
    const unsigned o[IPK_E] = {ipk_word<F, K, C, NW, 0>(t, xl, xh), ipk_word<F, K, C, NW, 1>(t, xl, xh),
                               ipk_word<F, K, C, NW, 2>(t, xl, xh), ipk_word<F, K, C, NW, 3>(t, xl, xh)};
    u8* d = static_cast<u8*>(g.dst) + (size_t)y * g.dp + e;
    if (vec) {
      *reinterpret_cast<uint4*>(d) = make_uint4(o[0], o[1], o[2], o[3]);
    } else {  // the row's last lane: byte by byte, in a loop (less code to fetch)
      const int n = min(IPK_B, nb - e);
#pragma unroll 1
      for (int b = 0; b < n; b++) d[b] = (u8)((b < 4 ? o[0] : b < 8 ? o[1] : b < 12 ? o[2] : o[3]) >> (8 * (b & 3)));
    }
  }
}

// A block's 4 warps take the same span of 30 * IPK_B bytes and 4 strips of IPK_R
// rows, and walk further down.
template <int F, int K, int C>
__device__ __forceinline__ void ipk_kernel(const Geo& g, const IPackTaps& t) {
  __shared__ __align__(16) u8 buf[4][(IPK_R + K - 1) * IPK_B];  // one lane's bytes, per warp
  const int lane = threadIdx.x & 31, e = blockIdx.x * 30 * IPK_B + (lane - 1) * IPK_B;
  for (int y0 = (blockIdx.y * 4 + (threadIdx.x >> 5)) * IPK_R; y0 < g.rows; y0 += gridDim.y * 4 * IPK_R)
    ipk_strip<F, K, C>(g, t, buf[threadIdx.x >> 5], lane, e, y0);
}
// 5 blocks per SM for one channel (under 102 registers), 4 for 3 and 4 (128).
#define IPK(F, f, K, C)                                                                                      \
  extern "C" __global__ void __launch_bounds__(128, C == 1 ? 5 : 4)                                          \
      gi_ipack_##f##_k##K##_c##C(Geo g, IPackTaps t) {                                                      \
    ipk_kernel<F, K, C>(g, t);                                                                               \
  }
#define IPKS(F, f) IPK(F, f, 3, 1) IPK(F, f, 3, 3) IPK(F, f, 3, 4) IPK(F, f, 5, 1) IPK(F, f, 5, 3) IPK(F, f, 5, 4)
IPKS(IPK_BOX, box)
IPKS(IPK_GAUSS, gauss)

// ---- Tensor-core 2-D kernel, 8U to 8U (gi_imma_k7_c<C>_d<D>), sm_80 and newer:
// kernels of up to 7 rows (zero rows after kh) whose rows span (kw-1)*C bytes + 8
// within 32, on 8U images of C interleaved channels. The taps are integers W over
// S = 2^s, each split into D = 2 or 3 signed-byte digits (W = sum of d_k 256^k;
// convolve/imma.go chooses s and D and bounds the error). The interleaved bytes of
// a row are a 1-D signal with the kernel row's taps C bytes apart, so 8 output bytes
// of 16 rows are one integer mma (m16n8k32, u8 pixels times s8 digits, exact int32
// sums) per kernel row and digit:
//   A[m][k] = byte k of the 32 from the warp's first tap, input row M(m) + i,
//   B[k][n] = digit of W[i][j] where k = n + e + j*C (e: A's first byte is 4-aligned),
// and no byte is ever unpacked. The top two digit sums combine in int32 (imma.go
// keeps them within it), the lowest of three is added in float; times 1/S plus
// delta, the result is rounded and saturated as saturate_cast<uchar>.
//   A block's 8 warps take a tile of 128 rows by 64 bytes, warp w bytes 8w..8w+7 of
// every row. At set r (0..7) a warp's 16 mma rows are output rows 8g + r and
// 64 + 8g + r (g = 0..7), so a lane's input rows for set r + 1 are its rows for set
// r moved down one: it loads one new row per set and keeps 7 (4 words each) in
// registers. Tile rows are 128 bytes, their 16-byte units XOR-swizzled by row/8, so
// a warp's 32 word loads hit 32 banks; the results go through a swizzled 64-byte
// staging tile into 16-byte stores. Blocks walk tiles (tile columns first), two
// shared buffers: the next tile's rows arrive by cp.async while one is filtered.
//   filter2D 7x7 8UC3 on the H100 (1080p / 4K / 8K): 29.1 / 59.1 / 202.1 us with 2
// digits, 31.8 / 70.1 / 250.8 with 3 (gi_conv2d_u8c3_k7: 31.7 / 93.5 / 330.4). Tried:
// one chain of mma per digit and the next tile's rows fetched into registers, 28.5 /
// 60.5 / 209.7 (3 digits: 80.8 at 4K); 3 blocks per SM (80 registers), 27.5 / 65.9 /
// 197.8. Bound by the mma chains' latency (ncu: "wait" stalls, the integer tensor
// pipe 42% busy, DRAM 15%).
#define IMMA_KR 7
#define IMMA_TH 128
#define IMMA_IH (IMMA_TH + IMMA_KR - 1)
#define IMMA_SPLIT 2  // independent mma chains per digit (kernel rows alternate)
#define IMMA_PW 10  // words of one digit row of the tap pattern (40 bytes, t = -7..32)
struct ImmaTaps {
  // p[(i*3 + d)*IMMA_PW]: byte t+7 is digit d of W[i][j] where t = e + j*C, else 0.
  unsigned p[IMMA_KR * 3 * IMMA_PW];
  float scale;  // 1/S
  int lead;     // 4 * ceil(ax*C / 4): the warp's first tap byte is lead bytes left of its outputs
  int cval[4];  // BORDER_CONSTANT's value per channel (0..255)
  int ntx, ntiles;  // tiles across, in all
};

__device__ __forceinline__ void imma_mma(int (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// imma_fetch starts the copy of the tile whose output starts at byte x0 of row y0
// into tile: tile row r is view row y0 - ay + r (through the border rule), unit u
// bytes x0 - 32 + 16u.. Units inside the whole image's rows are 16-byte cp.async
// copies (waited for by the caller); the others are built byte by byte here.
template <int C>
__device__ __forceinline__ void imma_fetch(const Geo& g, const ImmaTaps& t, u8* tile, int x0, int y0) {
  const int tid = threadIdx.x, u = tid & 7, r0 = tid >> 3;
  const int q0 = x0 - 32 + 16 * u;
  const bool full = q0 >= -g.ox * C && q0 + 16 <= (g.wcols - g.ox) * C;
  const u8* src = static_cast<const u8*>(g.src);
#pragma unroll
  for (int k = 0; k < 5; k++) {
    const int r = r0 + 32 * k;
    if (r >= IMMA_IH) continue;
    int y = y0 - g.ay + r;
    bool konst = false;
    if ((unsigned)(y + g.oy) >= (unsigned)g.wrows) {
      const int m = bmap(y + g.oy, g.wrows, g.border);
      konst = m < 0;
      y = m - g.oy;
    }
    const u8* srow = src + (ptrdiff_t)y * g.sp;
    u8* o = tile + r * 128 + ((u ^ ((r >> 3) & 7)) << 4);
    if (full && !konst) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(o)),
                   "l"(srow + q0));
    } else {
#pragma unroll 1
      for (int b = 0; b < 16; b++) {
        const int f = konst ? INT_MIN : ipk_off<C>(g, q0 + b);
        o[b] = (u8)(f == INT_MIN ? ipk_cval<C>(t, q0 + b) : srow[f]);
      }
    }
  }
  asm volatile("cp.async.commit_group;");
}

// imma_set runs the mma of kernel rows i = 0..6 for set r into acc, loading row
// r + 6 of the lane's window first (rows 0..6 at r = 0).
template <int D>
__device__ __forceinline__ void imma_set(const u8* tile, const int (&off)[2][2], unsigned (&a)[IMMA_KR + 7][4],
                                         const unsigned (&b)[IMMA_KR][D][2], int r, int (&acc)[D][4]) {
#pragma unroll
  for (int c = r == 0 ? 0 : r + IMMA_KR - 1; c < r + IMMA_KR; c++) {
    const u8* p0 = tile + off[c >> 3][0] + c * 128;
    const u8* p1 = tile + off[c >> 3][1] + c * 128;
    a[c][0] = *reinterpret_cast<const unsigned*>(p0);
    a[c][1] = *reinterpret_cast<const unsigned*>(p0 + 64 * 128);
    a[c][2] = *reinterpret_cast<const unsigned*>(p1);
    a[c][3] = *reinterpret_cast<const unsigned*>(p1 + 64 * 128);
  }
  int acc2[IMMA_SPLIT][D][4];  // IMMA_SPLIT independent chains of mma per digit
#pragma unroll
  for (int z = 0; z < IMMA_SPLIT; z++)
#pragma unroll
    for (int d = 0; d < D; d++)
#pragma unroll
      for (int k = 0; k < 4; k++) acc2[z][d][k] = 0;
#pragma unroll
  for (int i = 0; i < IMMA_KR; i++)
#pragma unroll
    for (int d = 0; d < D; d++) imma_mma(acc2[i % IMMA_SPLIT][d], a[r + i], b[i][d][0], b[i][d][1]);
#pragma unroll
  for (int d = 0; d < D; d++)
#pragma unroll
    for (int k = 0; k < 4; k++) {
      acc[d][k] = acc2[0][d][k];
#pragma unroll
      for (int z = 1; z < IMMA_SPLIT; z++) acc[d][k] += acc2[z][d][k];
    }
}

template <int C, int D>
__device__ __forceinline__ void imma_kernel(const Geo& g, const ImmaTaps& t) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // no m16n8k32 integer mma: the caller does not launch it here
#else
  __shared__ __align__(16) u8 tiles[2][IMMA_IH * 128];
  __shared__ __align__(16) u8 otile[IMMA_TH * 64];
  __shared__ unsigned pw[IMMA_KR * 3 * IMMA_PW];
  const int tid = threadIdx.x, w = tid >> 5, lane = tid & 31, gq = lane >> 2, q = lane & 3;
  for (int i = tid; i < IMMA_KR * 3 * IMMA_PW; i += 256) pw[i] = t.p[i];
  __syncthreads();
  // The lane's B words: bytes k = 16h + 4q.. of column n = gq, i.e. pattern bytes
  // 16h + 4q - gq + 7...
  unsigned b[IMMA_KR][D][2];
#pragma unroll
  for (int i = 0; i < IMMA_KR; i++)
#pragma unroll
    for (int d = 0; d < D; d++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int o = 16 * h + 4 * q - gq + 7, at = (i * 3 + d) * IMMA_PW + (o >> 2);
        b[i][d][h] = __funnelshift_r(pw[at], pw[at + 1], 8 * (o & 3));
      }
  // The lane's A words: byte 32 + 8w - lead + 16h + 4q of its rows 8gq + c (+ 64),
  // swizzled by row/8 = gq + c/8.
  int off[2][2];
#pragma unroll
  for (int cc = 0; cc < 2; cc++)
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int col = 32 + 8 * w - t.lead + 16 * h + 4 * q;
      off[cc][h] = gq * 8 * 128 + ((((col >> 4) ^ ((gq + cc) & 7)) << 4) | (col & 15));
    }
  int tl = blockIdx.x;
  if (tl >= t.ntiles) return;
  const int nb = g.cols * C;
  imma_fetch<C>(g, t, tiles[0], (tl % t.ntx) * 64, tl / t.ntx * IMMA_TH);
  for (int buf = 0;; buf ^= 1) {
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    const int ty = tl / t.ntx, tx = tl - ty * t.ntx, x0 = tx * 64, y0 = ty * IMMA_TH, next = tl + gridDim.x;
    if (next < t.ntiles) imma_fetch<C>(g, t, tiles[buf ^ 1], (next % t.ntx) * 64, next / t.ntx * IMMA_TH);
    const u8* tile = tiles[buf];
    unsigned a[IMMA_KR + 7][4];
#pragma unroll
    for (int r = 0; r < 8; r++) {
      int acc[D][4];
      imma_set<D>(tile, off, a, b, r, acc);
#pragma unroll
      for (int hm = 0; hm < 2; hm++) {
        unsigned pk = 0;
#pragma unroll
        for (int j = 0; j < 2; j++) {
          const int e = 2 * hm + j, top = acc[D - 1][e] * 256 + acc[D - 2][e];
          const float f = D == 2 ? fmaf((float)top, t.scale, g.delta)
                                 : fmaf((float)top, 256.f * t.scale, fmaf((float)acc[0][e], t.scale, g.delta));
          pk |= u8_rn_sat(f) << (8 * j);
        }
        const int R = 8 * gq + r + 64 * hm;
        *reinterpret_cast<u16*>(otile + R * 64 + ((w ^ gq) << 3) + 2 * q) = (u16)pk;
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 2; k++) {
      const int R = (tid >> 2) + 64 * k, p = tid & 3, s = (R >> 3) & 7, y = y0 + R, X = x0 + 16 * p;
      uint4 o = *reinterpret_cast<const uint4*>(otile + R * 64 + ((2 * p ^ (s & 6)) << 3));
      if (s & 1) o = make_uint4(o.z, o.w, o.x, o.y);
      if (y >= g.rows || X >= nb) continue;
      u8* dr = static_cast<u8*>(g.dst) + (ptrdiff_t)y * g.dp + X;
      if (X + 16 <= nb) {
        *reinterpret_cast<uint4*>(dr) = o;
      } else {  // the row's last bytes
        const unsigned ow[4] = {o.x, o.y, o.z, o.w};
#pragma unroll
        for (int e = 0; e < 16; e++)
          if (e < nb - X) dr[e] = (u8)(ow[e >> 2] >> (8 * (e & 3)));
      }
    }
    if (next >= t.ntiles) break;
    tl = next;
  }
#endif
}
#define IMMA(C, D)                                                                                    \
  extern "C" __global__ void __launch_bounds__(256, 2) gi_imma_k7_c##C##_d##D(Geo g, ImmaTaps t) { \
    imma_kernel<C, D>(g, t);                                                                          \
  }
IMMA(1, 2) IMMA(1, 3) IMMA(3, 2) IMMA(3, 3) IMMA(4, 2) IMMA(4, 3)
