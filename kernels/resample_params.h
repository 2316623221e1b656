// The parameters of the polyphase resampling kernels (resample_poly.cu), declared
// once: the kernels take this struct, resample/params.go mirrors it in Go and
// resample's TestParamsMatchKernels compares the two through internal/kparams (cgo).
// Plain C, so that cgo reads it too.
#pragma once

// GI_RESAMPLE_THREADS: the generic kernel's block; the register kernels' blocks are
// a multiple of up (at least GI_RESAMPLE_THREADS threads when up is smaller), so
// that each thread's outputs share one polyphase branch.
#define GI_RESAMPLE_THREADS 128
#define GI_RESAMPLE_MAXK 8    // outputs a thread of the register kernels, an item
#define GI_RESAMPLE_MAXT 512  // their largest block (so up <= 512)
#define GI_RESAMPLE_MAXT2 352 // the largest of the two-outputs kernels of at most 24 taps

// ResamplePolyParams: gi_resample_r{8,16,24,32,48,64}[p2d{1,2}] and gi_resample_any,
// along each of rows rows of src (n samples), SciPy's upfirdn of the taps h0 with up
// and down, from output t0 / down on (so Poly's delay is removed):
//   dst[o] = sum over q < qn of h[ph * qn + q] * src[i0 - q], src zero outside 0..n-1,
//   for o < outn, where t = o * down + t0, ph = t mod up, i0 = t div up, and h is h0
//   in polyphase order, h[ph * qn + q] = h0[ph + q * up] (zero past h0's end).
// The register kernels: blocks of blockDim.x threads (P * blockDim.x a multiple of
// up, P the outputs that share a thread's window: 1, or 2 for p2), each thread k
// groups of P consecutive outputs, P * blockDim.x apart: an item of
// P * blockDim.x * k outputs of a row, segs items a row. Block b takes items
// b * per .. b * per + per - 1 of the rows' items one after another, each staged in
// shared memory (w samples, two buffers: the next item's arrive while one is
// filtered).
struct ResamplePolyParams {
  const float* src;
  int sp;
  float* dst;
  int dp;
  int rows, n, outn, up, down, qn, k, w, segs, per;
  long long t0;
  const float* h;
};

// ---- Image resizing (resample_resize.cu; Go: resample/resize.go builds the tables,
// resample/cuda.go launches, resample/cpu.go is the CPU twin).
// GI_RESIZE_RT: the block of the register kernels and of the two-pass kernels;
// GI_RESIZE_VE8, GI_RESIZE_VEF: the vertical pass's elements a thread, from an
// 8-bit (Pillow's) and a float intermediate.
#define GI_RESIZE_RT 128
#define GI_RESIZE_THMAX 64  // the most output rows a register kernel's tile has
#define GI_RESIZE_SEP8_BLOCKS(K, E) ((K) == 2 ? 10 : (E) == 2 ? 12 : 8)  // gi_resize_sep8_*'s blocks a multiprocessor (launch bounds)
#define GI_RESIZE_TW 32  // gi_resize_tile_*'s output pixels a block
#define GI_RESIZE_FT 64  // the fixed-weight kernels' block (gi_resize_lin2x_*, cub2x_*, cubhalf_*)
#define GI_RESIZE_VE8 8
#define GI_RESIZE_VEF 4

// ResizeParams: one resize of a sw x sh image of cn channels into dw x dh.
//   gi_resize_gather_*: dst(x, y) = src(xs[x], ys[y]), every channel.
//   gi_resize_area_*:   the mean of the ix x iy block at (x*ix, y*iy), rounded as
//                       OpenCV's resizeAreaFast_ ((sum + 2) >> 2 when round2).
//   gi_resize_reg_*, gi_resize_h_* then gi_resize_v_*:
//                       output element x (pixel x / cn) of row y is the vertical
//                       pass over ny rows (ystart[y] + j, clamped) of the horizontal
//                       pass over nx columns (xstart[x / cn] + j, clamped), weights
//                       xw[(x / cn) * nx + j] and yw[y * ny + j]. reg: blocks of
//                       GI_RESIZE_RT threads, each thread a few elements down th
//                       rows. h: the horizontal pass of every source row into an
//                       intermediate image (dst, dp; dh = sh), the block's weights
//                       staged in shared memory ws words a pixel apart (0: not
//                       staged); v: the vertical pass from it (src, sp).
//                       simd, simdkind: OpenCV's 8-bit vector rounding (resizePlan).
//                       tile: blocks of GI_RESIZE_RT threads, each GI_RESIZE_TW
//                       output pixels of th rows, staging at most fr source rows
//                       rs bytes apart and each pixel's horizontal weights ws
//                       apart in shared memory (resample/cuda.go's resizeTile).
//                       gi_resize_cubhalf_*: gin, the first group of 4 output
//                       pixels past those (from 1) whose source words lie in
//                       the row.
//   gi_resize_mma_p_*:  one of Scale's 8-bit passes as a banded matrix product
//                       (resample_pmma.cu says which fields it reads).
struct ResizeParams {
  const void* src;
  int sp;
  void* dst;
  int dp;
  int sw, sh, dw, dh, cn;
  const int* xs;
  const int* ys;
  int ix, iy, round2;
  const int* xstart;
  const float* xw;
  const int* ystart;
  const float* yw;
  int nx, ny, th, ws, simd, simdkind, fr, rs;
  int gin;
};

// PyrParams: gi_pyrdown_* and gi_pyrup_* (resample_pyr.cu), OpenCV's pyrDown and
// pyrUp of a sw x sh image of cn channels into dw x dh; border is pyrDown's rule
// (an OpenCV BorderTypes value), width0 the first output column past which
// pyrDown's right-border taps step by one column (resample/cpu.go's pyrT).
struct PyrParams {
  const void* src;
  int sp;
  void* dst;
  int dp;
  int sw, sh, dw, dh, cn, border, width0;
};
