// The parameters of the polyphase resampling kernels (resample_poly.cu), declared
// once: the kernels take this struct, resample/params.go mirrors it in Go and
// resample's TestParamsMatchKernels compares the two through internal/kparams (cgo).
// Plain C, so that cgo reads it too.
#pragma once

// GI_RESAMPLE_THREADS: the generic kernel's block; the register kernels' blocks are
// a multiple of up (at least GI_RESAMPLE_THREADS threads when up is smaller), so
// that each thread's outputs share one polyphase branch.
#define GI_RESAMPLE_THREADS 128
#define GI_RESAMPLE_MAXK 8    // outputs a thread of the register kernels
#define GI_RESAMPLE_MAXT 512  // their largest block (so up <= 512)

// ResamplePolyParams: gi_resample_r{8,16,24,32,48,64} and gi_resample_any, along each
// of rows rows of src (n samples), SciPy's upfirdn of the taps h0 with up and down,
// from output t0 / down on (so Poly's delay is removed):
//   dst[o] = sum over q < qn of h[ph * qn + q] * src[i0 - q], src zero outside 0..n-1,
//   for o < outn, where t = o * down + t0, ph = t mod up, i0 = t div up, and h is h0
//   in polyphase order, h[ph * qn + q] = h0[ph + q * up] (zero past h0's end).
// The register kernels: blocks of blockDim.x threads (a multiple of up), each thread
// k outputs blockDim.x apart, each block staging w samples of its row in shared
// memory (from its first output's i0 - (QR - 1)).
struct ResamplePolyParams {
  const float* src;
  int sp;
  float* dst;
  int dp;
  int rows, n, outn, up, down, qn, k, w;
  long long t0;
  const float* h;
};
