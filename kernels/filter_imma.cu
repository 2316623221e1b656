// Tensor-core 2-D filters (gi_imma_k7_c<C>_d<D>). Go caller: convolve/imma.go.
#include "filter.cuh"

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
#define IMMA_KR GI_IMMA_KR  // ImmaTaps (filter_params.h)
#define IMMA_TH 128
#define IMMA_IH (IMMA_TH + IMMA_KR - 1)
#define IMMA_SPLIT 2  // independent mma chains per digit (kernel rows alternate)
#define IMMA_PW GI_IMMA_PW

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
    for (int d = 0; d < D; d++) mma16832<false, true>(acc2[i % IMMA_SPLIT][d], a[r + i], b[i][d][0], b[i][d][1]);
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
