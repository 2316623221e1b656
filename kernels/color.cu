// Colour conversions (colorconv.CvtColor): one generic body that moves 4 pixels per
// thread with word or 16-byte accesses when the rows allow it, and a functor per
// conversion family that mirrors OpenCV's arithmetic (fixed point for 8U/16U where
// OpenCV uses it, so results are bit-exact there).
//
// Kernel names: gi_cvt_<family>_<depth>_<scn><dcn>. Parameters: src, src pitch,
// dst, dst pitch, rows, cols, vec (16, 4 or 1: the alignment of row starts and
// pitches in bytes), bidx (0 for BGR order, 2 for RGB), param (family specific).
#include "color_params.h"
#include "common.cuh"

#define CV_DESCALE(x, n) (((x) + (1 << ((n)-1))) >> (n))

template <typename T> struct ColorMax;
template <> struct ColorMax<u8> { static __device__ __forceinline__ float v() { return 255.f; } };
template <> struct ColorMax<u16> { static __device__ __forceinline__ float v() { return 65535.f; } };
template <> struct ColorMax<f32> { static __device__ __forceinline__ float v() { return 1.f; } };
template <typename T> struct ColorHalf;
template <> struct ColorHalf<u8> { enum { v = 128 }; };
template <> struct ColorHalf<u16> { enum { v = 32768 }; };
template <> struct ColorHalf<f32> { enum { v = 0 }; };  // unused: floats take the float path

// Moves N elements between global memory and registers, as 16-byte or 4-byte words
// where vec allows, element by element otherwise.
template <typename T, int N>
union Pix {
  T t[N];
  uint32_t w[(N * sizeof(T) + 3) / 4];
  uint2 h[(N * sizeof(T) + 7) / 8];
  uint4 q[(N * sizeof(T) + 15) / 16];
};
template <typename T, int N>
__device__ __forceinline__ void load(Pix<T, N>& p, const T* s, int vec) {
  constexpr int B = N * sizeof(T);
  if (B % 16 == 0 && vec >= 16) {
#pragma unroll
    for (int k = 0; k < B / 16; k++) p.q[k] = reinterpret_cast<const uint4*>(s)[k];
  } else if (B % 4 == 0 && vec >= 4) {
#pragma unroll
    for (int k = 0; k < B / 4; k++) p.w[k] = reinterpret_cast<const uint32_t*>(s)[k];
  } else {
#pragma unroll
    for (int k = 0; k < N; k++) p.t[k] = s[k];
  }
}
template <typename T, int N>
__device__ __forceinline__ void store(const Pix<T, N>& p, T* d, int vec) {
  constexpr int B = N * sizeof(T);
  if (B % 16 == 0 && vec >= 16) {
#pragma unroll
    for (int k = 0; k < B / 16; k++) reinterpret_cast<uint4*>(d)[k] = p.q[k];
  } else if (B % 4 == 0 && vec >= 4) {
#pragma unroll
    for (int k = 0; k < B / 4; k++) reinterpret_cast<uint32_t*>(d)[k] = p.w[k];
  } else {
#pragma unroll
    for (int k = 0; k < N; k++) d[k] = p.t[k];
  }
}

// Shared tables some families build once per block (sized for the largest user).
union Smem {
  struct {
    float f[256];
    int i0[256];
    int i1[256];
  };
  struct {  // 8U RGB -> Lab (RGB2Lab8)
    u16 gamma[256];
    u16 cbrt[2048];
  } lab;
};

// A functor's optional settings: NAME<F>::v is F's enum MEMBER, or 0 without one.
#define FUNCTOR_OPTION(NAME, MEMBER)                  \
  template <class F, class = void>                    \
  struct NAME {                                       \
    enum { v = 0 };                                   \
  };                                                  \
  template <class F>                                  \
  struct NAME<F, decltype(void(F::MEMBER))> {         \
    enum { v = F::MEMBER };                           \
  };
// Each thread converts PX = 16/sizeof(T) pixels (16 for 8U, 8 for 16U, 4 for 32F),
// so a 3-channel thread moves three 16-byte words in and out: enough bytes in
// flight to run at memory speed.
// A functor may lower it with an enum kPX (the host's colorconv.pixelsPerThread
// must agree).
FUNCTOR_OPTION(PxOverride, kPX)
// Staging through shared memory (below) is opt-in with an enum kStage = 1: it pays
// where the output is narrower than the input (gray); for 3->3 conversions and the
// compute-bound ones the measured time got worse on the H100.
FUNCTOR_OPTION(StageOf, kStage)
// Moving the bytes with byte permutes (below) is opt-in with an enum kPermute = 1:
// it halves the instructions of a pure channel swap (BGR<->RGB measured 18.9
// against 27.5 us at 4K on the H100), but for conversions that compute, taking
// all the bytes apart up front doubled their registers and made them slower.
FUNCTOR_OPTION(PermuteOf, kPermute)
template <typename T, class F>
struct PixPerThread {
  enum { v = PxOverride<F>::v ? PxOverride<F>::v : 16 / sizeof(T) };
};

// cvt_body runs with 128-thread blocks; each block covers 128*PX pixels of a row.
// For functors with kStage, when rows allow 16-byte accesses and the block's segment
// lies inside the row, the segment is staged through shared memory: fully coalesced 16-byte global loads and
// stores, and each thread's PX pixels read from shared memory at a stride that is
// free of bank conflicts. Other blocks (row tails, misaligned views) work directly.
template <typename T, int SCN, int DCN, class F>
__device__ __forceinline__ void cvt_body(const void* src, int sp, void* dst, int dp, int rows,
                                         int cols, int vec, F f) {
  constexpr int PX = PixPerThread<T, F>::v;
  constexpr int SEG = 128 * PX;  // pixels per block
  // Staging needs each thread's pixels to be whole 16-byte words on both sides.
  constexpr bool STAGE = StageOf<F>::v && (PX * SCN * sizeof(T)) % 16 == 0 && (PX * DCN * sizeof(T)) % 16 == 0;
  constexpr int IN_Q = STAGE ? SEG * SCN * sizeof(T) / 16 : 1, OUT_Q = STAGE ? SEG * DCN * sizeof(T) / 16 : 1;
  __shared__ Smem sm;
  __shared__ uint4 sin[IN_Q], sout[OUT_Q];
  const int tid = threadIdx.x;
  const int seg0 = blockIdx.x * SEG;
  const bool staged = STAGE && vec >= 16 && seg0 + SEG <= cols;
  const int x0 = seg0 + PX * tid;
  const int np = min(PX, cols - x0);
  // A functor with tables builds them per block: its threads load their first
  // pixels before that, so the memory latency overlaps the setup (HSV 8U at 4K:
  // 21.3 against 23.2 us on the H100; prefetching them into L1 instead, 24.6).
  Pix<T, PX * SCN> in;
  const bool pre = F::kTables && !staged && np == PX;
  if (pre) load(in, row<T>(src, sp, blockIdx.y) + x0 * SCN, vec);
  if (F::kTables) {
    f.setup(sm);
    __syncthreads();
  }
  if (staged) {
    for (int y = blockIdx.y; y < rows; y += gridDim.y) {
      const uint4* gs = reinterpret_cast<const uint4*>(row<T>(src, sp, y) + seg0 * SCN);
#pragma unroll
      for (int k = tid; k < IN_Q; k += 128) sin[k] = gs[k];
      __syncthreads();
      Pix<T, PX * SCN> in;
      Pix<T, PX * DCN> out;
#pragma unroll
      for (int k = 0; k < PX * SCN * (int)sizeof(T) / 16; k++) in.q[k] = sin[tid * (PX * SCN * sizeof(T) / 16) + k];
#pragma unroll
      for (int p = 0; p < PX; p++) f(in.t + p * SCN, out.t + p * DCN, sm);
#pragma unroll
      for (int k = 0; k < PX * DCN * (int)sizeof(T) / 16; k++) sout[tid * (PX * DCN * sizeof(T) / 16) + k] = out.q[k];
      __syncthreads();
      uint4* gd = reinterpret_cast<uint4*>(row<T>(dst, dp, y) + seg0 * DCN);
#pragma unroll
      for (int k = tid; k < OUT_Q; k += 128) gd[k] = sout[k];
      __syncthreads();  // sin/sout are reused for the next row
    }
    return;
  }
  if (x0 >= cols) return;
  for (int y = blockIdx.y; y < rows; y += gridDim.y) {
    const T* s = row<T>(src, sp, y) + x0 * SCN;
    T* d = row<T>(dst, dp, y) + x0 * DCN;
    Pix<T, PX * DCN> out;
    if (pre && y == blockIdx.y) {
      // loaded above
    } else if (np == PX) {
      load(in, s, vec);
    } else {
#pragma unroll
      for (int k = 0; k < PX * SCN; k++) in.t[k] = k < np * SCN ? s[k] : T(0);
    }
    if (PermuteOf<F>::v && sizeof(T) == 1 && (PX * SCN) % 4 == 0 && (PX * DCN) % 4 == 0) {
      // One byte permute per byte out of the words (the compiler's shift and mask
      // takes two for the middle bytes) and three per word back.
      T ib[PX * SCN], ob[PX * DCN];
#pragma unroll
      for (int k = 0; k < PX * SCN; k++) ib[k] = (T)__byte_perm(in.w[k / 4], 0, 0x4440 | (k % 4));
#pragma unroll
      for (int p = 0; p < PX; p++) f(ib + p * SCN, ob + p * DCN, sm);
#pragma unroll
      for (int q = 0; q < PX * DCN / 4; q++)
        out.w[q] = __byte_perm(__byte_perm(ob[4 * q], ob[4 * q + 1], 0x0040), __byte_perm(ob[4 * q + 2], ob[4 * q + 3], 0x0040), 0x5410);
    } else {
#pragma unroll
      for (int p = 0; p < PX; p++) f(in.t + p * SCN, out.t + p * DCN, sm);
    }
    if (np == PX) {
      store(out, d, vec);
    } else {
#pragma unroll
      for (int k = 0; k < PX * DCN; k++)
        if (k < np * DCN) d[k] = out.t[k];
    }
  }
}

// runs_body is for conversions whose tables fill an SM's shared memory (dynamic,
// built by F::setup): one block per SM, launched with as many threads as its
// registers allow. The image is cut into runs of F::kRun pixels, taken
// row-major, each thread converting a run at a time: F converts a run with
// f(in, out, tables). The rows must start 16-byte aligned and hold whole runs
// (the host converts what is left of a row with the general kernels), so runs
// move as whole 16- or 8-byte words with no checks (the checks for partial runs
// and narrower words cost the 8U Lab kernel 24.5 against 22.8 us at 4K). With
// F::kPrefetch each thread loads its next run before it converts the current one,
// so that it always has a load in flight (8U Lab: 24.5 against 25.1 us; 32F Lab
// measured 90.2 against 89.6 us with it, so it goes without).
FUNCTOR_OPTION(PrefetchOf, kPrefetch)
template <typename T, int N>
__device__ __forceinline__ void run_load(Pix<T, N>& p, const T* a) {
  if ((N * sizeof(T)) % 16 == 0) {
#pragma unroll
    for (int k = 0; k < N * (int)sizeof(T) / 16; k++) p.q[k] = reinterpret_cast<const uint4*>(a)[k];
  } else {
#pragma unroll
    for (int k = 0; k < N * (int)sizeof(T) / 8; k++) p.h[k] = reinterpret_cast<const uint2*>(a)[k];
  }
}
template <typename T, int N>
__device__ __forceinline__ void run_store(const Pix<T, N>& p, T* a) {
  if ((N * sizeof(T)) % 16 == 0) {
#pragma unroll
    for (int k = 0; k < N * (int)sizeof(T) / 16; k++) reinterpret_cast<uint4*>(a)[k] = p.q[k];
  } else {
#pragma unroll
    for (int k = 0; k < N * (int)sizeof(T) / 8; k++) reinterpret_cast<uint2*>(a)[k] = p.h[k];
  }
}
// Copies n 16-byte words from global to shared memory with all the copies in
// flight at once (cp.async on sm_80 and later; a loop of loads waits for each).
// The caller synchronizes the block before reading dst.
__device__ __forceinline__ void copy_to_shared(uint4* dst, const uint4* src, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) copyAsync16(dst + i, src + i);
  copyWait();
}
template <typename T, int SCN, int DCN, class F>
__device__ __forceinline__ void runs_body(const void* src, int sp, void* dst, int dp, int rows, int cols, F f) {
  constexpr int RUN = F::kRun;
  constexpr bool PRE = PrefetchOf<F>::v;
  static_assert((RUN * SCN * sizeof(T)) % 8 == 0 && (RUN * DCN * sizeof(T)) % 8 == 0, "runs move as 8- or 16-byte words");
  extern __shared__ uint4 sdyn[];
  const int runs = cols / RUN, n = rows * runs, step = gridDim.x * blockDim.x;
  const int qs = step / runs, rs = step - qs * runs;  // a step is qs rows and rs runs
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int y = k / runs, x0 = (k - y * runs) * RUN;
  Pix<T, RUN * SCN> next;
  if (PRE && k < n) run_load(next, row<T>(src, sp, y) + x0 * SCN);  // in flight while the tables are built
  f.setup(sdyn);
  __syncthreads();
  for (; k < n; k += step) {
    Pix<T, RUN * SCN> in;
    if (PRE)
      in = next;
    else
      run_load(in, row<T>(src, sp, y) + x0 * SCN);
    const int cy = y, cx = x0;
    y += qs, x0 += rs * RUN;
    if (x0 >= runs * RUN) y++, x0 -= runs * RUN;
    if (PRE && k + step < n) run_load(next, row<T>(src, sp, y) + x0 * SCN);
    Pix<T, RUN * DCN> out;
    f(in, out, sdyn);
    run_store(out, row<T>(dst, dp, cy) + cx * DCN);
  }
}

// b, g, r of a pixel in BGR (bidx 0) or RGB (bidx 2) order, without run-time
// indexing of the register arrays.
#define BGR_OF(T, s, bidx)          \
  T b = (bidx) ? (s)[2] : (s)[0];   \
  T g = (s)[1];                     \
  T r = (bidx) ? (s)[0] : (s)[2];
template <typename T>
__device__ __forceinline__ void put_bgr(T* d, int bidx, T b, T g, T r) {
  d[0] = bidx ? r : b;
  d[1] = g;
  d[2] = bidx ? b : r;
}

// ---- channel order and alpha (BGR<->RGB, BGR<->BGRA, ...): param unused.
template <typename T, int SCN, int DCN>
struct RGB2RGB {
  enum { kTables = 0, kPermute = SCN == 3 && DCN == 3 };
  int bidx;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    BGR_OF(T, s, bidx)
    d[0] = b;
    d[1] = g;
    d[2] = r;
    if (DCN == 4) d[3] = SCN == 4 ? s[3] : T(ColorMax<T>::v());
  }
};

// ---- BGR -> gray: OpenCV's fixed point (shift 15) for integers, float otherwise.
template <typename T, int SCN>
struct RGB2Gray {
  enum { kTables = 0, kStage = 1 };
  int bidx;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    BGR_OF(T, s, bidx)
    if (sizeof(T) < 4)  // OpenCV 4's 15-bit gray weights (they sum to 32768)
      d[0] = (T)CV_DESCALE((unsigned)b * 3735u + (unsigned)g * 19235u + (unsigned)r * 9798u, 15);
    else
      d[0] = (T)((float)b * 0.114f + (float)g * 0.587f + (float)r * 0.299f);
  }
};
template <typename T, int DCN>
struct Gray2RGB {
  enum { kTables = 0 };
  int bidx;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    d[0] = d[1] = d[2] = s[0];
    if (DCN == 4) d[3] = T(ColorMax<T>::v());
  }
};

// ---- YCrCb (param 0) and YUV (param 1).
template <typename T, int SCN>
struct RGB2YCC {
  enum { kTables = 0 };
  int bidx, yuv;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    BGR_OF(T, s, bidx)
    if (sizeof(T) < 4) {
      const int C3 = yuv ? 14369 : 11682, C4 = yuv ? 8061 : 9241;
      const int delta = ColorHalf<T>::v * (1 << 14);
      int Y = CV_DESCALE((int)b * 1868 + (int)g * 9617 + (int)r * 4899, 14);
      int Cr = CV_DESCALE(((int)r - Y) * C3 + delta, 14);
      int Cb = CV_DESCALE(((int)b - Y) * C4 + delta, 14);
      const T cr = sati<T>(Cr), cb = sati<T>(Cb);
      d[0] = sati<T>(Y);
      d[1] = yuv ? cb : cr;  // YCrCb order, or YUV's Y U(Cb) V(Cr)
      d[2] = yuv ? cr : cb;
    } else {
      const float C3 = yuv ? 0.877f : 0.713f, C4 = yuv ? 0.492f : 0.564f;
      float Y = (float)b * 0.114f + (float)g * 0.587f + (float)r * 0.299f;
      float Cr = ((float)r - Y) * C3 + 0.5f, Cb = ((float)b - Y) * C4 + 0.5f;
      d[0] = Y;
      d[1] = yuv ? Cb : Cr;
      d[2] = yuv ? Cr : Cb;
    }
  }
};
template <typename T, int DCN>
struct YCC2RGB {
  enum { kTables = 0 };
  int bidx, yuv;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    T Y = s[0], Cr = yuv ? s[2] : s[1], Cb = yuv ? s[1] : s[2];
    if (sizeof(T) < 4) {
      const int C0 = yuv ? 18678 : 22987, C1 = yuv ? -9519 : -11698;
      const int C2 = yuv ? -6472 : -5636, C3 = yuv ? 33292 : 29049;
      const int dl = ColorHalf<T>::v;
      int cb = (int)Cb - dl, cr = (int)Cr - dl;
      int bb = (int)Y + CV_DESCALE(cb * C3, 14);
      int gg = (int)Y + CV_DESCALE(cb * C2 + cr * C1, 14);
      int rr = (int)Y + CV_DESCALE(cr * C0, 14);
      put_bgr<T>(d, bidx, sati<T>(bb), sati<T>(gg), sati<T>(rr));
    } else {
      const float C0 = yuv ? 1.140f : 1.403f, C1 = yuv ? -0.581f : -0.714f;
      const float C2 = yuv ? -0.395f : -0.344f, C3 = yuv ? 2.032f : 1.773f;
      float cb = (float)Cb - 0.5f, cr = (float)Cr - 0.5f;
      put_bgr<T>(d, bidx, T((float)Y + cb * C3), T((float)Y + cb * C2 + cr * C1), T((float)Y + cr * C0));
    }
    if (DCN == 4) d[3] = T(ColorMax<T>::v());
  }
};

// ---- XYZ (sRGB primaries, D65).
__constant__ int kRGB2XYZi[9] = {1689, 1465, 739, 871, 2929, 296, 79, 488, 3892};
__constant__ int kXYZ2RGBi[9] = {13273, -6296, -2042, -3970, 7684, 170, 228, -836, 4331};
__constant__ float kRGB2XYZf[9] = {0.412453f, 0.357580f, 0.180423f, 0.212671f, 0.715160f,
                                   0.072169f, 0.019334f, 0.119193f, 0.950227f};
__constant__ float kXYZ2RGBf[9] = {3.240479f, -1.53715f, -0.498535f, -0.969256f, 1.875991f,
                                   0.041556f, 0.055648f, -0.204043f, 1.057311f};
template <typename T, int SCN>
struct RGB2XYZ {
  enum { kTables = 0 };
  int bidx;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    BGR_OF(T, s, bidx)
#pragma unroll
    for (int k = 0; k < 3; k++) {
      if (sizeof(T) < 4) {
        const int* C = kRGB2XYZi + 3 * k;
        d[k] = sati<T>(CV_DESCALE((int)r * C[0] + (int)g * C[1] + (int)b * C[2], 12));
      } else {
        const float* C = kRGB2XYZf + 3 * k;
        d[k] = T((float)b * C[2] + (float)g * C[1] + (float)r * C[0]);
      }
    }
  }
};
template <typename T, int DCN>
struct XYZ2RGB {
  enum { kTables = 0 };
  int bidx;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    T o[3];
#pragma unroll
    for (int k = 0; k < 3; k++) {  // k: r, g, b
      if (sizeof(T) < 4) {
        const int* C = kXYZ2RGBi + 3 * k;
        o[k] = sati<T>(CV_DESCALE((int)s[0] * C[0] + (int)s[1] * C[1] + (int)s[2] * C[2], 12));
      } else {
        const float* C = kXYZ2RGBf + 3 * k;
        o[k] = T((float)s[0] * C[0] + (float)s[1] * C[1] + (float)s[2] * C[2]);
      }
    }
    put_bgr<T>(d, bidx, o[2], o[1], o[0]);
    if (DCN == 4) d[3] = T(ColorMax<T>::v());
  }
};

// p ? a : b as one select instruction, never a branch.
__device__ __forceinline__ int selp(bool p, int a, int b) {
  int r;
  asm("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %3, 0;\n\tselp.s32 %0, %1, %2, q;\n\t}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"((int)p));
  return r;
}

// ---- HSV. param: hue range (180 or 256 for 8U, 360 for 32F).
template <typename T, int SCN>
struct RGB2HSV {
  enum { kTables = sizeof(T) == 1 };
  int bidx, hrange;
  // OpenCV's division tables: sdiv[v] = round(255*4096/v), hdiv[d] = round(hr*4096/(6d)),
  // rounded half to even as its cvRound, in integers.
  __device__ static __forceinline__ int div_rn(int a, int b) {
    const int q = a / b, r2 = 2 * (a - q * b);
    return q + (r2 > b || (r2 == b && (q & 1)));
  }
  __device__ void setup(Smem& sm) const {
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
      sm.i0[i] = i ? div_rn(255 << 12, i) : 0;
      sm.i1[i] = i ? div_rn(hrange << 12, 6 * i) : 0;
    }
  }
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem& sm) const {
    BGR_OF(T, s, bidx)
    if (sizeof(T) == 1) {
      int B = b, G = g, R = r;
      int v = max(B, max(G, R)), vmin = min(B, min(G, R));
      int diff = v - vmin;
      int S = (diff * sm.i0[v] + (1 << 11)) >> 12;
      // OpenCV's masks vr = (v == R), vg = (v == G) pick one of three numerators,
      // with selects: written as ?: the compiler branches per pixel.
      int h = selp(v == R, G - B, selp(v == G, B - R + 2 * diff, R - G + 4 * diff));
      h = (h * sm.i1[diff] + (1 << 11)) >> 12;
      h += h < 0 ? hrange : 0;  // from here 0 <= h <= hrange
      d[0] = (T)min(h, 255);
      d[1] = (T)S;
      d[2] = (T)v;
    } else {
      float B = b, G = g, R = r;
      float v = fmaxf(fmaxf(R, G), B), vmin = fminf(fminf(R, G), B);
      float diff = v - vmin;
      float S = diff / (fabsf(v) + 1.1920929e-7f);
      diff = 60.f / (diff + 1.1920929e-7f);
      float h = v == R ? (G - B) * diff : v == G ? (B - R) * diff + 120.f : (R - G) * diff + 240.f;
      if (h < 0) h += 360.f;
      d[0] = T(h * (hrange * (1.f / 360.f)));
      d[1] = T(S);
      d[2] = T(v);
    }
  }
};

// hue_sector reduces h (already times hscale) to [0, 6) and splits it into its
// sector and the fraction in it, as OpenCV does: for HSV fmod(h, 6) (a negative hue
// then falls in no sector); for HLS (Wrap) its loops of h += 6 or h -= 6, exact as
// they are where they end, taken as one fmod (the loops never end for |h| past
// 2^26, an infinite h or NaN). A hue in no sector (NaN, negative for HSV, one that
// rounds to 6) is sector 0, fraction 0. Small: h is known to lie in [0, 12) (every
// 8-bit hue), where the reduction is h or h - 6, exactly.
template <bool Small, bool Wrap>
__device__ __forceinline__ int hue_sector(float& h) {
  if (Small || (h >= 0.f && h < 12.f)) {
    h = h >= 6.f ? h - 6.f : h;
  } else {
    h = fmodf(h, 6.f);
    if (Wrap && h < 0.f) h += 6.f;
  }
  const bool in = h >= 0.f && h < 6.f;  // OpenCV's (unsigned)cvFloor(h) < 6, and false for NaN
  const int sector = in ? (int)h : 0;
  h = in ? h - sector : 0.f;
  return sector;
}

// sector_pick gives b, g and r the values of t0..t3 that OpenCV's sector_data names
// for the sector ({1,3,0}, {1,0,2}, {3,0,1}, {0,2,1}, {0,1,3}, {2,1,0}), as selects:
// a switch branched per pixel, and neighbouring pixels' sectors differ.
__device__ __forceinline__ void sector_pick(int sector, float t0, float t1, float t2, float t3, float& b, float& g,
                                            float& r) {
  b = sector < 2 ? t1 : sector == 2 ? t3 : sector == 5 ? t2 : t0;
  g = sector == 0 ? t3 : sector < 3 ? t0 : sector == 3 ? t2 : t1;
  r = sector == 0 || sector == 5 ? t0 : sector == 1 ? t2 : sector == 4 ? t3 : t1;
}

// HSV -> RGB on floats in [0,1], h in [0,6) after hscale; OpenCV's HSV2RGB_native.
// Its s == 0 case (b = g = r = v) needs no branch: with s == 0 every t below is v
// exactly (the fraction h is finite).
template <bool Small>
__device__ __forceinline__ void hsv2rgb(float h, float s, float v, float& b, float& g, float& r, float hscale) {
  h *= hscale;
  const int sector = hue_sector<Small, false>(h);
  sector_pick(sector, v, v * (1.f - s), v * (1.f - s * h), v * (1.f - s * (1.f - h)), b, g, r);
}

// ---- HLS. 8U goes through OpenCV's float path on values/255.
__device__ __forceinline__ void rgb2hls(float b, float g, float r, float hscale, float& h, float& l,
                                        float& s) {
  float vmax = fmaxf(fmaxf(r, g), b), vmin = fminf(fminf(r, g), b);
  float diff = vmax - vmin;
  h = 0.f;
  s = 0.f;
  l = (vmax + vmin) * 0.5f;
  if (diff > 1.1920929e-7f) {
    s = l < 0.5f ? diff / (vmax + vmin) : diff / (2 - vmax - vmin);
    diff = 60.f / diff;
    h = vmax == r ? (g - b) * diff : vmax == g ? (b - r) * diff + 120.f : (r - g) * diff + 240.f;
    if (h < 0.f) h += 360.f;
  }
  h *= hscale;
}
template <typename T, int SCN>
struct RGB2HLS {
  enum { kTables = 0 };
  int bidx, hrange;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    BGR_OF(T, s, bidx)
    float h, l, S;
    if (sizeof(T) == 1) {
      rgb2hls(b * (1.f / 255.f), g * (1.f / 255.f), r * (1.f / 255.f), hrange / 360.f, h, l, S);
      d[0] = sat<T>(h);
      d[1] = sat<T>(l * 255.f);
      d[2] = sat<T>(S * 255.f);
    } else {
      rgb2hls(b, g, r, hrange / 360.f, h, l, S);
      d[0] = T(h);
      d[1] = T(l);
      d[2] = T(S);
    }
  }
};
// HLS -> RGB; OpenCV's HLS2RGB_f, with selects for its branches (s == 0 last: p1 is
// not l where 2 * l overflows).
template <bool Small>
__device__ __forceinline__ void hls2rgb(float h, float l, float s, float hscale, float& b, float& g, float& r) {
  const float p2 = l <= 0.5f ? l * (1 + s) : l + s - l * s, p1 = 2 * l - p2;
  h *= hscale;
  const int sector = hue_sector<Small, true>(h);
  sector_pick(sector, p2, p1, p1 + (p2 - p1) * (1 - h), p1 + (p2 - p1) * h, b, g, r);
  b = s == 0 ? l : b;
  g = s == 0 ? l : g;
  r = s == 0 ? l : r;
}
// HSV or HLS (HLS = true) -> BGR. 8U goes through OpenCV's float path on values/255;
// OpenCV's vectorised 8U HSV path truncates the result (its scalar tail rounds),
// its HLS path rounds.
template <typename T, int DCN, bool HLS>
struct Hue2RGB {
  enum { kTables = 0, kPX = sizeof(T) == 1 ? 8 : 4 };  // 16 px spill registers
  int bidx, hrange;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    const float k = sizeof(T) == 1 ? 1.f / 255.f : 1.f;
    const float h = s[0], x = (float)s[1] * k, y = (float)s[2] * k, hscale = 6.f / hrange;
    float b, g, r;
    if (HLS)
      hls2rgb<sizeof(T) == 1>(h, x, y, hscale, b, g, r);
    else
      hsv2rgb<sizeof(T) == 1>(h, x, y, b, g, r, hscale);
    if (sizeof(T) != 1)
      put_bgr<T>(d, bidx, T(b), T(g), T(r));
    else if (HLS)
      put_bgr<T>(d, bidx, sat<T>(b * 255.f), sat<T>(g * 255.f), sat<T>(r * 255.f));
    else
      put_bgr<T>(d, bidx, (T)min(max((int)(b * 255.f), 0), 255), (T)min(max((int)(g * 255.f), 0), 255),
                 (T)min(max((int)(r * 255.f), 0), 255));
    if (DCN == 4) d[3] = T(ColorMax<T>::v());
  }
};
template <typename T, int DCN>
using HSV2RGB = Hue2RGB<T, DCN, false>;
template <typename T, int DCN>
using HLS2RGB = Hue2RGB<T, DCN, true>;

// ---- Lab and Luv (param: 1 with sRGB gamma, 0 for linear LBGR/LRGB).
// ex2_approx and lg2_approx (common.cuh) are used where results are rounded to 8
// bits.
__device__ __forceinline__ float srgb_invgamma(float x) {
  return x <= 0.0031308f ? 12.92f * x : 1.055f * powf(x, 1.f / 2.4f) - 0.055f;
}
// The same curves for 8-bit data on the special-function unit (each block builds its
// 8-bit gamma table with these, so the setup costs two instructions a value).
__device__ __forceinline__ float srgb_gamma8(float x) {
  return x <= 0.04045f ? x * (1.f / 12.92f) : ex2_approx(lg2_approx((x + 0.055f) * (1.f / 1.055f)) * 2.4f);
}
__device__ __forceinline__ float srgb_invgamma8(float x) {
  return x <= 0.0031308f ? 12.92f * x : 1.055f * ex2_approx(lg2_approx(x) * (1.f / 2.4f)) - 0.055f;
}
// Cube root for 8U results, which are rounded to 1/255 of the range: two
// special-function-unit instructions and nothing else (relative error ~1e-6;
// t > 0.008856 here, so no denormal or range fix-ups).
__device__ __forceinline__ float cbrt8(float t) { return ex2_approx(lg2_approx(t) * (1.f / 3.f)); }
// Linear r, g, b in [0,1] of an 8-bit pixel, through the per-block table.
__device__ __forceinline__ void linear_rgb8(u8 b, u8 g, u8 r, const Smem& sm, float& lb, float& lg, float& lr) {
  lb = sm.f[(int)b];
  lg = sm.f[(int)g];
  lr = sm.f[(int)r];
}
__device__ __forceinline__ void lab_table(Smem& sm, int srgb) {
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    sm.f[i] = srgb ? srgb_gamma8(i * (1.f / 255.f)) : i * (1.f / 255.f);
}
// 8-bit BGR/RGB to Lab as OpenCV 4.x computes it (RGB2Lab_b): integers and two
// tables (the sRGB curve of each byte and the Lab curve f in 2^-15 on steps of
// 1/2040) that colorconv/lab8.go builds and documents; bit-exact with OpenCV and
// the CPU device. Each block copies the 4.5 KB table to shared memory. 32F is
// RGB2Lab32 below.
// One pixel of it from its linear values R, G, B: t.cbrt(s) is the cube-root entry
// s >> 12 (s is a row of the matrix applied, plus the rounding 2^11). o gets L, a,
// b before saturation to 0..255 (L needs none: fY is at most 2^15).
template <class Tab>
__device__ __forceinline__ void lab8_pixel(const Tab& t, int R, int G, int B, int* o) {
  // OpenCV's sRGB2XYZ_D65 rows over the white point, times 2^12 (lab8C).
  const int fX = t.cbrt(R * 1777 + G * 1541 + B * 778 + (1 << 11));
  const int fY = t.cbrt(R * 871 + G * 2929 + B * 296 + (1 << 11));
  const int fZ = t.cbrt(R * 73 + G * 448 + B * 3575 + (1 << 11));
  o[0] = CV_DESCALE(296 * fY - 1336935, 15);
  o[1] = CV_DESCALE(500 * (fX - fY) + (128 << 15), 15);
  o[2] = CV_DESCALE(200 * (fY - fZ) + (128 << 15), 15);
}
template <int SCN>
struct RGB2Lab8 {
  enum { kTables = 1 };
  const uint4* tab;  // lab8Tab: gamma[256], cbrt[2048] as u16
  int bidx, srgb;
  __device__ void setup(Smem& sm) const {
    uint4* d = reinterpret_cast<uint4*>(&sm.lab);
    constexpr int kGammaQ = sizeof(sm.lab.gamma) / 16;  // the linear curve is i << 3, written here
    for (int i = threadIdx.x + (srgb ? 0 : kGammaQ); i < (int)sizeof(sm.lab) / 16; i += blockDim.x) d[i] = __ldg(tab + i);
    if (!srgb)
      for (int i = threadIdx.x; i < 256; i += blockDim.x) sm.lab.gamma[i] = (u16)(i << 3);
  }
  struct Tab {  // the cube root as lab8_pixel reads it
    const Smem& sm;
    __device__ __forceinline__ int cbrt(int s) const { return sm.lab.cbrt[s >> 12]; }
  };
  __device__ __forceinline__ void operator()(const u8* s, u8* d, Smem& sm) const {
    BGR_OF(u8, s, bidx)
    int o[3];
    lab8_pixel(Tab{sm}, sm.lab.gamma[r], sm.lab.gamma[g], sm.lab.gamma[b], o);
    d[0] = (u8)o[0], d[1] = sati<u8>(o[1]), d[2] = sati<u8>(o[2]);
  }
};
// ---- 8U BGR/RGB -> Lab with copies of the tables across the banks
// (gi_cvt_labr_8u_*3): RGB2Lab8's arithmetic, so the same bytes. RGB2Lab8's 4.5 KB
// tables make its six lookups a pixel conflict on random images (3.5-way on
// average), and those conflicts, not memory, set its time. Here each lane reads
// its own copy of the gamma curve (byte value v at 256 v + 4 lane: one byte
// permute makes the address) and one of 16 copies of the cube root, as words
// (entry i at 64 i + 4 (lane & 15): a shift and a mask), so a warp's lookups
// take one and two bank cycles. 64 + 128 KB: one block per SM, which needs
// sm_90's shared memory; the host runs RGB2Lab8 where the device has less, and
// on the columns left of a row. 4K on the H100: 22.8 against RGB2Lab8's 29.9 us
// (a copy of both tables per lane, 160 KB but four instructions per cube-root
// address, measured 29.8).
constexpr int kLabRepGammaBytes = GI_LABREP_GAMMA_BYTES;  // then 2048 * 64 of cube root: 192 KB in all
// (Running the sums as float multiply-adds, exact below 2^24, measured slower: 25.5
// against 24.4 us at 4K.)
struct LabRep {
  const char* sm;   // the shared tables
  unsigned lane4;   // 4 * lane
  unsigned lane16;  // 4 * (lane & 15)
  // The linear value of byte i of w (i a constant).
  __device__ __forceinline__ int gamma(unsigned w, int i) const {
    return *reinterpret_cast<const int*>(sm + __byte_perm(w, lane4, 0x5504 | (i << 4)));
  }
  __device__ __forceinline__ int cbrt(int s) const {
    unsigned o;  // (s >> 6 & ~63) | lane16 in one instruction (the compiler makes two of it)
    asm("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(o) : "r"((unsigned)s >> 6), "r"(~63u), "r"(lane16));
    return *reinterpret_cast<const int*>(sm + kLabRepGammaBytes + o);
  }
};
// Saturates a and b to 0..255 and packs them under the low half of c: c << 16 |
// a << 8 | b.
__device__ __forceinline__ unsigned pack_sat_u8(int a, int b, unsigned c) {
  unsigned d;
  asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
// The 8U Lab functor for runs_body: 8 pixels a run, their bytes taken from the words
// (16 needed 80 registers, so 768 threads: 28.0 against 24.5 us at 4K).
template <int SCN>
struct LabRepRun {
  enum { kRun = GI_LABREP_RUN, kPrefetch = 1 };
  const unsigned* tab;  // lab8Tab: gamma[256], then cbrt[2048]
  int bidx, srgb;
  __device__ void setup(uint4* sm) const {
    // The tables come into shared memory once (a load per entry from global
    // memory, one after another, took microseconds), then are copied out.
    __shared__ uint4 stage[GI_LABREP_STAGE / 16];
    copy_to_shared(stage, reinterpret_cast<const uint4*>(tab), GI_LABREP_STAGE / 16);
    __syncthreads();
    const u16* g16 = reinterpret_cast<const u16*>(stage);
    // Gamma: 8 uint4 (32 copies) at the start of each value's 256 bytes.
    for (int i = threadIdx.x; i < 256 * 8; i += blockDim.x) {
      const unsigned v = srgb ? g16[i >> 3] : (i >> 3) << 3;
      sm[(i >> 3) * 16 + (i & 7)] = make_uint4(v, v, v, v);
    }
    // Cube root: 4 uint4 (16 copies) per entry.
    for (int i = threadIdx.x; i < 2048 * 4; i += blockDim.x) {
      const unsigned v = g16[256 + (i >> 2)];
      sm[kLabRepGammaBytes / 16 + i] = make_uint4(v, v, v, v);
    }
  }
  __device__ __forceinline__ void operator()(const Pix<u8, kRun * SCN>& in, Pix<u8, kRun * 3>& out, const uint4* sm) const {
    const LabRep t{reinterpret_cast<const char*>(sm), 4 * (threadIdx.x & 31), 4 * (threadIdx.x & 15)};
    int o[kRun * 3];
#pragma unroll
    for (int p = 0; p < kRun; p++) {
      const int k = p * SCN, kb = bidx ? k + 2 : k, kr = bidx ? k : k + 2;  // bytes of b, g, r
      lab8_pixel(t, t.gamma(in.w[kr >> 2], kr & 3), t.gamma(in.w[(k + 1) >> 2], (k + 1) & 3),
                 t.gamma(in.w[kb >> 2], kb & 3), o + 3 * p);
    }
#pragma unroll
    for (int q = 0; q < kRun * 3 / 4; q++) out.w[q] = pack_sat_u8(o[4 * q + 1], o[4 * q], pack_sat_u8(o[4 * q + 3], o[4 * q + 2], 0));
  }
};
// Linear rgb in [0,1] -> output pixel (gamma, clipping and scaling by depth).
template <typename T>
__device__ __forceinline__ void out_rgb(T* d, int bidx, int srgb, float R, float G, float B) {
  R = fminf(fmaxf(R, 0.f), 1.f), G = fminf(fmaxf(G, 0.f), 1.f), B = fminf(fmaxf(B, 0.f), 1.f);
  if (srgb && sizeof(T) == 1)  // rounded to 8 bits: x^(1/2.4) on the special-function unit
    R = srgb_invgamma8(R), G = srgb_invgamma8(G), B = srgb_invgamma8(B);
  else if (srgb)
    R = srgb_invgamma(R), G = srgb_invgamma(G), B = srgb_invgamma(B);
  if (sizeof(T) == 1)
    put_bgr<T>(d, bidx, sat<T>(B * 255.f), sat<T>(G * 255.f), sat<T>(R * 255.f));
  else
    put_bgr<T>(d, bidx, T(B), T(G), T(R));
}
template <typename T, int DCN>
struct Lab2RGB {
  enum { kTables = 0 };
  int bidx, srgb;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    float L = s[0], a = s[1], bb = s[2];  // 32F only; 8U is Lab2RGB8 below
    float y, fy;
    if (L <= 8.f) {  // 0.008856 * 903.3
      y = L * (1.f / 903.3f);
      fy = 7.787f * y + 16.f / 116.f;
    } else {
      fy = (L + 16.f) * (1.f / 116.f);
      y = fy * fy * fy;
    }
    float fx = a * (1.f / 500.f) + fy, fz = fy - bb * (1.f / 200.f);
    float x = fx > 0.206893f ? fx * fx * fx : (fx - 16.f / 116.f) * (1.f / 7.787f);
    float z = fz > 0.206893f ? fz * fz * fz : (fz - 16.f / 116.f) * (1.f / 7.787f);
    x *= 0.950456f, z *= 1.088754f;
    const float* C = kXYZ2RGBf;
    out_rgb<T>(d, bidx, srgb, x * C[0] + y * C[1] + z * C[2], x * C[3] + y * C[4] + z * C[5],
               x * C[6] + y * C[7] + z * C[8]);
    if (DCN == 4) d[3] = T(ColorMax<T>::v());
  }
};
// u'n, v'n of OpenCV's D65 white (0.950456, 1, 1.088754).
#define LUV_UN 0.19783940f
#define LUV_VN 0.46834220f
// 8U BGR/RGB -> Luv (32F is RGB2Luv32 below).
template <typename T, int SCN>
struct RGB2Luv {
  enum { kTables = 1 };
  int bidx, srgb;
  __device__ void setup(Smem& sm) const { lab_table(sm, srgb); }
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem& sm) const {
    BGR_OF(T, s, bidx)
    float lb, lg, lr;
    linear_rgb8(b, g, r, sm, lb, lg, lr);
    const float* C = kRGB2XYZf;
    float X = lr * C[0] + lg * C[1] + lb * C[2];
    float Y = lr * C[3] + lg * C[4] + lb * C[5];
    float Z = lr * C[6] + lg * C[7] + lb * C[8];
    float L = Y > 0.008856f ? 116.f * cbrt8(Y) - 16.f : 903.3f * Y;
    float dd = X + 15.f * Y + 3.f * Z;
    dd = 1.f / fmaxf(dd, 1.1920929e-7f);
    float u = 13.f * L * (4.f * X * dd - LUV_UN), v = 13.f * L * (9.f * Y * dd - LUV_VN);
    d[0] = sat<T>(L * (255.f / 100.f));
    d[1] = sat<T>((u + 134.f) * (255.f / 354.f));
    d[2] = sat<T>((v + 140.f) * (255.f / 262.f));
  }
};

// ---- 32F BGR/RGB -> Lab and Luv as OpenCV computes them, on the tables
// colorconv/lab32.go builds (and explains): sRGB Lab interpolates OpenCV's
// 33x33x33 grid of fixed-point L, a, b; linear Lab and Luv take the cube root and
// the sRGB curve from its splines. Every float step is rounded on its own, as in
// OpenCV's SSE code and the CPU device, so the results match both bit for bit.
struct Lab32Tab {
  float labC[9], luvC[9], un, vn, cbrtScale, pad[11];  // matrices: rows X, Y, Z; columns R, G, B
  float4 cbrt[1024];                                   // spline pieces: c0, c1, c2, c3
  float4 gamma[1024];
  uint4 lut[33 * 33 * 33 * 3];  // per cell (blue fastest): L of its 8 corners as int16, then a, then b
  uint4 grid[GI_LABGRID_BYTES / 16];  // per grid point (blue fastest): L, a, b as int16; 10 bytes of padding
};
__device__ __forceinline__ float clamp01(float v) { return fminf(fmaxf(v, 0.f), 1.f); }
__device__ __forceinline__ float spline_at(float x, const float4* tab) {
  const int ix = min(max(__float2int_rz(x), 0), 1023);
  x = __fsub_rn(x, (float)ix);
  const float4 c = __ldg(tab + ix);
  return __fadd_rn(__fmul_rn(__fadd_rn(__fmul_rn(__fadd_rn(__fmul_rn(c.w, x), c.z), x), c.y), x), c.x);
}
// Row k of matrix m applied to a pixel's channels in memory order, summed as
// OpenCV's vector loop sums them: s0*c0 + (s1*c1 + s2*c2).
__device__ __forceinline__ float dot32(const float* m, int k, int bidx, float s0, float s1, float s2) {
  const float cb = __ldg(m + 3 * k + 2), cr = __ldg(m + 3 * k);
  return __fadd_rn(__fmul_rn(s0, bidx ? cr : cb), __fadd_rn(__fmul_rn(s1, __ldg(m + 3 * k + 1)), __fmul_rn(s2, bidx ? cb : cr)));
}
// Sum of the 8 int16 corners in q (corner 2j low half, 2j+1 high half of word j)
// times the weights, rounded by 2^-12 (the weights sum to 4096).
__device__ __forceinline__ int corners(uint4 q, const int* w) {
  const unsigned v[4] = {q.x, q.y, q.z, q.w};
  int acc = 2048;
#pragma unroll
  for (int j = 0; j < 4; j++) acc += ((int)(v[j] << 16) >> 16) * w[2 * j] + ((int)v[j] >> 16) * w[2 * j + 1];
  return acc >> 12;
}
// sRGB Lab of one pixel from its 48-byte cell of the per-cell table.
__device__ __forceinline__ void lab32_cell(const Lab32Tab* tab, float b, float g, float r, float* d) {
  const int cx = __float2int_rn(clamp01(b) * 16384.f), cy = __float2int_rn(clamp01(g) * 16384.f),
            cz = __float2int_rn(clamp01(r) * 16384.f);
  const uint4* c = tab->lut + 3 * ((cx >> 9) + (cy >> 9) * 33 + (cz >> 9) * (33 * 33));
  const uint4 qL = __ldg(c), qa = __ldg(c + 1), qb = __ldg(c + 2);
  const int x = (cx >> 5) & 15, y = (cy >> 5) & 15, z = (cz >> 5) & 15;
  const int wyz[4] = {(16 - y) * (16 - z), (16 - y) * z, y * (16 - z), y * z};
  int w[8];
#pragma unroll
  for (int k = 0; k < 4; k++) w[k] = (16 - x) * wyz[k], w[k + 4] = x * wyz[k];
  d[0] = (float)corners(qL, w) * (100.f / 16384.f);
  d[1] = (float)corners(qa, w) * (1.f / 64.f) - 128.f;
  d[2] = (float)corners(qb, w) * (1.f / 64.f) - 128.f;
}
template <int SCN>
struct RGB2Lab32 {
  enum { kTables = 0 };
  const Lab32Tab* tab;
  int bidx, srgb;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const f32* s, f32* d, Smem&) const {
    if (srgb) {
      BGR_OF(f32, s, bidx)
      lab32_cell(tab, b, g, r, d);
      return;
    }
    const float s0 = clamp01(s[0]), s1 = clamp01(s[1]), s2 = clamp01(s[2]), k = tab->cbrtScale;
    const float X = dot32(tab->labC, 0, bidx, s0, s1, s2), Y = dot32(tab->labC, 1, bidx, s0, s1, s2),
                Z = dot32(tab->labC, 2, bidx, s0, s1, s2);
    const float FX = spline_at(__fmul_rn(X, k), tab->cbrt), FY = spline_at(__fmul_rn(Y, k), tab->cbrt),
                FZ = spline_at(__fmul_rn(Z, k), tab->cbrt);
    d[0] = Y > 0.008856f ? __fadd_rn(__fmul_rn(116.f, FY), -16.f) : __fmul_rn(903.3f, Y);
    d[1] = __fmul_rn(500.f, __fsub_rn(FX, FY));
    d[2] = __fmul_rn(200.f, __fsub_rn(FY, FZ));
  }
};
// ---- 32F sRGB BGR/RGB -> Lab with OpenCV's grid in shared memory
// (gi_cvt_labs_32f_*3): RGB2Lab32's arithmetic, so the same results, but each
// pixel reads its 8 grid points from shared memory instead of its 48-byte cell
// from the 1.7 MB per-cell table, whose random reads keep L2 91% busy (ncu, 4K):
// 91.3 against 171.4 us at 4K on the H100. It runs on runs_body: one block of 768
// threads per SM copies the grid (211 KB) in once, with cp.async, then converts
// runs of 4 pixels (88.3 us at 4K; 1024 threads measured 90.4; the earlier walk
// down rows, 1024 threads to a block and one load after another in its set-up,
// 91.7). Shared-memory bank conflicts of the grid reads set its time. Sending a
// quarter of the runs to the per-cell table in global memory instead, to spread
// the load, measured 117.9. It needs sm_90 shared memory, and the host uses
// RGB2Lab32 where the device has less.
constexpr int kLabGridBytes = GI_LABGRID_BYTES;
__device__ __forceinline__ void labs_pixel(const unsigned* g, float b, float gr, float r, float* d) {
  const int cx = __float2int_rn(clamp01(b) * 16384.f), cy = __float2int_rn(clamp01(gr) * 16384.f),
            cz = __float2int_rn(clamp01(r) * 16384.f);
  // Cell 31 with a fraction of 16 stands for the last grid points (cell 32, 0).
  const int tx = min(cx >> 9, 31), ty = min(cy >> 9, 31), tz = min(cz >> 9, 31);
  const int x = (cx - (tx << 9)) >> 5, y = (cy - (ty << 9)) >> 5, z = (cz - (tz << 9)) >> 5;
  const int wyz[4] = {(16 - y) * (16 - z), (16 - y) * z, y * (16 - z), y * z};
  const int p0 = tx + 33 * ty + 1089 * tz;
  int aL = 2048, aa = 2048, ab = 2048;
#pragma unroll
  for (int c = 0; c < 4; c++) {  // corners (dq, dr) = (c >> 1, c & 1), each with its blue neighbour
    const int o = 6 * (p0 + ((c & 2) ? 33 : 0) + ((c & 1) ? 1089 : 0));  // bytes: L, a, b of it and of the next
    const unsigned* w = g + (o >> 2);
    const unsigned sh = (o & 2) * 8;
    // 6 o is 4-byte aligned for every other grid point: its pair's 12 bytes are
    // then 3 words, and lanes that need no fourth word do not load it (fewer
    // lanes on a load, fewer bank conflicts).
    const unsigned w3 = sh ? w[3] : 0u, w2 = w[2], w1 = w[1], w0 = w[0];
    const unsigned v0 = __funnelshift_r(w0, w1, sh), v1 = __funnelshift_r(w1, w2, sh), v2 = __funnelshift_r(w2, w3, sh);
    const int W0 = (16 - x) * wyz[c], W1 = x * wyz[c];
    aL += (int)(v0 & 0xffffu) * W0 + (int)(v1 >> 16) * W1;
    aa += (int)(v0 >> 16) * W0 + (int)(v2 & 0xffffu) * W1;
    ab += (int)(v1 & 0xffffu) * W0 + (int)(v2 >> 16) * W1;
  }
  d[0] = (float)(aL >> 12) * (100.f / 16384.f);
  d[1] = (float)(aa >> 12) * (1.f / 64.f) - 128.f;
  d[2] = (float)(ab >> 12) * (1.f / 64.f) - 128.f;
}
// The functor for runs_body: 4 pixels a run.
template <int SCN>
struct LabGridRun {
  enum { kRun = GI_LABGRID_RUN };
  const Lab32Tab* tab;
  int bidx;
  __device__ void setup(uint4* sm) const { copy_to_shared(sm, tab->grid, kLabGridBytes / 16); }
  __device__ __forceinline__ void operator()(const Pix<f32, 4 * SCN>& in, Pix<f32, 12>& out, const uint4* sm) const {
    const unsigned* grid = reinterpret_cast<const unsigned*>(sm);
#pragma unroll
    for (int p = 0; p < 4; p++) {
      const f32* s = in.t + p * SCN;
      BGR_OF(f32, s, bidx)
      labs_pixel(grid, b, g, r, out.t + 3 * p);
    }
  }
};
template <int SCN>
struct RGB2Luv32 {
  enum { kTables = 0 };
  const Lab32Tab* tab;
  int bidx, srgb;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const f32* s, f32* d, Smem&) const {
    float s0 = clamp01(s[0]), s1 = clamp01(s[1]), s2 = clamp01(s[2]);
    if (srgb) {
      s0 = spline_at(__fmul_rn(s0, 1024.f), tab->gamma);
      s1 = spline_at(__fmul_rn(s1, 1024.f), tab->gamma);
      s2 = spline_at(__fmul_rn(s2, 1024.f), tab->gamma);
    }
    const float X = dot32(tab->luvC, 0, bidx, s0, s1, s2), Y = dot32(tab->luvC, 1, bidx, s0, s1, s2),
                Z = dot32(tab->luvC, 2, bidx, s0, s1, s2);
    float L = spline_at(__fmul_rn(Y, tab->cbrtScale), tab->cbrt);
    L = __fadd_rn(__fmul_rn(L, 116.f), -16.f);
    float dd = __fadd_rn(__fmul_rn(Y, 15.f), __fadd_rn(__fmul_rn(Z, 3.f), X));
    dd = __fdiv_rn(52.f, fmaxf(dd, 1.1920929e-7f));
    d[0] = L;
    d[1] = __fmul_rn(L, __fsub_rn(__fmul_rn(X, dd), __ldg(&tab->un)));
    d[2] = __fmul_rn(L, __fsub_rn(__fmul_rn(__fmul_rn(2.25f, Y), dd), __ldg(&tab->vn)));
  }
};

// 32F only; 8U is Luv2RGB8 below.
template <typename T, int DCN>
struct Luv2RGB {
  enum { kTables = 0 };
  int bidx, srgb;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
    float L = s[0], u = s[1], v = s[2];
    float Y;
    if (L >= 8.f) {
      Y = (L + 16.f) * (1.f / 116.f);
      Y = Y * Y * Y;
    } else {
      Y = L * (1.f / 903.3f);
    }
    float up = 3.f * (u + L * (13.f * LUV_UN));
    float vp = 0.25f / (v + L * (13.f * LUV_VN));
    vp = fminf(fmaxf(vp, -0.25f), 0.25f);
    float X = Y * 3.f * up * vp;
    float Z = Y * (((12.f * 13.f) * L - up) * vp - 5.f);
    const float* C = kXYZ2RGBf;
    out_rgb<T>(d, bidx, srgb, X * C[0] + Y * C[1] + Z * C[2], X * C[3] + Y * C[4] + Z * C[5],
               X * C[6] + Y * C[7] + Z * C[8]);
    if (DCN == 4) d[3] = T(ColorMax<T>::v());
  }
};

// 8-bit Luv to RGB as OpenCV 4.x computes it: in fixed point (Luv2RGBinteger in its
// color_lab.cpp), bit-exact with it and with the CPU device (colorconv/fixed8.go,
// which explains the steps). tab is the host's fix8Tab, as int32 words: un and vn
// (float bits), the sRGB flag, the XYZ-to-RGB matrix times 2^12 (rows R, G, B),
// Y of each 8-bit L, the 8-bit inverse sRGB curve of each 12-bit linear value, and
// L, u, v of each 8-bit value (float bits). OpenCV's tables of up and vp are
// computed here per pixel, every float step rounded on its own (no fused
// multiply-add), as its softfloat does. The divisions by 2^14 are shifts, as in
// OpenCV's vector code; they differ from its scalar code's division only on
// negative values, which the clamps to [0, 2] turn into 0 either way.
template <int DCN>
struct Luv2RGB8 {
  enum { kTables = 0, kY = 12, kGamma = kY + 256, kL = kGamma + 4096, kU = kL + 256, kV = kU + 256 };
  const int* tab;
  int bidx;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const u8* s, u8* d, Smem&) const {
    const int LL = s[0];
    const float un = __int_as_float(__ldg(tab)), vn = __int_as_float(__ldg(tab + 1));
    const float L = __int_as_float(__ldg(tab + kL + LL));
    const float u = __int_as_float(__ldg(tab + kU + s[1])), v = __int_as_float(__ldg(tab + kV + s[2]));
    const int up = __float2int_rn(__fmul_rn(__fmul_rn(9.f, __fadd_rn(u, __fmul_rn(L, un))), 16.f));
    float vpf = __fdiv_rn(0.25f, __fadd_rn(v, __fmul_rn(L, vn)));
    vpf = fminf(fmaxf(vpf, -0.25f), 0.25f);
    const int vp = __float2int_rn(__fmul_rn(vpf, 16777216.f));
    const int y = __ldg(tab + kY + LL);
    const long long xv = (long long)up * vp;
    int x = (int)(((long long)y * (int)(xv >> 14)) >> 14);
    const long long zq = ((249600LL * (vp * LL) - xv * 85) >> 14) - 5LL * 255 * 16384;
    const int zm = (int)((y * zq) >> 14);
    int z = (zm >> 8) + (zm >> 16);
    x = min(max(x, 0), 32768), z = min(max(z, 0), 32768);
    const int srgb = __ldg(tab + 2);
    u8 o[3];
#pragma unroll
    for (int k = 0; k < 3; k++) {
      int c = (__ldg(tab + 3 + 3 * k) * x + __ldg(tab + 4 + 3 * k) * y + __ldg(tab + 5 + 3 * k) * z + 8192) >> 14;
      c = min(max(c, 0), 4095);
      o[k] = (u8)(srgb ? __ldg(tab + kGamma + c) : (c * 255) >> 12);
    }
    put_bgr<u8>(d, bidx, o[2], o[1], o[0]);
    if (DCN == 4) d[3] = 255;
  }
};

// 8-bit Lab to RGB as OpenCV 4.x computes it: Lab2RGBinteger, bit-exact with it and
// with the CPU device (colorconv/fixed8.go). It reads Y, the inverse sRGB curve
// and the sRGB flag from the same table as Luv2RGB8, plus the white-scaled
// matrix (kC) and f(Y) of each L (kIfy); OpenCV's abToXZ table is computed here.
template <int DCN>
struct Lab2RGB8 {
  enum { kTables = 0, kC = Luv2RGB8<DCN>::kV + 256, kIfy = kC + 9 };
  const int* tab;
  int bidx;
  __device__ void setup(Smem&) const {}
  __device__ static __forceinline__ int xz(int i) {
    return i <= 3390 ? i * 108 / 841 - 16384 * 16 / 116 * 108 / 841 : i * i / 16384 * i / 16384;
  }
  __device__ __forceinline__ void operator()(const u8* s, u8* d, Smem&) const {
    const int LL = s[0];
    const int y = __ldg(tab + Luv2RGB8<DCN>::kY + LL), ify = __ldg(tab + kIfy + LL);
    const int adiv = ((5 * s[1] * 53687 + (1 << 7)) >> 13) - 128 * 16384 / 500;
    const int bdiv = ((s[2] * 41943 + (1 << 4)) >> 9) - 128 * 16384 / 200 + 1;
    const int x = xz(ify + adiv), z = xz(ify - bdiv);
    const int srgb = __ldg(tab + 2);
    u8 o[3];
#pragma unroll
    for (int k = 0; k < 3; k++) {
      int c = (__ldg(tab + kC + 3 * k) * x + __ldg(tab + kC + 1 + 3 * k) * y + __ldg(tab + kC + 2 + 3 * k) * z + 8192) >> 14;
      c = min(max(c, 0), 4095);
      o[k] = (u8)(srgb ? __ldg(tab + Luv2RGB8<DCN>::kGamma + c) : (c * 255) >> 12);
    }
    put_bgr<u8>(d, bidx, o[2], o[1], o[0]);
    if (DCN == 4) d[3] = 255;
  }
};

// ---- Transform (cv::transform): dst[c] = sum_k m[c][k]*src[k] + m[c][SCN], the
// matrix (up to 4x5 floats) in a buffer whose address is param's high and low words.
template <typename T, int SCN, int DCN>
struct Xform {
  enum { kTables = 0 };
  const float* m;
  __device__ void setup(Smem&) const {}
  __device__ __forceinline__ void operator()(const T* s, T* d, Smem&) const {
#pragma unroll
    for (int c = 0; c < DCN; c++) {
      float acc = __ldg(m + c * 5 + 4);
#pragma unroll
      for (int k = 0; k < SCN; k++) acc = fmaf(__ldg(m + c * 5 + k), (float)s[k], acc);
      d[c] = sat<T>(acc);
    }
  }
};

// ---- Colormaps (colorconv.ApplyColorMap, cv::applyColorMap of an 8UC1 image): tab
// holds the map's 256 BGR colours, a word each (b | g << 8 | r << 16), staged in
// shared memory by each block.
struct Colormap8 {
  enum { kTables = 1, kStage = 1 };
  const unsigned* tab;
  __device__ void setup(Smem& sm) const {
    for (int i = threadIdx.x; i < 256; i += blockDim.x) sm.i0[i] = (int)__ldg(tab + i);
  }
  __device__ __forceinline__ void operator()(const u8* s, u8* d, Smem& sm) const {
    const int c = sm.i0[s[0]];
    d[0] = (u8)c;
    d[1] = (u8)(c >> 8);
    d[2] = (u8)(c >> 16);
  }
};
extern "C" __global__ void __launch_bounds__(128) gi_cvt_colormap_8u_13(const CvtParams p) {
  cvt_body<u8, 1, 3>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols, p.vec, Colormap8{static_cast<const unsigned*>(p.tab)});
}

#define CVT_KERNEL(NAME, DN, T, SCN, DCN, FUNCTOR, INIT)                                         \
  extern "C" __global__ void __launch_bounds__(128) gi_cvt_##NAME##_##DN##_##SCN##DCN(const CvtParams p) { \
    const int bidx = p.bidx, param = p.param;                                                    \
    (void)bidx, (void)param; /* not every functor takes both */                                  \
    FUNCTOR f = INIT;                                                                            \
    cvt_body<T, SCN, DCN>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols, p.vec, f);                   \
  }
#define FWD(NAME, DN, T, F, DCN)                                   \
  CVT_KERNEL(NAME, DN, T, 3, DCN, F<T COMMA 3>, (F<T COMMA 3>{bidx, param})) \
  CVT_KERNEL(NAME, DN, T, 4, DCN, F<T COMMA 4>, (F<T COMMA 4>{bidx, param}))
#define INV(NAME, DN, T, F)                                        \
  CVT_KERNEL(NAME, DN, T, 3, 3, F<T COMMA 3>, (F<T COMMA 3>{bidx, param})) \
  CVT_KERNEL(NAME, DN, T, 3, 4, F<T COMMA 4>, (F<T COMMA 4>{bidx, param}))
#define COMMA ,
#define ALL_RGB(DN, T)                                                                     \
  CVT_KERNEL(rgb, DN, T, 3, 3, RGB2RGB<T COMMA 3 COMMA 3>, (RGB2RGB<T COMMA 3 COMMA 3>{bidx})) \
  CVT_KERNEL(rgb, DN, T, 3, 4, RGB2RGB<T COMMA 3 COMMA 4>, (RGB2RGB<T COMMA 3 COMMA 4>{bidx})) \
  CVT_KERNEL(rgb, DN, T, 4, 3, RGB2RGB<T COMMA 4 COMMA 3>, (RGB2RGB<T COMMA 4 COMMA 3>{bidx})) \
  CVT_KERNEL(rgb, DN, T, 4, 4, RGB2RGB<T COMMA 4 COMMA 4>, (RGB2RGB<T COMMA 4 COMMA 4>{bidx})) \
  CVT_KERNEL(gray, DN, T, 3, 1, RGB2Gray<T COMMA 3>, (RGB2Gray<T COMMA 3>{bidx}))               \
  CVT_KERNEL(gray, DN, T, 4, 1, RGB2Gray<T COMMA 4>, (RGB2Gray<T COMMA 4>{bidx}))               \
  CVT_KERNEL(fromgray, DN, T, 1, 3, Gray2RGB<T COMMA 3>, (Gray2RGB<T COMMA 3>{bidx}))           \
  CVT_KERNEL(fromgray, DN, T, 1, 4, Gray2RGB<T COMMA 4>, (Gray2RGB<T COMMA 4>{bidx}))           \
  FWD(ycc, DN, T, RGB2YCC, 3)                                                              \
  INV(fromycc, DN, T, YCC2RGB)                                                             \
  CVT_KERNEL(xyz, DN, T, 3, 3, RGB2XYZ<T COMMA 3>, (RGB2XYZ<T COMMA 3>{bidx}))                  \
  CVT_KERNEL(xyz, DN, T, 4, 3, RGB2XYZ<T COMMA 4>, (RGB2XYZ<T COMMA 4>{bidx}))                  \
  CVT_KERNEL(fromxyz, DN, T, 3, 3, XYZ2RGB<T COMMA 3>, (XYZ2RGB<T COMMA 3>{bidx}))              \
  CVT_KERNEL(fromxyz, DN, T, 3, 4, XYZ2RGB<T COMMA 4>, (XYZ2RGB<T COMMA 4>{bidx}))
#define NONLINEAR(DN, T)          \
  FWD(hsv, DN, T, RGB2HSV, 3)     \
  INV(fromhsv, DN, T, HSV2RGB)    \
  FWD(hls, DN, T, RGB2HLS, 3)     \
  INV(fromhls, DN, T, HLS2RGB)

ALL_RGB(8u, u8)
ALL_RGB(16u, u16)
ALL_RGB(32f, f32)
NONLINEAR(8u, u8)
NONLINEAR(32f, f32)
FWD(luv, 8u, u8, RGB2Luv, 3)
INV(fromlab, 32f, f32, Lab2RGB)
INV(fromluv, 32f, f32, Luv2RGB)

// 32F Lab and Luv: tab is the Lab32Tab, param the sRGB flag.
#define LAB32(NAME, F, SCN)                                                                           \
  extern "C" __global__ void __launch_bounds__(128) gi_cvt_##NAME##_32f_##SCN##3(const CvtParams p) { \
    cvt_body<f32, SCN, 3>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols, p.vec,                           \
                          F<SCN>{static_cast<const Lab32Tab*>(p.tab), p.bidx, p.param});             \
  }
LAB32(lab, RGB2Lab32, 3)
LAB32(lab, RGB2Lab32, 4)
LAB32(luv, RGB2Luv32, 3)
// __grid_constant__: taken by value, the struct cost this kernel 4 registers and 3%
// (4K on the H100: 91.1 against 88.3 us); read in place from the parameter space it
// compiles to the SASS the scalar parameters gave.
#define LABS(SCN)                                                                                   \
  extern "C" __global__ void __launch_bounds__(GI_LABGRID_THREADS, 1)                               \
      gi_cvt_labs_32f_##SCN##3(__grid_constant__ const CvtParams p) {                               \
    runs_body<f32, SCN, 3>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols,                               \
                           LabGridRun<SCN>{static_cast<const Lab32Tab*>(p.tab), p.bidx});          \
  }
LABS(3)
LABS(4)
LAB32(luv, RGB2Luv32, 4)

// 8U RGB to Lab: tab is lab8Tab, param the sRGB flag.
#define LAB8(SCN)                                                                                  \
  extern "C" __global__ void __launch_bounds__(128) gi_cvt_lab_8u_##SCN##3(const CvtParams p) {    \
    cvt_body<u8, SCN, 3>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols, p.vec,                          \
                         RGB2Lab8<SCN>{static_cast<const uint4*>(p.tab), p.bidx, p.param});        \
  }
LAB8(3)
LAB8(4)
#define LABR(SCN)                                                                                 \
  extern "C" __global__ void __launch_bounds__(GI_LABREP_THREADS, 1) gi_cvt_labr_8u_##SCN##3(const CvtParams p) { \
    runs_body<u8, SCN, 3>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols,                               \
                          LabRepRun<SCN>{static_cast<const unsigned*>(p.tab), p.bidx, p.param});  \
  }
LABR(3)
LABR(4)

// 8U Lab and Luv to RGB: tab is OpenCV's fixed-point table (see Luv2RGB8).
#define FIXED8(NAME, F, DCN)                                                                        \
  extern "C" __global__ void __launch_bounds__(128) gi_cvt_##NAME##_8u_3##DCN(const CvtParams p) { \
    cvt_body<u8, 3, DCN>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols, p.vec,                          \
                         F<DCN>{static_cast<const int*>(p.tab), p.bidx});                          \
  }
FIXED8(fromluv, Luv2RGB8, 3)
FIXED8(fromluv, Luv2RGB8, 4)
FIXED8(fromlab, Lab2RGB8, 3)
FIXED8(fromlab, Lab2RGB8, 4)

// Transform: tab is the 4x5 matrix (row-major, the offsets last); bidx and param unused.
#define XFORM(DN, T, SCN, DCN)                                                                    \
  extern "C" __global__ void __launch_bounds__(128) gi_xform_##DN##_##SCN##DCN(const CvtParams p) { \
    cvt_body<T, SCN, DCN>(p.src, p.sp, p.dst, p.dp, p.rows, p.cols, p.vec,                          \
                          Xform<T, SCN, DCN>{static_cast<const float*>(p.tab)});                   \
  }
#define XFORM_ALL(DN, T)                                                                      \
  XFORM(DN, T, 1, 1) XFORM(DN, T, 1, 3) XFORM(DN, T, 1, 4) XFORM(DN, T, 3, 1) XFORM(DN, T, 3, 3) \
  XFORM(DN, T, 3, 4) XFORM(DN, T, 4, 1) XFORM(DN, T, 4, 3) XFORM(DN, T, 4, 4)
XFORM_ALL(8u, u8)
XFORM_ALL(16u, u16)
XFORM_ALL(16s, s16)
XFORM_ALL(32f, f32)
