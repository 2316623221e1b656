// Integer 3x3 separable filters (gi_isep3_u8_<out>). Go caller: convolve/cuda.go,
// isepArgs.
#include "filter.cuh"

// ---- Integer 3x3 separable kernel, 8U to 16S or 8U (gi_isep3_u8_s16, gi_isep3_u8_u8): Sobel and Scharr
// derivatives (ksize 3, scale 1) and any centred 3x3 separable kernel whose taps
// are small integers, on one-channel 8U images. The sums are exact in int32, as
// OpenCV's float sums of these integers are, so the results match. Each thread
// takes 8 columns (one 8-byte load per row) and ISEP_R output rows: it loads all
// ISEP_R + 2 input rows first, so that many bytes are in flight, then filters them
// in registers (4K Sobel on the H100: 14.0 us; loading and using row by row, 20.1;
// the float streaming kernel, 17.8). The column neighbours come from the next
// lanes by shuffles (lanes 0 and 31 load theirs); rows and columns outside the view
// go through the border rule of the whole image.
#define ISEP_R GI_ISEP_R
// isep_strip filters output rows y0..y0+ISEP_R-1 of the lane's 8 columns from x0.
// All loads of the strip are issued before any is used: the row pointers and the
// two neighbour columns are mapped first, then the 8-byte loads, then the few
// single-byte ones (lanes 0 and 31, a row's last lane, rows outside the image).
template <typename TO>
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
      TO o[8];
#pragma unroll
      for (int k = 0; k < 8; k++) o[k] = sati<TO>(t.ky[0] * h0[k] + t.ky[1] * h1[k] + t.ky[2] * h2[k] + t.delta);
      TO* d = reinterpret_cast<TO*>(static_cast<char*>(g.dst) + (size_t)y * g.dp) + x0;
      if (vec && sizeof(TO) == 2) {
        uint4 w;
        w.x = (unsigned)(u16)o[0] | (unsigned)(u16)o[1] << 16;
        w.y = (unsigned)(u16)o[2] | (unsigned)(u16)o[3] << 16;
        w.z = (unsigned)(u16)o[4] | (unsigned)(u16)o[5] << 16;
        w.w = (unsigned)(u16)o[6] | (unsigned)(u16)o[7] << 16;
        *reinterpret_cast<uint4*>(d) = w;
      } else if (vec) {
        uint2 w;
        w.x = (unsigned)(u8)o[0] | (unsigned)(u8)o[1] << 8 | (unsigned)(u8)o[2] << 16 | (unsigned)(u8)o[3] << 24;
        w.y = (unsigned)(u8)o[4] | (unsigned)(u8)o[5] << 8 | (unsigned)(u8)o[6] << 16 | (unsigned)(u8)o[7] << 24;
        *reinterpret_cast<uint2*>(d) = w;
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
#define ISEP(TO)                                                                                     \
  extern "C" __global__ void __launch_bounds__(128, GI_ISEP_BLOCKS) gi_isep3_u8_##TO(Geo g, ISepTaps t) { \
    const int lane = threadIdx.x & 31, x0 = blockIdx.x * 256 + lane * 8;                                 \
    for (int y0 = (blockIdx.y * 4 + (threadIdx.x >> 5)) * ISEP_R; y0 < g.rows; y0 += gridDim.y * 4 * ISEP_R) \
      isep_strip<TO>(g, t, lane, x0, y0);                                                                 \
  }
ISEP(s16)
ISEP(u8)

