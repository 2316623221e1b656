// FFT convolution of batches of signals by overlap-save (Go caller:
// dsp/cuda_fft.go; the CPU twin is dsp/cpu.go's fftConvCPU): the kernels around
// cuFFT's batched transforms. gi_fftconv_frames cuts each row into overlapping
// frames (zero outside the signal), gi_fftconv_mul multiplies every frame's half
// spectrum by the taps' (and 1/nfft), gi_fftconv_gather keeps the last hop samples
// of each frame. Each is one pass over memory with coalesced loads and stores.
#include "common.cuh"
#include "dsp_params.h"
#include "fft_block.cuh"

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

// The fused overlap-save (FftFusedParams): per pair of frames one forward
// transform, and per filter a product and one inverse transform, all in the block's
// shared memory and registers (fft_block.cuh). Blocks stride over the pairs.
template <int N, int T>
__device__ __forceinline__ void fftconv_fused(const FftFusedParams& p) {
  extern __shared__ __align__(16) char smem[];
  typedef giblk::Block<N, T> Blk;
  Blk blk;
  blk.init(smem);
  const int total = p.rows * p.frames, pairs = (total + 1) / 2;
  for (int q = blockIdx.x; q < pairs; q += gridDim.x) {
    const int fa = 2 * q, fb = 2 * q + 1;
    const bool hasb = fb < total;
    const int ra = fa / p.frames, ja = fa % p.frames;
    const int rb = hasb ? fb / p.frames : ra, jb = hasb ? fb % p.frames : ja;
    const float* xa = row<float>(p.src, p.sp, ra);
    const float* xb = row<float>(p.src, p.sp, rb);
    const int sa = p.start + ja * p.hop, sb = p.start + jb * p.hop;
    __syncthreads();  // the twiddles made; the previous pair's reads done
    blk.first([&](int i) {
      const int ia = sa + i, ib = sb + i;
      return make_float2(ia >= 0 && ia < p.n ? __ldg(xa + ia) : 0.f, hasb && ib >= 0 && ib < p.n ? __ldg(xb + ib) : 0.f);
    });
    __syncthreads();
    blk.template mid<false>();
    const int oa = ja * p.hop, ob = jb * p.hop;
    // finish(k): the inverse transform's shared-memory passes and its last pass
    // into filter k's outputs.
    auto finish = [&](int k) {
      __syncthreads();
      blk.template mid<true>();
      float* da = row<float>(p.dst[k], p.dp[k], ra) + oa;
      float* db = row<float>(p.dst[k], p.dp[k], rb) + ob;
      blk.last([&](int i, float2 v) {
        if (i < p.hop) {
          if (oa + i < p.outn) da[i] = v.x;
          if (hasb && ob + i < p.outn) db[i] = v.y;
        }
      });
    };
    const float2* h = reinterpret_cast<const float2*>(p.h) + threadIdx.x;
    if (p.nf == 1) {
      blk.filter([&](int r) { return __ldg(h + r * T); });
      finish(0);
      continue;
    }
    // Several filters: the spectrum stays in registers, or for the longest frames
    // (32 points a thread would spill) in the block's slot of scratch, read back
    // per filter (from L2: the slots of one wave of blocks fit there).
    constexpr bool REG = Blk::XN <= 16;
    float2 x[REG ? Blk::XN : 1];
    float2* scr = reinterpret_cast<float2*>(p.scratch) + (size_t)blockIdx.x * N + threadIdx.x;
    if (REG) {
      blk.tail([&](int r, float2 v) { x[r] = v; });
    } else {
      blk.tail([&](int r, float2 v) { scr[r * T] = v; });
    }
    for (int k = 0; k < p.nf; k++, h += N) {
      __syncthreads();  // shared memory read by tail or the previous filter's last pass
      if (REG) {
        blk.untail([&](int r) { return giblk::cmul(x[r], __ldg(h + r * T)); });
      } else {
        blk.untail([&](int r) { return giblk::cmul(scr[r * T], __ldg(h + r * T)); });
      }
      finish(k);
    }
  }
}

#define GI_FFTCONV_FUSED(N, T)                                                                     \
  extern "C" __global__ void __launch_bounds__(T) gi_fftconv_f##N(__grid_constant__ const FftFusedParams p) { \
    fftconv_fused<N, T>(p);                                                                         \
  }
GI_FFTCONV_FUSED(1024, 64)
GI_FFTCONV_FUSED(2048, 128)
GI_FFTCONV_FUSED(4096, 256)
GI_FFTCONV_FUSED(8192, 512)
GI_FFTCONV_FUSED(16384, 512)
