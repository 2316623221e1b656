// Shared device helpers for gpuimg kernels: saturation as OpenCV's saturate_cast,
// pitched row addressing and aligned vectors.
#pragma once
#include <stdint.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef short s16;
typedef float f32;

// sat8bits is sat<u8>(f) in the low byte of a word (its other bytes not zero),
// for packing (packLow) without masking: without a conversion instruction (those
// share the slow special-function pipe), clamped to 0..255, f + 2^23 holds
// round-half-even(f) in its low byte.
__device__ __forceinline__ unsigned sat8bits(float f) { return __float_as_uint(fminf(fmaxf(f, 0.f), 255.f) + 8388608.f); }

// sat<T>(f) rounds half to even (cvRound) and clamps to T's range; NaN gives 0.
template <typename T> __device__ __forceinline__ T sat(float f);
template <> __device__ __forceinline__ u8 sat<u8>(float f) { return (u8)sat8bits(f); }
template <> __device__ __forceinline__ u16 sat<u16>(float f) {
  int i = __float2int_rn(f);
  return (u16)min(max(i, 0), 65535);
}
template <> __device__ __forceinline__ s16 sat<s16>(float f) {
  int i = __float2int_rn(f);
  return (s16)min(max(i, -32768), 32767);
}
template <> __device__ __forceinline__ f32 sat<f32>(float f) { return f; }
// sati<T>(i) is saturate_cast<T> of an int.
template <typename T> __device__ __forceinline__ T sati(int i);
template <> __device__ __forceinline__ u8 sati<u8>(int i) { return (u8)min(max(i, 0), 255); }
template <> __device__ __forceinline__ u16 sati<u16>(int i) { return (u16)min(max(i, 0), 65535); }
template <> __device__ __forceinline__ s16 sati<s16>(int i) { return (s16)min(max(i, -32768), 32767); }
template <> __device__ __forceinline__ f32 sati<f32>(int i) { return (f32)i; }

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

// Special-function-unit 2^x, log2(x) and 1/x, with no range fix-ups (denormals
// flushed): relative error ~1e-6 (2^x, log2) and 1 ulp (1/x).
__device__ __forceinline__ float ex2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float lg2_approx(float x) {
  float y;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float rcp_approx(float x) {
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// copyAsync16 starts a 16-byte copy from global to shared memory (cp.async on
// sm_80 and later, where copies issued together are in flight together; a load
// and a store before); copyWait waits for all of this thread's copies. The
// caller then synchronizes the block before reading them. Ahead has L2 fetch the
// whole 256-byte span around src from memory (.L2::256B): for a warp whose lanes
// each stream their own run, 128 bytes a copy, the next copy's bytes are then in
// L2, and memory serves 256-byte requests instead of 128-byte ones.
template <bool Ahead = false>
__device__ __forceinline__ void copyAsync16(void* dst, const void* src) {
#if __CUDA_ARCH__ >= 800
  if (Ahead)
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src));
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src));
#else
  *reinterpret_cast<uint4*>(dst) = __ldg(reinterpret_cast<const uint4*>(src));
#endif
}
__device__ __forceinline__ void copyWait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

// copyAsync4 starts a 4-byte copy from global to shared memory, or zero-fills dst
// where in is false (src is then not read, but must be a valid address);
// copyCommit closes this thread's copies started since the last commit into a
// group, copyWaitPrior waits for all groups but the last one committed. Before
// sm_80 the copy is a load and a store, and the others do nothing.
__device__ __forceinline__ void copyAsync4(float* dst, const float* src, bool in) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
               "r"(in ? 4 : 0));
#else
  *dst = in ? __ldg(src) : 0.f;
#endif
}
__device__ __forceinline__ void copyCommit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
__device__ __forceinline__ void copyWaitPrior() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 1;" ::: "memory");
#endif
}

// mma16832<SignedA, SignedB> adds the product of A (16 x 32 bytes) and B (32 x 8
// bytes) to c (16 x 8 int32 sums, exact), the fragments as the PTX ISA lays them
// out for mma.m16n8k32; each operand's bytes are signed (s8) or not (u8). sm_80
// and newer; nothing before, where the callers do not launch it.
template <bool SignedA, bool SignedB>
__device__ __forceinline__ void mma16832(int (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define GI_MMA16832(TA, TB)                                                                                \
  asm("mma.sync.aligned.m16n8k32.row.col.s32." TA "." TB ".s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])                                                    \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1))
  if (SignedA && SignedB)
    GI_MMA16832("s8", "s8");
  else if (SignedA)
    GI_MMA16832("s8", "u8");
  else if (SignedB)
    GI_MMA16832("u8", "s8");
  else
    GI_MMA16832("u8", "u8");
#undef GI_MMA16832
#endif
}

// packLow packs the low bytes of a, b, c and d into one word, a lowest.
__device__ __forceinline__ unsigned packLow(unsigned a, unsigned b, unsigned c, unsigned d) {
  return __byte_perm(__byte_perm(a, b, 0x0040), __byte_perm(c, d, 0x0040), 0x5410);
}
