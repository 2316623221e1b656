// Shared device helpers for gpuimg kernels: saturation as OpenCV's saturate_cast,
// pitched row addressing and aligned vectors.
#pragma once
#include <stdint.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef short s16;
typedef float f32;

// sat<T>(f) rounds half to even (cvRound) and clamps to T's range; NaN gives 0.
template <typename T> __device__ __forceinline__ T sat(float f);
template <> __device__ __forceinline__ u8 sat<u8>(float f) {
  int i = __float2int_rn(f);
  return (u8)min(max(i, 0), 255);
}
template <> __device__ __forceinline__ u16 sat<u16>(float f) {
  int i = __float2int_rn(f);
  return (u16)min(max(i, 0), 65535);
}
template <> __device__ __forceinline__ s16 sat<s16>(float f) {
  int i = __float2int_rn(f);
  return (s16)min(max(i, -32768), 32767);
}
template <> __device__ __forceinline__ f32 sat<f32>(float f) { return f; }

// row<T>(base, pitch, y) is the first element of row y of a pitched image.
template <typename T>
__device__ __forceinline__ T* row(void* base, int pitch, int y) {
  return reinterpret_cast<T*>(static_cast<char*>(base) + (size_t)y * (size_t)pitch);
}
template <typename T>
__device__ __forceinline__ const T* row(const void* base, int pitch, int y) {
  return reinterpret_cast<const T*>(static_cast<const char*>(base) + (size_t)y * (size_t)pitch);
}

// Vec is N elements loaded or stored as one aligned access (split into 16-byte
// accesses by the compiler when larger).
template <typename T, int N>
struct __align__(sizeof(T) * N) Vec {
  T v[N];
};
