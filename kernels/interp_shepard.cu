// Shepard (inverse distance weighted) interpolation of scattered points onto an
// image's pixel grid (Go caller: interp/cuda.go; the CPU twin is interp/cpu.go's
// shepardCPU, which picks the same points by the same float32 distances).
//   gi_shepard_all_{p2,pw}  every point: GI_SHEPARD_PX pixels a thread, the points
//                           staged in shared memory a tile at a time (broadcast
//                           loads); p2: power 2, the reciprocals of two pixels'
//                           distances from one (1/(ab) times b and a); pw: any
//                           power, 2^(-p/2 log2 d2). Tiles summed apart, then added.
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
      if (P2) {
        // Both d2 lie in [EPS, 4e14] (coordinates within 1e7 pixels): their
        // product neither overflows nor leaves the normal range.
#pragma unroll
        for (int i = 0; i < PX; i += 2) {
          const float r = rcp_approx(d2[i] * d2[i + 1]);
          w[i] = r * d2[i + 1];
          w[i + 1] = r * d2[i];
        }
      } else {
#pragma unroll
        for (int i = 0; i < PX; ++i) w[i] = weight<false>(d2[i], e);
      }
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
  extern "C" __global__ void __launch_bounds__(GI_SHEPARD_BX * GI_SHEPARD_BY)                    \
      gi_shepard_grid_##NAME(__grid_constant__ const ShepardParams p) {                          \
    shepard::grid<P2>(p);                                                                        \
  }
GI_SHEPARD(p2, true)
GI_SHEPARD(pw, false)
