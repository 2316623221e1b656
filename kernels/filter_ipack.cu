// Packed integer box, Gaussian and first-derivative filters
// (gi_ipack_{box,gauss}_k<K>_c<C>, gi_ipack_{sobel,scharr}{x,y}_k3_c<C>_<out>). Go
// caller: convolve/cuda.go, ipackArgs.
#include "filter.cuh"

// ---- Packed integer separable kernels on 8U images of C interleaved channels:
// the normalized KxK box filter (gi_ipack_box_k<K>_c<C>; K = 3, 5: taps 1, the sum
// divided by D = K*K, which is odd, so no ties) and OpenCV's fixed-point
// GaussianBlur with ksize K and sigma 0 (gi_ipack_gauss_k<K>_c<C>; binomial taps
// 1 2 1 and 1 4 6 4 1, the sum in 1/256ths rounded half up), to 8U; the 3x3 Sobel
// and Scharr first derivatives along x or y with scale 1 and delta 0
// (gi_ipack_<deriv>_k3_c<C>_<out>), to 8U (saturated) or 16S. Every sum fits in 16
// bits, so each 32-bit register holds two elements: the even bytes of a word (lo
// plane) and the odd ones (hi plane), and one integer add filters two elements.
// The taps are compile-time constants (adds and shifts, no multiplies); a
// derivative's sums carry a bias (ipk_bias) that keeps every 16-bit lane
// non-negative, so that no lane borrows from the next, and that the result takes
// off again. The column pass comes first (on the planes of the input rows), then
// the row pass, whose neighbours C, 2C... bytes away are the next plane word or a
// funnel shift of two. The results are exact, as OpenCV's fixed-point (and exact
// integer) sums are.
//   Each lane takes IPK_B bytes of a row (one 16-byte load) and IPK_R output rows,
// loading all IPK_R + K - 1 input rows before using any (the Sobel kernel's lesson).
// Lanes 0 and 31 only supply neighbours (their last or first bytes), so a warp writes
// 30 * IPK_B elements; bytes outside the view's rows go through the border rule of
// the whole image byte by byte (edge lanes and the top and bottom strips only).
#ifndef IPK_R
#define IPK_R 8
#endif
#define IPK_B 16
#define IPK_E (IPK_B / 4)
// The filters: box, Gaussian, and the derivatives (Sobel: smoothing 1 2 1, Scharr:
// 3 10 3; X: the derivative -1 0 1 along the row, Y: along the column).
enum { IPK_BOX = 1, IPK_GAUSS = 2, IPK_SOBELX = 3, IPK_SOBELY = 4, IPK_SCHARRX = 5, IPK_SCHARRY = 6 };
template <int F>
__device__ __forceinline__ constexpr bool ipk_deriv() { return F >= IPK_SOBELX; }
// ipk_dx: the derivative is along the row (the column pass smooths).
template <int F>
__device__ __forceinline__ constexpr bool ipk_dx() { return F == IPK_SOBELX || F == IPK_SCHARRX; }
// ipk_smooth is tap i of a derivative's 3-tap smoothing, ipk_diff of its difference.
template <int F>
__device__ __forceinline__ constexpr int ipk_smooth(int i) {
  return F == IPK_SOBELX || F == IPK_SOBELY ? (i == 1 ? 2 : 1) : (i == 1 ? 10 : 3);
}
__device__ __forceinline__ constexpr int ipk_diff(int i) { return i - 1; }
// ipk_bias is a derivative's bias: the largest magnitude its sums reach (255 times
// the smoothing's sum) rounded up to a power of two, 1024 (Sobel) or 4096 (Scharr).
template <int F>
__device__ __forceinline__ constexpr unsigned ipk_bias() { return F == IPK_SOBELX || F == IPK_SOBELY ? 1024 : 4096; }
// ipk_tap is tap i of the row (X) or column pass: the Gaussian's 3-tap row taps are
// 16x, so that its sums are in 1/256ths as the 5-tap one's are.
template <int F, int K, bool X>
__device__ __forceinline__ constexpr int ipk_tap(int i) {
  return ipk_deriv<F>() ? (ipk_dx<F>() == X ? ipk_diff(i) : ipk_smooth<F>(i))
         : F == IPK_BOX ? 1
         : K == 5       ? (i == 2 ? 6 : i == 1 || i == 3 ? 4 : 1)
                        : (i == 1 ? 2 : 1) * (X ? 16 : 1);
}
// ipk_col0 is the column pass's starting value in each 16-bit lane: 256 where it
// differences (so that 256 - a + c stays in 1..511; the row pass's smoothing, whose
// taps sum to 4 or 16, makes that the bias), else 0.
template <int F>
__device__ __forceinline__ constexpr unsigned ipk_col0() { return ipk_deriv<F>() && !ipk_dx<F>() ? 256 : 0; }
// ipk_row0 is the row pass's starting value in each lane: the rounding half of box
// and Gaussian, the bias where the row pass differences (taken first, so that no
// lane goes below zero), else 0.
template <int F, int K>
__device__ __forceinline__ constexpr unsigned ipk_row0() {
  return F == IPK_GAUSS ? 128 : F == IPK_BOX ? K * K / 2 : ipk_dx<F>() ? ipk_bias<F>() : 0;
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
    constexpr int tap = ipk_tap<F, K, true>(KK);
    if (tap != 0) {  // unsigned: a -1 tap subtracts (wrapping the whole word, lanes intact)
      sl += (unsigned)tap * ipk_at<0, (KK - K / 2) * C, Q, NW>(xl, xh);
      sh += (unsigned)tap * ipk_at<1, (KK - K / 2) * C, Q, NW>(xl, xh);
    }
    IpkRow<F, K, C, NW, Q, KK + 1, N>::add(xl, xh, sl, sh);
  }
};
template <int F, int K, int C, int NW, int Q, int N>
struct IpkRow<F, K, C, NW, Q, K, N> {
  static __device__ __forceinline__ void add(const unsigned (&)[N], const unsigned (&)[N], unsigned&, unsigned&) {}
};

// ipk_word puts output word Q of the lane (its elements 4Q..4Q+3 as TO) into o: the
// row pass over the column sums, then box: divided by D (rounded half up: D/2
// added first); Gaussian: the sums / 256; derivatives: the bias taken off, to 16S
// as they are, to 8U saturated.
template <int F, int K, int C, int NW, int Q, typename TO, int N>
__device__ __forceinline__ void ipk_word(const IPackTaps& t, const unsigned (&xl)[N], const unsigned (&xh)[N],
                                         unsigned (&o)[IPK_E * sizeof(TO)]) {
  unsigned sl = ipk_row0<F, K>() * 0x10001u, sh = sl;
  IpkRow<F, K, C, NW, Q, 0, N>::add(xl, xh, sl, sh);
  if (ipk_deriv<F>()) {
    constexpr unsigned bias = ipk_bias<F>() * 0x10001u;
    if (sizeof(TO) == 1) {  // each lane clamped to bias..bias+255, then the bias off (no borrows)
      const unsigned l = __vminu2(__vmaxu2(sl, bias), bias + 255 * 0x10001u) - bias;
      const unsigned h = __vminu2(__vmaxu2(sh, bias), bias + 255 * 0x10001u) - bias;
      o[Q] = __byte_perm(l, h, 0x6240);  // byte 0 of each half, even and odd elements in turn
    } else {  // lane by lane, to signed 16 bits
      const unsigned l = __vsub2(sl, bias), h = __vsub2(sh, bias);
      o[2 * Q] = __byte_perm(l, h, 0x5410), o[2 * Q + 1] = __byte_perm(l, h, 0x7632);
    }
    return;
  }
  if (F == IPK_GAUSS) {
    o[Q] = __byte_perm(sl, sh, 0x7351);  // byte 1 of each half: the sums / 256
    return;
  }
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
  o[Q] = __byte_perm(a, b, 0x5410);
}

template <int F, int K, int C, typename TO>
__device__ __forceinline__ void ipk_strip(const Geo& g, const IPackTaps& t, u8* buf, int lane, int e, int y0) {
  constexpr int A = K / 2, H = A * C, NW = (H + 3) / 4, NR = IPK_R + K - 1;
  static_assert(NW <= IPK_E && IPK_E == 4, "the neighbours must come from the next lane");
  const int nb = g.cols * C;
  const bool full = e >= 0 && e + IPK_B <= nb;
  unsigned w[NR][IPK_E];
  strip_load<u8, C, IPK_B, H, NR>(g, t, buf, lane, e, y0 - A, w);
  const bool writer = lane >= 1 && lane <= 30 && e < nb;
  const bool vec = full;  // the caller checks that output rows are 16-byte aligned
#pragma unroll
  for (int j = 0; j < IPK_R; j++) {
    // The column pass: lo and hi planes of the lane's words, with the neighbours'.
    unsigned xl[IPK_E + 2 * NW], xh[IPK_E + 2 * NW];
#pragma unroll
    for (int q = 0; q < IPK_E; q++) {
      unsigned l = ipk_col0<F>() * 0x10001u, h = l;
#pragma unroll
      for (int k = 0; k < K; k++) {
        const unsigned tap = (unsigned)ipk_tap<F, K, false>(k);  // a constant once unrolled
        if (tap != 0) {
          l += tap * __byte_perm(w[j + k][q], 0, 0x4240);
          h += tap * __byte_perm(w[j + k][q], 0, 0x4341);
        }
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
    // The row pass, then each element's result.
    constexpr int NO = IPK_E * sizeof(TO), PW = 4 / sizeof(TO);  // words, elements a word
    unsigned o[NO];
    ipk_word<F, K, C, NW, 0, TO>(t, xl, xh, o);
    ipk_word<F, K, C, NW, 1, TO>(t, xl, xh, o);
    ipk_word<F, K, C, NW, 2, TO>(t, xl, xh, o);
    ipk_word<F, K, C, NW, 3, TO>(t, xl, xh, o);
    TO* d = reinterpret_cast<TO*>(static_cast<u8*>(g.dst) + (size_t)y * g.dp) + e;
    if (vec) {
#pragma unroll
      for (int q = 0; q < NO; q += 4) *reinterpret_cast<uint4*>(d + q * PW) = make_uint4(o[q], o[q + 1], o[q + 2], o[q + 3]);
    } else {  // the row's last lane: element by element (constant indices: o stays in registers)
      const int n = min(IPK_B, nb - e);
#pragma unroll
      for (int b = 0; b < IPK_B; b++)
        if (b < n) d[b] = (TO)(o[b / PW] >> (32 / PW * (b % PW)));
    }
  }
}

// A block's 4 warps take the same span of 30 * IPK_B elements and 4 strips of IPK_R
// rows, and walk further down.
template <int F, int K, int C, typename TO>
__device__ __forceinline__ void ipk_kernel(const Geo& g, const IPackTaps& t) {
  __shared__ __align__(16) u8 buf[4][(IPK_R + K - 1) * IPK_B];  // one lane's bytes, per warp
  const int lane = threadIdx.x & 31, e = blockIdx.x * 30 * IPK_B + (lane - 1) * IPK_B;
  for (int y0 = (blockIdx.y * 4 + (threadIdx.x >> 5)) * IPK_R; y0 < g.rows; y0 += gridDim.y * 4 * IPK_R)
    ipk_strip<F, K, C, TO>(g, t, buf[threadIdx.x >> 5], lane, e, y0);
}
// 5 blocks per SM for one channel (under 102 registers), 4 for 3 and 4 (128).
#define IPK(F, f, K, C)                                                                                      \
  extern "C" __global__ void __launch_bounds__(128, GI_IPACK_BLOCKS(C))                                          \
      gi_ipack_##f##_k##K##_c##C(Geo g, IPackTaps t) {                                                      \
    ipk_kernel<F, K, C, u8>(g, t);                                                                           \
  }
#define IPKS(F, f) IPK(F, f, 3, 1) IPK(F, f, 3, 3) IPK(F, f, 3, 4) IPK(F, f, 5, 1) IPK(F, f, 5, 3) IPK(F, f, 5, 4)
IPKS(IPK_BOX, box)
IPKS(IPK_GAUSS, gauss)
// The derivatives: 1, 3 or 4 channels, to 8U or 16S.
#define IPKD(F, f, C, TO, to)                                                                                \
  extern "C" __global__ void __launch_bounds__(128, GI_IPACK_BLOCKS(C))                                          \
      gi_ipack_##f##_k3_c##C##_##to(Geo g, IPackTaps t) {                                                    \
    ipk_kernel<F, 3, C, TO>(g, t);                                                                           \
  }
#define IPKDC(F, f, C) IPKD(F, f, C, u8, u8) IPKD(F, f, C, short, s16)
#define IPKDS(F, f) IPKDC(F, f, 1) IPKDC(F, f, 3) IPKDC(F, f, 4)
IPKDS(IPK_SOBELX, sobelx)
IPKDS(IPK_SOBELY, sobely)
IPKDS(IPK_SCHARRX, scharrx)
IPKDS(IPK_SCHARRY, scharry)
