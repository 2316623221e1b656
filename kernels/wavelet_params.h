// The parameters of the wavelet kernels (wavelet.cu), declared once: the kernels
// take this struct, wavelet/params.go mirrors it in Go and wavelet's
// TestParamsMatchKernels compares the two through internal/kparams (cgo). Plain C,
// so that cgo reads it too.
#pragma once

// The longest filter (coif5's 30 taps) and the taps array's size.
#define GI_WT_MAXF 30
#define GI_WT_TAPS 32
// The rows kernels: blocks of GI_WT_RT threads, each two outputs of one row.
#define GI_WT_RT 128
// The columns and 2-D kernels: blocks of GI_WT_BX x GI_WT_BY threads. A columns
// block makes GI_WT_BX columns of GI_WT_CT outputs (forward) or of 2*GI_WT_CT
// (inverse); a forward 2-D block a GI_WT_FX x GI_WT_FY tile of each subband, an
// inverse one a 2*GI_WT_FX x 2*GI_WT_FY tile of the image.
#define GI_WT_BX 32
#define GI_WT_BY 8
#define GI_WT_CT 32
#define GI_WT_FX 32
#define GI_WT_FY 16

// WtParams: one level of a transform (gi_wt_*), in[] iw x ih 32FC1 images (pitches
// ip, bytes), out[] ow x oh ones (op). f: the kernel's taps (its FM), lo[] and hi[]
// the filter's, zero past its own length (off is the filter's own alignment).
//   forward (gi_wt_dwt_*): in[0] the signals; out[0] (a) and out[1] (d) along one
//     axis, or out[0..3] cA, cH, cV, cD (2-D). Coefficient o of a line x of n
//     samples: sum_j lo[j] x[2o + off - j], x extended past its ends by mode
//     (wavelet.Mode's values: 0 symmetric, 1 periodization, 2 zero, 3 reflect,
//     4 periodic, 5 constant, 6 smooth, 7 antisymmetric).
//   inverse (gi_wt_idwt_*): in[0], in[1] a and d (one axis), or in[0..3] cA, cH,
//     cV, cD (2-D); out[0]. Sample i of a line from m coefficients of each: the
//     sum over the j of i + off's parity of lo[j] a[k] + hi[j] d[k], k = (i + off
//     - j) / 2, modulo m in periodization mode (mode 1), and in range otherwise.
struct WtParams {
  const float* in[4];
  float* out[4];
  int ip[4], op[4];
  int iw, ih, ow, oh;
  int f, off, mode;
  float lo[GI_WT_TAPS], hi[GI_WT_TAPS];
};

// WtBandParams: gi_wt_sumsq adds the squares of the w x h 32FC1 image p (pitch,
// bytes) to *sum (a double, atomically; blocks of GI_WT_BX x GI_WT_BY threads);
// gi_wt_threshold thresholds it in place by thr: soft (hard == 0) x - thr sign(x)
// where |x| > thr and 0 elsewhere, hard x where |x| >= thr and 0 elsewhere
// (pywt.threshold).
struct WtBandParams {
  float* p;
  int pitch, w, h;
  double* sum;
  float thr;
  int hard;
};
