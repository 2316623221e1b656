// InterArea's 8-bit shrinks by other than whole factors, the vertical pass first
// (Go caller: resample/areaf.go, which builds the tables and says which plans
// take it; the CPU twin of its arithmetic is resample/areaf.go's areafEmulate).
//   gi_resize_areaf_u8cCN   1, 3 or 4 channels.
// OpenCV's area weights are, along each axis, a partial first tap, equal inner
// taps and a partial last one. So an output is
//   sum over columns x of a_x * C[x],  C[x] = w0 * v(x, y0) + wi * S[x] + wl * v(x, yl),
// S[x] the integer sum of the inner rows' bytes (exact): a few integer
// operations a source byte instead of OpenCV's product and sum a byte and row,
// summed in another order than OpenCV's (rows first), so a result may differ
// from OpenCV's by one where its float sum lies within rounding of a half.
//
// A block computes p.th output pixels of a row at a time (grid-stride over the
// rows): thread t loads the strip's 16-byte vector t of each of the row's source
// rows (the host keeps the strip's span within the block's vectors), the inner
// rows' bytes summed as 16-bit pairs, then its 16 columns' C into shared memory;
// then a thread an output element sums its columns. Tables (AreaRun, 32 bytes
// an output): p.xstart the pixels', p.ystart the rows'. The source's rows and
// its address are multiples of 16 bytes, and the vector that holds any byte of
// the image lies in its allocation (the host checks).
#include "common.cuh"
#include "resample_params.h"

namespace resize {

// AreaRun is an output's taps along an axis: n source indices from start, the
// first weighted w0, the last wl (0 where n is 1), those between wi.
struct AreaRun {
  int start, n;
  float w0, wi, wl, pad0, pad1, pad2;
};

// exactProduct is fl(w * b) for an integer 0 <= b < 2^23 held in the low bits of
// x = 2^23 + b (its bits 0x4B000000 | b): the fused multiply-add subtracts
// 2^23 * w (exact) from the exact product before its one rounding.
__device__ __forceinline__ float exactProduct(unsigned x, float w) { return __fmaf_rn(__uint_as_float(x), w, -8388608.f * w); }

template <int CN>
__device__ __forceinline__ void areaf(const ResizeParams& p) {
  constexpr int T = GI_RESIZE_RT;
  __shared__ __align__(16) float col[T * 16];
  const AreaRun* const xr = reinterpret_cast<const AreaRun*>(p.xstart);
  const AreaRun* const yr = reinterpret_cast<const AreaRun*>(p.ystart);
  const int px0 = blockIdx.x * p.th, npx = min(p.th, p.dw - px0), ne = npx * CN;
  const int v0 = (__ldg(&xr[px0].start) * CN) & ~15;  // the strip's first vector
  const int t = threadIdx.x;
  const int lastx = px0 + npx - 1;
  const int nv = ((__ldg(&xr[lastx].start) + __ldg(&xr[lastx].n)) * CN - v0 + 15) >> 4;
  const unsigned char* const sb = static_cast<const unsigned char*>(p.src) + v0 + 16 * t;
  const size_t sp = p.sp;
  constexpr unsigned kMagic = 0x4B000000u;  // 2^23
  for (int y = blockIdx.y; y < p.dh; y += gridDim.y) {
    const AreaRun ry = yr[y];
    if (t < nv) {
      const unsigned char* s = sb + (size_t)ry.start * sp;
      const uint4 a = __ldg(reinterpret_cast<const uint4*>(s));
      const uint4 b = __ldg(reinterpret_cast<const uint4*>(s + (size_t)(ry.n - 1) * sp));
      // The inner rows' bytes: bytes 0 and 2 of each word in lo's 16-bit
      // halves, 1 and 3 in hi's (at most 257 rows: the host checks).
      unsigned lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0};
      s += sp;
#pragma unroll 4
      for (int j = 1; j < ry.n - 1; ++j, s += sp) {
        const uint4 v = __ldg(reinterpret_cast<const uint4*>(s));
        const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          lo[k] += __byte_perm(w[k], 0, 0x4240);  // bytes 0, 2 -> halves
          hi[k] += __byte_perm(w[k], 0, 0x4341);                          // bytes 1, 3 -> halves
        }
      }
      const unsigned wa[4] = {a.x, a.y, a.z, a.w}, wb[4] = {b.x, b.y, b.z, b.w};
      float c[16];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const unsigned x0 = __byte_perm(wa[k], kMagic, 0x7440 + q), xl = __byte_perm(wb[k], kMagic, 0x7440 + q);
          const unsigned half = q % 2 == 0 ? lo[k] : hi[k];
          const unsigned xs = __byte_perm(half, kMagic, q < 2 ? 0x7410 : 0x7432);
          c[4 * k + q] = __fadd_rn(__fadd_rn(exactProduct(x0, ry.w0), exactProduct(xs, ry.wi)), exactProduct(xl, ry.wl));
        }
      }
      float4* const d = reinterpret_cast<float4*>(col + 16 * t);
#pragma unroll
      for (int k = 0; k < 4; ++k) d[k] = make_float4(c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]);
    }
    __syncthreads();
    u8* const drow = static_cast<u8*>(p.dst) + (size_t)y * p.dp + (size_t)px0 * CN;
    for (int e = t; e < ne; e += T) {
      const int px = e / CN, ch = e - px * CN;
      const AreaRun rx = xr[px0 + px];
      const float* const cp = col + (rx.start * CN + ch - v0);
      float inner = 0.f;
      for (int j = 1; j < rx.n - 1; ++j) inner = __fadd_rn(inner, cp[j * CN]);
      const float r = __fadd_rn(__fadd_rn(__fmul_rn(cp[0], rx.w0), __fmul_rn(inner, rx.wi)), __fmul_rn(cp[(rx.n - 1) * CN], rx.wl));
      drow[e] = (u8)sat8bits(r);
    }
    __syncthreads();
  }
}

}  // namespace resize

#define GI_RESIZE_AREAF(CN)                                                                                      \
  extern "C" __global__ void __launch_bounds__(GI_RESIZE_RT, 8) gi_resize_areaf_u8c##CN(__grid_constant__ const ResizeParams p) { \
    resize::areaf<CN>(p);                                                                                        \
  }
GI_RESIZE_AREAF(1)
GI_RESIZE_AREAF(3)
GI_RESIZE_AREAF(4)
