// Polyphase rational resampling of batches of signals, one signal a row: SciPy's
// upfirdn, and resample_poly on top of it (Go caller: resample/cuda.go; the CPU twin
// is resample/cpu.go's polyCPU). Each output is computed from its polyphase branch
// only, the taps h0[ph], h0[ph + up], ...: no zero-stuffed signal is made.
//   gi_resample_rQR  a branch of at most QR taps: the block is a multiple of up
//                    threads, so the k outputs of a thread (blockDim.x apart) share
//                    one branch, whose taps the thread keeps in registers; the
//                    block's stretch of the row is staged in shared memory
//                    (coalesced loads), and consecutive threads write consecutive
//                    outputs.
//   gi_resample_any  any branch length and any up: a thread an output, taps and
//                    samples read through the read-only cache.
#include "common.cuh"
#include "resample_params.h"

namespace resample {

template <int QR>
__device__ __forceinline__ void polyReg(const ResamplePolyParams& p) {
  extern __shared__ float xs[];
  const int T = blockDim.x, t = threadIdx.x;
  const long long o0 = (long long)blockIdx.x * T * p.k;  // the block's first output
  const long long lo = (o0 * p.down + p.t0) / p.up - (QR - 1);
  const long long o = o0 + t;
  const long long tt = o * p.down + p.t0;
  const int ph = (int)(tt % p.up);
  const int e0 = (int)(tt / p.up - lo);  // output o's newest sample in the stage
  const int step = T / p.up * p.down;     // samples from one of its outputs to the next
  float hr[QR];
#pragma unroll
  for (int q = 0; q < QR; ++q) hr[q] = q < p.qn ? __ldg(p.h + ph * p.qn + q) : 0.f;
  for (int y = blockIdx.y; y < p.rows; y += gridDim.y) {
    const float* x = row<float>(p.src, p.sp, y);
    __syncthreads();  // the last row's reads are done
    for (int i = t; i < p.w; i += T) {
      const long long g = lo + i;
      xs[i] = g >= 0 && g < p.n ? __ldg(x + g) : 0.f;
    }
    __syncthreads();
    // One output at a time: k multiply-add chains side by side measured slower on
    // the H100 (their registers cost more occupancy than they gain).
    float* d = row<float>(p.dst, p.dp, y);
    for (int k = 0; k < p.k; ++k) {
      const long long ok = o + (long long)k * T;
      if (ok >= p.outn) break;
      const float* xe = xs + e0 + k * step;
      float acc = 0.f;
#pragma unroll
      for (int q = 0; q < QR; ++q) acc = fmaf(hr[q], xe[-q], acc);
      d[ok] = acc;
    }
  }
}

__device__ __forceinline__ void polyAny(const ResamplePolyParams& p) {
  for (int y = blockIdx.y; y < p.rows; y += gridDim.y) {
    const float* x = row<float>(p.src, p.sp, y);
    float* d = row<float>(p.dst, p.dp, y);
    for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < p.outn;
         o += (long long)gridDim.x * blockDim.x) {
      const long long tt = o * p.down + p.t0;
      const int ph = (int)(tt % p.up);
      const long long i0 = tt / p.up;
      const float* h = p.h + (size_t)ph * p.qn;
      float acc = 0.f;
      // Only the taps that meet the signal: 0 <= i0 - q < n.
      const int q0 = (int)min((long long)p.qn, max(0LL, i0 - (p.n - 1)));
      const int q1 = (int)min((long long)p.qn, i0 + 1);
      for (int q = q0; q < q1; ++q) acc = fmaf(__ldg(h + q), __ldg(x + (i0 - q)), acc);
      d[o] = acc;
    }
  }
}

}  // namespace resample

#define GI_RESAMPLE_REG(QR)                                                                                 \
  extern "C" __global__ void __launch_bounds__(GI_RESAMPLE_MAXT, 1) gi_resample_r##QR(__grid_constant__ const ResamplePolyParams p) { \
    resample::polyReg<QR>(p);                                                                               \
  }
GI_RESAMPLE_REG(8)
GI_RESAMPLE_REG(16)
GI_RESAMPLE_REG(24)
GI_RESAMPLE_REG(32)
GI_RESAMPLE_REG(48)
GI_RESAMPLE_REG(64)

extern "C" __global__ void __launch_bounds__(GI_RESAMPLE_THREADS) gi_resample_any(__grid_constant__ const ResamplePolyParams p) {
  resample::polyAny(p);
}
