// The parameters and limits of the filter kernels (filter.cuh, filter_*.cu), declared
// once: the kernels include this header, convolve's launch code mirrors it in Go
// (convolve/cuda.go: geo and the constants), and convolve's TestParamsMatchKernels
// checks the two through internal/kparams, which compiles this header with cgo.
// Plain C, so that cgo reads it too.
#pragma once

// GI_TAPS is the floats in the Taps kernel parameter (the 4 KiB parameter limit);
// separable kernels keep ky from GI_SEP_Y.
#define GI_TAPS 964
#define GI_SEP_Y 64

// Output rows per lane strip of the integer 3x3 kernel (gi_isep3_u8_s16).
#define GI_ISEP_R 8

// Resident blocks per SM that the launch bounds ask for, by which the Go side sizes
// grids that fill the GPU once.
#define GI_ISEP_BLOCKS 5
#define GI_IPACK_BLOCKS(C) ((C) == 1 ? 5 : 4)
#define GI_RSEP_BLOCKS(K, C, E) ((E) == 4 ? 8 : (C) > 1 || (K) > 5 ? 3 : (K) > 3 ? 4 : 5)

// Geo is the geometry of one call, every filter kernel's first parameter.
struct Geo {
  const void* src;
  int sp;
  void* dst;
  int dp;
  int rows, cols;          // size of the view filtered (and of the output)
  int sdepth, ddepth, cn;  // OpenCV depth codes (0 8U, 2 16U, 3 16S, 5 32F), channels
  int wrows, wcols, ox, oy;  // whole image the border applies to, view's offset in it
  int border;
  float bval[4];
  int kw, kh, ax, ay;
  float delta;
  int halfup;  // 8U results rounded half up (OpenCV's fixed-point GaussianBlur)
  int pad_;
};
#ifdef __cplusplus
static_assert(sizeof(Geo) == 112, "Geo is 112 bytes (convolve's TestParamsMatchKernels checks every field)");
#endif
