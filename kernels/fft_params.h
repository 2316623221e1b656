// The parameters of the frequency-domain kernels (fft.cu), declared once: each
// gi_fft_* kernel takes one of these structs, fftfilter/params.go mirrors them in
// Go, and fftfilter's TestParamsMatchKernels compares the two through
// internal/kparams (cgo). Plain C, so that cgo reads it.
//
// A transform is `lines` lines of `n` elements (2-D when twoD is 1: lines = rows);
// FftSide addresses an image or spectrum by lines and elements, so a column vector
// needs no copy.
#pragma once

// Every kernel runs GI_FFT_THREADS threads a block, one thread per element.
#define GI_FFT_THREADS 256
// gi_fft_taps takes this many taps by value (a launch's parameters hold 4 KB).
#define GI_FFT_TAPS_CHUNK 960
// gi_fft_mask takes this many notches (fftfilter.MaxNotches).
#define GI_FFT_MAX_NOTCHES 16

// FftSide: element (l, k) is the float (or the complex pair) at p + l*line + k*step
// bytes.
struct FftSide {
  char* p;
  int line, step;
};

// FftPackParams: gi_fft_pack_full and gi_fft_pack_ccs, a packed half spectrum h
// (lines x n/2+1 complex) to dst, times scale.
struct FftPackParams {
  const void* h;
  int lines, n, twoD;
  struct FftSide dst;
  float scale;
};

// FftMirrorParams: gi_fft_mirror completes a whole spectrum in d.
struct FftMirrorParams {
  struct FftSide d;
  int lines, n, twoD;
};

// FftCcsParams: gi_fft_ccs_fix1d, gi_fft_ccs_save and gi_fft_ccs_fill, the rows of
// a CCS spectrum cuFFT wrote in place (pitch bytes apart) and their scratch tmp.
struct FftCcsParams {
  char* dst;
  int pitch, lines, n;
  void* tmp;
};

// FftScaleParams: gi_fft_scale (complex elements) and gi_fft_scale_real (floats,
// step unused) times scale, in place.
struct FftScaleParams {
  struct FftSide p;
  int lines, n;
  float scale;
};

// FftUnpackParams: gi_fft_unpack, a CCS (ccs = 1) or whole spectrum src to the
// packed half spectrum h, times scale.
struct FftUnpackParams {
  struct FftSide src;
  int lines, n, twoD, ccs;
  void* h;
  float scale;
};

// FftCopyParams: gi_fft_copy, float elements from s to d.
struct FftCopyParams {
  struct FftSide s, d;
  int lines, n;
};

// FftMulParams: gi_fft_mul, d = a * b (or a * conj(b)) times scale, complex
// elements (cplx = 1) or CCS-packed ones.
struct FftMulParams {
  struct FftSide a, b, d;
  int lines, n, twoD, cplx, conj;
  float scale;
};

// FftPolarParams: gi_fft_polar, magnitude (mode 0) or angle (1: radians, 2:
// degrees) of x and y (pitches xp, yp) into d.
struct FftPolarParams {
  const char* x;
  int xp;
  const char* y;
  int yp;
  char* d;
  int dp, lines, n, mode;
};

// FftLoadParams: gi_fft_load, channel c of an image (depth, cn channels, pitch sp;
// its whole view wrows x wcols from offset ox, oy) shifted by (ax, ay) through the
// border rule (bval for a constant one) into a P x Q plane, up to fillRows x
// fillCols, zeros beyond.
struct FftLoadParams {
  const char* src;
  int sp, depth, cn, c, wrows, wcols, ox, oy, border;
  float bval;
  int ax, ay, fillRows, fillCols;
  float* plane;
  int P, Q;
};

// FftStoreParams: gi_fft_store, the top-left rows x cols of a plane Q floats wide
// plus delta into channel c of an image.
struct FftStoreParams {
  const float* plane;
  int Q;
  char* dst;
  int dp, depth, cn, c, rows, cols;
  float delta;
};

// FftMulMaskParams: gi_fft_mulmask, the half spectrum h times a centred mask m,
// times scale.
struct FftMulMaskParams {
  void* h;
  int lines, n;
  struct FftSide m;
  float scale;
};

// FftTapsParams: gi_fft_taps, taps first..first+count-1 of a kernel kw wide into a
// plane Q floats wide.
struct FftTapsParams {
  float* plane;
  int Q, kw, first, count;
  float v[GI_FFT_TAPS_CHUNK];
};

// FftMaskParams: gi_fft_mask, the half spectrum h of a plane with P lines times a
// filter's response (kind, shape, order, nnotch as fftfilter.Filter) times scale;
// sx and sy are one frequency step across and down; v holds the cutoff, width,
// 1/cutoff^2, unused, then (u, v, radius, 1/radius^2) per notch.
struct FftMaskParams {
  void* h;
  int lines, n, trans, P, kind, shape, order, nnotch;
  double sx, sy, scale;
  double v[4 + 4 * GI_FFT_MAX_NOTCHES];
};

// FftLogMagParams: gi_fft_logmag, log(1 + |F|) of the half spectrum h, centred,
// into out, with the minimum and maximum folded into mm[0], mm[1].
struct FftLogMagParams {
  const void* h;
  int lines, n, twoD;
  float* out;
  unsigned* mm;
};

// FftNormParams: gi_fft_norm8u, in stretched from mm's range to 0..255 into dst.
struct FftNormParams {
  const float* in;
  int lines, n;
  const unsigned* mm;
  struct FftSide dst;
};
