// The parameters of the element-wise kernels (core.cu) and of the JPEG colour kernel
// (jpeg.cu), declared once: the kernels take these structs, gpuimage/params.go and
// codec/params.go mirror them in Go, and their TestParamsMatchKernels compare the two
// through internal/kparams (cgo). Plain C, so that cgo reads it too.
#pragma once

// ConvertParams: gi_convert_<s>_<d>_{v,s}, dst = saturate(src * a + b) over n
// elements of each of rows rows.
struct ConvertParams {
  const void* src;
  int sp;
  void* dst;
  int dp;
  int rows, n;
  float a, b;
};

// SetToParams: gi_setto_<t>, element i of a row gets v[i % cn] (already saturated).
struct SetToParams {
  void* dst;
  int dp;
  int rows, n, cn;
  float v[4];
};

// ShuffleParams: gi_shuffle_<t>, dst channel c = src channel (map >> 8c) & 0xff, or
// fill where that byte is 0xff.
struct ShuffleParams {
  const void* src;
  int sp, scn;
  void* dst;
  int dp, dcn, rows, cols;
  unsigned map;
  float fill;
};

// MergeParams: gi_merge_<t>, cn planes (s0..s3, pitches p0..p3) interleaved into dst.
struct MergeParams {
  void* dst;
  int dp, cn, rows, cols;
  const void* s0;
  int p0;
  const void* s1;
  int p1;
  const void* s2;
  int p2;
  const void* s3;
  int p3;
};

// JpegYccParams: gi_jpeg_ycc_bgr, interleaved BGR from nvJPEG's Y, Cb and Cr planes
// (chroma cw x ch samples, subsampled hs x vs).
struct JpegYccParams {
  const unsigned char* yp;
  int ypitch;
  const unsigned char* cb;
  const unsigned char* cr;
  int cpitch;
  unsigned char* dst;
  int dpitch, rows, cols, cw, ch, hs, vs;
};
