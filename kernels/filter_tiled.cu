// Tiled linear filters (gi_sep_k<K>_c<C>, gi_conv2d_k<K>, gi_conv2d_k7_py8,
// gi_conv2d_px2_k7, gi_conv2d_u8c<C>_k7, gi_conv2d_any): tiles with their apron in
// shared memory (filter.cuh's loaders), several outputs per thread from registers.
// Go caller: convolve/cuda.go, cudaFilter (the separable and 2-D entries).
#include "filter.cuh"

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
