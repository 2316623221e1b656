// Packed integer box and Gaussian filters (gi_ipack_{box,gauss}_k<K>_c<C>). Go
// caller: convolve/cuda.go, ipackArgs.
#include "filter.cuh"

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
// ipk_tap is tap i of the row (X) or column pass: the Gaussian's 3-tap row taps are
// 16x, so that its sums are in 1/256ths as the 5-tap one's are.
template <int F, int K, bool X>
__device__ __forceinline__ constexpr unsigned ipk_tap(int i) {
  return F == IPK_BOX ? 1 : K == 5 ? (i == 2 ? 6 : i == 1 || i == 3 ? 4 : 1) : (i == 1 ? 2 : 1) * (X ? 16 : 1);
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
  extern "C" __global__ void __launch_bounds__(128, GI_IPACK_BLOCKS(C))                                          \
      gi_ipack_##f##_k##K##_c##C(Geo g, IPackTaps t) {                                                      \
    ipk_kernel<F, K, C>(g, t);                                                                               \
  }
#define IPKS(F, f) IPK(F, f, 3, 1) IPK(F, f, 3, 3) IPK(F, f, 3, 4) IPK(F, f, 5, 1) IPK(F, f, 5, 3) IPK(F, f, 5, 4)
IPKS(IPK_BOX, box)
IPKS(IPK_GAUSS, gauss)

