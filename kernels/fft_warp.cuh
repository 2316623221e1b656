// Complex FFTs of 1024 points by one warp, in registers (dsp_spectral.cu's
// gi_spec_warp_1024): 1024 = 32 x 32, the four-step way, with no block barriers.
// Lane b holds points 32a + b (a = 0..31) in registers a; a 32-point DFT over a
// (radix 2, decimation in frequency, twiddles fixed at compile time) leaves bin k1
// in register brev5(k1); a product by W_1024^(b*k1) from a table the block makes;
// a transpose through a 32 x 33 float array of the warp's (real parts, then
// imaginary: every access conflict-free); a 32-point DFT over b. Lane k1 then
// holds bin k1 + 32*k2 in register brev5(k2). Forward transforms only.
#pragma once

namespace giwarp {

__host__ __device__ constexpr int brev5(int i) {
  return ((i & 1) << 4) | ((i & 2) << 2) | (i & 4) | ((i & 8) >> 2) | ((i & 16) >> 4);
}

// c32(q) = cos(2 pi q/32) for q in 0..16; s32(q) = sin(2 pi q/32).
__host__ __device__ constexpr float c8(int q) {  // cos(2 pi q/32), q in 0..8
  return q == 0 ? 1.f : q == 1 ? 0.980785280f : q == 2 ? 0.923879533f : q == 3 ? 0.831469612f : q == 4 ? 0.707106781f
       : q == 5 ? 0.555570233f : q == 6 ? 0.382683432f : q == 7 ? 0.195090322f : 0.f;
}
__host__ __device__ constexpr float c32(int q) { return q <= 8 ? c8(q) : -c8(16 - q); }
__host__ __device__ constexpr float s32(int q) { return q <= 8 ? c8(8 - q) : c8(q - 8); }

// tw32(d, q) is d * W_32^q = d * exp(-2 pi i q/32), q in 0..15 known at compile time.
__device__ __forceinline__ float2 tw32(float2 d, int q) {
  if (q == 0) return d;
  if (q == 8) return make_float2(d.y, -d.x);
  if (q == 4) return make_float2((d.x + d.y) * 0.707106781f, (d.y - d.x) * 0.707106781f);
  if (q == 12) return make_float2((d.y - d.x) * 0.707106781f, -(d.x + d.y) * 0.707106781f);
  const float c = c32(q), s = s32(q);
  return make_float2(fmaf(d.x, c, d.y * s), fmaf(d.y, c, -d.x * s));
}

// Stage<H>: the radix-2 stages of spans H, H/2, .., 1 of a 32-point DFT.
template <int H>
struct Stage {
  static __device__ __forceinline__ void run(float2 (&a)[32]) {
#pragma unroll
    for (int blk = 0; blk < 32; blk += 2 * H) {
#pragma unroll
      for (int p = 0; p < H; p++) {
        const float2 x = a[blk + p], y = a[blk + p + H];
        a[blk + p] = make_float2(x.x + y.x, x.y + y.y);
        a[blk + p + H] = tw32(make_float2(x.x - y.x, x.y - y.y), p * (16 / H));
      }
    }
    Stage<H / 2>::run(a);
  }
};
template <>
struct Stage<0> {
  static __device__ __forceinline__ void run(float2 (&)[32]) {}
};

// dft32(a): register i becomes bin brev5(i) of a's 32-point DFT.
__device__ __forceinline__ void dft32(float2 (&a)[32]) { Stage<16>::run(a); }

// makeTable writes W_1024^(k1*b) to tw[k1*32 + b] (T threads; the caller
// synchronises after).
template <int T>
__device__ __forceinline__ void makeTable(float2* tw) {
  for (int e = threadIdx.x; e < 1024; e += T) {
    float s, c;
    sincospif(-(float)((e >> 5) * (e & 31)) / 512.f, &s, &c);
    tw[e] = make_float2(c, s);
  }
}

// transpose<C> moves part C (0 real, 1 imaginary) of the warp's 32 x 32 points
// from lane b, register brev5(k1) to lane k1, register b, through sh.
template <int C>
__device__ __forceinline__ void transpose(float2 (&z)[32], float* sh) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int i = 0; i < 32; i++) sh[brev5(i) * 33 + lane] = C ? z[i].y : z[i].x;
  __syncwarp();
#pragma unroll
  for (int b = 0; b < 32; b++) (C ? z[b].y : z[b].x) = sh[lane * 33 + b];
  __syncwarp();
}

// fft1024: the warp's 1024-point transform of z (lane b, register a: point 32a + b)
// into z (lane k1, register brev5(k2): bin k1 + 32*k2). tw: makeTable's; sh: the
// warp's 32*33 floats.
__device__ __forceinline__ void fft1024(float2 (&z)[32], const float2* tw, float* sh) {
  const int lane = threadIdx.x & 31;
  dft32(z);
#pragma unroll
  for (int i = 0; i < 32; i++) {
    const float2 w = tw[brev5(i) * 32 + lane], v = z[i];
    z[i] = make_float2(v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x);
  }
  transpose<0>(z, sh);
  transpose<1>(z, sh);
  dft32(z);
}

}  // namespace giwarp
