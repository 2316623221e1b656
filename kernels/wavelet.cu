// Discrete wavelet transforms, one level a launch (Go caller: wavelet/cuda.go; the
// CPU twin is wavelet/cpu.go, in float64 from PyWavelets' definitions). Each
// kernel is templated on FM, its number of taps (2, 4, 8, 12, 20, 30): a shorter
// filter comes padded with zeros past its last tap (terms that add nothing; the
// alignment, off, stays the filter's own), so that tiles, halos and loops are all
// fixed at compile time.
//   gi_wt_dwt_rows_fFM   forward, each row: a block stages 2*GI_WT_RT*2 samples and
//                        the halo, split by parity (conflict-free reads)
//   gi_wt_dwt_cols_fFM   forward, each column: GI_WT_BX columns, GI_WT_CT outputs
//   gi_wt_dwt2_fFM       forward 2-D: the input tile, its column pass (lo and hi)
//                        in shared memory, then the row pass into the 4 subbands
//   gi_wt_idwt_rows_fFM, gi_wt_idwt_cols_fFM, gi_wt_idwt2_fFM   the inverses: the
//                        coefficients a tile needs staged, the 2-D one's row pass
//                        kept in shared memory for its column pass
//   gi_wt_dwt2_haar, gi_wt_idwt2_haar   Haar in 2-D for even sizes and aligned
//                        rows: a thread a 2x4 block (16-byte loads, 8-byte stores)
//   gi_wt_sumsq, gi_wt_threshold   Denoise: a subband's sum of squares (in double),
//                        and its soft or hard thresholding
// Tiles wholly inside the signal read it directly; the others extend it by the
// mode (ext), a sample at a time.
#include "common.cuh"
#include "wavelet_params.h"

namespace wt {

enum { kSymmetric, kPeriodization, kZero, kReflect, kPeriodic, kConstant, kSmooth, kAntisymmetric };

// imod is a mod b (b > 0) for the a a tile reaches, at most a filter's length past
// the line's ends: by steps, not a division (whose subroutine spills).
__device__ __forceinline__ int imod(int a, int b) {
  while (a < 0) a += b;
  while (a >= b) a -= b;
  return a;
}
// floor(a / 2) for negative a too.
__device__ __forceinline__ int half_floor(int a) { return a >> 1; }

// Ext is sample k of a line of n samples extended by mode: w1 x[i1] + w2 x[i2]
// (as wavelet/mode.go's ext).
struct Ext {
  int i1, i2;
  float w1, w2;
};
__device__ __forceinline__ Ext ext(int k, int n, int mode) {
  Ext e{k, 0, 1.f, 0.f};
  if (k >= 0 && k < n) return e;
  switch (mode) {
    case kZero:
      e.i1 = 0, e.w1 = 0.f;
      break;
    case kConstant:
      e.i1 = k < 0 ? 0 : n - 1;
      break;
    case kPeriodic:
      e.i1 = imod(k, n);
      break;
    case kPeriodization: {
      const int i = imod(k, n + (n & 1));
      e.i1 = i == n ? n - 1 : i;
      break;
    }
    case kSymmetric:
    case kAntisymmetric: {
      int i = imod(k, 2 * n);
      if (i >= n) {
        i = 2 * n - 1 - i;
        if (mode == kAntisymmetric) e.w1 = -1.f;
      }
      e.i1 = i;
      break;
    }
    case kReflect: {
      if (n == 1) {
        e.i1 = 0;
        break;
      }
      const int p = 2 * n - 2;
      const int i = imod(k, p);
      e.i1 = i >= n ? p - i : i;
      break;
    }
    case kSmooth:
      if (n == 1) {
        e.i1 = 0;
      } else if (k < 0) {
        e.i1 = 0, e.w1 = float(1 - k), e.i2 = 1, e.w2 = float(k);
      } else {
        const float d = float(k - n + 1);
        e.i1 = n - 1, e.w1 = 1.f + d, e.i2 = n - 2, e.w2 = -d;
      }
      break;
  }
  return e;
}

// macc adds a*b to s: fused for longer filters; for two taps (Haar) the product
// rounded first, as float64 does on the CPU, so that a flat region's details
// (x*h + x*(-h)) are exactly zero there too (Denoise's noise estimate leaves
// exact zeros out, as scikit-image does).
template <int FM>
__device__ __forceinline__ float macc(float a, float b, float s) {
  return FM == 2 ? __fadd_rn(s, __fmul_rn(a, b)) : fmaf(a, b, s);
}
// two is a*x + b*y with both products rounded (Haar's exact zeros).
__device__ __forceinline__ float two(float a, float x, float b, float y) { return __fadd_rn(__fmul_rn(a, x), __fmul_rn(b, y)); }

__device__ __forceinline__ float at(const char* base, long stride, int i) {
  return __ldg(reinterpret_cast<const float*>(base + stride * i));
}
// fetch is sample k of the line at base (samples stride bytes apart) extended.
__device__ __forceinline__ float fetch(const char* base, long stride, int k, int n, int mode) {
  const Ext e = ext(k, n, mode);
  float v = e.w1 == 0.f ? 0.f : e.w1 * at(base, stride, e.i1);
  if (e.w2 != 0.f) v = fmaf(e.w2, at(base, stride, e.i2), v);
  return v;
}

__device__ __forceinline__ const char* rowp(const float* p, int pitch, int r) {
  return reinterpret_cast<const char*>(p) + static_cast<long>(pitch) * r;
}
__device__ __forceinline__ float* orow(float* p, int pitch, int r) {
  return reinterpret_cast<float*>(reinterpret_cast<char*>(p) + static_cast<long>(pitch) * r);
}

// ---------------------------------------------------------------------------
// Forward, along rows: outputs o0 .. o0 + 2*RT of a row; sample s of the tile is
// x[start + s], start = 2*o0 + off - f + 1, kept as se[s/2] (even s) and so[s/2].
template <int FM>
__device__ __forceinline__ void dwt_rows(const WtParams& p) {
  constexpr int T = 2 * GI_WT_RT;
  constexpr int H = (2 * T + FM) / 2;
  __shared__ float s[2][H];
  const int n = p.iw, m = p.ow;
  constexpr int f = FM;
  const int len = 2 * T + f - 2;
  const int o0 = blockIdx.x * T;
  const int start = 2 * o0 + p.off - f + 1;
  const bool inside = start >= 0 && start + len <= n;
  for (int r = blockIdx.y; r < p.ih; r += gridDim.y) {
    const char* line = rowp(p.in[0], p.ip[0], r);
    for (int t = threadIdx.x; t < len; t += GI_WT_RT) {
      const float v = inside ? at(line, 4, start + t) : fetch(line, 4, start + t, n, p.mode);
      s[t & 1][t >> 1] = v;
    }
    __syncthreads();
    float* a = orow(p.out[0], p.op[0], r);
    float* d = orow(p.out[1], p.op[1], r);
#pragma unroll
    for (int q = 0; q < 2; q++) {
      const int l = threadIdx.x + q * GI_WT_RT, o = o0 + l;
      float sa = 0.f, sd = 0.f;
#pragma unroll
      for (int j = 0; j < FM; j++) {
        const int u = f - 1 - j;  // the tile sample 2l + u
        const float v = s[u & 1][l + (u >> 1)];
        sa = macc<FM>(p.lo[j], v, sa);
        sd = macc<FM>(p.hi[j], v, sd);
      }
      if (o < m) a[o] = sa, d[o] = sd;
    }
    __syncthreads();
  }
}

// Forward, along columns: GI_WT_BX columns, outputs o0 .. o0 + CT; tile row t is
// x[start + t], kept as s[t & 1][t / 2].
template <int FM>
__device__ __forceinline__ void dwt_cols(const WtParams& p) {
  constexpr int CT = GI_WT_CT;
  constexpr int H = (2 * CT + FM) / 2;
  __shared__ float s[2][H][GI_WT_BX];
  const int n = p.ih, m = p.oh;
  constexpr int f = FM;
  const int len = 2 * CT + f - 2;
  const int c = blockIdx.x * GI_WT_BX + threadIdx.x;
  const bool col = c < p.iw;
  const char* base = reinterpret_cast<const char*>(p.in[0]) + 4l * (col ? c : 0);
  for (int by = blockIdx.y; by * CT < m; by += gridDim.y) {
    const int o0 = by * CT;
    const int start = 2 * o0 + p.off - f + 1;
    const bool inside = start >= 0 && start + len <= n;
    for (int t = threadIdx.y; t < len; t += GI_WT_BY) {
      float v = 0.f;
      if (col) v = inside ? at(base, p.ip[0], start + t) : fetch(base, p.ip[0], start + t, n, p.mode);
      s[t & 1][t >> 1][threadIdx.x] = v;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < CT / GI_WT_BY; q++) {
      const int l = threadIdx.y + q * GI_WT_BY, o = o0 + l;
      float sa = 0.f, sd = 0.f;
#pragma unroll
      for (int j = 0; j < FM; j++) {
        const int u = f - 1 - j;
        const float v = s[u & 1][l + (u >> 1)][threadIdx.x];
        sa = macc<FM>(p.lo[j], v, sa);
        sd = macc<FM>(p.hi[j], v, sd);
      }
      if (col && o < m) orow(p.out[0], p.op[0], o)[c] = sa, orow(p.out[1], p.op[1], o)[c] = sd;
    }
    __syncthreads();
  }
}

// Forward 2-D: the FY x FX outputs of each subband at (oy0, ox0). The input tile,
// rows ry0 + tr and columns rx0 + tc (ry0 = 2*oy0 + off - f + 1), in x; its column
// pass (lo, hi) for each tile column in v, split by the column's parity.
template <int FM>
__device__ __forceinline__ void dwt2(const WtParams& p) {
  constexpr int FX = GI_WT_FX, FY = GI_WT_FY;
  constexpr int LC = 2 * FX + FM - 2, LR = 2 * FY + FM - 2;
  constexpr int HC = (LC + 1) / 2;
  __shared__ float x[LR][LC];
  __shared__ float v[2][FY][2][HC];
  constexpr int f = FM;
  const int lc = 2 * FX + f - 2, lr = 2 * FY + f - 2;
  const int ox0 = blockIdx.x * FX;
  const int rx0 = 2 * ox0 + p.off - f + 1;
  for (int by = blockIdx.y; by * FY < p.oh; by += gridDim.y) {
    const int oy0 = by * FY;
    const int ry0 = 2 * oy0 + p.off - f + 1;
    const bool inside = rx0 >= 0 && rx0 + lc <= p.iw && ry0 >= 0 && ry0 + lr <= p.ih;
    if (inside) {
      // Unrolled to the tile's largest size, so that a thread's loads are all in
      // flight at once.
#pragma unroll
      for (int q = 0; q < (LR + GI_WT_BY - 1) / GI_WT_BY; q++) {
        const int tr = threadIdx.y + q * GI_WT_BY;
        if (tr < lr) {
          const char* line = rowp(p.in[0], p.ip[0], ry0 + tr);
#pragma unroll
          for (int u = 0; u < (LC + GI_WT_BX - 1) / GI_WT_BX; u++) {
            const int tc = threadIdx.x + u * GI_WT_BX;
            if (tc < lc) x[tr][tc] = at(line, 4, rx0 + tc);
          }
        }
      }
    } else {
      for (int tr = threadIdx.y; tr < lr; tr += GI_WT_BY) {
        const Ext er = ext(ry0 + tr, p.ih, p.mode);
        const char* l1 = rowp(p.in[0], p.ip[0], er.i1);
        const char* l2 = rowp(p.in[0], p.ip[0], er.i2);
        for (int tc = threadIdx.x; tc < lc; tc += GI_WT_BX) {
          const int k = rx0 + tc;
          float val = 0.f;
          if (er.w1 != 0.f) val = er.w1 * fetch(l1, 4, k, p.iw, p.mode);
          if (er.w2 != 0.f) val = fmaf(er.w2, fetch(l2, 4, k, p.iw, p.mode), val);
          x[tr][tc] = val;
        }
      }
    }
    __syncthreads();
    // Column pass: v[0] (lo) and v[1] (hi) of output rows l = ty, ty + BY, ... of
    // tile columns tc = tx, tx + BX, ...
#pragma unroll
    for (int u = 0; u < (LC + GI_WT_BX - 1) / GI_WT_BX; u++) {
      const int tc = threadIdx.x + u * GI_WT_BX;
      if (tc < lc) {
#pragma unroll 1
        for (int q = 0; q < FY / GI_WT_BY; q++) {
          const int l = threadIdx.y + q * GI_WT_BY;
          float sl = 0.f, sh = 0.f;
#pragma unroll
          for (int j = 0; j < FM; j++) {
            const float val = x[2 * l + f - 1 - j][tc];
            sl = macc<FM>(p.lo[j], val, sl);
            sh = macc<FM>(p.hi[j], val, sh);
          }
          v[0][l][tc & 1][tc >> 1] = sl;
          v[1][l][tc & 1][tc >> 1] = sh;
        }
      }
    }
    __syncthreads();
    // Row pass: aa (cA), ad (cV), da (cH), dd (cD).
    const int ox = ox0 + threadIdx.x;
#pragma unroll
    for (int q = 0; q < FY / GI_WT_BY; q++) {
      const int l = threadIdx.y + q * GI_WT_BY, oy = oy0 + l;
      float aa = 0.f, ad = 0.f, da = 0.f, dd = 0.f;
#pragma unroll
      for (int j = 0; j < FM; j++) {
        const int u = f - 1 - j;
        const float vl = v[0][l][u & 1][threadIdx.x + (u >> 1)];
        const float vh = v[1][l][u & 1][threadIdx.x + (u >> 1)];
        aa = macc<FM>(p.lo[j], vl, aa);
        ad = macc<FM>(p.hi[j], vl, ad);
        da = macc<FM>(p.lo[j], vh, da);
        dd = macc<FM>(p.hi[j], vh, dd);
      }
      if (ox < p.ow && oy < p.oh) {
        orow(p.out[0], p.op[0], oy)[ox] = aa;
        orow(p.out[1], p.op[1], oy)[ox] = da;
        orow(p.out[2], p.op[2], oy)[ox] = ad;
        orow(p.out[3], p.op[3], oy)[ox] = dd;
      }
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------
// The inverses. Output i of a line takes coefficients k = (i + off - j) / 2 for
// the j of i + off's parity; a tile of outputs i0 .. i0 + 2T (i0 even) needs
// k0 = floor((i0 + off - f + 1) / 2) .. (i0 + 2T - 1 + off) / 2.

// cidx is coefficient k's index: modulo m in periodization mode; -1 outside
// 0 .. m-1 otherwise (no output in range uses it).
__device__ __forceinline__ int cidx(int k, int m, int mode) {
  if (mode == kPeriodization) return imod(k, m);
  return k >= 0 && k < m ? k : -1;
}

// isum is output i0 + 2t + e's sum over the staged coefficients ca/cd (stride
// apart in shared memory, index 0 = k0).
template <int FM>
__device__ __forceinline__ float isum(const WtParams& p, const float* ca, const float* cd, int stride, int i0, int k0,
                                      int t, int e) {
  const int par = (e + p.off) & 1;
  const int kb = ((i0 + p.off + e - par) >> 1) - k0 + t;
  float s = 0.f;
#pragma unroll
  for (int q = 0; q < FM / 2; q++) {
    const int j = par + 2 * q;
    const int k = (kb - q) * stride;
    s = fmaf(p.lo[j], ca[k], s);
    s = fmaf(p.hi[j], cd[k], s);
  }
  return s;
}

template <int FM>
__device__ __forceinline__ void idwt_rows(const WtParams& p) {
  constexpr int T = GI_WT_RT;  // outputs 2T a block
  constexpr int K = T + FM / 2 + 1;
  __shared__ float sa[K], sd[K];
  const int m = p.iw, L = p.ow;
  const int i0 = blockIdx.x * 2 * T;
  const int k0 = half_floor(i0 + p.off - FM + 1);
  const int k1 = (i0 + 2 * T - 1 + p.off) >> 1;
  for (int r = blockIdx.y; r < p.ih; r += gridDim.y) {
    const char* la = rowp(p.in[0], p.ip[0], r);
    const char* ld = rowp(p.in[1], p.ip[1], r);
    for (int t = threadIdx.x; t <= k1 - k0; t += T) {
      const int k = cidx(k0 + t, m, p.mode);
      sa[t] = k < 0 ? 0.f : at(la, 4, k);
      sd[t] = k < 0 ? 0.f : at(ld, 4, k);
    }
    __syncthreads();
    float* out = orow(p.out[0], p.op[0], r);
#pragma unroll
    for (int e = 0; e < 2; e++) {
      const int i = i0 + 2 * threadIdx.x + e;
      const float s = isum<FM>(p, sa, sd, 1, i0, k0, threadIdx.x, e);
      if (i < L) out[i] = s;
    }
    __syncthreads();
  }
}

template <int FM>
__device__ __forceinline__ void idwt_cols(const WtParams& p) {
  constexpr int CT = GI_WT_CT;  // outputs 2*CT a column
  constexpr int K = CT + FM / 2 + 1;
  __shared__ float sa[K][GI_WT_BX], sd[K][GI_WT_BX];
  const int m = p.ih, L = p.oh;
  const int c = blockIdx.x * GI_WT_BX + threadIdx.x;
  const bool col = c < p.iw;
  for (int by = blockIdx.y; by * 2 * CT < L; by += gridDim.y) {
    const int i0 = by * 2 * CT;
    const int k0 = half_floor(i0 + p.off - FM + 1);
    const int k1 = (i0 + 2 * CT - 1 + p.off) >> 1;
    for (int t = threadIdx.y; t <= k1 - k0; t += GI_WT_BY) {
      const int k = cidx(k0 + t, m, p.mode);
      const bool ok = col && k >= 0;
      sa[t][threadIdx.x] = ok ? at(rowp(p.in[0], p.ip[0], k), 4, c) : 0.f;
      sd[t][threadIdx.x] = ok ? at(rowp(p.in[1], p.ip[1], k), 4, c) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < CT / GI_WT_BY; q++) {
      const int t = threadIdx.y + q * GI_WT_BY;
#pragma unroll
      for (int e = 0; e < 2; e++) {
        const int i = i0 + 2 * t + e;
        const float s = isum<FM>(p, &sa[0][threadIdx.x], &sd[0][threadIdx.x], GI_WT_BX, i0, k0, t, e);
        if (col && i < L) orow(p.out[0], p.op[0], i)[c] = s;
      }
    }
    __syncthreads();
  }
}

// Inverse 2-D: the 2FY x 2FX outputs at (i0y, i0x). The four subbands' tiles
// (rows k0y.., columns k0x..), their row pass (lo: cA with cV, hi: cH with cD)
// for each staged coefficient row, then the column pass.
template <int FM>
__device__ __forceinline__ void idwt2(const WtParams& p) {
  constexpr int FX = GI_WT_FX, FY = GI_WT_FY;
  constexpr int KC = FX + FM / 2 + 1, KR = FY + FM / 2 + 1;
  __shared__ float c[4][KR][KC];
  __shared__ float h[2][KR][2 * FX];
  const int tid = threadIdx.y * GI_WT_BX + threadIdx.x;
  const int i0x = blockIdx.x * 2 * FX;
  const int k0x = half_floor(i0x + p.off - FM + 1);
  const int kcn = ((i0x + 2 * FX - 1 + p.off) >> 1) - k0x + 1;
  for (int by = blockIdx.y; by * 2 * FY < p.oh; by += gridDim.y) {
    const int i0y = by * 2 * FY;
    const int k0y = half_floor(i0y + p.off - FM + 1);
    const int krn = ((i0y + 2 * FY - 1 + p.off) >> 1) - k0y + 1;
    for (int tr = threadIdx.y; tr < krn; tr += GI_WT_BY) {
      const int kr = cidx(k0y + tr, p.ih, p.mode);
      for (int tc = threadIdx.x; tc < kcn; tc += GI_WT_BX) {
        const int kc = cidx(k0x + tc, p.iw, p.mode);
        const bool ok = kr >= 0 && kc >= 0;
#pragma unroll
        for (int b = 0; b < 4; b++) c[b][tr][tc] = ok ? at(rowp(p.in[b], p.ip[b], kr), 4, kc) : 0.f;
      }
    }
    __syncthreads();
    // Row pass: h[0] from cA (lo) and cV (hi), h[1] from cH and cD.
    for (int i = tid; i < krn * FX; i += GI_WT_BX * GI_WT_BY) {
      const int tr = i / FX, t = i - tr * FX;
#pragma unroll
      for (int e = 0; e < 2; e++) {
        h[0][tr][2 * t + e] = isum<FM>(p, &c[0][tr][0], &c[2][tr][0], 1, i0x, k0x, t, e);
        h[1][tr][2 * t + e] = isum<FM>(p, &c[1][tr][0], &c[3][tr][0], 1, i0x, k0x, t, e);
      }
    }
    __syncthreads();
    // Column pass: output rows i0y + 2t + e, columns i0x + x.
#pragma unroll 1
    for (int q = 0; q < FY / GI_WT_BY; q++) {
      const int t = threadIdx.y + q * GI_WT_BY;
#pragma unroll
      for (int e = 0; e < 2; e++) {
        const int oy = i0y + 2 * t + e;
#pragma unroll
        for (int u = 0; u < 2; u++) {
          const int x = threadIdx.x + u * GI_WT_BX, ox = i0x + x;
          const float s = isum<FM>(p, &h[0][0][x], &h[1][0][x], 2 * FX, i0y, k0y, t, e);
          if (ox < p.ow && oy < p.oh) orow(p.out[0], p.op[0], oy)[ox] = s;
        }
      }
    }
    __syncthreads();
  }
}

// Haar (2 taps) in 2-D, even sizes: a thread reads a 2x4 block of the image (two
// 16-byte loads) and writes 2 coefficients of each subband (8-byte stores); the
// inverse reads 2 of each subband and writes the 2x4 block. No tile, no extension
// (2 taps reach no sample past an even length).
__device__ __forceinline__ void haar2(const WtParams& p) {
  const int ox = 2 * (blockIdx.x * GI_WT_BX + threadIdx.x);
  if (ox >= p.ow) return;
  const float l0 = p.lo[0], l1 = p.lo[1], h0 = p.hi[0], h1 = p.hi[1];
  for (int oy = blockIdx.y * GI_WT_BY + threadIdx.y; oy < p.oh; oy += gridDim.y * GI_WT_BY) {
    const float4 r0 = __ldg(reinterpret_cast<const float4*>(rowp(p.in[0], p.ip[0], 2 * oy)) + ox / 2);
    const float4 r1 = __ldg(reinterpret_cast<const float4*>(rowp(p.in[0], p.ip[0], 2 * oy + 1)) + ox / 2);
    // Column pass (sample 2o+1 takes tap 0, 2o tap 1), then the row pass.
    const float4 vl = make_float4(two(l0, r1.x, l1, r0.x), two(l0, r1.y, l1, r0.y), two(l0, r1.z, l1, r0.z), two(l0, r1.w, l1, r0.w));
    const float4 vh = make_float4(two(h0, r1.x, h1, r0.x), two(h0, r1.y, h1, r0.y), two(h0, r1.z, h1, r0.z), two(h0, r1.w, h1, r0.w));
    reinterpret_cast<float2*>(orow(p.out[0], p.op[0], oy))[ox / 2] = make_float2(two(l0, vl.y, l1, vl.x), two(l0, vl.w, l1, vl.z));
    reinterpret_cast<float2*>(orow(p.out[1], p.op[1], oy))[ox / 2] = make_float2(two(l0, vh.y, l1, vh.x), two(l0, vh.w, l1, vh.z));
    reinterpret_cast<float2*>(orow(p.out[2], p.op[2], oy))[ox / 2] = make_float2(two(h0, vl.y, h1, vl.x), two(h0, vl.w, h1, vl.z));
    reinterpret_cast<float2*>(orow(p.out[3], p.op[3], oy))[ox / 2] = make_float2(two(h0, vh.y, h1, vh.x), two(h0, vh.w, h1, vh.z));
  }
}

__device__ __forceinline__ void ihaar2(const WtParams& p) {
  const int kx = 2 * (blockIdx.x * GI_WT_BX + threadIdx.x);
  if (kx >= p.iw) return;
  const float l0 = p.lo[0], l1 = p.lo[1], h0 = p.hi[0], h1 = p.hi[1];
  for (int ky = blockIdx.y * GI_WT_BY + threadIdx.y; ky < p.ih; ky += gridDim.y * GI_WT_BY) {
    const float2 a = __ldg(reinterpret_cast<const float2*>(rowp(p.in[0], p.ip[0], ky)) + kx / 2);
    const float2 h = __ldg(reinterpret_cast<const float2*>(rowp(p.in[1], p.ip[1], ky)) + kx / 2);
    const float2 v = __ldg(reinterpret_cast<const float2*>(rowp(p.in[2], p.ip[2], ky)) + kx / 2);
    const float2 d = __ldg(reinterpret_cast<const float2*>(rowp(p.in[3], p.ip[3], ky)) + kx / 2);
    // Row pass: lo from cA and cV, hi from cH and cD (output 2k takes tap 0, 2k+1
    // tap 1); then the column pass the same way.
    const float4 lo = make_float4(fmaf(l0, a.x, h0 * v.x), fmaf(l1, a.x, h1 * v.x), fmaf(l0, a.y, h0 * v.y),
                                  fmaf(l1, a.y, h1 * v.y));
    const float4 hi = make_float4(fmaf(l0, h.x, h0 * d.x), fmaf(l1, h.x, h1 * d.x), fmaf(l0, h.y, h0 * d.y),
                                  fmaf(l1, h.y, h1 * d.y));
    reinterpret_cast<float4*>(orow(p.out[0], p.op[0], 2 * ky))[kx / 2] =
        make_float4(fmaf(l0, lo.x, h0 * hi.x), fmaf(l0, lo.y, h0 * hi.y), fmaf(l0, lo.z, h0 * hi.z), fmaf(l0, lo.w, h0 * hi.w));
    reinterpret_cast<float4*>(orow(p.out[0], p.op[0], 2 * ky + 1))[kx / 2] =
        make_float4(fmaf(l1, lo.x, h1 * hi.x), fmaf(l1, lo.y, h1 * hi.y), fmaf(l1, lo.z, h1 * hi.z), fmaf(l1, lo.w, h1 * hi.w));
  }
}

}  // namespace wt

extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_dwt2_haar(WtParams p) { wt::haar2(p); }
extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_idwt2_haar(WtParams p) { wt::ihaar2(p); }

#define GI_WT_KERNELS(FM)                                                                                         \
  extern "C" __global__ void __launch_bounds__(GI_WT_RT) gi_wt_dwt_rows_f##FM(WtParams p) { wt::dwt_rows<FM>(p); } \
  extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_dwt_cols_f##FM(WtParams p) {             \
    wt::dwt_cols<FM>(p);                                                                                          \
  }                                                                                                               \
  extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_dwt2_f##FM(WtParams p) { wt::dwt2<FM>(p); } \
  extern "C" __global__ void __launch_bounds__(GI_WT_RT) gi_wt_idwt_rows_f##FM(WtParams p) { wt::idwt_rows<FM>(p); } \
  extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_idwt_cols_f##FM(WtParams p) {            \
    wt::idwt_cols<FM>(p);                                                                                         \
  }                                                                                                               \
  extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_idwt2_f##FM(WtParams p) { wt::idwt2<FM>(p); }

GI_WT_KERNELS(2)
GI_WT_KERNELS(4)
GI_WT_KERNELS(8)
GI_WT_KERNELS(12)
GI_WT_KERNELS(20)
GI_WT_KERNELS(30)

// ---------------------------------------------------------------------------
// Denoise's helpers: a subband's sum of squares, and its thresholding in place.
extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_sumsq(WtBandParams p) {
  float s = 0.f;
  for (int y = blockIdx.y * GI_WT_BY + threadIdx.y; y < p.h; y += gridDim.y * GI_WT_BY) {
    const float* row = reinterpret_cast<const float*>(reinterpret_cast<const char*>(p.p) + static_cast<long>(p.pitch) * y);
    for (int x = blockIdx.x * GI_WT_BX + threadIdx.x; x < p.w; x += gridDim.x * GI_WT_BX) {
      const float v = row[x];
      s = fmaf(v, v, s);
    }
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  __shared__ float part[GI_WT_BY];
  if (threadIdx.x == 0) part[threadIdx.y] = s;
  __syncthreads();
  if (threadIdx.y == 0 && threadIdx.x == 0) {
    double t = 0;
    for (int i = 0; i < GI_WT_BY; i++) t += part[i];
    atomicAdd(p.sum, t);
  }
}

extern "C" __global__ void __launch_bounds__(GI_WT_BX * GI_WT_BY) gi_wt_threshold(WtBandParams p) {
  const int x = blockIdx.x * GI_WT_BX + threadIdx.x;
  for (int y = blockIdx.y * GI_WT_BY + threadIdx.y; y < p.h; y += gridDim.y * GI_WT_BY) {
    if (x >= p.w) continue;
    float* v = reinterpret_cast<float*>(reinterpret_cast<char*>(p.p) + static_cast<long>(p.pitch) * y) + x;
    const float a = fabsf(*v);
    if (p.hard) {
      if (a < p.thr) *v = 0.f;
    } else {
      *v = a > p.thr ? copysignf(a - p.thr, *v) : 0.f;
    }
  }
}
