// Uniformly partitioned overlap-save convolution for a bank of FIR filters,
// chunk by chunk (Go caller: dsp/cuda_upols.go; the CPU device runs
// dsp.FilterBank's time-domain path, the reference). One step filters the next
// stretch of the current block of b samples:
//   gi_upols_frame   a channel's frame: the previous block, then the current one so
//                    far (zero past it), which cuFFT transforms into the delay
//                    line's newest slot;
//   gi_upols_mac     a filter's spectrum for each channel: the sum over partitions q
//                    of partition q's spectrum times slot head-q's (the block q
//                    blocks back), scaled for the inverse transform;
//   gi_upols_gather  after cuFFT's inverse transforms, the frame's second half is
//                    the block's filtered samples: the new ones go to the outputs.
// Every kernel is one coalesced pass; gi_upols_mac keeps a channel's sums for
// GI_UPOLS_BANDS filters in registers and reads each delay-line value once.
#include "common.cuh"
#include "dsp_params.h"

extern "C" __global__ void __launch_bounds__(GI_UPOLS_THREADS) gi_upols_frame(__grid_constant__ const UpolsParams p) {
  for (int c = blockIdx.y; c < p.ch; c += gridDim.y) {
    const float* x = row<float>(p.src, p.sp, c) + p.seg0 - p.r0;
    const float* prev = p.prev + (size_t)c * p.b;
    float* cur = p.cur + (size_t)c * p.b;
    float* f = p.frame + (size_t)c * 2 * p.b;
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < 2 * p.b; t += gridDim.x * blockDim.x) {
      float v = 0.f;
      const int i = t - p.b;
      if (i < 0) {
        v = prev[t];
      } else if (i < p.r0) {
        v = cur[i];
      } else if (i < p.r0 + p.len) {
        v = __ldg(x + i);
        cur[i] = v;
      }
      f[t] = v;
    }
  }
}

extern "C" __global__ void __launch_bounds__(GI_UPOLS_THREADS) gi_upols_mac(__grid_constant__ const UpolsParams p) {
  const int half = p.b + 1;
  const float2* X = reinterpret_cast<const float2*>(p.fdl);
  const float2* H = reinterpret_cast<const float2*>(p.h);
  float2* Y = reinterpret_cast<float2*>(p.y);
  for (int c = blockIdx.y; c < p.ch; c += gridDim.y) {
    for (int f = blockIdx.x * blockDim.x + threadIdx.x; f < half; f += gridDim.x * blockDim.x) {
      float2 acc[GI_UPOLS_BANDS];
#pragma unroll
      for (int k = 0; k < GI_UPOLS_BANDS; ++k) acc[k] = make_float2(0.f, 0.f);
      for (int q = 0; q < p.parts; ++q) {
        const int slot = p.head - q < 0 ? p.head - q + p.parts : p.head - q;
        const float2 x = X[((size_t)slot * p.ch + c) * half + f];
#pragma unroll
        for (int k = 0; k < GI_UPOLS_BANDS; ++k) {
          if (k < p.bands) {
            const float2 h = __ldg(H + ((size_t)k * p.parts + q) * half + f);
            acc[k].x = fmaf(x.x, h.x, fmaf(-x.y, h.y, acc[k].x));
            acc[k].y = fmaf(x.x, h.y, fmaf(x.y, h.x, acc[k].y));
          }
        }
      }
#pragma unroll
      for (int k = 0; k < GI_UPOLS_BANDS; ++k)
        if (k < p.bands) Y[((size_t)k * p.ch + c) * half + f] = make_float2(acc[k].x * p.scale, acc[k].y * p.scale);
    }
  }
}

extern "C" __global__ void __launch_bounds__(GI_UPOLS_THREADS) gi_upols_gather(__grid_constant__ const UpolsParams p) {
  for (int kc = blockIdx.y; kc < p.bands * p.ch; kc += gridDim.y) {
    const int k = kc / p.ch, c = kc % p.ch;
    float* d = row<float>(p.out[k], p.op[k], c) + p.seg0;
    const float* s = p.oframe + (size_t)kc * 2 * p.b + p.b + p.r0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < p.len; i += gridDim.x * blockDim.x) d[i] = s[i];
  }
}
