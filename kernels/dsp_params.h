// The parameters of the 1-D signal kernels (dsp_conv.cu), declared once: the kernels
// take these structs, dsp/params.go mirrors them in Go and dsp's
// TestParamsMatchKernels compares the two through internal/kparams (cgo). Plain C,
// so that cgo reads it too.
#pragma once

// GI_CONV1D_TAPS taps ride in one launch's parameters, which the GPU keeps in
// constant memory: every thread reads the same tap at once (a broadcast), and each
// launch carries its own, so concurrent streams never race on a shared symbol.
// Longer filters are split over launches that add into the output.
#define GI_CONV1D_TAPS 960
#define GI_CONV1D_THREADS 256
#define GI_CONV1D_R 8  // consecutive outputs a thread (a register window slides over them)

// Conv1DParams: gi_conv1d_{set,add}, along each of rows rows of src (n samples),
// dst[o] (=|+=) sum over q < m8 of g[q] * src[o + off + q], src zero outside
// 0..n-1, for o < outn; m8 is the taps used (a multiple of GI_CONV1D_R, zero
// padded).
struct Conv1DParams {
  const float* src;
  int sp;
  float* dst;
  int dp;
  int rows, n, outn, off, m8;
  float g[GI_CONV1D_TAPS];
};
