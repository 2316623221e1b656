// FFT convolution of batches of signals by overlap-save (Go caller:
// dsp/cuda_fft.go; the CPU twin is dsp/cpu.go's fftConvCPU): the kernels around
// cuFFT's batched transforms. gi_fftconv_frames cuts each row into overlapping
// frames (zero outside the signal), gi_fftconv_mul multiplies every frame's half
// spectrum by the taps' (and 1/nfft), gi_fftconv_gather keeps the last hop samples
// of each frame. Each is one pass over memory with coalesced loads and stores.
#include "common.cuh"
#include "dsp_params.h"

extern "C" __global__ void __launch_bounds__(GI_FFTCONV_THREADS) gi_fftconv_frames(__grid_constant__ const FftConvParams p) {
  // blockIdx.y strides over the frames of every row; x over a frame's samples.
  for (int fr = blockIdx.y; fr < p.rows * p.frames; fr += gridDim.y) {
    const int r = fr / p.frames, j = fr % p.frames;
    const float* x = row<float>(p.src, p.sp, r);
    float* out = p.buf + (size_t)fr * p.nfft;
    const int base = p.f0 + j * p.hop - (p.m - 1);
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < p.nfft; t += gridDim.x * blockDim.x) {
      const int i = base + t;
      out[t] = i >= 0 && i < p.n ? __ldg(x + i) : 0.f;
    }
  }
}

extern "C" __global__ void __launch_bounds__(GI_FFTCONV_THREADS) gi_fftconv_mul(__grid_constant__ const FftConvParams p) {
  const int half = p.nfft / 2 + 1;
  const float2* h = reinterpret_cast<const float2*>(p.h);
  float2* s = reinterpret_cast<float2*>(p.spec);
  for (int fr = blockIdx.y; fr < p.rows * p.frames; fr += gridDim.y) {
    float2* f = s + (size_t)fr * half;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < half; k += gridDim.x * blockDim.x) {
      const float2 a = f[k], b = __ldg(h + k);
      f[k] = make_float2((a.x * b.x - a.y * b.y) * p.scale, (a.x * b.y + a.y * b.x) * p.scale);
    }
  }
}

extern "C" __global__ void __launch_bounds__(GI_FFTCONV_THREADS) gi_fftconv_gather(__grid_constant__ const FftConvParams p) {
  for (int r = blockIdx.y; r < p.rows; r += gridDim.y) {
    float* d = row<float>(p.dst, p.dp, r);
    const float* b = p.buf + (size_t)r * p.frames * p.nfft + (p.m - 1);
    for (int o = blockIdx.x * blockDim.x + threadIdx.x; o < p.outn; o += gridDim.x * blockDim.x) {
      const int j = o / p.hop;
      d[o] = b[(size_t)j * p.nfft + (o - j * p.hop)];
    }
  }
}

extern "C" __global__ void __launch_bounds__(GI_FFTCONV_THREADS) gi_fftconv_taps(__grid_constant__ const FftConvTapsParams p) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < p.count; i += gridDim.x * blockDim.x) p.dst[i] = p.g[i];
}
