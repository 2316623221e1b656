// Packed-row 2-D filters (gi_p2d_k<K>_c<C>_<in>_<out>, and gi_p2d_k3_c1_u8_<out>_m<M>).
// Go caller: convolve/cuda.go, p2dArgs.
#include "filter.cuh"

// ---- Centred KxK kernels (K = 3, 5; any float taps, separable ones as their outer
// product) on 8U, 16U and 16S images of C interleaved channels, in float32 as the CPU
// device sums them (row by row of the kernel, left to right), no shared memory but a
// little for the border. Each lane takes E elements of a row (one 8- or 16-byte load)
// and R output rows (GI_P2D_E, GI_P2D_R): it loads all R + K - 1 input rows first, packed
// as they are in memory (the loads of a strip all in flight together), then walks them
// in order (ncu on the H100: issue-bound, 29 instructions an output for 3x3 on 8UC1;
// bench/results/issue27-ncu.md): each row's elements
// become floats once (a byte permute into 2^23 + v and one subtraction, full-rate
// instructions), with the H = K/2 * C neighbours each side from the next lanes by
// shuffles of the packed words, and meets kernel row k in output row i - k; an output
// row is stored as soon as its last input row is in, so only K rows of accumulators
// are live. Lanes 0 and 31 only supply neighbours (a warp writes 30 * E elements);
// elements outside the view's rows go through the border rule (strip_load). Results
// leave through the same trick: clamp, add 2^23 (or 1.5 * 2^23 for 16S), keep the low
// bits. The _m<M> variants (3x3, one-channel 8U) know which taps are zero (the mask M
// of GI_P2D_PLUS...) and skip them: Laplacian ksize 1 and 3 have 5 taps of 9.

// p2d_elem is element k of a packed word of T as a float (exact).
template <typename T>
__device__ __forceinline__ float p2d_elem(unsigned w, int k);
template <>
__device__ __forceinline__ float p2d_elem<u8>(unsigned w, int k) { return u8f(w, k); }
template <>
__device__ __forceinline__ float p2d_elem<u16>(unsigned w, int k) {
  return __uint_as_float(__byte_perm(w, 0x4B00u, k ? 0x5432 : 0x5410)) - 8388608.f;
}
template <>
__device__ __forceinline__ float p2d_elem<s16>(unsigned w, int k) {  // v + 32768 as a 16U, then 2^23 + 32768 off
  return __uint_as_float(__byte_perm(w ^ 0x80008000u, 0x4B00u, k ? 0x5432 : 0x5410)) - 8421376.f;
}

// P2DOut packs E results (f + delta, saturated to TO) into words.
template <typename TO>
struct P2DOut;
template <>
struct P2DOut<u8> {
  template <int E>
  static __device__ __forceinline__ void pack(const Geo& g, const float (&f)[E], unsigned (&o)[E / 4]) {
    pack_u8(g, f, o);
  }
};
template <typename TO>
struct P2DOut16 {  // u16 and s16: clamped, then 2^23 (16U) or 1.5 * 2^23 (16S) added, two a word
  template <int E>
  static __device__ __forceinline__ void pack(const Geo& g, const float (&f)[E], unsigned (&o)[E / 2]) {
    constexpr float lo = TO(-1) < TO(0) ? -32768.f : 0.f, hi = TO(-1) < TO(0) ? 32767.f : 65535.f;
    constexpr float magic = TO(-1) < TO(0) ? 12582912.f : 8388608.f;
    unsigned b[E];
#pragma unroll
    for (int x = 0; x < E; x++) b[x] = __float_as_uint(fminf(fmaxf(f[x] + g.delta, lo), hi) + magic);
#pragma unroll
    for (int q = 0; q < E / 2; q++) o[q] = __byte_perm(b[2 * q], b[2 * q + 1], 0x5410);
  }
};
template <>
struct P2DOut<u16> : P2DOut16<u16> {};
template <>
struct P2DOut<s16> : P2DOut16<s16> {};
template <>
struct P2DOut<f32> {
  template <int E>
  static __device__ __forceinline__ void pack(const Geo& g, const float (&f)[E], unsigned (&o)[E]) {
#pragma unroll
    for (int x = 0; x < E; x++) o[x] = __float_as_uint(f[x] + g.delta);
  }
};

// p2d_store writes the NO words o (elements e.. of output row y; n of them inside the
// row) by vector stores where aligned, else element by element.
template <typename TO, int NO>
__device__ __forceinline__ void p2d_store(const Geo& g, int y, int e, int n, bool aligned, const unsigned (&o)[NO]) {
  constexpr int E = NO * 4 / (int)sizeof(TO), PW = 4 / (int)sizeof(TO);
  char* d = static_cast<char*>(g.dst) + (size_t)y * g.dp + (size_t)e * sizeof(TO);
  if (n >= E && aligned) {
#pragma unroll
    for (int q = 0; q < NO; q += 4) {
      if (NO - q >= 4)
        *reinterpret_cast<uint4*>(d + 4 * q) = make_uint4(o[q], o[q + 1 < NO ? q + 1 : 0], o[q + 2 < NO ? q + 2 : 0],
                                                          o[q + 3 < NO ? q + 3 : 0]);
      else
        *reinterpret_cast<uint2*>(d + 4 * q) = make_uint2(o[q], o[q + 1 < NO ? q + 1 : 0]);
    }
    return;
  }
#pragma unroll
  for (int x = 0; x < E; x++) {  // a row's last lane, or unaligned rows
    if (x >= n) break;
    const unsigned wv = o[x / PW];
    if (sizeof(TO) == 1)
      reinterpret_cast<u8*>(d)[x] = (u8)(wv >> (8 * (x % 4)));
    else if (sizeof(TO) == 2)
      reinterpret_cast<u16*>(d)[x] = (u16)(wv >> (16 * (x % 2)));
    else
      reinterpret_cast<unsigned*>(d)[x] = wv;
  }
}

// p2d_strip filters output rows y0..y0+R-1 of the lane's E elements from e, from
// the strip's input rows w (strip_load's).
template <int K, int C, typename TI, typename TO, int E, int R, unsigned M, int NR, int Q>
__device__ __forceinline__ void p2d_strip(const Geo& g, const P2DTaps& t, int lane, int e, int y0, bool aligned,
                                          const unsigned (&w)[NR][Q]) {
  constexpr int H = K / 2 * C, PW = 4 / (int)sizeof(TI);  // neighbours each side, elements a word
  constexpr int NO = E * (int)sizeof(TO) / 4;             // output words a row
  static_assert(H <= E, "the neighbours must come from the next lane");
  const int nb = g.cols * C;
  const bool writer = lane >= 1 && lane <= 30 && e < nb;
  float acc[R][E];
#pragma unroll
  for (int i = 0; i < NR; i++) {
    // Row i's elements -H..E+H-1 as floats: the left lane's last H, this lane's, the
    // right lane's first H.
    float ev[E + 2 * H];
#pragma unroll
    for (int q = (E - H) / PW; q < Q; q++) {
      const unsigned l = __shfl_up_sync(0xffffffffu, w[i][q], 1);
#pragma unroll
      for (int k = 0; k < PW; k++)
        if (q * PW + k >= E - H) ev[q * PW + k - (E - H)] = p2d_elem<TI>(l, k);
    }
#pragma unroll
    for (int x = 0; x < E; x++) ev[H + x] = p2d_elem<TI>(w[i][x / PW], x % PW);
#pragma unroll
    for (int q = 0; q * PW < H; q++) {
      const unsigned r = __shfl_down_sync(0xffffffffu, w[i][q], 1);
#pragma unroll
      for (int k = 0; k < PW; k++)
        if (q * PW + k < H) ev[H + E + q * PW + k] = p2d_elem<TI>(r, k);
    }
    // Input row i meets kernel row k in output row i - k.
#pragma unroll
    for (int k = 0; k < K; k++) {
      const int o = i - k;
      if (o < 0 || o >= R) continue;
#pragma unroll
      for (int x = 0; x < E; x++) {
        float s = k == 0 ? 0.f : acc[o][x];
#pragma unroll
        for (int j = 0; j < K; j++)
          if (M >> (k * K + j) & 1) s = fmaf(t.w[k * K + j], ev[x + j * C], s);
        acc[o][x] = s;
      }
    }
    const int o = i - (K - 1);  // the output row this input row completes
    if (o >= 0 && writer && y0 + o < g.rows) {
      unsigned ow[NO];
      P2DOut<TO>::pack(g, acc[o], ow);
      p2d_store<TO, NO>(g, y0 + o, e, nb - e, aligned, ow);
    }
  }
}

// p2d_load_strip loads the input rows of the lane's strip from y0 and filters them.
template <int K, int C, typename TI, typename TO, int E, int R, unsigned M>
__device__ __forceinline__ void p2d_load_strip(const Geo& g, const P2DTaps& t, TI* buf, int lane, int e, int y0,
                                               bool aligned) {
  unsigned w[R + K - 1][E * sizeof(TI) / 4];
  strip_load<TI, C, E, K / 2 * C, R + K - 1>(g, t, buf, lane, e, y0 - K / 2, w);
  p2d_strip<K, C, TI, TO, E, R, M>(g, t, lane, e, y0, aligned, w);
}

// A block's 4 warps take the same span of 30 * E elements and 4 strips of R rows,
// and walk further down. (Loading a warp's next strip while it filters the current
// one measured slower: 4 blocks an SM instead of 6.)
template <int K, int C, typename TI, typename TO, unsigned M>
__device__ __forceinline__ void p2d_kernel(const Geo& g, const P2DTaps& t) {
  constexpr int E = GI_P2D_E(K, sizeof(TI), C), R = GI_P2D_R(K, sizeof(TI));
  constexpr int NO = E * (int)sizeof(TO) / 4, VA = NO * 4 < 16 ? NO * 4 : 16;  // a row's output bytes, their alignment
  __shared__ __align__(16) TI buf[4][(R + K - 1) * E];  // one lane's elements, per warp
  const int lane = threadIdx.x & 31, e = blockIdx.x * 30 * E + (lane - 1) * E;
  const bool aligned = reinterpret_cast<size_t>(g.dst) % VA == 0 && g.dp % VA == 0;
  for (int y0 = (blockIdx.y * 4 + (threadIdx.x >> 5)) * R; y0 < g.rows; y0 += gridDim.y * 4 * R)
    p2d_load_strip<K, C, TI, TO, E, R, M>(g, t, buf[threadIdx.x >> 5], lane, e, y0, aligned);
}

#define P2D(K, C, TI, TO)                                                                                 \
  extern "C" __global__ void __launch_bounds__(128, GI_P2D_BLOCKS(K, C))                                \
      gi_p2d_k##K##_c##C##_##TI##_##TO(Geo g, P2DTaps t) {                                                \
    p2d_kernel<K, C, TI, TO, 0x1FFFFFFu>(g, t);                                                           \
  }
// OpenCV's filter2D depths: 8U to 8U, 16U, 16S or 32F; 16U to 16U or 32F; 16S to 16S or 32F.
#define P2DS(K, C)                                                                                        \
  P2D(K, C, u8, u8) P2D(K, C, u8, u16) P2D(K, C, u8, s16) P2D(K, C, u8, f32) P2D(K, C, u16, u16)         \
      P2D(K, C, u16, f32) P2D(K, C, s16, s16) P2D(K, C, s16, f32)
P2DS(3, 1)
P2DS(3, 3)
P2DS(3, 4)
P2DS(5, 1)
P2DS(5, 3)
P2DS(5, 4)
#define P2DM(TO, m, M)                                                                                    \
  extern "C" __global__ void __launch_bounds__(128, GI_P2D_BLOCKS(3, 1))                                \
      gi_p2d_k3_c1_u8_##TO##_m##m(Geo g, P2DTaps t) {                                                     \
    p2d_kernel<3, 1, u8, TO, M>(g, t);                                                                    \
  }
#define P2DMS(m, M) P2DM(u8, m, M) P2DM(u16, m, M) P2DM(s16, m, M) P2DM(f32, m, M)
P2DMS(0ba, GI_P2D_PLUS)
P2DMS(155, GI_P2D_CROSS)
P2DMS(16d, GI_P2D_DX)
P2DMS(1c7, GI_P2D_DY)
