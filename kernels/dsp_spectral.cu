// Spectra of batches of signals (Go caller: dsp/cuda_spectral.go; the CPU twin is
// dsp/cpu.go's spectralCPU): the kernels around cuFFT's batched transforms.
//   gi_spec_frames  a block a segment: its samples summed (block reduction, in
//                   double) for the detrend, then detrended, windowed and zero-padded into its frame.
//   gi_spec_post    the spectra scaled by the mode and transposed into frequency
//                   rows and segment columns, through shared-memory tiles (both
//                   sides coalesced).
//   gi_spec_welch   a thread a frequency: the segments' periodograms averaged (in
//                   double).
//   gi_spec_max, gi_spec_db  SpectrogramImage's levels: the peak (an atomic max
//                   of the values' bits), then each value in dB below it, flipped
//                   so that low frequencies are at the bottom.
#include "common.cuh"
#include "dsp_params.h"

namespace spec {

// blockSum2 sums a and b over the block (GI_SPEC_THREADS threads), for every thread.
__device__ __forceinline__ double2 blockSum2(double a, double b) {
  __shared__ double2 part[GI_SPEC_THREADS / 32];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) a += __shfl_xor_sync(0xffffffffu, a, o), b += __shfl_xor_sync(0xffffffffu, b, o);
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = make_double2(a, b);
  __syncthreads();
  double2 s = make_double2(0., 0.);
#pragma unroll
  for (int w = 0; w < GI_SPEC_THREADS / 32; ++w) s.x += part[w].x, s.y += part[w].y;
  return s;
}

// value is bin k's result from X by the mode (psd, magnitude, complex).
__device__ __forceinline__ float2 value(const SpecParams& p, float2 x, int k) {
  if (p.mode == 2) return make_float2(x.x * p.scale, x.y * p.scale);
  if (p.mode == 1) return make_float2(sqrtf(x.x * x.x + x.y * x.y) * p.scale, 0.f);
  float v = (x.x * x.x + x.y * x.y) * p.scale;
  if (!p.twoSided && k > 0 && !(p.evenNyq && k == p.nfreq - 1)) v *= 2.f;
  return make_float2(v, 0.f);
}

}  // namespace spec

extern "C" __global__ void __launch_bounds__(GI_SPEC_THREADS) gi_spec_frames(__grid_constant__ const SpecParams p) {
  const int j = blockIdx.x, r = blockIdx.y;
  const float* x = row<float>(p.src, p.sp, r);
  const int base = j * p.step - p.pad;
  // The trend in double (the CPU twin's float64: a signal far from zero loses
  // its digits in float sums of a segment).
  const double c = 0.5 * (double)(p.nperseg - 1);  // the mean index
  double trendA = 0., trendB = 0.;
  if (p.detrend > 1) {
    double sy = 0., sky = 0.;
    for (int k = threadIdx.x; k < p.nperseg; k += GI_SPEC_THREADS) {
      const int i = base + k;
      const double v = i >= 0 && i < p.n ? __ldg(x + i) : 0.f;
      sy += v;
      sky += ((double)k - c) * v;
    }
    const double2 s = spec::blockSum2(sy, sky);
    trendA = s.x / (double)p.nperseg;
    if (p.detrend == 3 && p.nperseg > 1) {
      const double m = (double)p.nperseg;
      trendB = s.y / (m * (m * m - 1.) / 12.);  // sum of (k - c)^2
    }
  }
  const size_t f = (size_t)r * p.nseg + j;
  for (int k = threadIdx.x; k < p.nfft; k += GI_SPEC_THREADS) {
    float v = 0.f;
    if (k < p.nperseg) {
      const int i = base + k;
      v = (float)((i >= 0 && i < p.n ? __ldg(x + i) : 0.f) - trendA - trendB * ((double)k - c)) * __ldg(p.win + k);
    }
    if (p.cplx)
      reinterpret_cast<float2*>(p.frames)[f * p.nfft + k] = make_float2(v, 0.f);
    else
      p.frames[f * p.nfft + k] = v;
  }
}

extern "C" __global__ void __launch_bounds__(GI_SPEC_TILE* GI_SPEC_ROWS) gi_spec_post(__grid_constant__ const SpecParams p) {
  __shared__ float2 t[GI_SPEC_TILE][GI_SPEC_TILE + 1];
  const int k0 = blockIdx.x * GI_SPEC_TILE, j0 = blockIdx.y * GI_SPEC_TILE, r = blockIdx.z;
  const float2* s = reinterpret_cast<const float2*>(p.spec) + (size_t)r * p.nseg * p.nfreq;
  // Read along the frequencies of GI_SPEC_TILE segments.
  for (int dj = threadIdx.y; dj < GI_SPEC_TILE; dj += GI_SPEC_ROWS) {
    const int j = j0 + dj, k = k0 + threadIdx.x;
    if (j < p.nseg && k < p.nfreq) t[dj][threadIdx.x] = spec::value(p, s[(size_t)j * p.nfreq + k], k);
  }
  __syncthreads();
  // Write along the segments of GI_SPEC_TILE frequency rows.
  for (int dk = threadIdx.y; dk < GI_SPEC_TILE; dk += GI_SPEC_ROWS) {
    const int k = k0 + dk, j = j0 + threadIdx.x;
    if (k >= p.nfreq || j >= p.nseg) continue;
    const float2 v = t[threadIdx.x][dk];
    if (p.mode == 2)
      row<float2>(p.dst, p.dp, r * p.nfreq + k)[j] = v;
    else
      row<float>(p.dst, p.dp, r * p.nfreq + k)[j] = v.x;
  }
}

extern "C" __global__ void __launch_bounds__(GI_SPEC_THREADS) gi_spec_welch(__grid_constant__ const SpecParams p) {
  const int k = blockIdx.x * GI_SPEC_THREADS + threadIdx.x, r = blockIdx.y;
  if (k >= p.nfreq) return;
  const float2* s = reinterpret_cast<const float2*>(p.spec) + (size_t)r * p.nseg * p.nfreq + k;
  double acc = 0.0;
  for (int j = 0; j < p.nseg; ++j) acc += spec::value(p, s[(size_t)j * p.nfreq], k).x;
  row<float>(p.dst, p.dp, r)[k] = (float)(acc / p.nseg);
}

extern "C" __global__ void __launch_bounds__(GI_SPEC_THREADS) gi_spec_max(__grid_constant__ const SpecImageParams p) {
  unsigned m = 0;
  const int y = blockIdx.y;
  const float* s = row<float>(p.src, p.sp, y);
  for (int x = blockIdx.x * GI_SPEC_THREADS + threadIdx.x; x < p.w; x += gridDim.x * GI_SPEC_THREADS)
    m = max(m, __float_as_uint(fmaxf(__ldg(s + x), 0.f)));
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x % 32 == 0 && m) atomicMax(p.peak, m);
}

extern "C" __global__ void __launch_bounds__(GI_SPEC_THREADS) gi_spec_db(__grid_constant__ const SpecImageParams p) {
  const int x = blockIdx.x * GI_SPEC_THREADS + threadIdx.x, k = blockIdx.y;
  if (x >= p.w) return;
  const float peak = __uint_as_float(*p.peak);
  unsigned char v = 0;
  if (peak > 0.f) {
    const float lo = 10.f * log10f(fmaxf(peak, 1e-30f)) - p.range;
    const float db = 10.f * log10f(fmaxf(__ldg(row<float>(p.src, p.sp, k) + x), 1e-30f));
    v = sat<u8>((db - lo) * (255.f / p.range));
  }
  row<unsigned char>(p.dst, p.dp, p.h - 1 - k)[x] = v;
}
