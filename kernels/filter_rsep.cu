// Streaming separable filters (gi_rsep_k<K>_c<C>_<out>). Go caller: convolve/cuda.go,
// rsepKernel and rsepGrid.
#include "filter.cuh"

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
    pack_u8(g, f, w);
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
  extern "C" __global__ void __launch_bounds__(128, GI_RSEP_BLOCKS(K, C, E)) gi_rsep_k##K##_c##C##_##TO(Geo g, SepTaps t, int S) { rsep_kernel<K, C, TO, E>(g, t, S); }
#define RSEPS(K, C, E) RSEP(K, C, u8, E) RSEP(K, C, u16, E) RSEP(K, C, s16, E) RSEP(K, C, f32, E)
// One channel only: on 3-channel images (C = 3, 8 elements per lane) this kernel
// measured slower than gi_sep_k5_c3 on the H100 (80 against 72 us at 4K).
RSEPS(3, 1, 8)
RSEPS(5, 1, 4)
RSEPS(7, 1, 8)
