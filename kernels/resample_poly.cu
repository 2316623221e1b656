// Polyphase rational resampling of batches of signals, one signal a row: SciPy's
// upfirdn, and resample_poly on top of it (Go caller: resample/cuda.go; the CPU twin
// is resample/cpu.go's polyCPU). Each output is computed from its polyphase branch
// only, the taps h0[ph], h0[ph + up], ...: no zero-stuffed signal is made.
//   gi_resample_rQR      a branch of at most QR taps: the block is a multiple of up
//                        threads, so the outputs of a thread (blockDim.x apart)
//                        share one branch, whose taps the thread keeps in
//                        registers; a block filters several items (stretches of a
//                        row), each staged in shared memory by cp.async while the
//                        one before is filtered (coalesced loads, no waiting on
//                        them), and consecutive threads write consecutive outputs;
//                        the grid is one wave of the blocks the device holds at
//                        once (resample/cuda.go's polyLaunch), the items shared
//                        evenly among them.
//   gi_resample_rQRp2dD  the same for two consecutive outputs a thread (their
//                        newest samples at most D apart: down <= D * up), which
//                        share one window of samples: it is read once, as 8-byte
//                        words from an even offset, for both outputs' taps (kept
//                        shifted to the window's words), half of the shared-memory
//                        reads an output of gi_resample_rQR's.
//   gi_resample_any      any branch length and any up: a thread an output, taps and
//                        samples read through the read-only cache.
// Every kernel sums each output's taps in the same order (newest sample first), so
// all of them give the same results for finite samples (those that multiply taps
// past a branch's end, zeros, leave the sums as they are).
#include "common.cuh"
#include "resample_params.h"

namespace resample {

// stageItem starts the copies of item it's samples into buf: w samples of its row
// from the first one its first output's window holds (one earlier for P = 2, so
// that a window may start at an even offset), zero outside the signal.
template <int QR, int P>
__device__ __forceinline__ void stageItem(const ResamplePolyParams& p, int it, float* buf) {
  const int y = it / p.segs;
  const long long o0 = (long long)(it - y * p.segs) * (P * blockDim.x) * p.k;
  const long long lo = (o0 * p.down + p.t0) / p.up - (QR - 1) - (P - 1);
  const float* x = row<float>(p.src, p.sp, y);
  for (int i = threadIdx.x; i < p.w; i += blockDim.x) {
    const long long g = lo + i;
    const bool in = g >= 0 && g < p.n;
    copyAsync4(buf + i, in ? x + g : x, in);
  }
  copyCommit();
}

// polyGroups computes NG groups of a thread's P outputs (the first o, each group
// ostep outputs and step stage samples after the one before) from its window in
// the stage, x (P = 1: its newest sample; P = 2: its first word, 8-byte aligned),
// and stores those below outn into d. Each output's taps are summed newest sample
// first, one multiply-add chain an output: NG * P chains side by side.
template <int P, int W, int NG>
__device__ __forceinline__ void polyGroups(const float (&hr)[P][W], const float* x, int step, float* d, long long o,
                                           int ostep, long long outn) {
  float acc[NG][P];
#pragma unroll
  for (int n = 0; n < NG; ++n)
#pragma unroll
    for (int i = 0; i < P; ++i) acc[n][i] = 0.f;
  if (P == 1) {
#pragma unroll
    for (int q = 0; q < W; ++q)
#pragma unroll
      for (int n = 0; n < NG; ++n) acc[n][0] = fmaf(hr[0][q], x[n * step - q], acc[n][0]);
  } else {
#pragma unroll
    for (int m = W / 2 - 1; m >= 0; --m) {
#pragma unroll
      for (int n = 0; n < NG; ++n) {
        const float2 v = reinterpret_cast<const float2*>(x + n * step)[m];
#pragma unroll
        for (int i = 0; i < P; ++i) acc[n][i] = fmaf(hr[i][2 * m + 1], v.y, acc[n][i]);
#pragma unroll
        for (int i = 0; i < P; ++i) acc[n][i] = fmaf(hr[i][2 * m], v.x, acc[n][i]);
      }
    }
  }
#pragma unroll
  for (int n = 0; n < NG; ++n) {
    const long long on = o + (long long)n * ostep;
    if (P == 2 && on + 1 < outn && (reinterpret_cast<size_t>(d + on) & 7) == 0) {
      *reinterpret_cast<float2*>(d + on) = make_float2(acc[n][0], acc[n][P - 1]);
    } else {
#pragma unroll
      for (int i = 0; i < P; ++i)
        if (on + i < outn) d[on + i] = acc[n][i];
    }
  }
}

// polyReg: P (1 or 2) consecutive outputs a thread share a window of W samples;
// their newest samples are at most D apart (D 0 for P = 1); G groups of them are
// computed at once. An item's first output is a multiple of up (P * blockDim.x
// is), so each thread's phases and its window's offset in the stage are the same
// in every item and group.
template <int QR, int P, int D, int G>
__device__ __forceinline__ void polyReg(const ResamplePolyParams& p) {
  extern __shared__ __align__(16) float stage[];
  constexpr int W = P == 1 ? QR : (QR + D + 2) & ~1;
  const int T = blockDim.x, t = threadIdx.x;
  const int first = blockIdx.x * p.per, last = min(first + p.per, p.rows * p.segs);
  const int step = P * T / p.up * p.down;  // samples from one group of outputs to the next
  // The thread's taps: hr[i][j] multiplies word j of its window for output i
  // (P = 1: sample a - j, a its newest; P = 2: sample a + j, a even). (Staging
  // the polyphase table in shared memory first, for coalesced loads, measured
  // slower on the H200.)
  const float* h = p.h;  // the polyphase table: branch ph's taps at h + ph * qn
  float hr[P][W];
  int a;
  {
    const long long tb = p.t0 / p.up;
    int r[P], ph[P];
#pragma unroll
    for (int i = 0; i < P; ++i) {
      const long long tt = (long long)(P * t + i) * p.down + p.t0;
      ph[i] = (int)(tt % p.up);
      r[i] = (int)(tt / p.up - tb);  // newest sample, from the item's first output's
    }
    if (P == 1) {
      a = r[0] + QR - 1;
#pragma unroll
      for (int q = 0; q < W; ++q) hr[0][q] = q < p.qn ? __ldg(h + ph[0] * p.qn + q) : 0.f;
    } else {
      a = (r[0] + 1) & ~1;
#pragma unroll
      for (int i = 0; i < P; ++i) {
        // Word j takes tap q = off - j: loads at immediate offsets from one address
        // (so the taps in flight need no address registers of their own).
        const int off = r[i] + QR - a;
        const float* hb = h + ph[i] * p.qn + off;
#pragma unroll
        for (int j = 0; j < W; ++j) hr[i][j] = off - j >= 0 && off - j < p.qn ? __ldg(hb - j) : 0.f;
      }
    }
  }
  stageItem<QR, P>(p, first, stage);
  for (int it = first; it < last; ++it) {
    const int b = (it - first) & 1;
    if (it + 1 < last) {
      stageItem<QR, P>(p, it + 1, stage + (b ^ 1) * p.w);
      copyWaitPrior();
    } else {
      copyWait();
    }
    __syncthreads();  // the item's stage is in
    const float* xs = stage + b * p.w;
    const int y = it / p.segs;
    const long long o0 = (long long)(it - y * p.segs) * (P * T) * p.k;
    float* d = row<float>(p.dst, p.dp, y);
    // G groups at once: their multiply-add chains side by side.
    int g = 0;
    for (; g + G <= p.k; g += G) {
      const long long o = o0 + (long long)g * (P * T) + P * t;
      if (o >= p.outn) break;
      polyGroups<P, W, G>(hr, xs + a + g * step, step, d, o, P * T, p.outn);
    }
    for (; g < p.k; ++g) {
      const long long o = o0 + (long long)g * (P * T) + P * t;
      if (o >= p.outn) break;
      polyGroups<P, W, 1>(hr, xs + a + g * step, step, d, o, P * T, p.outn);
    }
    __syncthreads();  // done with the stage before it is refilled
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
    resample::polyReg<QR, 1, 0, 2>(p);                                                                         \
  }
GI_RESAMPLE_REG(8)
GI_RESAMPLE_REG(16)
GI_RESAMPLE_REG(24)
GI_RESAMPLE_REG(32)
GI_RESAMPLE_REG(48)
GI_RESAMPLE_REG(64)

// GI_RESAMPLE_G2: the two-outputs kernels' groups at once, two for up to 24 taps
// (22 before sm_90, whose code would spill) within the launch bounds' registers.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define GI_RESAMPLE_G2(QR) ((QR) <= 24 ? 2 : 1)
#else
#define GI_RESAMPLE_G2(QR) ((QR) <= 22 ? 2 : 1)
#endif
// 22 taps: resample_poly's default filter has 21 a branch wherever up >= down.
// The two-outputs kernels of branches up to 24 taps: blocks of at most
// GI_RESAMPLE_MAXT2 threads, two of them a multiprocessor at least, which holds
// them to 80 registers (no spills; 5 blocks of 160 threads an SM rather than 3).
#define GI_RESAMPLE_P2(QR, D, MAXT, MINB)                                                                   \
  extern "C" __global__ void __launch_bounds__(MAXT, MINB) gi_resample_r##QR##p2d##D(__grid_constant__ const ResamplePolyParams p) { \
    resample::polyReg<QR, 2, D, GI_RESAMPLE_G2(QR)>(p);                                                     \
  }
GI_RESAMPLE_P2(8, 1, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(16, 1, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(22, 1, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(24, 1, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(32, 1, GI_RESAMPLE_MAXT, 1)
GI_RESAMPLE_P2(8, 2, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(16, 2, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(22, 2, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(24, 2, GI_RESAMPLE_MAXT2, 2)
GI_RESAMPLE_P2(32, 2, GI_RESAMPLE_MAXT, 1)

extern "C" __global__ void __launch_bounds__(GI_RESAMPLE_THREADS) gi_resample_any(__grid_constant__ const ResamplePolyParams p) {
  resample::polyAny(p);
}
