// Polyphase rational resampling of batches of signals, one signal a row: SciPy's
// upfirdn, and resample_poly on top of it (Go caller: resample/cuda.go; the CPU twin
// is resample/cpu.go's polyCPU). Each output is computed from its polyphase branch
// only, the taps h0[ph], h0[ph + up], ...: no zero-stuffed signal is made.
//   gi_resample_rQR  a branch of at most QR taps: the block is a multiple of up
//                    threads, so the k outputs of a thread (blockDim.x apart) share
//                    one branch, whose taps the thread keeps in registers (two
//                    outputs' sums side by side for up to 32 taps); the
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
  // Two outputs' multiply-add chains side by side for short branches (measured on
  // the H100: 23% faster than one at a time at 24 taps; eight at once cost more in
  // occupancy than they gain), one for long ones.
  constexpr int ILP = QR <= 32 ? 2 : 1;
  extern __shared__ float xs[];
  const int T = blockDim.x, t = threadIdx.x;
  const long long o0 = (long long)blockIdx.x * T * p.k;  // the block's first output
  // One 64-bit division a thread: the block's first output's t, then 32-bit steps.
  const long long base = o0 * p.down + p.t0, bq = base / p.up;
  const int r = (int)(base - bq * p.up) + t * p.down;
  const long long lo = bq - (QR - 1);  // the stage's first sample
  const int ph = r % p.up;
  const int e0 = r / p.up + (QR - 1);   // this thread's first output's newest sample in the stage
  const int step = T / p.up * p.down;   // samples from one of its outputs to the next
  const long long o = o0 + t;
  float hr[QR];
#pragma unroll
  for (int q = 0; q < QR; ++q) hr[q] = q < p.qn ? __ldg(p.h + ph * p.qn + q) : 0.f;
  for (int y = blockIdx.y; y < p.rows; y += gridDim.y) {
    const float* x = row<float>(p.src, p.sp, y);
    __syncthreads();  // the last row's reads are done
    if (lo >= 0 && lo + p.w <= p.n) {
      for (int i = t; i < p.w; i += T) xs[i] = __ldg(x + lo + i);
    } else {  // the row's ends: zeros outside it
      for (int i = t; i < p.w; i += T) {
        const long long g = lo + i;
        xs[i] = g >= 0 && g < p.n ? __ldg(x + g) : 0.f;
      }
    }
    __syncthreads();
    float* d = row<float>(p.dst, p.dp, y);
    for (int k0 = 0; k0 < p.k; k0 += ILP) {
      // An odd k's last pair sums its last output twice (in the stage; written once).
      int e[ILP];
#pragma unroll
      for (int j = 0; j < ILP; ++j) e[j] = e0 + min(k0 + j, p.k - 1) * step;
      float acc[ILP];
#pragma unroll
      for (int j = 0; j < ILP; ++j) acc[j] = 0.f;
#pragma unroll
      for (int q = 0; q < QR; ++q) {
#pragma unroll
        for (int j = 0; j < ILP; ++j) acc[j] = fmaf(hr[q], xs[e[j] - q], acc[j]);
      }
#pragma unroll
      for (int j = 0; j < ILP; ++j) {
        const long long ok = o + (long long)(k0 + j) * T;
        if (k0 + j < p.k && ok < p.outn) d[ok] = acc[j];
      }
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
