// Register filters (gi_reg_k<K>_<in>_<out>). Go caller: convolve/cuda.go, regKernel.
#include "filter.cuh"

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
