// JPEG colour after nvJPEG (Go caller: codec/cuda.go). nvJPEG decodes to planar
// YCbCr; this kernel upsamples the chroma as libjpeg-turbo does by default -- its
// "fancy" triangular filters for 4:2:0 (h2v2) and 4:2:2 (h2v1) when the chroma is
// more than 2 samples wide, replication otherwise -- and converts with its 16-bit
// fixed-point tables (jdcolor.c), so a GPU decode matches OpenCV's imread up to the
// IDCT's rounding. The CPU twin is codec.YCbCrToBGR.
#include "common.cuh"
#include "core_params.h"

namespace jpeg {

__device__ __forceinline__ u8 clamp_u8(int v) { return (u8)min(max(v, 0), 255); }

// FIX(1.40200), FIX(1.77200), FIX(0.71414), FIX(0.34414) with 16 fraction bits.
__device__ __forceinline__ void ycc_to_bgr(int y, int cb, int cr, u8* o) {
  const int x = cb - 128, z = cr - 128;
  o[0] = clamp_u8(y + ((116130 * x + 32768) >> 16));
  o[1] = clamp_u8(y + ((-22554 * x + 32768 - 46802 * z) >> 16));
  o[2] = clamp_u8(y + ((91881 * z + 32768) >> 16));
}

// chroma is the chroma sample at pixel (x, y) of a plane of cw x ch samples with
// subsampling hs x vs, rows cp bytes apart.
__device__ __forceinline__ int chroma(const u8* c, int cp, int x, int y, int cw, int ch, int hs, int vs, bool fancy) {
  if (!fancy || hs != 2) return row<u8>(c, cp, min(y / vs, ch - 1))[min(x / hs, cw - 1)];
  const int k = x >> 1;
  if (vs == 1) { // h2v1: 3:1 towards the nearer sample, rounding 1 and 2
    const u8* r = row<u8>(c, cp, y);
    const int v = r[k];
    if ((x & 1) == 0) return k == 0 ? v : (v * 3 + r[k - 1] + 1) >> 2;
    return k == cw - 1 ? v : (v * 3 + r[k + 1] + 2) >> 2;
  }
  // h2v2: 3:1 towards the nearer chroma row (edge rows stand in for missing ones),
  // then 3:1 across columns, rounding 8 and 7.
  const int r0 = y >> 1;
  const int r1 = min(max((y & 1) ? r0 + 1 : r0 - 1, 0), ch - 1);
  const u8* a = row<u8>(c, cp, r0);
  const u8* b = row<u8>(c, cp, r1);
  const int here = 3 * a[k] + b[k];
  if ((x & 1) == 0) return k == 0 ? (here * 4 + 8) >> 4 : (here * 3 + 3 * a[k - 1] + b[k - 1] + 8) >> 4;
  return k == cw - 1 ? (here * 4 + 7) >> 4 : (here * 3 + 3 * a[k + 1] + b[k + 1] + 7) >> 4;
}

}  // namespace jpeg

// gi_jpeg_ycc_bgr writes interleaved BGR from the Y, Cb and Cr planes nvJPEG
// decoded (chroma cw x ch samples, subsampled hs x vs). One thread per pixel of a
// row, the grid striding over rows.
extern "C" __global__ void gi_jpeg_ycc_bgr(JpegYccParams p) {
  const u8 *yp = p.yp, *cb = p.cb, *cr = p.cr;
  u8* dst = p.dst;
  const int ypitch = p.ypitch, cpitch = p.cpitch, dpitch = p.dpitch, rows = p.rows, cols = p.cols, cw = p.cw,
            ch = p.ch, hs = p.hs, vs = p.vs;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= cols) return;
  const bool fancy = cw > 2 && hs == 2 && vs <= 2;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const int b = jpeg::chroma(cb, cpitch, x, y, cw, ch, hs, vs, fancy);
    const int r = jpeg::chroma(cr, cpitch, x, y, cw, ch, hs, vs, fancy);
    jpeg::ycc_to_bgr(row<u8>(yp, ypitch, y)[x], b, r, row<u8>(dst, dpitch, y) + 3 * x);
  }
}
