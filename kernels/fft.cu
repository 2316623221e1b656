// Frequency-domain helpers (package fftfilter) around cuFFT's transforms: OpenCV's
// spectrum layouts (CCS packing, whole complex spectra), mulSpectrums, magnitude and
// phase, the filters' masks, and the loads and stores between images and the float
// planes cuFFT transforms. Every kernel runs one thread per element over a grid of
// (elements / 256, lines) blocks and loops over lines beyond 65535.
//
// A transform is `lines` lines of `n` elements; a 2-D one has lines = rows. Images
// are addressed by a base, a byte step between lines and one between elements, so a
// column vector (transformed as one line down the column) needs no copy. A half
// spectrum is `lines` lines of n/2+1 complex values, packed.
#include "common.cuh"
#include "border.cuh"
#include "fft_params.h"

#define FFT_LOOP(n)                                                  \
  const int k = blockIdx.x * blockDim.x + threadIdx.x;              \
  if (k >= (n)) return;                                              \
  for (int l = blockIdx.y; l < lines; l += gridDim.y)

__device__ __forceinline__ float& at(char* base, int line, int step, int l, int k) {
  return *reinterpret_cast<float*>(base + (size_t)l * line + (size_t)k * step);
}
__device__ __forceinline__ const float& at(const char* base, int line, int step, int l, int k) {
  return *reinterpret_cast<const float*>(base + (size_t)l * line + (size_t)k * step);
}

// ccs1d is element j of a line of n packed CCS-style from the half line h(i).
template <typename H>
__device__ __forceinline__ float ccs1d(H h, int j) {
  if (j == 0) return h(0).x;
  return (j & 1) ? h((j + 1) >> 1).x : h(j >> 1).y;
}

// gi_fft_pack_full writes the whole complex spectrum from a half one (conjugate
// symmetry fills the rest), times scale; one thread per element.
extern "C" __global__ void gi_fft_pack_full(const FftPackParams p) {
  const float2* h = static_cast<const float2*>(p.h);
  const int lines = p.lines, n = p.n, twoD = p.twoD, dline = p.dst.line, dstep = p.dst.step;
  char* dst = p.dst.p;
  const float scale = p.scale;
  const int hn = n / 2 + 1;
  FFT_LOOP(n) {
    float2 v;
    if (k <= n / 2) {
      v = h[(size_t)l * hn + k];
    } else {
      const int ml = twoD ? (lines - l) % lines : l;
      v = h[(size_t)ml * hn + (n - k)];
      v.y = -v.y;
    }
    float* p = &at(dst, dline, dstep, l, k);
    p[0] = v.x * scale;
    p[1] = v.y * scale;
  }
}

// gi_fft_mirror completes a whole complex spectrum whose columns 0..n/2 hold the
// half spectrum: element k > n/2 is the conjugate of its mirror image. Reads and
// writes do not overlap. One thread per element of the right part.
extern "C" __global__ void gi_fft_mirror(const FftMirrorParams p) {
  char* d = p.d.p;
  const int line = p.d.line, step = p.d.step, lines = p.lines, n = p.n, twoD = p.twoD;
  const int hn = n / 2 + 1;
  FFT_LOOP(n - hn) {
    const int kk = hn + k, ml = twoD ? (lines - l) % lines : l;
    const float* s = &at(d, line, step, ml, n - kk);
    float* p = &at(d, line, step, l, kk);
    p[0] = s[0];
    p[1] = -s[1];
  }
}

// gi_fft_pack_ccs writes a half spectrum in OpenCV's CCS layout, times scale: one
// thread per half-spectrum element j, which writes its (Re, Im) pair at 2j-1, 2j;
// the real-only first (and, for even n, last) elements are packed down their
// columns in a 2-D transform (ccs1d), else along the line.
extern "C" __global__ void gi_fft_pack_ccs(const FftPackParams p) {
  const float2* h = static_cast<const float2*>(p.h);
  const int lines = p.lines, n = p.n, twoD = p.twoD, dline = p.dst.line, dstep = p.dst.step;
  char* dst = p.dst.p;
  const float scale = p.scale;
  const int hn = n / 2 + 1;
  FFT_LOOP(hn) {
    const bool last = (n & 1) == 0 && k == n / 2;
    if (k != 0 && !last) {
      const float2 v = h[(size_t)l * hn + k];
      at(dst, dline, dstep, l, 2 * k - 1) = v.x * scale;
      at(dst, dline, dstep, l, 2 * k) = v.y * scale;
      continue;
    }
    const int j = k == 0 ? 0 : n - 1;
    float v;
    if (twoD) v = ccs1d([&](int i) { return h[(size_t)i * hn + k]; }, l);
    else v = h[(size_t)l * hn + k].x;
    at(dst, dline, dstep, l, j) = v * scale;
  }
}

// CCS spectra written in place by cuFFT (fftfilter.createCCS): row l holds the
// half spectrum from 4 bytes before its start, so H[l][k] = (row[2k-1], row[2k]);
// H[l][0] begins at row[-1] and, for even n, H[l][n/2] ends at row[n].

// gi_fft_ccs_fix1d: for 1-D lines only the first value moves (Re H0 to row[0]).
extern "C" __global__ void gi_fft_ccs_fix1d(const FftCcsParams p) {
  char* dst = p.dst;
  const int pitch = p.pitch, lines = p.lines;
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= lines) return;
  float* r = reinterpret_cast<float*>(dst + (size_t)l * pitch);
  r[0] = r[-1];
}

// gi_fft_ccs_save copies the real-symmetric columns H[i][0] and (even n) H[i][n/2],
// i <= lines/2, to tmp (lines/2+1 of each), before gi_fft_ccs_fill packs them.
extern "C" __global__ void gi_fft_ccs_save(const FftCcsParams p) {
  const char* dst = p.dst;
  const int pitch = p.pitch, lines = p.lines, n = p.n;
  float2* tmp = static_cast<float2*>(p.tmp);
  const int i = blockIdx.x * blockDim.x + threadIdx.x, m = lines / 2 + 1;
  if (i >= m) return;
  const float* r = reinterpret_cast<const float*>(dst + (size_t)i * pitch);
  tmp[i] = make_float2(r[-1], r[0]);
  if ((n & 1) == 0) tmp[m + i] = make_float2(r[n - 1], r[n]);
}

// gi_fft_ccs_fill writes the first (and, for even n, last) column of a 2-D CCS
// spectrum from the columns gi_fft_ccs_save kept.
extern "C" __global__ void gi_fft_ccs_fill(const FftCcsParams p) {
  char* dst = p.dst;
  const int pitch = p.pitch, lines = p.lines, n = p.n;
  const float2* tmp = static_cast<const float2*>(p.tmp);
  const int l = blockIdx.x * blockDim.x + threadIdx.x, m = lines / 2 + 1;
  if (l >= lines) return;
  float* r = reinterpret_cast<float*>(dst + (size_t)l * pitch);
  r[0] = ccs1d([&](int i) { return tmp[i]; }, l);
  if ((n & 1) == 0) r[n - 1] = ccs1d([&](int i) { return tmp[m + i]; }, l);
}

// gi_fft_scale_real multiplies n floats of each line by scale.
extern "C" __global__ void gi_fft_scale_real(const FftScaleParams q) {
  char* p = q.p.p;
  const int pitch = q.p.line, lines = q.lines, n = q.n;
  const float scale = q.scale;
  FFT_LOOP(n) { row<f32>(p, pitch, l)[k] *= scale; }
}

// unpack1 is element j of the half line packed CCS-style in a line of n (at(i)).
template <typename A>
__device__ __forceinline__ float2 unpack1(A a, int j, int n) {
  if (j == 0) return make_float2(a(0), 0.f);
  if ((n & 1) == 0 && j == n / 2) return make_float2(a(n - 1), 0.f);
  return make_float2(a(2 * j - 1), a(2 * j));
}

// gi_fft_unpack makes the half spectrum (times scale) of a CCS image (ccs = 1) or of
// a whole complex spectrum (ccs = 0), for an inverse transform to a real image.
extern "C" __global__ void gi_fft_unpack(const FftUnpackParams p) {
  const char* src = p.src.p;
  const int sline = p.src.line, sstep = p.src.step, lines = p.lines, n = p.n, twoD = p.twoD, ccs = p.ccs;
  float2* h = static_cast<float2*>(p.h);
  const float scale = p.scale;
  const int hn = n / 2 + 1;
  FFT_LOOP(hn) {
    float2 v;
    if (!ccs) {
      const float* p = &at(src, sline, sstep, l, k);
      v = make_float2(p[0], p[1]);
    } else if (twoD && (k == 0 || ((n & 1) == 0 && k == n / 2))) {
      const int c = k == 0 ? 0 : n - 1;
      auto col = [&](int i) { return at(src, sline, sstep, i, c); };
      if (l <= lines / 2) {
        v = unpack1(col, l, lines);
      } else {
        v = unpack1(col, lines - l, lines);
        v.y = -v.y;
      }
    } else {
      v = unpack1([&](int i) { return at(src, sline, sstep, l, i); }, k, n);
    }
    h[(size_t)l * hn + k] = make_float2(v.x * scale, v.y * scale);
  }
}

// gi_fft_scale multiplies complex elements by scale, in place.
extern "C" __global__ void gi_fft_scale(const FftScaleParams q) {
  char* p = q.p.p;
  const int line = q.p.line, step = q.p.step, lines = q.lines, n = q.n;
  const float scale = q.scale;
  FFT_LOOP(n) {
    float* e = &at(p, line, step, l, k);
    e[0] *= scale;
    e[1] *= scale;
  }
}

// gi_fft_copy copies float elements between two addressings.
extern "C" __global__ void gi_fft_copy(const FftCopyParams p) {
  const char* s = p.s.p;
  char* d = p.d.p;
  const int sline = p.s.line, sstep = p.s.step, dline = p.d.line, dstep = p.d.step, lines = p.lines, n = p.n;
  FFT_LOOP(n) { at(d, dline, dstep, l, k) = at(s, sline, sstep, l, k); }
}

// gi_fft_mul is mulSpectrums: d = a * b (or a * conj(b)) times scale, complex
// elements (cplx = 1) or CCS-packed ones; a pair is handled by the thread of its
// real part, so d may be a or b.
extern "C" __global__ void gi_fft_mul(const FftMulParams p) {
  const char *a = p.a.p, *b = p.b.p;
  char* d = p.d.p;
  const int al = p.a.line, as = p.a.step, bl = p.b.line, bs = p.b.step, dl = p.d.line, ds = p.d.step;
  const int lines = p.lines, n = p.n, twoD = p.twoD, cplx = p.cplx, conj = p.conj;
  const float scale = p.scale;
  const float sg = conj ? -1.f : 1.f;
  FFT_LOOP(n) {
    if (cplx) {
      const float* pa = &at(a, al, as, l, k);
      const float* pb = &at(b, bl, bs, l, k);
      const float ar = pa[0], ai = pa[1], br = pb[0], bi = sg * pb[1];
      float* pd = &at(d, dl, ds, l, k);
      pd[0] = (ar * br - ai * bi) * scale;
      pd[1] = (ar * bi + ai * br) * scale;
      continue;
    }
    int pl = l, pk = k;  // the imaginary part's position, for a pair
    bool pair;
    if (twoD && (k == 0 || ((n & 1) == 0 && k == n - 1))) {
      if (l == 0 || ((lines & 1) == 0 && l == lines - 1)) pair = false;
      else if (l & 1) pair = true, pl = l + 1;
      else continue;  // an imaginary part: its pair's thread does it
    } else {
      if (k == 0 || ((n & 1) == 0 && k == n - 1)) pair = false;
      else if (k & 1) pair = true, pk = k + 1;
      else continue;
    }
    const float ar = at(a, al, as, l, k), br = at(b, bl, bs, l, k);
    if (!pair) {
      at(d, dl, ds, l, k) = ar * br * scale;
      continue;
    }
    const float ai = at(a, al, as, pl, pk), bi = sg * at(b, bl, bs, pl, pk);
    at(d, dl, ds, l, k) = (ar * br - ai * bi) * scale;
    at(d, dl, ds, pl, pk) = (ar * bi + ai * br) * scale;
  }
}

// gi_fft_polar: magnitude (mode 0) or angle in [0, 2pi) (1) or [0, 360) degrees (2).
extern "C" __global__ void gi_fft_polar(const FftPolarParams p) {
  const char *x = p.x, *y = p.y;
  char* d = p.d;
  const int xp = p.xp, yp = p.yp, dp = p.dp, lines = p.lines, n = p.n, mode = p.mode;
  FFT_LOOP(n) {
    const float xv = row<f32>(x, xp, l)[k], yv = row<f32>(y, yp, l)[k];
    float v;
    if (mode == 0) {
      v = (float)sqrt((double)xv * xv + (double)yv * yv);
    } else {
      double t = atan2((double)yv, (double)xv);
      if (t < 0) t += 2 * M_PI;
      if (mode == 2) t *= 180 / M_PI;
      v = (float)t;
      if (v >= (mode == 2 ? 360.f : (float)(2 * M_PI))) v = 0;
    }
    row<f32>(d, dp, l)[k] = v;
  }
}

// gi_fft_load fills a P x Q plane with channel c of an image: the image shifted by
// (ax, ay) through the border rule out to fillRows x fillCols, zeros beyond.
extern "C" __global__ void gi_fft_load(const FftLoadParams p) {
  const char* src = p.src;
  const int sp = p.sp, depth = p.depth, cn = p.cn, c = p.c, wrows = p.wrows, wcols = p.wcols, ox = p.ox, oy = p.oy;
  const int border = p.border, ax = p.ax, ay = p.ay, fillRows = p.fillRows, fillCols = p.fillCols, P = p.P, Q = p.Q;
  const float bval = p.bval;
  float* plane = p.plane;
  const int lines = P;
  const int esz = depth == 5 ? 4 : depth == 0 ? 1 : 2;
  const char* base = src - (ptrdiff_t)oy * sp - (ptrdiff_t)ox * cn * esz;
  FFT_LOOP(Q) {
    float v = 0.f;
    if (l < fillRows && k < fillCols) {
      const int my = bmap(oy + l - ay, wrows, border), mx = bmap(ox + k - ax, wcols, border);
      v = (my < 0 || mx < 0) ? bval : ldelem(base + (ptrdiff_t)my * sp, mx * cn + c, depth);
    }
    plane[(size_t)l * Q + k] = v;
  }
}

// gi_fft_store writes the top-left rows x cols of a plane plus delta to channel c
// of an image, saturated to its depth.
extern "C" __global__ void gi_fft_store(const FftStoreParams p) {
  const float* plane = p.plane;
  char* dst = p.dst;
  const int Q = p.Q, dp = p.dp, depth = p.depth, cn = p.cn, c = p.c, rows = p.rows, cols = p.cols;
  const float delta = p.delta;
  const int lines = rows;
  FFT_LOOP(cols) { stelem(dst + (size_t)l * dp, k * cn + c, depth, plane[(size_t)l * Q + k] + delta, 0); }
}

// gi_fft_mulmask multiplies a half spectrum by a centred mask image (zero frequency
// at (n/2, lines/2)) times scale.
extern "C" __global__ void gi_fft_mulmask(const FftMulMaskParams p) {
  float2* h = static_cast<float2*>(p.h);
  const char* m = p.m.p;
  const int lines = p.lines, n = p.n, ml = p.m.line, ms = p.m.step;
  const float scale = p.scale;
  const int hn = n / 2 + 1;
  FFT_LOOP(hn) {
    const float g = at(m, ml, ms, (l + lines / 2) % lines, (k + n / 2) % n) * scale;
    float2& v = h[(size_t)l * hn + k];
    v.x *= g;
    v.y *= g;
  }
}

// gi_fft_taps writes taps first..first+count-1 of a kernel kw taps wide into a plane
// Q floats wide (tap i at row i / kw, column i % kw).
extern "C" __global__ void gi_fft_taps(const FftTapsParams p) {
  float* plane = p.plane;
  const int Q = p.Q, kw = p.kw, first = p.first, count = p.count;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const int k = first + i;
  plane[(size_t)(k / kw) * Q + k % kw] = p.v[i];
}

enum { K_LOW, K_HIGH, K_BANDPASS, K_BANDREJECT, K_NOTCHREJECT, K_NOTCHPASS };
enum { S_IDEAL, S_BUTTERWORTH, S_GAUSSIAN };

// sq is x*x rounded on its own (no fused multiply-add), as fftfilter.sq.
__device__ __forceinline__ double sq(double x) { return __dmul_rn(x, x); }

// The responses of fftfilter.lowPass and bandReject from squared distances: the
// ideal filters' edges are decided in double exactly as there; the smooth shapes
// are computed in float, which is all the spectrum's precision needs.
__device__ __forceinline__ float lowpass(int shape, int n, double d2, double d0, double inv) {
  if (shape == S_IDEAL) return d2 <= sq(d0) ? 1.f : 0.f;
  const float r = (float)d2 * (float)inv;  // (D/D0)^2
  if (shape == S_BUTTERWORTH) return 1.f / (1.f + powf(r, (float)n));
  return expf(-0.5f * r);
}
__device__ __forceinline__ float bandreject(int shape, int n, double d2, double c0, double w) {
  if (shape == S_IDEAL) {
    const double d = sqrt(d2);
    return (d >= c0 - w / 2 && d <= c0 + w / 2) ? 0.f : 1.f;
  }
  const float den = (float)(d2 - sq(c0)), fw2 = (float)(w * w), fd2 = (float)d2;
  if (shape == S_BUTTERWORTH) {
    if (den == 0.f) return 0.f;
    return 1.f / (1.f + powf(fd2 * fw2 / (den * den), (float)n));  // (D W / (D^2 - C0^2))^2n
  }
  if (fd2 == 0.f) return 1.f;
  return 1.f - expf(-(den * den) / (fd2 * fw2));  // ((D^2 - C0^2) / (D W))^2
}

// gi_fft_mask multiplies the half spectrum of a plane with P lines by a filter's
// response (fftfilter.Filter.Response) times scale; sx and sy are one frequency
// step across and down in cycles per image (fftfilter's freqScale).
extern "C" __global__ void gi_fft_mask(const FftMaskParams p) {
  float2* h = static_cast<float2*>(p.h);
  const int lines = p.lines, n = p.n, trans = p.trans, P = p.P, kind = p.kind, shape = p.shape, order = p.order,
            nnotch = p.nnotch;
  const double sx = p.sx, sy = p.sy, scale = p.scale;
  const double* fv = p.v;
  const int hn = n / 2 + 1;
  FFT_LOOP(hn) {
    double fx, fy;
    if (trans) {
      fx = 0;
      fy = (double)(k <= P / 2 ? k : k - P) * sy;
    } else {
      fx = (double)k * sx;
      fy = (double)(l <= P / 2 ? l : l - P) * sy;
    }
    const double d2 = __dadd_rn(sq(fx), sq(fy));
    float g;
    switch (kind) {
      case K_LOW: g = lowpass(shape, order, d2, fv[0], fv[2]); break;
      case K_HIGH: g = 1.f - lowpass(shape, order, d2, fv[0], fv[2]); break;
      case K_BANDREJECT: g = bandreject(shape, order, d2, fv[0], fv[1]); break;
      case K_BANDPASS: g = 1.f - bandreject(shape, order, d2, fv[0], fv[1]); break;
      default: {
        double p = 1;  // in double: 1 - p for a notch pass keeps its small values exact
        for (int i = 0; i < nnotch; i++) {
          const double* t = &fv[4 + 4 * i];
          p *= 1.0 - lowpass(shape, order, __dadd_rn(sq(fx - t[0]), sq(fy - t[1])), t[2], t[3]);
          p *= 1.0 - lowpass(shape, order, __dadd_rn(sq(fx + t[0]), sq(fy + t[1])), t[2], t[3]);
        }
        g = (float)(kind == K_NOTCHPASS ? 1 - p : p);
      }
    }
    const float s = g * (float)scale;
    float2& e = h[(size_t)l * hn + k];
    e.x *= s;
    e.y *= s;
  }
}

// gi_fft_logmag writes log(1 + |F|) of the whole spectrum in centred order (zero
// frequency at (n/2, lines/2)) and folds each value into mm[0] (minimum) and mm[1]
// (maximum), as the bits of non-negative floats.
extern "C" __global__ void gi_fft_logmag(const FftLogMagParams p) {
  const float2* h = static_cast<const float2*>(p.h);
  const int lines = p.lines, n = p.n, twoD = p.twoD;
  float* out = p.out;
  unsigned* mm = p.mm;
  const int hn = n / 2 + 1;
  FFT_LOOP(n) {
    const int fl = (l - lines / 2 + lines) % lines, fk = (k - n / 2 + n) % n;
    float2 v;
    if (fk <= n / 2) v = h[(size_t)fl * hn + fk];
    else v = h[(size_t)(twoD ? (lines - fl) % lines : fl) * hn + (n - fk)];
    const float m = log1pf(sqrtf(v.x * v.x + v.y * v.y));
    out[(size_t)l * n + k] = m;
    atomicMin(&mm[0], __float_as_uint(m));
    atomicMax(&mm[1], __float_as_uint(m));
  }
}

// gi_fft_norm8u stretches the log magnitudes to 0..255 (NORM_MINMAX) into 8U.
extern "C" __global__ void gi_fft_norm8u(const FftNormParams p) {
  const float* in = p.in;
  const unsigned* mm = p.mm;
  char* dst = p.dst.p;
  const int lines = p.lines, n = p.n, dline = p.dst.line, dstep = p.dst.step;
  const float lo = __uint_as_float(mm[0]), hi = __uint_as_float(mm[1]);
  const float scale = hi > lo ? 255.f / (hi - lo) : 0.f, shift = -lo * scale;
  FFT_LOOP(n) {
    *reinterpret_cast<u8*>(dst + (size_t)l * dline + (size_t)k * dstep) = sat<u8>(in[(size_t)l * n + k] * scale + shift);
  }
}
