// Complex FFTs of N points (a power of two, 1024 to 16384) done by one thread
// block in shared memory and registers, for kernels that transform, work on the
// spectrum and transform back without leaving the SM (dsp_fftconv.cu's fused
// overlap-save). Decimation in frequency, in place: radix-16 passes and a last
// pass of radix N's remaining power of two (2, 4 or 8), so the forward transform
// leaves the spectrum in a digit-reversed order (blockPos gives each frequency's
// place; Go: dsp.fftBlockPos) and the inverse, the same passes undone in reverse
// order with conjugate twiddles, takes it from there back to natural order. A
// pointwise product in between needs no reordering at all.
//
// A pass of radix R on blocks of B points (M = B/R): group o of block b is the R
// points b + o + j*M; their R-point DFT (twiddles fixed at compile time) times
// W_B^(o*k) goes to b + o + k*M. Thread t takes groups t, t+T, t+2T, ..., so
// neighbouring threads touch neighbouring addresses; the points live in shared
// memory as two float arrays (real, imaginary) indexed i + i/32, which keeps every
// pass free of bank conflicts but one 2-way one. W_B^o comes from a table of the
// first N/16 powers of W_N that the block makes once; its powers by products
// (depth four, a few ulps).
#pragma once

namespace giblk {

__host__ __device__ constexpr int ilog2(int n) { return n <= 1 ? 0 : 1 + ilog2(n / 2); }

// Plan<N>: the passes of an N-point transform.
template <int N>
struct Plan {
  static constexpr int LOG = ilog2(N);
  static constexpr int NQ = LOG / 4;            // radix-16 passes
  static constexpr int REM = 1 << (LOG % 4);    // the last pass's radix (1: none)
  static constexpr int NP = NQ + (REM > 1 ? 1 : 0);
  static constexpr int LAST = REM > 1 ? REM : 16;  // radix of the last pass
  static constexpr int PAD = N + N / 32;          // floats of each shared array
};

__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ __forceinline__ float2 cmulc(float2 a, float2 b) {  // a * conj(b)
  return make_float2(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y);
}

// rot<INV>(d, q) is d * W_16^q (forward: exp(-2 pi i q/16); inverse: conjugate),
// q in 0..7 known at compile time.
__host__ __device__ constexpr float cos16(int q) {  // cos(2 pi q/16), q in 0..7
  return q == 0 ? 1.f : q == 1 ? 0.923879533f : q == 2 ? 0.707106781f : q == 3 ? 0.382683432f
       : q == 4 ? 0.f : q == 5 ? -0.382683432f : q == 6 ? -0.707106781f : -0.923879533f;
}
template <bool INV>
__device__ __forceinline__ float2 rot(float2 d, int q) {
  if (q == 0) return d;
  if (q == 4) return INV ? make_float2(-d.y, d.x) : make_float2(d.y, -d.x);
  const float sin16 = cos16(q >= 4 ? q - 4 : 4 - q);  // sin(2 pi q/16)
  const float cs = cos16(q), sn = INV ? sin16 : -sin16;
  return make_float2(d.x * cs - d.y * sn, d.x * sn + d.y * cs);
}

__host__ __device__ constexpr int brev(int i, int bits) {
  return bits == 0 ? 0 : ((i & 1) << (bits - 1)) | brev(i >> 1, bits - 1);
}

// stage<H, R, INV>(a): the radix-2 stages of spans H, H/2, .., 1 of an R-point DFT.
template <int H, int R, bool INV>
struct Stage {
  static __device__ __forceinline__ void run(float2 (&a)[R]) {
#pragma unroll
    for (int blk = 0; blk < R; blk += 2 * H) {
#pragma unroll
      for (int p = 0; p < H; p++) {
        const float2 x = a[blk + p], y = a[blk + p + H];
        a[blk + p] = make_float2(x.x + y.x, x.y + y.y);
        a[blk + p + H] = rot<INV>(make_float2(x.x - y.x, x.y - y.y), p * (8 / H));
      }
    }
    Stage<H / 2, R, INV>::run(a);
  }
};
template <int R, bool INV>
struct Stage<0, R, INV> {
  static __device__ __forceinline__ void run(float2 (&)[R]) {}
};

// dft<R, INV>(a): a becomes its R-point DFT (R <= 16), in natural order.
template <int R, bool INV>
__device__ __forceinline__ void dft(float2 (&a)[R]) {
  Stage<R / 2, R, INV>::run(a);
  float2 b[R];
#pragma unroll
  for (int i = 0; i < R; i++) b[brev(i, ilog2(R))] = a[i];
#pragma unroll
  for (int i = 0; i < R; i++) a[i] = b[i];
}

// Pow16: the powers w^1 .. w^15 of a twiddle w from six registers (w^1..w^3 and
// w^4, w^8, w^12; products of depth three at most, a few ulps).
struct Pow16 {
  float2 p1, p2, p3, q1, q2, q3;
  __device__ __forceinline__ explicit Pow16(float2 w) {
    p1 = w;
    p2 = cmul(w, w);
    p3 = cmul(p2, w);
    q1 = cmul(p2, p2);
    q2 = cmul(q1, q1);
    q3 = cmul(q2, q1);
  }
  // get(k) is w^k, k in 1..15 known at compile time.
  __device__ __forceinline__ float2 get(int k) const {
    const float2 lo = (k & 3) == 1 ? p1 : (k & 3) == 2 ? p2 : p3;
    const float2 hi = (k >> 2) == 1 ? q1 : (k >> 2) == 2 ? q2 : q3;
    return (k >> 2) == 0 ? lo : (k & 3) == 0 ? hi : cmul(hi, lo);
  }
};

// Block<N, T>: the shared arrays and the passes of an N-point transform by T threads.
template <int N, int T>
struct Block {
  typedef Plan<N> P;
  float* re;       // P::PAD floats
  float* im;       // P::PAD floats
  float2* tw;      // N/16 powers of W_N
  static constexpr int SMEM = (2 * P::PAD) * 4 + (N / 16) * 8;

  // init makes the twiddle table (once per block; needs a __syncthreads after).
  __device__ void init(char* smem) {
    re = reinterpret_cast<float*>(smem);
    im = re + P::PAD;
    tw = reinterpret_cast<float2*>(im + P::PAD);
    for (int e = threadIdx.x; e < N / 16; e += T) {
      float s, c;
      sincospif(-2.f * e / N, &s, &c);
      tw[e] = make_float2(c, s);
    }
  }

  // pass<B, INV>: one radix-16 pass over shared memory (forward: DFT then
  // twiddles; inverse: conjugate twiddles then inverse DFT).
  template <int B, bool INV>
  __device__ __forceinline__ void pass() {
    constexpr int R = 16, M = B / R;
#pragma unroll 1
    for (int g = threadIdx.x; g < N / R; g += T) {
      const int o = g % M, base = (g / M) * B + o;
      float2 a[R];
#pragma unroll
      for (int j = 0; j < R; j++) a[j] = make_float2(re[pad(base + j * M)], im[pad(base + j * M)]);
      const Pow16 w(tw[o * (N / B)]);
      if (INV) {
#pragma unroll
        for (int k = 1; k < R; k++) a[k] = cmulc(a[k], w.get(k));
        dft<R, true>(a);
      } else {
        dft<R, false>(a);
#pragma unroll
        for (int k = 1; k < R; k++) a[k] = cmul(a[k], w.get(k));
      }
#pragma unroll
      for (int j = 0; j < R; j++) {
        re[pad(base + j * M)] = a[j].x;
        im[pad(base + j * M)] = a[j].y;
      }
    }
  }

  // first: the first forward pass (radix 16, B = N) from get(i), the input's point
  // i, into shared memory.
  template <class Get>
  __device__ __forceinline__ void first(Get get) {
    constexpr int M = N / 16;
#pragma unroll 1
    for (int o = threadIdx.x; o < M; o += T) {
      float2 a[16];
#pragma unroll
      for (int j = 0; j < 16; j++) a[j] = get(o + j * M);
      dft<16, false>(a);
      const Pow16 w(tw[o]);
#pragma unroll
      for (int k = 0; k < 16; k++) {
        const float2 v = k ? cmul(a[k], w.get(k)) : a[k];
        re[pad(o + k * M)] = v.x;
        im[pad(o + k * M)] = v.y;
      }
    }
  }

  // last: the inverse of first, from shared memory to put(i, v) for point i.
  template <class Put>
  __device__ __forceinline__ void last(Put put) {
    constexpr int M = N / 16;
#pragma unroll 1
    for (int o = threadIdx.x; o < M; o += T) {
      float2 a[16];
      const Pow16 w(tw[o]);
#pragma unroll
      for (int k = 0; k < 16; k++) {
        const float2 v = make_float2(re[pad(o + k * M)], im[pad(o + k * M)]);
        a[k] = k ? cmulc(v, w.get(k)) : v;
      }
      dft<16, true>(a);
#pragma unroll
      for (int j = 0; j < 16; j++) put(o + j * M, a[j]);
    }
  }

  // The middle passes (radix 16, B = N/16 and N/256 where they are not the last):
  // mid<false> forward, mid<true> inverse (in reverse order), synchronising
  // after each.
  template <bool INV>
  __device__ __forceinline__ void mid() {
    constexpr bool two = P::NP == 4;  // a pass at N/16 and one at N/256
    if (!INV) {
      pass<N / 16, false>();
      __syncthreads();
      if (two) {
        pass<(two ? N / 256 : 256), false>();
        __syncthreads();
      }
    } else {
      if (two) {
        pass<(two ? N / 256 : 256), true>();
        __syncthreads();
      }
      pass<N / 16, true>();
      __syncthreads();
    }
  }

  // The last forward pass (radix P::LAST on blocks of as many points: no
  // twiddles) hands its points to put(r, v): register r = g*L + j of the thread is
  // point (t + g*T)*L + j. XN = N/T registers a thread.
  static constexpr int L = P::LAST;
  static constexpr int XN = N / T;
  template <class Put>
  __device__ __forceinline__ void tail(Put put) {
#pragma unroll
    for (int g = 0; g < XN / L; g++) {
      const int base = (threadIdx.x + g * T) * L;
      float2 a[L];
#pragma unroll
      for (int j = 0; j < L; j++) a[j] = make_float2(re[pad(base + j)], im[pad(base + j)]);
      dft<L, false>(a);
#pragma unroll
      for (int j = 0; j < L; j++) put(g * L + j, a[j]);
    }
  }

  // filter is tail, a product by h(r) (register r as tail numbers them) and
  // untail in one, with no registers kept: a thread's points stay its own.
  template <class H>
  __device__ __forceinline__ void filter(H h) {
#pragma unroll 1
    for (int g = 0; g < XN / L; g++) {
      const int base = (threadIdx.x + g * T) * L;
      float2 a[L];
#pragma unroll
      for (int j = 0; j < L; j++) a[j] = make_float2(re[pad(base + j)], im[pad(base + j)]);
      dft<L, false>(a);
#pragma unroll
      for (int j = 0; j < L; j++) a[j] = cmul(a[j], h(g * L + j));
      dft<L, true>(a);
#pragma unroll
      for (int j = 0; j < L; j++) {
        re[pad(base + j)] = a[j].x;
        im[pad(base + j)] = a[j].y;
      }
    }
  }

  // untail undoes tail for the points get(r) (register r as tail numbers them),
  // writing to shared memory (the caller synchronises before and after).
  template <class Get>
  __device__ __forceinline__ void untail(Get get) {
#pragma unroll
    for (int g = 0; g < XN / L; g++) {
      const int base = (threadIdx.x + g * T) * L;
      float2 a[L];
#pragma unroll
      for (int j = 0; j < L; j++) a[j] = get(g * L + j);
      dft<L, true>(a);
#pragma unroll
      for (int j = 0; j < L; j++) {
        re[pad(base + j)] = a[j].x;
        im[pad(base + j)] = a[j].y;
      }
    }
  }
};

}  // namespace giblk
