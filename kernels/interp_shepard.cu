// Shepard (inverse distance weighted) interpolation of scattered points onto an
// image's pixel grid (Go caller: interp/cuda.go; the CPU twin is interp/cpu.go's
// shepardCPU, which picks the same points by the same float32 distances).
//   gi_shepard_all_{p2,pw}  every point: GI_SHEPARD_PX pixels a thread, the points
//                           staged in shared memory a tile at a time (broadcast
//                           loads); p2: power 2, the reciprocals of two pixels'
//                           distances from one (1/(ab) times b and a); pw: any
//                           power, 2^(-p/2 log2 d2). Tiles summed apart, then added.
//   gi_shepard_tiles_{p2,pw} every point, many of them: a block a tile of pixels;
//                           the points far from the tile (host: far2) summed into
//                           the tile's local expansion (below), the near ones pixel
//                           by pixel; the expansion evaluated at each pixel.
//   gi_shepard_grid_{p2,pw} a radius and/or the k nearest: a thread a pixel, the
//                           points of the cells around its own from the grid, the k
//                           nearest kept sorted in shared memory.
#include "common.cuh"
#include "interp_params.h"

namespace shepard {

// dist2 is a pixel's squared distance to point q as ShepardParams defines it (the
// caller passes fy's part, dy2 = (y - py)^2 + EPS).
__device__ __forceinline__ float dyEps(float py, float fy) {
  const float dy = py - fy;
  return fmaf(dy, dy, GI_SHEPARD_EPS);
}
__device__ __forceinline__ float dist2(float px, float fx, float dy2) {
  const float dx = px - fx;
  return fmaf(dx, dx, dy2);
}

// weight is d2^e (e = -p/2); P2: 1/d2.
template <bool P2>
__device__ __forceinline__ float weight(float d2, float e) {
  return P2 ? rcp_approx(d2) : ex2_approx(e * lg2_approx(d2));
}

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// weights sets w[i] = d2[i]^e, M (even) of them; P2 (e = -1) takes two
// reciprocals from one, 1/(ab) times b and a: both d2 lie in [EPS, 4e14]
// (coordinates within 1e7 pixels), so their product neither overflows nor leaves
// the normal range.
template <bool P2, int M>
__device__ __forceinline__ void weights(const float (&d2)[M], float (&w)[M], float e) {
  static_assert(M % 2 == 0, "pairs of distances");
  if (P2) {
#pragma unroll
    for (int i = 0; i < M; i += 2) {
      const float r = rcp_approx(d2[i] * d2[i + 1]);
      w[i] = r * d2[i + 1];
      w[i + 1] = r * d2[i];
    }
  } else {
#pragma unroll
    for (int i = 0; i < M; ++i) w[i] = weight<false>(d2[i], e);
  }
}

__device__ __forceinline__ const float4* points(const ShepardParams& p) { return reinterpret_cast<const float4*>(p.pts); }

// exact is pixel (fx, fy)'s value from the points pts[lo..hi) one at a time: the
// first point with d2 == EPS, else the weighted mean with each weight divided by
// the nearest point's (no overflow).
__device__ __forceinline__ float exact(const ShepardParams& p, int lo, int hi, float fx, float fy, float e) {
  const float4* pts = points(p);
  float m = INFINITY;
  for (int i = lo; i < hi; ++i) {
    const float4 q = pts[i];
    const float d2 = dist2(q.x, fx, dyEps(q.y, fy));
    if (d2 == GI_SHEPARD_EPS) return q.z;
    m = fminf(m, d2);
  }
  const float lm = lg2_approx(m);
  float num = 0.f, den = 0.f;
  for (int i = lo; i < hi; ++i) {
    const float4 q = pts[i];
    const float d2 = dist2(q.x, fx, dyEps(q.y, fy));
    const float w = ex2_approx(e * (lg2_approx(d2) - lm));
    num = fmaf(w, q.z, num);
    den += w;
  }
  return num / den;
}

// store writes pixel (x, y): fill where the mask is 0.
__device__ __forceinline__ void store(const ShepardParams& p, int x, int y, float v) {
  if (p.mask && p.mask[(size_t)y * p.mp + x] == 0) v = p.fill;
  row<float>(p.dst, p.dp, y)[x] = v;
}

template <bool P2, int PX>
__device__ __forceinline__ void all(const ShepardParams& p) {
  constexpr int BX = GI_SHEPARD_BX, NT = GI_SHEPARD_BX * GI_SHEPARD_BY;
  __shared__ float4 tile[GI_SHEPARD_TILE];
  const int y = blockIdx.y * GI_SHEPARD_BY + threadIdx.y;
  const int xb = blockIdx.x * BX * PX + threadIdx.x;
  const int t = threadIdx.y * BX + threadIdx.x;
  const float fy = (float)y, e = -0.5f * p.power;
  float fx[PX], num[PX], den[PX];
#pragma unroll
  for (int i = 0; i < PX; ++i) fx[i] = (float)(xb + i * BX), num[i] = 0.f, den[i] = 0.f;
  const float4* pts = points(p);
  for (int t0 = 0; t0 < p.n; t0 += GI_SHEPARD_TILE) {
    const int m = min(GI_SHEPARD_TILE, p.n - t0);
    __syncthreads();
    for (int i = t; i < m; i += NT) tile[i] = pts[t0 + i];
    __syncthreads();
    float tn[PX], td[PX];
#pragma unroll
    for (int i = 0; i < PX; ++i) tn[i] = 0.f, td[i] = 0.f;
#pragma unroll 2
    for (int j = 0; j < m; ++j) {
      const float4 q = tile[j];
      const float dy2 = dyEps(q.y, fy);
      float d2[PX], w[PX];
#pragma unroll
      for (int i = 0; i < PX; ++i) d2[i] = dist2(q.x, fx[i], dy2);
      weights<P2>(d2, w, e);
#pragma unroll
      for (int i = 0; i < PX; ++i) tn[i] = fmaf(w[i], q.z, tn[i]), td[i] += w[i];
    }
#pragma unroll
    for (int i = 0; i < PX; ++i) num[i] += tn[i], den[i] += td[i];
  }
  if (y >= p.h) return;
  // A point on (or within about 1e-9 pixels of) a pixel, sums past float's range,
  // or weights so small (far points, high powers) that float32 flushes some to 0:
  // that pixel again, one point at a time (one copy of that loop).
  unsigned slow = 0;
#pragma unroll
  for (int i = 0; i < PX; ++i) {
    const int x = xb + i * BX;
    if (x >= p.w) break;
    if (den[i] >= 1e-20f && den[i] < p.big && fabsf(num[i]) < INFINITY)
      store(p, x, y, num[i] / den[i]);
    else
      slow |= 1u << i;
  }
#pragma unroll 1
  for (; slow; slow &= slow - 1) {
    const int x = xb + (__ffs(slow) - 1) * BX;
    store(p, x, y, exact(p, 0, p.n, (float)x, fy, e));
  }
}

// The far field. A point q far from a tile (centre c, half diagonal rho) weighs a
// pixel u of it by |u - c - s|^-p, s = q - c. With U = (u - c)/rho (|U| <= 1),
// tau = rho/s (|tau| <= r, complex) and a = p/2,
//   |u - q|^-p = rho^-p |tau|^p (1 - U tau)^-a conj(1 - U tau)^-a
//              = rho^-p |tau|^p sum_kl c_k c_l (U tau)^k conj(U tau)^l,
// c_k = a(a+1)..(a+k-1)/k!, so the tile's far points sum to
//   rho^-p sum_kl A_kl U^k conj(U)^l,  A_kl = c_k c_l sum_q g_q tau_q^k conj(tau_q)^l,
// g = |tau|^p (times the value for the weighted sum). Kept: k + l <= Q; A_lk is
// conj(A_kl), so the pairs k < l count twice the real part and k <= l suffices:
// (Q/2 + 1)^2 coefficients. The host picks r so that the dropped terms stay below
// 5e-7 of each point's weight.
template <bool P2>
__device__ __forceinline__ void tiles(const ShepardParams& p) {
  constexpr int T = GI_SHEPARD_T, NT = GI_SHEPARD_TT, Q = GI_SHEPARD_Q, H = Q / 2 + 1, NC = H * H;
  constexpr int RY = NT / T, PY = T / RY;  // a thread: PY pixels of a column, RY rows apart
  constexpr int G = NT / 64;               // coefficient threads 64 apart share a coefficient
  static_assert(Q % 2 == 0 && NC <= 64 && NT % 64 == 0 && T % RY == 0 && PY % 2 == 0, "tile shape");
  // A chunk's far points (tau^0 .. tau^Q, and (g, g * value)) and near points;
  // after the last chunk, each pixel's near sums.
  constexpr int TPB = NT * (Q + 1) * 8, GVB = NT * 8, NQB = NT * 16;
  static_assert(T * T * 8 <= TPB + GVB + NQB, "the near sums fit the chunk tables");
  __shared__ __align__(16) char buf[TPB + GVB + NQB];
  float2(*tp)[Q + 1] = reinterpret_cast<float2(*)[Q + 1]>(buf);
  float2* gv = reinterpret_cast<float2*>(buf + TPB);
  float4* nq = reinterpret_cast<float4*>(buf + TPB + GVB);
  float2* nd = reinterpret_cast<float2*>(buf);
  __shared__ int cnt[2][NT / 32];
  __shared__ float4 red[G][64];
  __shared__ float4 co[NC];  // A_kl for the weights (x, y) and the weighted values (z, w)
  const int t = threadIdx.x, lane = t % 32, wp = t / 32;
  const int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
  const float cx = (float)x0 + 0.5f * (T - 1), cy = (float)y0 + 0.5f * (T - 1);
  const float rho = 0.5f * (T - 1) * 1.41421356f, a = 0.5f * p.power, e = -a;
  // This thread's coefficient (k, l) and its share of the far points.
  const int ci = t % 64, grp = t / 64;
  int ck = 0, cl = 0;
  for (int k = 0, c = ci; k < H; ++k) {
    if (c <= Q - 2 * k) {
      ck = k, cl = k + c;
      break;
    }
    c -= Q - 2 * k + 1;
  }
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  const int px = x0 + t % T, py = y0 + t / T;
  const float fx = (float)px;
  float num[PY], den[PY];
#pragma unroll
  for (int j = 0; j < PY; ++j) num[j] = 0.f, den[j] = 0.f;
  const float4* pts = points(p);
  const unsigned below = (1u << lane) - 1u;
  for (int t0 = 0; t0 < p.n; t0 += NT) {
    const int i = t0 + t;
    bool far = false, close = false;
    float4 q = make_float4(0.f, 0.f, 0.f, 0.f);
    float sx = 0.f, sy = 0.f, s2 = 0.f;
    if (i < p.n) {
      q = pts[i];
      sx = q.x - cx, sy = q.y - cy;
      s2 = fmaf(sx, sx, sy * sy);
      far = s2 >= p.far2;
      close = !far;
    }
    // Each point's place among the chunk's far or near ones, in point order.
    const unsigned bf = __ballot_sync(0xffffffffu, far), bn = __ballot_sync(0xffffffffu, close);
    __syncthreads();  // the previous chunk's tables read
    if (lane == 0) cnt[0][wp] = __popc(bf), cnt[1][wp] = __popc(bn);
    __syncthreads();
    int sf = __popc(bf & below), sn = __popc(bn & below), nf = 0, nn = 0;
#pragma unroll
    for (int w = 0; w < NT / 32; ++w) {
      const int cf = cnt[0][w], cn = cnt[1][w];
      if (w < wp) sf += cf, sn += cn;
      nf += cf, nn += cn;
    }
    if (far) {
      const float inv = rho * rcp_approx(s2);  // tau = rho conj(s) / |s|^2
      const float2 tau = make_float2(sx * inv, -sy * inv);
      const float t2 = rho * inv;  // |tau|^2
      const float g = P2 ? t2 : ex2_approx(a * lg2_approx(t2));
      gv[sf] = make_float2(g, g * q.z);
      float2 pk = make_float2(1.f, 0.f);
#pragma unroll
      for (int k = 0; k <= Q; ++k) {
        tp[sf][k] = pk;
        pk = cmul(pk, tau);
      }
    }
    if (close) nq[sn] = q;
    __syncthreads();
    if (ci < NC) {
#pragma unroll 4
      for (int f = grp; f < nf; f += G) {
        const float2 u = tp[f][ck], v = tp[f][cl], w = gv[f];
        const float zr = fmaf(u.x, v.x, u.y * v.y), zi = fmaf(u.y, v.x, -u.x * v.y);  // u conj(v)
        acc.x = fmaf(w.x, zr, acc.x), acc.y = fmaf(w.x, zi, acc.y);
        acc.z = fmaf(w.y, zr, acc.z), acc.w = fmaf(w.y, zi, acc.w);
      }
    }
#pragma unroll 1
    for (int m = 0; m < nn; ++m) {
      const float4 q = nq[m];
      float d2[PY], w[PY];
#pragma unroll
      for (int j = 0; j < PY; ++j) d2[j] = dist2(q.x, fx, dyEps(q.y, (float)(py + j * RY)));
      weights<P2>(d2, w, e);
#pragma unroll
      for (int j = 0; j < PY; ++j) num[j] = fmaf(w[j], q.z, num[j]), den[j] += w[j];
    }
  }
  // The coefficients: the groups' sums added, times c_k c_l (twice off the
  // diagonal); the near sums to shared memory (the chunk tables' place).
  if (ci < NC) red[grp][ci] = acc;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < PY; ++j) nd[t + j * NT] = make_float2(num[j], den[j]);
  if (t < NC) {
    float4 s = red[0][t];
#pragma unroll
    for (int g = 1; g < G; ++g) s.x += red[g][t].x, s.y += red[g][t].y, s.z += red[g][t].z, s.w += red[g][t].w;
    float f = ck == cl ? 1.f : 2.f;
    for (int k = 1; k <= cl; ++k) {
      const float ck1 = ((float)(k - 1) + a) / (float)k;
      f *= k <= ck ? ck1 * ck1 : ck1;
    }
    co[t] = make_float4(s.x * f, s.y * f, s.z * f, s.w * f);
  }
  __syncthreads();
  if (px >= p.w) return;
  // rho^-p: the far sums in the near sums' units.
  const float sc = P2 ? 1.f / (rho * rho) : ex2_approx(e * lg2_approx(rho * rho)), ir = 1.f / rho;
  const unsigned cs = (unsigned)__cvta_generic_to_shared(co);
  unsigned slow = 0;
#pragma unroll 1
  for (int j = 0; j < PY; ++j) {
    const int y = py + j * RY;
    if (y >= p.h) break;
    const float2 u = make_float2((fx - cx) * ir, ((float)y - cy) * ir);
    float2 U[Q + 1];
    U[0] = make_float2(1.f, 0.f);
#pragma unroll
    for (int k = 1; k <= Q; ++k) U[k] = cmul(U[k - 1], u);
    float fd = 0.f, fn = 0.f;
#pragma unroll
    for (int k = 0, c = 0; k < H; ++k) {
#pragma unroll
      for (int l = k; l <= Q - k; ++l, ++c) {
        const float zr = fmaf(U[k].x, U[l].x, U[k].y * U[l].y), zi = fmaf(U[k].y, U[l].x, -U[k].x * U[l].y);
        // Loaded where used (volatile: not hoisted out of the pixel loop into
        // 4 NC registers).
        float4 A;
        asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(A.x), "=f"(A.y), "=f"(A.z), "=f"(A.w) : "r"(cs + 16u * c));
        fd = fmaf(A.x, zr, fmaf(-A.y, zi, fd));
        fn = fmaf(A.z, zr, fmaf(-A.w, zi, fn));
      }
    }
    const float2 ns = nd[t + j * NT];
    const float d = fmaf(fd, sc, ns.y), nm = fmaf(fn, sc, ns.x);
    if (ns.y < p.big && d >= 1e-20f && fabsf(nm) < INFINITY)
      store(p, px, y, nm / d);
    else
      slow |= 1u << j;
  }
#pragma unroll 1
  for (; slow; slow &= slow - 1) {
    const int y = py + (__ffs(slow) - 1) * RY;
    store(p, px, y, exact(p, 0, p.n, fx, (float)y, e));
  }
}

// Near is the k nearest points found so far, sorted by (d2, index), in shared
// memory GI_SHEPARD_BX * GI_SHEPARD_BY words apart (a thread's column).
struct Near {
  float* d;
  int* at;  // position in pts
  int n, k;
  __device__ __forceinline__ float d2(int i) const { return d[i * GI_SHEPARD_BX * GI_SHEPARD_BY]; }
  __device__ __forceinline__ int pos(int i) const { return at[i * GI_SHEPARD_BX * GI_SHEPARD_BY]; }
  // add inserts point i (index idx) at d2, dropping the farthest past k.
  __device__ __forceinline__ void add(const float4* pts, int i, int idx, float d2v) {
    constexpr int S = GI_SHEPARD_BX * GI_SHEPARD_BY;
    if (n == k) {
      const float wd = d2(k - 1);
      if (d2v > wd || (d2v == wd && idx > __float_as_int(pts[pos(k - 1)].w))) return;
    }
    int j = n < k ? n++ : k - 1;
    for (; j > 0; --j) {
      const float pd = d2(j - 1);
      if (pd < d2v || (pd == d2v && __float_as_int(pts[pos(j - 1)].w) < idx)) break;
      d[j * S] = pd;
      at[j * S] = pos(j - 1);
    }
    d[j * S] = d2v;
    at[j * S] = i;
  }
};

// ring calls f(c) for each cell c of the square ring m around cell (cx, cy) that
// lies in the grid, row by row.
template <typename F>
__device__ __forceinline__ void ring(const ShepardParams& p, int cx, int cy, int m, F f) {
  const int y0 = max(cy - m, 0), y1 = min(cy + m, p.gy - 1), x0 = max(cx - m, 0), x1 = min(cx + m, p.gx - 1);
  for (int gy = y0; gy <= y1; ++gy) {
    if (gy == cy - m || gy == cy + m) {
      for (int gx = x0; gx <= x1; ++gx) f(gy * p.gx + gx);
    } else {
      if (cx - m >= 0) f(gy * p.gx + cx - m);
      if (cx + m < p.gx) f(gy * p.gx + cx + m);
    }
  }
}

template <bool P2>
__device__ __forceinline__ void grid(const ShepardParams& p) {
  __shared__ float nd[GI_SHEPARD_MAXK * GI_SHEPARD_BX * GI_SHEPARD_BY];
  __shared__ int na[GI_SHEPARD_MAXK * GI_SHEPARD_BX * GI_SHEPARD_BY];
  const int x = blockIdx.x * GI_SHEPARD_BX + threadIdx.x, y = blockIdx.y * GI_SHEPARD_BY + threadIdx.y;
  if (x >= p.w || y >= p.h) return;
  if (p.mask && p.mask[(size_t)y * p.mp + x] == 0) {
    row<float>(p.dst, p.dp, y)[x] = p.fill;
    return;
  }
  const float fx = (float)x, fy = (float)y, e = -0.5f * p.power;
  const float4* pts = points(p);
  const int cx = x / p.cell, cy = y / p.cell;
  const int t = threadIdx.y * GI_SHEPARD_BX + threadIdx.x;
  const bool within = p.r2 > 0.f;
  const int rings = p.rings;
  float v;
  if (p.k > 0) {
    Near nr{nd + t, na + t, 0, p.k};
    for (int m = 0; m <= rings; ++m) {
      ring(p, cx, cy, m, [&](int c) {
        for (int i = __ldg(p.cells + c); i < __ldg(p.cells + c + 1); ++i) {
          const float4 q = pts[i];
          const float d2 = dist2(q.x, fx, dyEps(q.y, fy));
          if (within && d2 > p.r2) continue;
          nr.add(pts, i, __float_as_int(q.w), d2);
        }
      });
      // Points of the rings past m lie more than m cells away.
      const float reach = (float)m * (float)p.cell;
      if (nr.n == p.k && nr.d2(p.k - 1) <= reach * reach) break;
    }
    if (nr.n == 0) {
      v = p.fill;
    } else if (nr.d2(0) == GI_SHEPARD_EPS) {
      v = pts[nr.pos(0)].z;
    } else {
      // Each weight divided by the nearest's: no overflow at any power.
      const float d0 = nr.d2(0), l0 = lg2_approx(d0);
      float num = 0.f, den = 0.f;
      for (int i = 0; i < nr.n; ++i) {
        const float w = P2 ? d0 * rcp_approx(nr.d2(i)) : ex2_approx(e * (lg2_approx(nr.d2(i)) - l0));
        num = fmaf(w, pts[nr.pos(i)].z, num);
        den += w;
      }
      v = num / den;
    }
  } else {
    // Within the radius: the nearest first (its weight divides the others'), then
    // the sums, cell by cell in ring order.
    float m0 = INFINITY;
    int hit = -1, hidx = 0;
    for (int m = 0; m <= rings; ++m) {
      ring(p, cx, cy, m, [&](int c) {
        for (int i = __ldg(p.cells + c); i < __ldg(p.cells + c + 1); ++i) {
          const float4 q = pts[i];
          const float d2 = dist2(q.x, fx, dyEps(q.y, fy));
          if (d2 > p.r2) continue;
          m0 = fminf(m0, d2);
          if (d2 == GI_SHEPARD_EPS && (hit < 0 || __float_as_int(q.w) < hidx)) hit = i, hidx = __float_as_int(q.w);
        }
      });
    }
    if (hit >= 0) {
      v = pts[hit].z;
    } else if (m0 == INFINITY) {
      v = p.fill;
    } else {
      const float l0 = lg2_approx(m0);
      float num = 0.f, den = 0.f;
      for (int m = 0; m <= rings; ++m) {
        ring(p, cx, cy, m, [&](int c) {
          for (int i = __ldg(p.cells + c); i < __ldg(p.cells + c + 1); ++i) {
            const float4 q = pts[i];
            const float d2 = dist2(q.x, fx, dyEps(q.y, fy));
            if (d2 > p.r2) continue;
            const float w = P2 ? m0 * rcp_approx(d2) : ex2_approx(e * (lg2_approx(d2) - l0));
            num = fmaf(w, q.z, num);
            den += w;
          }
        });
      }
      v = num / den;
    }
  }
  row<float>(p.dst, p.dp, y)[x] = v;
}

}  // namespace shepard

#define GI_SHEPARD(NAME, P2)                                                                     \
  extern "C" __global__ void __launch_bounds__(GI_SHEPARD_BX * GI_SHEPARD_BY)                    \
      gi_shepard_all_##NAME(__grid_constant__ const ShepardParams p) {                           \
    shepard::all<P2, GI_SHEPARD_PX>(p);                                                          \
  }                                                                                              \
  extern "C" __global__ void __launch_bounds__(GI_SHEPARD_TT, 2)                                \
      gi_shepard_tiles_##NAME(__grid_constant__ const ShepardParams p) {                         \
    shepard::tiles<P2>(p);                                                                       \
  }                                                                                              \
  extern "C" __global__ void __launch_bounds__(GI_SHEPARD_BX * GI_SHEPARD_BY)                    \
      gi_shepard_grid_##NAME(__grid_constant__ const ShepardParams p) {                          \
    shepard::grid<P2>(p);                                                                        \
  }
GI_SHEPARD(p2, true)
GI_SHEPARD(pw, false)
