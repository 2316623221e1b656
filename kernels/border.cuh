// Border rules and depth-generic element access shared by the filter kernels
// (filter.cuh and filter_*.cu) and the FFT kernels (fft.cu).
#pragma once
#include "common.cuh"

enum { B_CONSTANT = 0, B_REPLICATE = 1, B_REFLECT = 2, B_WRAP = 3, B_REFLECT101 = 4 };

// bmap is OpenCV's borderInterpolate (cpu.BorderMap): -1 means the constant.
__device__ __forceinline__ int bmap(int p, int n, int b) {
  if ((unsigned)p < (unsigned)n) return p;
  if (b == B_REPLICATE) return p < 0 ? 0 : n - 1;
  if (b == B_REFLECT || b == B_REFLECT101) {
    if (n == 1) return 0;
    const int delta = b == B_REFLECT101;
    do {
      p = p < 0 ? -p - 1 + delta : n - 1 - (p - n) - delta;
    } while ((unsigned)p >= (unsigned)n);
    return p;
  }
  if (b == B_WRAP) {
    if (p < 0) p -= ((p - n + 1) / n) * n;
    if (p >= n) p %= n;
    return p;
  }
  return -1;
}

// ldelem reads element i of a row of the given OpenCV depth as a float.
__device__ __forceinline__ float ldelem(const char* r, int i, int depth) {
  switch (depth) {
    case 0: return reinterpret_cast<const u8*>(r)[i];
    case 2: return reinterpret_cast<const u16*>(r)[i];
    case 3: return reinterpret_cast<const s16*>(r)[i];
    default: return reinterpret_cast<const f32*>(r)[i];
  }
}

// stelem stores v as element i of a row of the given depth, saturated (rounded
// half up instead when halfup is set, for 8U).
__device__ __forceinline__ void stelem(char* r, int i, int depth, float v, int halfup) {
  if (halfup) {
    reinterpret_cast<u8*>(r)[i] = (u8)min(max(__float2int_rd(v + 0.5f), 0), 255);
    return;
  }
  switch (depth) {
    case 0: reinterpret_cast<u8*>(r)[i] = sat<u8>(v); break;
    case 2: reinterpret_cast<u16*>(r)[i] = sat<u16>(v); break;
    case 3: reinterpret_cast<s16*>(r)[i] = sat<s16>(v); break;
    default: reinterpret_cast<f32*>(r)[i] = v;
  }
}

