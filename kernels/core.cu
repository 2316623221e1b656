// Element-wise kernels behind gpuimage's own operations: ConvertTo, SetTo, channel
// shuffles (add/remove alpha, extract a channel) and Merge.
//
// Every kernel walks rows with a grid-stride loop in y (grids are at most 65535
// rows high) and takes pitches in bytes.
#include "common.cuh"
#include "core_params.h"

// ---- ConvertTo: dst = saturate(src * a + b), computed in float as OpenCV does.
// Each thread handles 8 consecutive elements of a row; with VEC the row starts are
// aligned to 8 elements of both types and one vector access moves them.
template <typename S, typename D, bool VEC>
__device__ __forceinline__ void convert_body(const void* src, int sp, void* dst, int dp,
                                             int rows, int n, float a, float b) {
  const int i = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const S* s = row<S>(src, sp, y) + i;
    D* d = row<D>(dst, dp, y) + i;
    if (VEC && i + 8 <= n) {
      Vec<S, 8> in = *reinterpret_cast<const Vec<S, 8>*>(s);
      Vec<D, 8> out;
#pragma unroll
      for (int k = 0; k < 8; k++) out.v[k] = sat<D>(fmaf((float)in.v[k], a, b));
      *reinterpret_cast<Vec<D, 8>*>(d) = out;
    } else {
      for (int k = 0; k < 8 && i + k < n; k++) d[k] = sat<D>(fmaf((float)s[k], a, b));
    }
  }
}

#define CONVERT(SN, S, DN, D)                                                                    \
  extern "C" __global__ void gi_convert_##SN##_##DN##_v(ConvertParams p) {                        \
    convert_body<S, D, true>(p.src, p.sp, p.dst, p.dp, p.rows, p.n, p.a, p.b);                     \
  }                                                                                               \
  extern "C" __global__ void gi_convert_##SN##_##DN##_s(ConvertParams p) {                        \
    convert_body<S, D, false>(p.src, p.sp, p.dst, p.dp, p.rows, p.n, p.a, p.b);                    \
  }
#define CONVERT_FROM(SN, S) \
  CONVERT(SN, S, 8u, u8)    \
  CONVERT(SN, S, 16u, u16)  \
  CONVERT(SN, S, 16s, s16)  \
  CONVERT(SN, S, 32f, f32)
CONVERT_FROM(8u, u8)
CONVERT_FROM(16u, u16)
CONVERT_FROM(16s, s16)
CONVERT_FROM(32f, f32)

// ---- SetTo: element i of a row gets v[i % cn]; values arrive already saturated.
template <typename T>
__device__ __forceinline__ void setto_body(void* dst, int dp, int rows, int n, int cn,
                                           float v0, float v1, float v2, float v3) {
  const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  // Channel of element i+j, picked without a run-time-indexed array (local memory).
  T v[4];
#pragma unroll
  for (int j = 0; j < 4; j++) {
    const int c = (i + j) % cn;
    v[j] = (T)(c == 0 ? v0 : c == 1 ? v1 : c == 2 ? v2 : v3);
  }
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    T* d = row<T>(dst, dp, y) + i;
#pragma unroll
    for (int j = 0; j < 4; j++)
      if (i + j < n) d[j] = v[j];
  }
}
#define SETTO(N, T)                                                                       \
  extern "C" __global__ void gi_setto_##N(SetToParams p) {                                \
    setto_body<T>(p.dst, p.dp, p.rows, p.n, p.cn, p.v[0], p.v[1], p.v[2], p.v[3]);         \
  }
SETTO(8u, u8)
SETTO(16u, u16)
SETTO(16s, s16)
SETTO(32f, f32)

// ---- Shuffle: dst channel c = src channel ((map >> 8c) & 0xff), or fill where that
// byte is 0xff. One thread per pixel.
template <typename T>
__device__ __forceinline__ void shuffle_body(const void* src, int sp, int scn, void* dst,
                                             int dp, int dcn, int rows, int cols,
                                             unsigned map, float fill) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= cols) return;
  const T f = sat<T>(fill);
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const T* s = row<T>(src, sp, y) + x * scn;
    T* d = row<T>(dst, dp, y) + x * dcn;
    for (int c = 0; c < dcn; c++) {
      unsigned m = (map >> (8 * c)) & 0xffu;
      d[c] = m == 0xffu ? f : s[m];
    }
  }
}
#define SHUFFLE(N, T)                                                                     \
  extern "C" __global__ void gi_shuffle_##N(ShuffleParams p) {                            \
    shuffle_body<T>(p.src, p.sp, p.scn, p.dst, p.dp, p.dcn, p.rows, p.cols, p.map, p.fill); \
  }
SHUFFLE(8u, u8)
SHUFFLE(16u, u16)
SHUFFLE(16s, s16)
SHUFFLE(32f, f32)

// ---- Merge: interleave cn single-channel planes into dst. One thread per pixel.
template <typename T>
__device__ __forceinline__ void merge_body(void* dst, int dp, int cn, int rows, int cols,
                                           const void* s0, int p0, const void* s1, int p1,
                                           const void* s2, int p2, const void* s3, int p3) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= cols) return;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    T* d = row<T>(dst, dp, y) + x * cn;
    d[0] = row<T>(s0, p0, y)[x];
    if (cn > 1) d[1] = row<T>(s1, p1, y)[x];
    if (cn > 2) d[2] = row<T>(s2, p2, y)[x];
    if (cn > 3) d[3] = row<T>(s3, p3, y)[x];
  }
}
#define MERGE(N, T)                                                                          \
  extern "C" __global__ void gi_merge_##N(MergeParams p) {                                   \
    merge_body<T>(p.dst, p.dp, p.cn, p.rows, p.cols, p.s0, p.p0, p.s1, p.p1, p.s2, p.p2, p.s3, \
                  p.p3);                                                                     \
  }
MERGE(8u, u8)
MERGE(16u, u16)
MERGE(16s, s16)
MERGE(32f, f32)
