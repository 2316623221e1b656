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

// Output rows per lane strip of the integer 3x3 kernels (gi_isep3_u8_*).
#define GI_ISEP_R 8

// Resident blocks per SM that the launch bounds ask for, by which the Go side sizes
// grids that fill the GPU once.
#define GI_ISEP_BLOCKS 5
#define GI_IPACK_BLOCKS(C) ((C) == 1 ? 5 : 4)
#define GI_RSEP_BLOCKS(K, C, E) ((E) == 4 ? 8 : (C) > 1 || (K) > 5 ? 3 : (K) > 3 ? 4 : 5)

// gi_p2d_*: elements per lane and output rows per lane strip, by the kernel's size,
// the source element's size in bytes and the channels (16-bit sources: 4 elements,
// and 8 where 5x5's neighbours on 3 or 4 channels need them; 5x5 on 8-bit sources:
// strips of 4 rows, which measured faster than 8 there and slower elsewhere);
// resident blocks per SM.
#define GI_P2D_E(K, S, C) ((S) == 1 || ((K) == 5 && (C) > 1) ? 8 : 4)
#define GI_P2D_R(K, S) ((K) == 5 && (S) == 1 ? 4 : 8)
#define GI_P2D_BLOCKS(K, C) ((K) == 3 && (C) == 1 ? 6 : 4)
// The 3x3 tap patterns with zeros that one-channel 8U gi_p2d_* kernels skip (bit
// k*3 + j: tap j of row k is not zero): Laplacian ksize 1 and 3, Sobel and Scharr
// along x and along y.
#define GI_P2D_PLUS 0x0BA
#define GI_P2D_CROSS 0x155
#define GI_P2D_DX 0x16D
#define GI_P2D_DY 0x1C7

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

// The taps, every filter kernel's second parameter (by kernel family).

// Taps: gi_conv2d_*, gi_sep_*, gi_reg_*: the kernel's taps row by row (separable
// ones: kx from 0, ky from GI_SEP_Y).
struct Taps {
  float v[GI_TAPS];
};

// SepTaps: gi_rsep_*: kernelX and kernelY, centred in K taps (zero padded).
struct SepTaps {
  float x[8], y[8];
};

// ISepTaps: gi_isep3_u8_*, a 3x3 separable kernel of small integers.
struct ISepTaps {
  int kx[3], ky[3];
  int delta;  // added to each sum (an integer)
  int cval;   // BORDER_CONSTANT's value (0..255)
  int dvec;   // 1: every output row's start is 16-byte aligned
};

// IPackTaps: gi_ipack_*, the packed-integer box and Gaussian filters.
struct IPackTaps {
  unsigned magic;  // box: floor(2^32/D) + 1, so that umulhi(s, magic) = s/D for s < 2^16
  unsigned k16;    // 65536
  int cval[4];     // BORDER_CONSTANT's value per channel (0..255)
};

// P2DTaps: gi_p2d_*, a centred 2-D kernel of up to 5x5 (row by row, K taps a row).
struct P2DTaps {
  float w[25];
  int cval[4];  // BORDER_CONSTANT's value per channel, in the source's depth
};

// ImmaTaps: gi_imma_k7_*, the tensor-core 7x7 filter: the taps as GI_IMMA_KR rows of
// 3 base-256 digit rows of GI_IMMA_PW words each.
#define GI_IMMA_KR 7
#define GI_IMMA_PW 10  // words of one digit row of the tap pattern (40 bytes, t = -7..32)
struct ImmaTaps {
  // p[(i*3 + d)*GI_IMMA_PW]: byte t+7 is digit d of W[i][j] where t = e + j*C, else 0.
  unsigned p[GI_IMMA_KR * 3 * GI_IMMA_PW];
  float scale;      // 1/S
  int lead;         // 4 * ceil(ax*C / 4): the warp's first tap byte is lead bytes left of its outputs
  int cval[4];      // BORDER_CONSTANT's value per channel (0..255)
  int ntx, ntiles;  // tiles across, in all
};

#ifdef __cplusplus
static_assert(sizeof(Geo) == 112, "Geo is 112 bytes (convolve's TestParamsMatchKernels checks every field)");
#endif
