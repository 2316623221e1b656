// Spectra of batches of signals (Go caller: dsp/cuda_spectral.go; the CPU twin is
// dsp/cpu.go's spectralCPU): the kernels around cuFFT's batched transforms.
//   gi_spec_frames  a block a segment: its samples (STFT's boundary extension
//                   past the signal's ends) summed (block reduction, in
//                   double) for the detrend, then detrended, windowed and zero-padded into its frame.
//   gi_spec_post    the spectra scaled by the mode and transposed into frequency
//                   rows and segment columns, through shared-memory tiles (both
//                   sides coalesced).
//   gi_spec_welch   a thread a frequency: the segments' periodograms averaged (in
//                   double); gi_spec_welch_median: their median, by radix selection.
//   gi_spec_warp_1024 the same for nfft = 1024 with a warp a pair of segments: the
//                   transform in registers (fft_warp.cuh), no block barriers
//                   but the staging's.
//   gi_spec_fused_N Spectrogram's one-sided PSD for nfft = N (2048, 4096) in
//                   one pass: a block takes GI_SPEC_FS segments of a row, two a
//                   block FFT in shared memory (fft_block.cuh: a + ib, the two
//                   spectra separated from bins f and N-f), their PSD staged and
//                   written GI_SPEC_FS columns at a time; no frames or spectra in
//                   global memory.
//   gi_spec_unpost  ISTFT: STFT's output (frequency rows, segment columns) back into
//                   a spectrum a segment for cuFFT's inverse, scaled, the DC and even
//                   Nyquist bins' imaginary parts dropped for a one-sided spectrum
//                   (as irfft ignores them).
//   gi_spec_ola     ISTFT: a thread an output sample (complex from two-sided
//                   spectra), the windowed segments that cover it added and
//                   divided by their squared windows' sum.
//   gi_spec_max, gi_spec_db  SpectrogramImage's levels: the peak (an atomic max
//                   of the values' bits), then each value in dB below it, flipped
//                   so that low frequencies are at the bottom.
#include "common.cuh"
#include "dsp_params.h"
#include "fft_block.cuh"
#include "fft_warp.cuh"

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

// sample is row x's sample i of n, extended past its ends by STFT's boundary
// for pad samples (ext: SpecParams) and zero beyond.
__device__ __forceinline__ float sample(const SpecParams& p, const float* x, int i) {
  if (i >= 0 && i < p.n) return __ldg(x + i);
  if (p.ext == 0 || i < -p.pad || i >= p.n + p.pad) return 0.f;
  const bool left = i < 0;
  const float e = __ldg(x + (left ? 0 : p.n - 1));
  if (p.ext == 3) return e;
  const float m = __ldg(x + (left ? -i : 2 * (p.n - 1) - i));
  return p.ext == 1 ? m : 2.f * e - m;
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
      const double v = spec::sample(p, x, i);
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
      v = (float)(spec::sample(p, x, i) - trendA - trendB * ((double)k - c)) * __ldg(p.win + k);
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

// A thread a frequency: the median of the segments' periodograms (their values'
// bits order as the values: they are not negative), by radix selection 4 bits a
// pass, each thread's 16 counts in a column of shared memory; for an even count
// the mean of the two middle values (the upper from one more pass). p.scale
// carries SciPy's bias.
extern "C" __global__ void __launch_bounds__(GI_SPEC_THREADS) gi_spec_welch_median(__grid_constant__ const SpecParams p) {
  __shared__ unsigned hist[16][GI_SPEC_THREADS];
  const int k = blockIdx.x * GI_SPEC_THREADS + threadIdx.x, r = blockIdx.y, t = threadIdx.x;
  if (k >= p.nfreq) return;
  const float2* s = reinterpret_cast<const float2*>(p.spec) + (size_t)r * p.nseg * p.nfreq + k;
  const int lo = (p.nseg - 1) / 2;  // the lower middle's rank
  unsigned prefix = 0, mask = 0;
  int rank = lo;
  for (int shift = 28; shift >= 0; shift -= 4) {
#pragma unroll
    for (int b = 0; b < 16; b++) hist[b][t] = 0;
    for (int j = 0; j < p.nseg; ++j) {
      const unsigned u = __float_as_uint(spec::value(p, s[(size_t)j * p.nfreq], k).x);
      if ((u & mask) == prefix) hist[(u >> shift) & 15][t]++;
    }
    int b = 0;
    for (; b < 15; b++) {
      const int c = hist[b][t];
      if (rank < c) break;
      rank -= c;
    }
    prefix |= unsigned(b) << shift;
    mask |= 15u << shift;
  }
  float m = __uint_as_float(prefix);
  if (p.nseg % 2 == 0) {
    int le = 0;
    unsigned above = 0xffffffffu;
    for (int j = 0; j < p.nseg; ++j) {
      const unsigned u = __float_as_uint(spec::value(p, s[(size_t)j * p.nfreq], k).x);
      if (u <= prefix)
        le++;
      else
        above = min(above, u);
    }
    m = 0.5f * (m + (le >= lo + 2 ? m : __uint_as_float(above)));
  }
  row<float>(p.dst, p.dp, r)[k] = m;
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

extern "C" __global__ void __launch_bounds__(GI_SPEC_TILE* GI_SPEC_ROWS) gi_spec_unpost(__grid_constant__ const SpecParams p) {
  __shared__ float2 t[GI_SPEC_TILE][GI_SPEC_TILE + 1];
  const int j0 = blockIdx.x * GI_SPEC_TILE, k0 = blockIdx.y * GI_SPEC_TILE, r = blockIdx.z;
  // Read along the segments of GI_SPEC_TILE frequency rows.
  for (int dk = threadIdx.y; dk < GI_SPEC_TILE; dk += GI_SPEC_ROWS) {
    const int k = k0 + dk, j = j0 + threadIdx.x;
    if (k < p.nfreq && j < p.nseg) {
      float2 z = row<float2>(p.src, p.sp, r * p.nfreq + k)[j];
      if (!p.twoSided && (k == 0 || (p.evenNyq && k == p.nfreq - 1))) z.y = 0.f;
      t[dk][threadIdx.x] = make_float2(z.x * p.scale, z.y * p.scale);
    }
  }
  __syncthreads();
  // Write along the frequencies of GI_SPEC_TILE segments.
  float2* s = reinterpret_cast<float2*>(const_cast<float*>(p.spec)) + (size_t)r * p.nseg * p.nfreq;
  for (int dj = threadIdx.y; dj < GI_SPEC_TILE; dj += GI_SPEC_ROWS) {
    const int j = j0 + dj, k = k0 + threadIdx.x;
    if (j < p.nseg && k < p.nfreq) s[(size_t)j * p.nfreq + k] = t[threadIdx.x][dj];
  }
}

extern "C" __global__ void __launch_bounds__(GI_SPEC_THREADS) gi_spec_ola(__grid_constant__ const SpecParams p) {
  const int t = blockIdx.x * GI_SPEC_THREADS + threadIdx.x, r = blockIdx.y;
  if (t >= p.n) return;
  const int te = t + p.pad;  // in the segments' frame of reference
  const int j0 = max(0, (te - p.nperseg + p.step) / p.step), j1 = min(p.nseg - 1, te / p.step);
  const size_t f = (size_t)r * p.nseg * p.nfft;
  float2 x = make_float2(0.f, 0.f);
  float norm = 0.f;
  for (int j = j0; j <= j1; ++j) {
    const int k = te - j * p.step;
    const float w = __ldg(p.win + k);
    const size_t at = f + (size_t)j * p.nfft + k;
    const float2 v = p.cplx ? reinterpret_cast<const float2*>(p.frames)[at] : make_float2(p.frames[at], 0.f);
    x = make_float2(fmaf(v.x, w, x.x), fmaf(v.y, w, x.y));
    norm = fmaf(w, w, norm);
  }
  if (norm > 1e-10f) x = make_float2(x.x / norm, x.y / norm);
  if (p.cplx)
    row<float2>(p.dst, p.dp, r)[t] = x;
  else
    row<float>(p.dst, p.dp, r)[t] = x.x;
}

namespace spec {

// pos is the place where the block FFT (fft_block.cuh) leaves frequency f of N:
// its digits over the passes' radices, reversed.
template <int N>
__device__ __forceinline__ int pos(int f) {
  typedef giblk::Plan<N> P;
  int p = 0, size = N, q = f;
#pragma unroll
  for (int s = 0; s < P::NQ; ++s) {
    size /= 16;
    p += (q % 16) * size;
    q /= 16;
  }
  if (P::REM > 1) p += (q % P::REM) * (size / P::REM);
  return p;
}

// fused<N, T>: Spectrogram's PSD (one-sided) of S = GI_SPEC_FS consecutive segments
// of one row a block, two segments a transform (a + ib), the spectra separated
// from its bins f and N-f, staged in shared memory, written S columns at a time.
template <int N, int T>
__device__ __forceinline__ void fused(const SpecParams& p) {
  constexpr int S = GI_SPEC_FS;
  extern __shared__ __align__(16) char smem[];
  typedef giblk::Block<N, T> Blk;
  constexpr int NF = N / 2 + 1;
  Blk blk;
  blk.init(smem);
  float* out = reinterpret_cast<float*>(smem + Blk::SMEM);  // [NF][S]
  __shared__ double2 part[2][T / 32];
  const int groups = (p.nseg + S - 1) / S;
  for (int gi = blockIdx.x; gi < p.rows * groups; gi += gridDim.x) {
    const int r = gi / groups, j0 = (gi % groups) * S;
    const float* x = row<float>(p.src, p.sp, r);
    const double c = 0.5 * (double)(p.nperseg - 1);
    for (int jl = 0; jl < S; jl += 2) {
      const int ja = j0 + jl, jb = ja + 1;
      const bool hasa = ja < p.nseg, hasb = jb < p.nseg;
      const int ba = ja * p.step - p.pad, bb = jb * p.step - p.pad;
      double ta = 0., tb = 0., sa = 0., sb = 0.;  // trends: a + s*(k - c)
      if (p.detrend > 1) {
        double s0 = 0., s1 = 0., s2 = 0., s3 = 0.;
        for (int k = threadIdx.x; k < p.nperseg; k += T) {
          const int ia = ba + k, ib = bb + k;
          const double va = hasa && ia >= 0 && ia < p.n ? __ldg(x + ia) : 0.f;
          const double vb = hasb && ib >= 0 && ib < p.n ? __ldg(x + ib) : 0.f;
          s0 += va, s1 += ((double)k - c) * va, s2 += vb, s3 += ((double)k - c) * vb;
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
          s0 += __shfl_xor_sync(0xffffffffu, s0, o), s1 += __shfl_xor_sync(0xffffffffu, s1, o);
          s2 += __shfl_xor_sync(0xffffffffu, s2, o), s3 += __shfl_xor_sync(0xffffffffu, s3, o);
        }
        __syncthreads();  // part free (the previous pair read it)
        if (threadIdx.x % 32 == 0) part[0][threadIdx.x / 32] = make_double2(s0, s1), part[1][threadIdx.x / 32] = make_double2(s2, s3);
        __syncthreads();
        s0 = s1 = s2 = s3 = 0.;
#pragma unroll
        for (int w = 0; w < T / 32; ++w) s0 += part[0][w].x, s1 += part[0][w].y, s2 += part[1][w].x, s3 += part[1][w].y;
        const double m = (double)p.nperseg;
        ta = s0 / m, tb = s2 / m;
        if (p.detrend == 3 && p.nperseg > 1) sa = s1 / (m * (m * m - 1.) / 12.), sb = s3 / (m * (m * m - 1.) / 12.);
      }
      __syncthreads();  // the previous pair's spectrum read
      blk.first([&](int k) {
        if (k >= p.nperseg) return make_float2(0.f, 0.f);
        const int ia = ba + k, ib = bb + k;
        const float w = __ldg(p.win + k);
        const double va = hasa && ia >= 0 && ia < p.n ? __ldg(x + ia) : 0.f;
        const double vb = hasb && ib >= 0 && ib < p.n ? __ldg(x + ib) : 0.f;
        return make_float2((float)(va - ta - sa * ((double)k - c)) * w, (float)(vb - tb - sb * ((double)k - c)) * w);
      });
      __syncthreads();
      blk.template mid<false>();
      blk.tail([&](int rg, float2 v) {
        const int place = (threadIdx.x + (rg / Blk::L) * T) * Blk::L + rg % Blk::L;
        blk.re[giblk::pad(place)] = v.x;
        blk.im[giblk::pad(place)] = v.y;
      });
      __syncthreads();
      for (int f = threadIdx.x; f < NF; f += T) {
        const int pf = giblk::pad(pos<N>(f)), pn = giblk::pad(pos<N>((N - f) & (N - 1)));
        const float zr = blk.re[pf], zi = blk.im[pf], nr = blk.re[pn], ni = blk.im[pn];
        // a's spectrum (Z_f + conj Z_-f)/2, b's (Z_f - conj Z_-f)/(2i).
        const float ar = 0.5f * (zr + nr), ai = 0.5f * (zi - ni), br = 0.5f * (zi + ni), bi = -0.5f * (zr - nr);
        const float dbl = (f > 0 && !(p.evenNyq && f == NF - 1)) ? 2.f : 1.f;
        out[f * S + jl] = (ar * ar + ai * ai) * p.scale * dbl;
        out[f * S + jl + 1] = (br * br + bi * bi) * p.scale * dbl;
      }
    }
    __syncthreads();
    const int ns = min(S, p.nseg - j0);
    for (int e = threadIdx.x; e < NF * S; e += T) {
      const int f = e / S, jl = e % S;
      if (jl < ns) row<float>(p.dst, p.dp, r * p.nfreq + f)[j0 + jl] = out[e];
    }
    __syncthreads();
  }
}

// warp1024<T>: fused's work for nfft = 1024 with a warp a pair of segments (a + ib)
// and no block barriers inside a transform (fft_warp.cuh): lane b loads points
// 32a + b of both segments (a warp's loads are consecutive samples), detrends them
// in float from each segment's first sample (the deviations' sums in double: the
// CPU twin's float64 detrend within an ulp or two), windows them, transforms them,
// and separates the spectra by shuffles (bin N-f of lane k1's bin f is in lane
// 32-k1's register brev5(31-k2), lane 0's own for k1 = 0); the PSDs are staged,
// GI_SPEC_FS segments a block (rows padded to GI_SPEC_FS+1 floats: conflict-free
// both ways), and written as fused writes them.
template <int T>
__device__ __forceinline__ void warp1024(const SpecParams& p) {
  constexpr int N = 1024, NF = N / 2 + 1, S = GI_SPEC_FS, SP = S + 1, W = T / 32;
  static_assert(S == 2 * W, "a warp a pair of segments");
  __shared__ float2 tw[N];
  __shared__ float tr[W][32 * 33];
  __shared__ float out[NF * SP];
  giwarp::makeTable<T>(tw);
  __syncthreads();
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int groups = (p.nseg + S - 1) / S;
  const float cf = 0.5f * (float)(p.nperseg - 1);  // the mean index (a half-integer: exact)
  for (int gi = blockIdx.x; gi < p.rows * groups; gi += gridDim.x) {
    const int r = gi / groups, j0 = (gi % groups) * S;
    const float* x = row<float>(p.src, p.sp, r);
    const int ja = j0 + 2 * w, jb = ja + 1;
    const bool hasa = ja < p.nseg, hasb = jb < p.nseg;
    const int ba = ja * p.step - p.pad, bb = jb * p.step - p.pad;
    float2 z[32];
    if (hasb && ba >= 0 && bb + N <= p.n && p.nperseg == N) {
#pragma unroll
      for (int a = 0; a < 32; a++) z[a] = make_float2(__ldg(x + ba + 32 * a + lane), __ldg(x + bb + 32 * a + lane));
    } else {
#pragma unroll
      for (int a = 0; a < 32; a++) {
        const int k = 32 * a + lane, ia = ba + k, ib = bb + k;
        const bool in = k < p.nperseg;
        z[a].x = hasa && in && ia >= 0 && ia < p.n ? __ldg(x + ia) : 0.f;
        z[a].y = hasb && in && ib >= 0 && ib < p.n ? __ldg(x + ib) : 0.f;
      }
    }
    if (p.detrend > 1) {
      // Deviations from each segment's first sample, their sums (and moments about
      // the mean index for the line) over the segment's nperseg samples.
      const float ra = __shfl_sync(0xffffffffu, z[0].x, 0), rb = __shfl_sync(0xffffffffu, z[0].y, 0);
      float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
#pragma unroll
      for (int a = 0; a < 32; a++) {
        const int k = 32 * a + lane;
        z[a].x -= ra, z[a].y -= rb;
        const float in = k < p.nperseg ? 1.f : 0.f, d = (float)k - cf;
        s0 = fmaf(in, z[a].x, s0), s2 = fmaf(in, z[a].y, s2);
        s1 = fmaf(in * d, z[a].x, s1), s3 = fmaf(in * d, z[a].y, s3);
      }
      double t0 = s0, t1 = s1, t2 = s2, t3 = s3;
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) {
        t0 += __shfl_xor_sync(0xffffffffu, t0, o), t1 += __shfl_xor_sync(0xffffffffu, t1, o);
        t2 += __shfl_xor_sync(0xffffffffu, t2, o), t3 += __shfl_xor_sync(0xffffffffu, t3, o);
      }
      const double m = (double)p.nperseg;
      const float ma = (float)(t0 / m), mb = (float)(t2 / m);
      float sa = 0.f, sb = 0.f;
      if (p.detrend == 3 && p.nperseg > 1) {
        const double q = m * (m * m - 1.) / 12.;  // sum of (k - c)^2
        sa = (float)(t1 / q), sb = (float)(t3 / q);
      }
#pragma unroll
      for (int a = 0; a < 32; a++) {
        const float d = (float)(32 * a + lane) - cf;
        z[a].x -= fmaf(sa, d, ma), z[a].y -= fmaf(sb, d, mb);
      }
    }
#pragma unroll
    for (int a = 0; a < 32; a++) {
      const int k = 32 * a + lane;
      const float wv = k < p.nperseg ? __ldg(p.win + k) : 0.f;
      z[a].x *= wv, z[a].y *= wv;
    }
    giwarp::fft1024(z, tw, tr[w]);
    // |A_f|^2 = ((zr + nr)^2 + (zi - ni)^2)/4, |B_f|^2 = ((zi + ni)^2 + (zr - nr)^2)/4.
    const float sc = 0.25f * p.scale;
#pragma unroll
    for (int k2 = 0; k2 <= 16; k2++) {
      const float2 v = z[giwarp::brev5(k2 & 31)];
      const float2 o = z[giwarp::brev5(31 - k2)], o0 = z[giwarp::brev5((32 - k2) & 31)];
      float2 n;
      n.x = __shfl_sync(0xffffffffu, o.x, (32 - lane) & 31);
      n.y = __shfl_sync(0xffffffffu, o.y, (32 - lane) & 31);
      if (lane == 0) n = o0;
      const int f = lane + 32 * k2;
      if (k2 < 16 || lane == 0) {
        const float dbl = (f > 0 && !(p.evenNyq && f == NF - 1)) ? 2.f * sc : sc;
        const float ar = v.x + n.x, ai = v.y - n.y, br = v.y + n.y, bi = v.x - n.x;
        out[f * SP + 2 * w] = (ar * ar + ai * ai) * dbl;
        out[f * SP + 2 * w + 1] = (br * br + bi * bi) * dbl;
      }
    }
    __syncthreads();
    const int ns = min(S, p.nseg - j0), jl = threadIdx.x % S;
    if (jl < ns) {
      char* d = reinterpret_cast<char*>(p.dst) + (size_t)(r * p.nfreq + threadIdx.x / S) * p.dp + (size_t)(j0 + jl) * 4;
      const size_t step = (size_t)(T / S) * p.dp;
      for (int f = threadIdx.x / S; f < NF; f += T / S, d += step) *reinterpret_cast<float*>(d) = out[f * SP + jl];
    }
    __syncthreads();
  }
}

}  // namespace spec

extern "C" __global__ void __launch_bounds__(128, 4) gi_spec_warp_1024(__grid_constant__ const SpecParams p) {
  spec::warp1024<128>(p);
}

#define GI_SPEC_FUSED(N, T)                                                                           \
  extern "C" __global__ void __launch_bounds__(T) gi_spec_fused_##N(__grid_constant__ const SpecParams p) { \
    spec::fused<N, T>(p);                                                                             \
  }
GI_SPEC_FUSED(2048, 128)
GI_SPEC_FUSED(4096, 256)
