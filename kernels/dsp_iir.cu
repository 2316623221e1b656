// IIR filters on batches of signals, one signal a row (Go caller: dsp/cuda.go's
// iirCUDA; the CPU twin is dsp/cpu.go's iirCPU): a cascade of K sections of order P
// in direct form II transposed, SciPy's lfilter (K = 1) and sosfilt (P = 2). The
// recursion is a linear map of an S = K*P state, so a long signal is cut into runs
// that are filtered at once and joined by a scan:
//   gi_iir_local  each thread filters GI_IIR_L samples from a zero state; a block
//                 reduces its threads' end states (end' = A^(L*d) end + local)
//                 to the state its run of B = GI_IIR_THREADS*GI_IIR_L samples ends
//                 in, from zero, and stores it;
//   gi_iir_carry  one thread block a row turns those block states into each
//                 block's true end state, from the row's initial state: each
//                 thread runs through up to 2^GI_IIR_RUNLOG of them in sequence,
//                 the runs joined by a scan across the threads;
//   gi_iir_final  each block folds its starting state into the thread scan, and each
//                 thread filters its samples again from its true state, writing the
//                 outputs (and the final state, zf).
// The states are combined in double precision (the powers of A of a narrow
// filter cascade have large entries that cancel), the samples filtered in float.
// The threads' scans take A's powers from the launch's parameters (constant
// memory: operands of the multiply-adds, no loads; the host makes them), the
// block carry from gi_iir_powers' buffer (made on the device from A, which rides
// in its parameters, so a call copies nothing from the host) staged in shared
// memory. gi_iir_local needs only its block's end state: a tree reduction, not a
// scan. A row of one block needs gi_iir_final only. Samples pass through shared
// memory so that global loads and stores are coalesced (16 bytes a thread where a
// tile lies inside a 16-byte aligned signal, one sample a thread with no bounds
// to test where it lies inside otherwise, filtfilt's reversed passes included);
// a thread's run is 33 floats apart from the next one's, so its reads hit 32
// different banks, and a whole run is filtered from registers.
//
// A batch of many rows (dsp/cuda.go's iirOnePass) runs the single-pass family
// instead, gi_iir_scan, which reads each sample once and writes each output once:
// tiles of B = GI_IIR_SCAN_THREADS*GI_IIR_SCAN_L samples joined by a scan with
// decoupled look-back (Merrill and Garland's, as Maleki and Burtscher's PLR uses it
// for linear recurrences).
//   - A block (GI_IIR_SCAN_BLOCKS an SM, as many as fit at once, each looping
//     until no tile is left, so that the powers it stages in shared memory are
//     read once) takes the next tile from a counter (so the tiles before its own
//     are taken by running blocks; ids interleave the rows, tile b of row y being
//     b*rows + y, so a row's tile comes well after the one before it) and stages
//     it in shared memory. Each thread finds the state its run ends in from zero:
//     sums of its samples times their state responses (g, staged in shared
//     memory: 8 multiply-adds a sample, no recursion), GI_IIR_SCAN_G samples at a
//     time, joined by A^G (a transfer function of order 3 and more filters its
//     run instead: see endState).
//   - The threads' scan (powers A^(L*2^j)) gives each the state at its end from
//     the tile's start at zero; the last is the tile's aggregate, which the block
//     publishes (flag 1).
//   - Warp 0 looks back over the row's GI_IIR_SCAN_WINDOW tiles before, a lane
//     each: the nearest with an inclusive state (flag 2: its true end state) and
//     the aggregates after it, each times its power of A^B, summed, are the tile's
//     starting state; the block publishes its own inclusive state at once. Flags
//     are stored with release semantics and polled relaxed, with one acquire fence
//     after (a fence or acquire load on every poll empties the SM's L1).
//   - Each thread's true start (its start from zero plus A^(L*t) times the tile's)
//     starts the recursion again over its samples, which writes the outputs, and
//     the tile goes back to global memory.
// It shares IIRParams with the three kernels: agg holds the tiles' states, flags
// their flags, and tmats the state responses and A^G.
//
// A filter whose state forgets where it started (dsp/warm.go's warmup: after
// IIRParams.warm samples from a zero state, every state and output is within
// 2^-26 of the largest input of the exact recursion's) runs the warm-up family
// instead, gi_iir_warm, with no scan at all: each lane of a warp filters a run of
// IIRParams.run samples, starting from a zero state warm samples before it (or
// from the row's initial state where that reaches its start), and writes the
// run's outputs. The samples are read once, the warm-ups' twice, the outputs
// written once; no lane, warp or block waits for another.
#include "common.cuh"
#include "dsp_params.h"

namespace dsp {

// Tile is a block's tile of T threads' runs of L samples in shared memory, each run
// Stride floats from the next.
template <int T, int L, int Stride>
struct Tile {
  static constexpr int kT = T, kL = L, kB = T * L, kStride = Stride;
  static __device__ __forceinline__ int index(int e) { return e / L * Stride + e % L; }
};
// The three-kernel family's tile: a thread's run is 33 floats from the next one's.
using Tile3 = Tile<GI_IIR_THREADS, GI_IIR_L, GI_IIR_L + 1>;
constexpr int kT = Tile3::kT, kL = Tile3::kL, kB = Tile3::kB, kStride = Tile3::kStride;
__device__ __forceinline__ int tileIndex(int e) { return Tile3::index(e); }

// vin is sample i of the virtual sequence of row x (see IIRParams).
__device__ __forceinline__ float vin(const IIRParams& p, const float* x, int i) {
  const int j = (p.rev ? p.len - 1 - i : i) - p.pad;
  if (j < 0) return 2.f * __ldg(x) - __ldg(x - j);
  if (j >= p.n) return 2.f * __ldg(x + p.n - 1) - __ldg(x + 2 * (p.n - 1) - j);
  return __ldg(x + j);
}

// Cascade is the filter's state and its one-sample step.
template <int K, int P>
struct Cascade {
  static constexpr int S = K * P;
  float z[S];

  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int s = 0; s < S; ++s) z[s] = 0.f;
  }
  // step filters one sample through the sections; c holds each section's b0..bP
  // and -a1..-aP. The feedback term is added last, so that a section's recursion
  // (y to the next sample's y) is two dependent multiply-adds, not three.
  __device__ __forceinline__ float step(const float* c, float v) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const float* s = c + k * (2 * P + 1);
      float* q = z + k * P;
      const float y = fmaf(s[0], v, q[0]);
#pragma unroll
      for (int i = 0; i < P - 1; ++i) q[i] = fmaf(s[P + 1 + i], y, fmaf(s[i + 1], v, q[i + 1]));
      q[P - 1] = fmaf(s[2 * P], y, s[P] * v);
      v = y;
    }
    return v;
  }
};

// addMul adds M u to v, M an S x S row-major matrix in shared memory (every thread
// reads the same element at once) that is a power of a cascade's A: block lower
// triangular in sections of P (a section's state depends on its own and the
// earlier sections' only), so the products skip the blocks above the diagonal,
// which are exactly zero: 40 of 64 terms for 4 second-order sections.
template <int S, int P>
__device__ __forceinline__ void addMul(double (&v)[S], const double* M, const double (&u)[S]) {
#pragma unroll
  for (int r = 0; r < S; ++r) {
    double a = v[r];
#pragma unroll
    for (int c = 0; c < P * (r / P + 1); ++c) a = fma(M[r * S + c], u[c], a);
    v[r] = a;
  }
}

// scanLevel is one level of scan: thread t adds M times thread t-d's v to its own
// (t >= d), through sh.
template <int S, int P>
__device__ __forceinline__ void scanLevel(double (&v)[S], double* sh, const double* M, int d) {
  const int t = threadIdx.x;
#pragma unroll
  for (int s = 0; s < S; ++s) sh[t * (S + 1) + s] = v[s];
  __syncthreads();
  if (t >= d) {
    double u[S];
#pragma unroll
    for (int s = 0; s < S; ++s) u[s] = sh[(t - d) * (S + 1) + s];
    addMul<S, P>(v, M, u);
  }
  __syncthreads();
}

// scan turns each thread's v (a state reached from zero over its stretch) into the
// state at the end of its stretch from zero at the start of thread 0's, Count
// threads of equal stretches, mats[j] the power of A for 2^j stretches (in the
// parameters for the thread scans: unrolled, every read is a constant operand). sh
// holds Count*(S+1) doubles.
template <int S, int P, int Count>
__device__ __forceinline__ void scan(double (&v)[S], double* sh, const double* mats) {
#pragma unroll
  for (int j = 0; (1 << j) < Count; ++j) scanLevel<S, P>(v, sh, mats + j * S * S, 1 << j);
}

// initial is row y's starting state (see IIRParams' ziMode).
template <int S>
__device__ __forceinline__ void initial(const IIRParams& p, int y, const float* x, double (&z)[S], bool writeX0) {
#pragma unroll
  for (int s = 0; s < S; ++s) z[s] = 0.f;
  if (p.ziMode == 1) {
    const char* b = reinterpret_cast<const char*>(p.zi) + (size_t)y * p.ziRow;
#pragma unroll
    for (int s = 0; s < S; ++s)
      if (s < p.sreal) z[s] = __ldg(reinterpret_cast<const float*>(b + (s >> 1) * (size_t)p.ziPair + (s & 1) * 4));
  } else if (p.ziMode == 2) {
    const float x0 = p.x0in ? p.x0in[y] : vin(p, x, 0);
    if (writeX0 && p.x0out) p.x0out[y] = x0;
#pragma unroll
    for (int s = 0; s < S; ++s) z[s] = (double)p.ziv[s] * x0;
  }
}

// putZf writes row y's final state z to zf (see IIRParams).
template <int S>
__device__ __forceinline__ void putZf(const IIRParams& p, int y, const float (&z)[S]) {
  char* zb = reinterpret_cast<char*>(p.zf) + (size_t)y * p.zfRow;
#pragma unroll
  for (int s = 0; s < S; ++s)
    if (s < p.sreal) *reinterpret_cast<float*>(zb + (s >> 1) * (size_t)p.zfPair + (s & 1) * 4) = z[s];
}

// reduce leaves in thread 0's v the state at the end of all Count threads'
// stretches from zero (scan's last value), by a tree whose working threads are the
// lowest: at each level thread t joins pair t (stretches 2t and 2t+1 of the level
// before), so the levels after the first two take one warp, not a few threads in
// each.
template <int S, int P, int Count>
__device__ __forceinline__ void reduce(double (&v)[S], double* sh, const double* mats) {
  const int t = threadIdx.x;
#pragma unroll
  for (int s = 0; s < S; ++s) sh[t * (S + 1) + s] = v[s];
  __syncthreads();
#pragma unroll
  for (int j = 0; (2 << j) <= Count; ++j) {
    const bool on = t < (Count >> (j + 1));
    if (on) {
      double u[S];
#pragma unroll
      for (int s = 0; s < S; ++s) u[s] = sh[2 * t * (S + 1) + s], v[s] = sh[(2 * t + 1) * (S + 1) + s];
      addMul<S, P>(v, mats + j * S * S, u);
    }
    if ((2 << j) == Count) break;  // thread 0 holds the total
    __syncthreads();
    if (on) {
#pragma unroll
      for (int s = 0; s < S; ++s) sh[t * (S + 1) + s] = v[s];
    }
    __syncthreads();
  }
}

// stageMats copies count S x S matrices from global memory to shared (dynamic
// shared memory, sized by the launch), where the scans read them: every thread
// reads the same element at once, a broadcast.
__device__ __forceinline__ double* stageMats(const double* from, int count) {
  extern __shared__ double msh[];
  for (int i = threadIdx.x; i < count; i += blockDim.x) msh[i] = from[i];
  __syncthreads();
  return msh;
}

// loadTile stages samples b*kB .. b*kB+kB-1 of row y's virtual sequence (zero past
// its end) in a tile of shape Sh. Where runs lie 16 bytes apart the aligned copies
// are cp.async, which the caller waits for (copyWait) before its barrier.
template <class Sh>
__device__ __forceinline__ void loadTile(const IIRParams& p, const float* x, int b, float* tile, const int t = threadIdx.x) {
  constexpr int kT = Sh::kT, kL = Sh::kL, kB = Sh::kB;
  const int i0 = b * kB;
  const float* from = x + (i0 - p.pad);
  if (!p.rev && i0 >= p.pad && i0 + kB - p.pad <= p.n && i0 + kB <= p.len && (reinterpret_cast<uintptr_t>(from) & 15) == 0) {
    // A tile inside the signal: 16-byte loads, all of a thread's in flight at once
    // (a warp's stores hit 32 banks: runs 33 floats apart, 4 floats a thread; or
    // a warp's 512 bytes are one run, 16-byte aligned).
#pragma unroll
    for (int k = 0; k < kB / 4 / kT; ++k) {
      const int e = (t + k * kT) * 4;
      float* to = tile + Sh::index(e);
      if (Sh::kStride % 4 == 0) {
        copyAsync16(to, from + e);
      } else {
        const float4 v = __ldg(reinterpret_cast<const float4*>(from + e));
        to[0] = v.x, to[1] = v.y, to[2] = v.z, to[3] = v.w;
      }
    }
    return;
  }
  const int jlo = p.rev ? p.len - i0 - kB - p.pad : i0 - p.pad;  // the first sample of x the tile reads
  if (jlo >= 0 && jlo + kB <= p.n && i0 + kB <= p.len) {
    // Inside the signal, reversed (filtfilt's backward pass) or unaligned: a load
    // a sample, no extension or bounds to test.
    const float* lo = x + jlo;
    if (p.rev) {
#pragma unroll 8
      for (int k = 0; k < kL; ++k) {
        const int e = t + k * kT;
        tile[Sh::index(e)] = __ldg(lo + (kB - 1 - e));
      }
    } else {
#pragma unroll 8
      for (int k = 0; k < kL; ++k) {
        const int e = t + k * kT;
        tile[Sh::index(e)] = __ldg(lo + e);
      }
    }
    return;
  }
#pragma unroll 8
  for (int k = 0; k < kL; ++k) {  // kL loads a thread, 8 in flight
    const int e = t + k * kT;
    tile[Sh::index(e)] = i0 + e < p.len ? vin(p, x, i0 + e) : 0.f;
  }
}

// storeTile writes a tile of shape Sh, row y's virtual samples b*kB .. after
// filtering, where they land in dst (see IIRParams).
template <class Sh>
__device__ __forceinline__ void storeTile(const IIRParams& p, int y, int b, const float* tile, const int t = threadIdx.x) {
  constexpr int kT = Sh::kT, kL = Sh::kL, kB = Sh::kB;
  const int i0 = b * kB;
  float* d = row<float>(p.dst, p.dp, y);
  float* to = d + (i0 - p.opad);
  if (!p.rev && i0 >= p.opad && i0 + kB - p.opad <= p.outn && i0 + kB <= p.len && (reinterpret_cast<uintptr_t>(to) & 15) == 0) {
#pragma unroll
    for (int k = 0; k < kB / 4 / kT; ++k) {
      const int e = (t + k * kT) * 4;
      const float* s = tile + Sh::index(e);
      *reinterpret_cast<float4*>(to + e) =
          Sh::kStride % 4 == 0 ? *reinterpret_cast<const float4*>(s) : make_float4(s[0], s[1], s[2], s[3]);
    }
    return;
  }
  const int olo = p.rev ? p.len - i0 - kB - p.opad : i0 - p.opad;  // the first output the tile writes
  if (olo >= 0 && olo + kB <= p.outn && i0 + kB <= p.len) {
    float* lo = d + olo;
    if (p.rev) {
#pragma unroll 8
      for (int k = 0; k < kL; ++k) {
        const int e = t + k * kT;
        lo[kB - 1 - e] = tile[Sh::index(e)];
      }
    } else {
#pragma unroll 8
      for (int k = 0; k < kL; ++k) {
        const int e = t + k * kT;
        lo[e] = tile[Sh::index(e)];
      }
    }
    return;
  }
#pragma unroll 8
  for (int k = 0; k < kL; ++k) {
    const int e = t + k * kT;
    const int o = (p.rev ? p.len - 1 - (i0 + e) : i0 + e) - p.opad;
    if (i0 + e < p.len && o >= 0 && o < p.outn) d[o] = tile[Sh::index(e)];
  }
}

// run filters count samples of this thread's stretch of the tile through c, in
// place when Write: a whole stretch from registers (its loads all issued before
// the recursion needs them), a partial one sample by sample.
template <bool Write, int K, int P>
__device__ __forceinline__ void run(const IIRParams& p, float* mine, int count, Cascade<K, P>& c) {
  if (count == kL) {
    float in[kL];
#pragma unroll
    for (int i = 0; i < kL; ++i) in[i] = mine[i];
#pragma unroll
    for (int i = 0; i < kL; ++i) in[i] = c.step(p.coef, in[i]);
    if (Write) {
#pragma unroll
      for (int i = 0; i < kL; ++i) mine[i] = in[i];
    }
  } else {
    for (int i = 0; i < count; ++i) {
      const float y = c.step(p.coef, mine[i]);
      if (Write) mine[i] = y;
    }
  }
}

// runLocal filters this thread's stretch of the tile from a zero state: the state
// at its end.
template <int K, int P>
__device__ __forceinline__ void runLocal(const IIRParams& p, float* tile, int count, double (&v)[K * P]) {
  Cascade<K, P> c;
  c.zero();
  run<false>(p, tile + threadIdx.x * kStride, count, c);
#pragma unroll
  for (int s = 0; s < K * P; ++s) v[s] = c.z[s];
}

template <int K, int P>
__device__ void local(const IIRParams& p) {
  constexpr int S = K * P;
  __shared__ float tile[kT * kStride];
  __shared__ double sh[kT * (S + 1)];
  const int b = blockIdx.x;  // every block but the row's last
  for (int y = blockIdx.y; y < p.rows; y += gridDim.y) {
    const float* x = row<float>(p.src, p.sp, y);
    __syncthreads();
    loadTile<Tile3>(p, x, b, tile);
    __syncthreads();
    double v[S];
    runLocal<K, P>(p, tile, kL, v);
    reduce<S, P, kT>(v, sh, p.tmats);
    if (threadIdx.x == 0) {
      double* a = p.agg + (size_t)y * p.aggRow + (size_t)b * S;
#pragma unroll
      for (int s = 0; s < S; ++s) a[s] = v[s];
    }
  }
}

// getState and putState move block state i of a row's agg (S doubles each) with
// 16-byte accesses where S is even: a carry thread's states lie far from its
// neighbours', so each access of a warp is 32 sectors, and halving the accesses
// halves the time the L1 spends on them (the carry's bound).
template <int S>
__device__ __forceinline__ void getState(double (&v)[S], const double* a) {
  if (S % 2 == 0) {
#pragma unroll
    for (int s = 0; s < S; s += 2) {
      const double2 x = *reinterpret_cast<const double2*>(a + s);
      v[s] = x.x, v[(s + 1) % S] = x.y;
    }
  } else {
#pragma unroll
    for (int s = 0; s < S; ++s) v[s] = a[s];
  }
}
template <int S>
__device__ __forceinline__ void putState(double* a, const double (&v)[S]) {
  if (S % 2 == 0) {
#pragma unroll
    for (int s = 0; s < S; s += 2) *reinterpret_cast<double2*>(a + s) = make_double2(v[s], v[(s + 1) % S]);
  } else {
#pragma unroll
    for (int s = 0; s < S; ++s) a[s] = v[s];
  }
}

// runStates runs st through count consecutive block states from a (st = A^B st +
// a[i], M = A^B), storing each in a[i] when Write; the loads four states at a
// time, in flight together.
template <int S, int P, bool Write>
__device__ __forceinline__ void runStates(double (&st)[S], double* a, int count, const double* M) {
  constexpr int G = 4;
  for (int i0 = 0; i0 < count; i0 += G) {
    double g[G][S];
#pragma unroll
    for (int j = 0; j < G; ++j) {
      if (i0 + j < count) getState<S>(g[j], a + (size_t)(i0 + j) * S);
    }
#pragma unroll
    for (int j = 0; j < G; ++j) {
      if (i0 + j < count) {
        double u[S];
#pragma unroll
        for (int s = 0; s < S; ++s) u[s] = st[s], st[s] = g[j][s];
        addMul<S, P>(st, M, u);
        if (Write) putState<S>(a + (size_t)(i0 + j) * S, st);
      }
    }
  }
}

// scanLevels is scan for the first levels levels only (mats in shared memory):
// enough for the threads below 2^levels.
template <int S, int P>
__device__ __forceinline__ void scanLevels(double (&v)[S], double* sh, const double* mats, int levels) {
#pragma unroll 1
  for (int j = 0; j < levels; ++j) scanLevel<S, P>(v, sh, mats + j * S * S, 1 << j);
}

// carry turns each row's block end states from zero (agg) into true ones, from
// the row's initial state. A thread runs through R = 2^e consecutive block states
// in sequence (e the least, up to GI_IIR_RUNLOG, for which GI_IIR_CARRY runs
// cover the row's states), the runs' end states are scanned across the threads
// (powers A^(B*R*2^j), as many levels as the runs need), and each thread runs
// through its states again from its true start, storing them; rows of more
// states take chunks of GI_IIR_CARRY*R, the last state of each carried into the
// next.
template <int K, int P>
__device__ void carry(const IIRParams& p) {
  constexpr int S = K * P;
  // Both in dynamic shared memory: the block-level powers, then the scan's states.
  const double* powers = stageMats(p.mats + GI_IIR_TLEVELS * S * S, GI_IIR_BLEVELS * S * S);
  double* sh = const_cast<double*>(powers) + GI_IIR_BLEVELS * S * S;
  const int t = threadIdx.x, blocks = p.nb - 1;  // the blocks whose end states count
  int e = 0;
  while (e < GI_IIR_RUNLOG && (GI_IIR_CARRY << e) < blocks) ++e;
  const int R = 1 << e;
  for (int y = blockIdx.x; y < p.rows; y += gridDim.x) {
    double c[S];
    initial<S>(p, y, row<float>(p.src, p.sp, y), c, false);
    double* a = p.agg + (size_t)y * p.aggRow;
    for (int b0 = 0; b0 < blocks; b0 += GI_IIR_CARRY * R) {
      const int first = b0 + t * R, count = min(R, max(0, blocks - first));
      const int runs = min(GI_IIR_CARRY, (blocks - b0 + R - 1) / R);  // threads with states
      int levels = 0;
      while ((1 << levels) < runs) ++levels;
      // v: the state the run ends in, from c for thread 0 and from zero for the others.
      double v[S];
#pragma unroll
      for (int s = 0; s < S; ++s) v[s] = t == 0 ? c[s] : 0.;
      runStates<S, P, false>(v, a + (size_t)first * S, count, powers);
      scanLevels<S, P>(v, sh, powers + e * S * S, levels);
      // Thread t's run starts where thread t-1's ends (thread 0's at c).
#pragma unroll
      for (int s = 0; s < S; ++s) sh[t * (S + 1) + s] = v[s];
      __syncthreads();
      double st[S];
#pragma unroll
      for (int s = 0; s < S; ++s) st[s] = t == 0 ? c[s] : sh[(t - 1) * (S + 1) + s];
      runStates<S, P, true>(st, a + (size_t)first * S, count, powers);
#pragma unroll
      for (int s = 0; s < S; ++s) c[s] = sh[(GI_IIR_CARRY - 1) * (S + 1) + s];
      __syncthreads();
    }
  }
}

template <int K, int P>
__device__ void finish(const IIRParams& p) {
  constexpr int S = K * P;
  __shared__ float tile[kT * kStride];
  __shared__ double sh[kT * (S + 1)];
  __shared__ double start[S];
  const int b = blockIdx.x, t = threadIdx.x, i0 = b * kB;
  const int count = min(kL, max(0, p.len - i0 - t * kL));  // this thread's samples
  for (int y = blockIdx.y; y < p.rows; y += gridDim.y) {
    const float* x = row<float>(p.src, p.sp, y);
    __syncthreads();
    loadTile<Tile3>(p, x, b, tile);
    if (t == 0) {  // the block's starting state, which thread 0 folds in
      double st[S];
      if (b == 0) {
        initial<S>(p, y, x, st, true);
      } else {
        const double* a = p.agg + (size_t)y * p.aggRow + (size_t)(b - 1) * S;
#pragma unroll
        for (int s = 0; s < S; ++s) st[s] = a[s];
      }
#pragma unroll
      for (int s = 0; s < S; ++s) start[s] = st[s];
    }
    __syncthreads();
    double v[S];
    runLocal<K, P>(p, tile, count, v);
    if (t == 0) {
      double st[S];
#pragma unroll
      for (int s = 0; s < S; ++s) st[s] = start[s];
      addMul<S, P>(v, p.tmats, st);
    }
    scan<S, P, kT>(v, sh, p.tmats);
    // Thread t starts where thread t-1 ends.
#pragma unroll
    for (int s = 0; s < S; ++s) sh[t * (S + 1) + s] = v[s];
    __syncthreads();
    Cascade<K, P> c;
#pragma unroll
    for (int s = 0; s < S; ++s) c.z[s] = (float)(t == 0 ? start[s] : sh[(t - 1) * (S + 1) + s]);
    run<true>(p, tile + t * kStride, count, c);
    if (p.zf && count > 0 && i0 + t * kL + count == p.len) putZf<S>(p, y, c.z);
    __syncthreads();
    storeTile<Tile3>(p, y, b, tile);
  }
}

// The single-pass family (gi_iir_scan): see the top of the file. Its tile's runs
// are 132 floats apart: 16-byte aligned, and a quarter warp's 16-byte accesses hit
// all 32 banks.
namespace one {

using TileS = Tile<GI_IIR_SCAN_THREADS, GI_IIR_SCAN_L, GI_IIR_SCAN_L + 4>;
constexpr int kT = TileS::kT, kL = TileS::kL, kB = TileS::kB, kStride = TileS::kStride;
constexpr int kG = GI_IIR_SCAN_G, kW = GI_IIR_SCAN_WINDOW, kLevels = GI_IIR_SCAN_LEVELS;
static_assert(kL % kG == 0 && kG % 4 == 0 && (1 << kLevels) == kT && kW == 32, "IIR tile shape");

// terms is how many columns of row r of a power of a cascade's A can be nonzero
// (see addMul).
template <int P>
__device__ __forceinline__ constexpr int terms(int r) { return P * (r / P + 1); }

// addMulCol adds M u to v, M column col of a table of powers of A stored element
// by element (element e of power col at M[e*cols + col]): each lane of a warp reads
// its own power, the warp's loads adjacent.
template <int S, int P>
__device__ __forceinline__ void addMulCol(double (&v)[S], const double* M, int cols, int col, const double (&u)[S]) {
  M += col;
#pragma unroll
  for (int r = 0; r < S; ++r) {
    double a = v[r];
#pragma unroll
    for (int c = 0; c < terms<P>(r); ++c) a = fma(__ldg(M + (size_t)(r * S + c) * cols), u[c], a);
    v[r] = a;
  }
}

// run filters count samples of this thread's run of the tile through c, in place
// when write.
template <int K, int P>
__device__ __forceinline__ void run(const IIRParams& p, float* mine, int count, Cascade<K, P>& c, bool write) {
  if (count == kL) {
#pragma unroll 4
    for (int i = 0; i < kL; i += 4) {
      float4 q = *reinterpret_cast<const float4*>(mine + i);
      q.x = c.step(p.coef, q.x);
      q.y = c.step(p.coef, q.y);
      q.z = c.step(p.coef, q.z);
      q.w = c.step(p.coef, q.w);
      if (write) *reinterpret_cast<float4*>(mine + i) = q;
    }
  } else {
    for (int i = 0; i < count; ++i) {
      const float y = c.step(p.coef, mine[i]);
      if (write) mine[i] = y;
    }
  }
}

// endState is the state this thread's run of the tile (mine: kL samples, zeros past
// the row's end) ends in from zero: for each GI_IIR_SCAN_G samples, the samples
// times their state responses (g, in shared memory: a loop over the samples, four
// at a time, not the 1,500 instructions that unrolling it took, whose fetches
// stalled the warps), then the runs so far carried over them by A^G (ag, in shared
// memory). A transfer function of order 3 and more filters its run instead: the
// responses of its direct form have large terms that cancel, which float sums
// keep to only 1e-4 of the RMS.
template <int K, int P>
__device__ __forceinline__ void endState(const IIRParams& p, const float* mine, const float* g, const double* ag, double (&v)[K * P]) {
  constexpr int S = K * P;
  if (P > 2) {  // a transfer function's direct form: its state responses cancel in float
    Cascade<K, P> c;
    c.zero();
    run<K, P>(p, const_cast<float*>(mine), kL, c, false);
#pragma unroll
    for (int s = 0; s < S; ++s) v[s] = c.z[s];
    return;
  }
  // The runs' sums side by side, so that each response is loaded once for all.
  constexpr int R = kL / kG;
  float a[R][S];
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int s = 0; s < S; ++s) a[r][s] = 0.f;
  }
#pragma unroll 1
  for (int i = 0; i < kG; i += 4) {
    float x[R][4];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const float4 q = *reinterpret_cast<const float4*>(mine + r * kG + i);
      x[r][0] = q.x, x[r][1] = q.y, x[r][2] = q.z, x[r][3] = q.w;
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const float gv = g[(i + k) * S + s];
#pragma unroll
        for (int r = 0; r < R; ++r) a[r][s] = fmaf(gv, x[r][k], a[r][s]);
      }
    }
  }
#pragma unroll
  for (int s = 0; s < S; ++s) v[s] = a[0][s];
#pragma unroll
  for (int r = 1; r < R; ++r) {
    double u[S];
#pragma unroll
    for (int s = 0; s < S; ++s) u[s] = v[s], v[s] = a[r][s];
    addMul<S, P>(v, ag, u);
  }
}

// flagAt reads a tile's flag, bypassing the L1 (another block writes it).
__device__ __forceinline__ int flagAt(const int* f) {
  int v;
  asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(f) : "memory");
  return v;
}

// lookBack is run by warp 0 of the block that has tile b of row y: the state the
// tile starts in (all lanes hold it). Lane l looks at tile b-1-l (tile -1 being the
// row's initial state, an inclusive state), waiting for its aggregate; the lowest
// lane k whose tile has an inclusive state ends the sum agg[b-1] + A^B agg[b-2] ...
// + A^(B*k) inc[b-1-k], each lane adding its term; where no tile of the window has
// one yet, the last lane waits for it.
template <int S, int P>
__device__ __forceinline__ void lookBack(const IIRParams& p, int y, int b, const float* x, double (&st)[S]) {
  const int lane = threadIdx.x, tb = b - 1 - lane;
  const size_t base = (size_t)y * p.nb;
  int f = 2;
  if (tb >= 0) {
    while ((f = flagAt(p.flags + base + tb)) == 0) {
#if __CUDA_ARCH__ >= 700
      __nanosleep(32);
#endif
    }
  }
  const unsigned inc = __ballot_sync(~0u, f == 2);
  int k = kW - 1;
  if (inc != 0) {
    k = __ffs(inc) - 1;
  } else if (lane == kW - 1) {
    while (flagAt(p.flags + base + tb) != 2) {
#if __CUDA_ARCH__ >= 700
      __nanosleep(64);
#endif
    }
  }
  asm volatile("fence.acq_rel.gpu;" ::: "memory");  // the states after the flags
#pragma unroll
  for (int s = 0; s < S; ++s) st[s] = 0.;
  if (lane <= k) {
    double u[S];
    if (tb < 0) {
      initial<S>(p, y, x, u, false);
    } else {
      const double* a = p.agg + ((base + tb) * 2 + (lane == k)) * S;
#pragma unroll
      for (int s = 0; s < S; ++s) u[s] = __ldcg(a + s);
    }
    if (lane == 0) {  // the tile just before: its state as it is
#pragma unroll
      for (int s = 0; s < S; ++s) st[s] = u[s];
    } else {
      addMulCol<S, P>(st, p.mats + (size_t)kT * S * S, kW, lane - 1, u);
    }
  }
#pragma unroll
  for (int s = 0; s < S; ++s) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) st[s] += __shfl_xor_sync(~0u, st[s], o);
  }
}

// publish stores state v of tile b of row y (slot 0: its aggregate, 1: its
// inclusive state), then, after a fence, its flag: one thread calls it.
template <int S>
__device__ __forceinline__ void publish(const IIRParams& p, int y, int b, int slot, const double (&v)[S]) {
  const size_t i = (size_t)y * p.nb + b;
  double* a = p.agg + (i * 2 + slot) * S;
#pragma unroll
  for (int s = 0; s < S; ++s) __stcg(a + s, v[s]);
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p.flags + i), "r"(slot + 1) : "memory");
}

// filter is a block of gi_iir_scan: it takes tiles from the counter until none is
// left, and filters each (see the top of the file).
template <int K, int P>
__device__ void filter(const IIRParams& p) {
  constexpr int S = K * P;
  __shared__ __align__(16) float tile[kT * kStride];
  __shared__ double sh[kT * (S + 1)];
  __shared__ double mats[(kLevels + 2) * S * S];  // A^(L*2^j), then A^G, then A^B
  __shared__ double start[S];
  __shared__ __align__(16) float g[kG * S];  // the state responses
  __shared__ int next;
  const int t = threadIdx.x, total = p.rows * p.nb;
  int* const counter = p.flags + total;
  if (t == 0) next = atomicAdd(counter, 1);
  for (int i = t; i < kLevels * S * S; i += kT) mats[i] = p.mats[(size_t)(i % (S * S)) * kT + (1 << (i / (S * S)))];
  const double* ag = reinterpret_cast<const double*>(p.tmats) + GI_IIR_SCAN_G * GI_IIR_MAXS / 2;
  for (int i = t; i < S * S; i += kT) mats[kLevels * S * S + i] = ag[i], mats[(kLevels + 1) * S * S + i] = p.mats[((size_t)kT * S * S) + (size_t)i * kW];
  for (int i = t; i < kG * S; i += kT) g[i] = reinterpret_cast<const float*>(p.tmats)[i];
  __syncthreads();
  for (int id = next; id < total;) {
    // The thread's index, opaque to the compiler: the tile's addresses are made
    // again each turn, not hoisted out of the loop into registers it lacks.
    int ti = t;
    asm volatile("mov.b32 %0, %0;" : "+r"(ti));
    const int y = id % p.rows, b = id / p.rows, i0 = b * kB;
    const int count = min(kL, max(0, p.len - i0 - t * kL));  // this thread's samples
    const float* x = row<float>(p.src, p.sp, y);
    loadTile<TileS>(p, x, b, tile, ti);
    copyWait();
    __syncthreads();
    double v[S];
    endState<K, P>(p, tile + t * kStride, g, mats + kLevels * S * S, v);
    scan<S, P, kT>(v, sh, mats);
#pragma unroll
    for (int s = 0; s < S; ++s) sh[t * (S + 1) + s] = v[s];
    if (t == kT - 1 && b > 0 && b < p.nb - 1) publish<S>(p, y, b, 0, v);
    __syncthreads();
    if (t < 32) {
      double st[S];
      if (b == 0) {
        initial<S>(p, y, x, st, t == 0);
      } else {
        lookBack<S, P>(p, y, b, x, st);
      }
      if (b < p.nb - 1) {  // the tile's inclusive state: A^B st + its aggregate
        double in[S];
#pragma unroll
        for (int s = 0; s < S; ++s) in[s] = sh[(kT - 1) * (S + 1) + s];
        addMul<S, P>(in, mats + (kLevels + 1) * S * S, st);
        if (t == 0) publish<S>(p, y, b, 1, in);
      }
      if (t == 0) {
#pragma unroll
        for (int s = 0; s < S; ++s) start[s] = st[s];
      }
    }
    __syncthreads();
    // This thread's true start: its start from zero plus A^(L*t) times the tile's.
    double st[S], s0[S];
#pragma unroll
    for (int s = 0; s < S; ++s) st[s] = t == 0 ? 0. : sh[(t - 1) * (S + 1) + s], s0[s] = start[s];
    addMulCol<S, P>(st, p.mats, kT, t, s0);
    Cascade<K, P> c;
#pragma unroll
    for (int s = 0; s < S; ++s) c.z[s] = (float)st[s];
    run<K, P>(p, tile + t * kStride, count, c, true);
    if (p.zf && count > 0 && i0 + t * kL + count == p.len) putZf<S>(p, y, c.z);
    __syncthreads();
    if (t == 0) next = atomicAdd(counter, 1);  // every thread has read the last one
    storeTile<TileS>(p, y, b, tile, ti);
    __syncthreads();  // the tile is free for the next
    id = next;
  }
}

}  // namespace one

// The warm-up family (gi_iir_warm): see the top of the file. A warp's 32 lanes
// filter consecutive runs of p.run samples of one row; lane l's run starts at
// c0 + l*run, and the lane filters the p.warm samples before it first, from a zero
// state (or from the row's initial state where those reach back to its start),
// writing nothing. Piece k of every lane (kR samples, from run start - warm + k*kR)
// is staged in one of two slots of the warp's shared memory, lane l's at
// l*kStride, while the lanes filter piece k-1 from the other slot: the copies are
// coalesced (a warp instruction copies 4 lanes' pieces whole), the lanes' reads
// conflict-free (runs 36 floats apart, 16 bytes a lane). No barrier but the warp's:
// the warps of a block share nothing.
namespace warm {

constexpr int kWarps = GI_IIR_WARM_WARPS;

// stage starts the copies of piece q0 of a warp's lanes (lane l's R samples of
// row x's virtual sequence from q0 + l*run, a lane's run starting at c0 + l*run)
// into slot (lane l's at l*(R+4)). A warp instruction copies 32/(R/4) pieces
// whole, 16 bytes a lane: one 16-byte copy where they lie inside the row and
// aligned, four 4-byte ones where they lie inside it otherwise (filtfilt's
// reversed passes and padded rows), the extension past its ends computed
// (see vin), zeros past the sequence's end; nothing for lanes with no run (it
// starts at or past len) or pieces before the sequence's start. The 16-byte
// copies have L2 fetch 256 bytes (copyAsync16's Ahead): the lane's next piece too.
template <int R>
__device__ __forceinline__ void stage(const IIRParams& p, const float* x, int c0, int q0, float* slot, int lane) {
  constexpr int V = R / 4, Per = 32 / V;  // vectors a piece, pieces an instruction
  const int len = p.len, run = p.run;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int l = Per * j + lane / V, e = 4 * (lane % V);
    const int q = q0 + l * run + e;
    if (q < 0 || c0 + l * run >= len) continue;
    float* to = slot + l * (R + 4) + e;
    const int f = p.rev ? len - 1 - q - p.pad : q - p.pad;  // sample q's index in x
    if (q + 4 <= len && (p.rev ? f - 3 >= 0 && f < p.n : f >= 0 && f + 4 <= p.n)) {
      if (!p.rev && (reinterpret_cast<uintptr_t>(x + f) & 15) == 0) {
        copyAsync16<true>(to, x + f);
      } else {
#pragma unroll
        for (int i = 0; i < 4; ++i) copyAsync4(to + i, x + (p.rev ? f - i : f + i), true);
      }
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i) to[i] = q + i < len ? vin(p, x, q + i) : 0.f;
    }
  }
}

// store writes piece q0 of the lanes' runs (see stage) from slot to row d, where
// the outputs land (see IIRParams), the copies coalesced as stage's: 16 bytes a
// lane where they lie inside the output and aligned, else a sample at a time,
// as streaming stores (st.global.cs: L2 evicts them first, keeping the lines the
// stages fetched ahead). With both, on an H100 (the bench's sosfilt of the
// order-8 Butterworth): 64 x 1e6 222.3 -> 214.7 us, the rows that fit in L2
// unchanged (1 x 1e7 46.0 -> 46.3); a plain copy of 64 x 1e6 takes 183.1, a copy
// in this kernel's pattern (no filtering) 214.7.
template <int R>
__device__ __forceinline__ void store(const IIRParams& p, float* d, int c0, int q0, const float* slot, int lane) {
  constexpr int V = R / 4, Per = 32 / V;
  const int len = p.len, run = p.run;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int l = Per * j + lane / V, e = 4 * (lane % V);
    const int q = q0 + l * run + e;
    if (q >= len || c0 + l * run >= len) continue;
    const float4 v = *reinterpret_cast<const float4*>(slot + l * (R + 4) + e);
    const int o = q - p.opad;
    if (!p.rev && q + 4 <= len && o >= 0 && o + 4 <= p.outn && (reinterpret_cast<uintptr_t>(d + o) & 15) == 0) {
      __stcs(reinterpret_cast<float4*>(d + o), v);
    } else {
      const float u[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int oi = (p.rev ? len - 1 - (q + i) : q + i) - p.opad;
        if (q + i < len && oi >= 0 && oi < p.outn) __stcs(d + oi, u[i]);
      }
    }
  }
}

// waitPieces waits until at most n of this thread's latest copy groups are in flight.
template <int n>
__device__ __forceinline__ void waitPieces() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(n) : "memory");
#endif
}

// filter is a warp of gi_iir_warm: the p.nb warps of a row each take 32 runs.
template <int K, int P, int Stages = 2, int Warps = kWarps, int R = GI_IIR_WARM_R>
__device__ void filter(const IIRParams& p) {
  constexpr int S = K * P, kStride = R + 4, kR = R;
  static_assert(R % 4 == 0 && R <= 128 && 32 % (R / 4) == 0, "pieces of whole vectors, a warp instruction's at most");
  __shared__ __align__(16) float buf[Warps][Stages][32 * kStride];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const long long item = (long long)blockIdx.x * Warps + w;
  if (item >= (long long)p.rows * p.nb) return;  // the whole warp: no block barrier follows
  const int y = (int)(item / p.nb), len = p.len, run = p.run, warmup = p.warm;
  const int c0 = (int)(item % p.nb) * 32 * run, i0 = c0 + lane * run;
  const float* x = row<float>(p.src, p.sp, y);
  float* d = row<float>(p.dst, p.dp, y);
  Cascade<K, P> c;
  if (i0 <= warmup) {  // the warm-up reaches the row's start: its true state
    double u[S];
    initial<S>(p, y, x, u, c0 == 0 && lane == 0);
#pragma unroll
    for (int s = 0; s < S; ++s) c.z[s] = (float)u[s];
  } else {
    c.zero();
  }
  const int kw = warmup / kR;                                                  // pieces of warm-up
  const int nk = min((warmup + run) / kR, (len - c0 + warmup + kR - 1) / kR);  // pieces until lane 0's last
#pragma unroll
  for (int k = 0; k < Stages - 1; ++k) {
    if (k < nk) stage<R>(p, x, c0, c0 - warmup + k * kR, buf[w][k], lane);
    copyCommit();
  }
  for (int k = 0; k < nk; ++k) {
    const int q0 = c0 - warmup + k * kR, slot = k % Stages;
    __syncwarp();  // the slot refilled next was stored from (piece k-1)
    if (k + Stages - 1 < nk) stage<R>(p, x, c0, q0 + (Stages - 1) * kR, buf[w][(k + Stages - 1) % Stages], lane);
    copyCommit();
    waitPieces<Stages - 1>();  // piece k's copies
    __syncwarp();
    float* mine = buf[w][slot] + lane * kStride;
    const int q = q0 + lane * run;
    if (q >= 0 && i0 < len) {
      const bool out = k >= kw;
      const int count = min(kR, len - q);
      if (count == kR) {
#pragma unroll
        for (int i = 0; i < kR; i += 4) {
          float4 v = *reinterpret_cast<const float4*>(mine + i);
          v.x = c.step(p.coef, v.x);
          v.y = c.step(p.coef, v.y);
          v.z = c.step(p.coef, v.z);
          v.w = c.step(p.coef, v.w);
          if (out) *reinterpret_cast<float4*>(mine + i) = v;
        }
      } else {
        for (int i = 0; i < count; ++i) {
          const float v = c.step(p.coef, mine[i]);
          if (out) mine[i] = v;
        }
      }
      if (p.zf && q + count == len) putZf<S>(p, y, c.z);
    }
    if (k >= kw) {
      __syncwarp();
      store<R>(p, d, c0, q0, buf[w][slot], lane);
    }
  }
}

}  // namespace warm

}  // namespace dsp

// gi_iir_powers writes the powers of the s x s matrix a that the scans use
// (IIRParams.mats): A^L, then its GI_IIR_TLEVELS + GI_IIR_BLEVELS - 1 successive
// squares. One block of GI_IIR_MAXS^2 threads, a thread an element.
extern "C" __global__ void __launch_bounds__(GI_IIR_MAXS * GI_IIR_MAXS) gi_iir_powers(__grid_constant__ const IIRPowersParams p) {
  __shared__ double m[GI_IIR_MAXS * GI_IIR_MAXS];
  const int s = p.s, r = threadIdx.x / GI_IIR_MAXS, c = threadIdx.x % GI_IIR_MAXS;
  const bool in = r < s && c < s;
  if (in) m[r * s + c] = p.a[r * s + c];
  __syncthreads();
  int written = 0;
  for (int step = 1; written < GI_IIR_TLEVELS + GI_IIR_BLEVELS; step *= 2) {
    if (step >= GI_IIR_L) {  // m is A^step: one of the powers
      if (in) p.mats[(size_t)written * s * s + r * s + c] = m[r * s + c];
      ++written;
    }
    double sum = 0.0;
    if (in)
      for (int k = 0; k < s; ++k) sum = fma(m[r * s + k], m[k * s + c], sum);
    __syncthreads();
    if (in) m[r * s + c] = sum;
    __syncthreads();
  }
}

// gi_iir_scan_powers writes the powers of the s x s matrix a that gi_iir_scan
// uses (IIRParams.mats): A^(L*t) for t < GI_IIR_SCAN_THREADS, then A^(B*j) for
// j = 1 .. GI_IIR_SCAN_WINDOW, B = GI_IIR_SCAN_THREADS*GI_IIR_SCAN_L, each stored
// element by element (element e of power t at mats[e*GI_IIR_SCAN_THREADS + t], of
// power j at mats[GI_IIR_SCAN_THREADS*s*s + e*GI_IIR_SCAN_WINDOW + j-1]). One
// block of GI_IIR_MAXS^2 threads, a thread an element; once for each filter (the
// caller caches them).
extern "C" __global__ void __launch_bounds__(GI_IIR_MAXS * GI_IIR_MAXS) gi_iir_scan_powers(__grid_constant__ const IIRPowersParams p) {
  __shared__ double m[GI_IIR_MAXS * GI_IIR_MAXS], q[GI_IIR_MAXS * GI_IIR_MAXS];
  const int s = p.s, r = threadIdx.x / GI_IIR_MAXS, c = threadIdx.x % GI_IIR_MAXS, e = r * s + c;
  const bool in = r < s && c < s;
  // mul sets x to x*m (m the step), every thread its element.
  auto mul = [&](double* x) {
    double sum = 0.0;
    if (in)
      for (int k = 0; k < s; ++k) sum = fma(x[r * s + k], m[k * s + c], sum);
    __syncthreads();
    if (in) x[e] = sum;
    __syncthreads();
  };
  if (in) m[e] = p.a[e], q[e] = r == c;
  __syncthreads();
  for (int l = 1; l < GI_IIR_SCAN_L; l *= 2) {  // m = A^L
    if (in) q[e] = m[e];
    __syncthreads();
    mul(q);
    if (in) m[e] = q[e], q[e] = r == c;
    __syncthreads();
  }
  for (int t = 0; t < GI_IIR_SCAN_THREADS; ++t) {  // q = A^(L*t)
    if (in) p.mats[(size_t)e * GI_IIR_SCAN_THREADS + t] = q[e];
    mul(q);
  }
  if (in) m[e] = q[e];  // q = m = A^B
  __syncthreads();
  double* pb = p.mats + (size_t)GI_IIR_SCAN_THREADS * s * s;
  for (int j = 0; j < GI_IIR_SCAN_WINDOW; ++j) {  // q = A^(B*(j+1))
    if (in) pb[(size_t)e * GI_IIR_SCAN_WINDOW + j] = q[e];
    mul(q);
  }
}

// One kernel of each kind for each cascade shape: sosfilt's 1, 2 and 4 sections
// (fewer are padded with pass-through sections), lfilter's orders 1, 2, 4 and 8
// (padded with zero coefficients). gi_iir_final is held to 80 registers, 6 blocks
// an SM: at 96 (5 blocks) 64 x 1e6 sosfilt ran 3% slower in a trial on an H200.
#define GI_IIR(K, P)                                                                                    \
  extern "C" __global__ void __launch_bounds__(GI_IIR_THREADS, 2)                                        \
      gi_iir_local_k##K##p##P(__grid_constant__ const IIRParams p) {                                    \
    dsp::local<K, P>(p);                                                                                \
  }                                                                                                     \
  extern "C" __global__ void __launch_bounds__(GI_IIR_CARRY, 1) gi_iir_carry_k##K##p##P(__grid_constant__ \
                                                                                      const IIRParams p) { \
    dsp::carry<K, P>(p);                                                                                \
  }                                                                                                     \
  extern "C" __global__ void __launch_bounds__(GI_IIR_THREADS, 6)                                        \
      gi_iir_final_k##K##p##P(__grid_constant__ const IIRParams p) {                                    \
    dsp::finish<K, P>(p);                                                                                \
  }

GI_IIR(1, 2)
GI_IIR(2, 2)
GI_IIR(4, 2)
GI_IIR(1, 1)
GI_IIR(1, 4)
GI_IIR(1, 8)

// The single-pass family: five blocks an SM (their shared memory's limit).
#define GI_IIR_SCAN(K, P)                                                                                     \
  extern "C" __global__ void __launch_bounds__(GI_IIR_SCAN_THREADS, GI_IIR_SCAN_BLOCKS) gi_iir_scan_k##K##p##P(              \
      __grid_constant__ const IIRParams p) {                                                                 \
    dsp::one::filter<K, P>(p);                                                                               \
  }

GI_IIR_SCAN(1, 2)
GI_IIR_SCAN(2, 2)
GI_IIR_SCAN(4, 2)
GI_IIR_SCAN(1, 1)
GI_IIR_SCAN(1, 4)
GI_IIR_SCAN(1, 8)

// The warm-up family: six blocks an SM (their shared memory's limit).
#define GI_IIR_WARM(K, P)                                                                                      \
  extern "C" __global__ void __launch_bounds__(32 * GI_IIR_WARM_WARPS, GI_IIR_WARM_BLOCKS) gi_iir_warm_k##K##p##P( \
      __grid_constant__ const IIRParams p) {                                                                  \
    dsp::warm::filter<K, P>(p);                                                                               \
  }

GI_IIR_WARM(1, 2)
GI_IIR_WARM(2, 2)
GI_IIR_WARM(4, 2)
GI_IIR_WARM(1, 1)
GI_IIR_WARM(1, 4)
GI_IIR_WARM(1, 8)
