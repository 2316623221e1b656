// Direct 1-D convolution and correlation of batches of signals, one signal a row
// (Go caller: dsp/cuda.go; the CPU twin is dsp/cpu.go's conv1dCPU). The taps ride
// in the launch's parameters (constant memory, read by every thread at once); a
// block stages its stretch of the input, zero-padded, in shared memory and each
// thread computes GI_CONV1D_R consecutive outputs with a register window that
// slides over the taps: one 16-byte shared load brings 4 samples for 32 FMAs, and
// the threads of a warp read consecutive 32-byte runs (no bank conflicts).
#include "common.cuh"
#include "dsp_params.h"

namespace dsp {

template <bool Add>
__device__ __forceinline__ void conv1d(const Conv1DParams& p) {
  constexpr int R = GI_CONV1D_R, T = GI_CONV1D_THREADS * GI_CONV1D_R;
  extern __shared__ float4 smem4[];
  float* s = reinterpret_cast<float*>(smem4);
  const int o0 = blockIdx.x * T, l = threadIdx.x * R;
  // The window a block needs, with one more run of R for the last slide.
  const int len = T + p.m8 + R, base = o0 + p.off;
  for (int y = blockIdx.y; y < p.rows; y += gridDim.y) {
    const float* x = row<float>(p.src, p.sp, y);
    __syncthreads();  // the last row's reads are done
    for (int i = threadIdx.x; i < len; i += blockDim.x) {
      const int g = base + i;
      s[i] = g >= 0 && g < p.n ? __ldg(x + g) : 0.f;
    }
    __syncthreads();
    float acc[R], w[2 * R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = 0.f;
    *reinterpret_cast<float4*>(w) = *reinterpret_cast<const float4*>(s + l);
    *reinterpret_cast<float4*>(w + 4) = *reinterpret_cast<const float4*>(s + l + 4);
    for (int q = 0; q < p.m8; q += R) {
      *reinterpret_cast<float4*>(w + R) = *reinterpret_cast<const float4*>(s + l + q + R);
      *reinterpret_cast<float4*>(w + R + 4) = *reinterpret_cast<const float4*>(s + l + q + R + 4);
#pragma unroll
      for (int i = 0; i < R; ++i) {
        const float h = p.g[q + i];
#pragma unroll
        for (int r = 0; r < R; ++r) acc[r] = fmaf(h, w[r + i], acc[r]);
      }
#pragma unroll
      for (int r = 0; r < R; ++r) w[r] = w[r + R];
    }
    float* d = row<float>(p.dst, p.dp, y);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int o = o0 + l + r;
      if (o < p.outn) d[o] = Add ? d[o] + acc[r] : acc[r];
    }
  }
}

}  // namespace dsp

// gi_conv1d_set writes the outputs; gi_conv1d_add adds to them (the second and later
// launches of a filter longer than GI_CONV1D_TAPS). __grid_constant__: the taps are
// read in place from the parameter space, not copied.
extern "C" __global__ void __launch_bounds__(GI_CONV1D_THREADS) gi_conv1d_set(__grid_constant__ const Conv1DParams p) {
  dsp::conv1d<false>(p);
}
extern "C" __global__ void __launch_bounds__(GI_CONV1D_THREADS) gi_conv1d_add(__grid_constant__ const Conv1DParams p) {
  dsp::conv1d<true>(p);
}
