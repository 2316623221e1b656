// Linear filters (package convolve): tiles with their apron in shared memory, the
// border rule applied while loading, several outputs per thread from registers.
//
//   gi_sep_k<K>_c<C>  separable kernel, taps padded to K, C channels per block: the tile is
//                     filtered along rows into a second shared buffer, then along
//                     columns; 32x32 outputs per 32x8-thread block.
//   gi_conv2d_k<K>    2-D kernel padded to KxK (zeros), one channel per block
//                     (blockIdx.z); 8 (K = 3) or 16 outputs per thread down a column,
//                     the taps of one kernel column at a time in registers.
//   Outputs per thread: 8 rows (4 when a block does 3 or 4 channels) for the
//   separable kernel; the tile is 32 columns by 8x that many rows.
//   gi_conv2d_any     any size: one output per thread, taps from global memory.
//   gi_reg_k<K>_<in>_<out>  centred 3x3 or 5x5 kernels on one-channel 8U or 32F
//                     images, all in registers (see reg_kernel).
#include "common.cuh"
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
      if (r0 + k * DR < IH) t[k * DR * IW] = (float)v[k];
    return;
  }
  // Wide tiles: one flat walk over the elements.
  int r = tid / ROWN, e = tid - r * ROWN;
  const int dr = NT / ROWN, de = NT - dr * ROWN;
  for (int i = tid; i < IH * ROWN; i += NT) {
    const int px = e / CP, c = e - px * CP;
    const T* srow = reinterpret_cast<const T*>(base + (ptrdiff_t)r * g.sp);
    tile[(c * IH + r) * IW + px] = (float)srow[px * g.cn + c0 + c];
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

// load_tile fills tile[c][r][x] (CP planes of ih rows of iw floats) with the source
// pixels from (x0, y0) of the view, channels c0.., through the border rule.
template <int CP>
__device__ __forceinline__ void load_tile(const Geo& g, float* tile, int iw, int ih, int x0, int y0, int c0) {
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
      tile[(c * ih + r) * iw + px] = v;
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
  load_tile<CP>(g, tile, IW, IH, x0, y0, c0);
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

// Each thread keeps PY outputs of one column; for each kernel column j it holds the
// K taps of that column in registers and walks down the PY+K-1 tile values once.
template <int K, int PY>
__device__ __forceinline__ void conv2d_kernel(Geo g, Taps t) {
  constexpr int TW = 32, TH = 8 * PY, IW = TW + K - 1, IH = TH + K - 1;
  __shared__ float tile[IH * IW];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int c = blockIdx.z;
  const int x0 = blockIdx.x * TW;
  const int ntY = (g.rows + TH - 1) / TH;
  for (int by = blockIdx.y; by < ntY; by += gridDim.y) {
    const int y0 = by * TH;
    load<1, IW, IH>(g, tile, x0 - g.ax, y0 - g.ay, c);
    __syncthreads();
    float acc[PY];
#pragma unroll
    for (int k = 0; k < PY; k++) acc[k] = 0.f;
    const float* base = tile + ty * PY * IW + tx;
#pragma unroll(K <= 3 ? K : 1)
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

// Register kernel for centred 3x3 and 5x5 kernels (2-D, or separable ones as their
// outer product) on one-channel 8U or 32F images: no shared memory. A warp covers
// 128 columns, each lane 4 of them (one vector load per row), and computes the 120
// in the middle (lanes 1-30); the K/2 neighbours on each side come from the next
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
CONV(7)
CONV(9)
CONV(11)
CONV(13)
CONV(15)
CONV(17)
CONV(19)
CONV(21)
CONV(25)
CONV(31)
