// NPP peer for gpuimg's bench: times NVIDIA NPP's equivalents of gpuimg operations
// with CUDA events (warm-up, median of reps) on random data, and prints CSV rows in
// the bench format. Built and run on the GPU host by .gpu/run.sh:
//   nvcc -O2 -o npp_bench npp_bench.cu -lnppif -lnppig -lnppisu -lnppicc -lnppidei -lnppc && ./npp_bench 3840 2160 50 [hold_ns]
// (NPP_ONLY=substring times only the cases whose name contains it; NPP_SWEEP=1 times
// the sweep of bench/sweep.go instead: NPP's filters and conversions over kernel
// sizes, depths, channels and both directions, under gpuimg's names.)
// Filters use NPP_BORDER_REPLICATE (gpuimg's bench uses BORDER_REPLICATE for them too).
#include <cuda_runtime.h>
#include <npp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

static NppStreamContext ctx;
static cudaStream_t stream;

// Keeps the device busy for ns nanoseconds: each timed run is queued behind it, so the
// events measure NPP's device work, not the host's time to queue it (gpuimg's bench
// does the same with its own gi_spin). The host's queueing time is reported apart.
__global__ void spin(unsigned int ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}
static unsigned int hold_ns = 500000;

static double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  size_t n = t.size();
  return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

// Returns the median device time and sets *host to the median host queueing time (µs).
static double median_us(const std::function<NppStatus()>& op, int reps, double* host) {
  for (int i = 0; i < 5; i++) {
    NppStatus st = op();
    if (st != NPP_SUCCESS) { fprintf(stderr, "NPP error %d\n", (int)st); exit(1); }
  }
  CK(cudaStreamSynchronize(stream));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<double> t, hq;
  for (int i = 0; i < reps; i++) {
    if (hold_ns) spin<<<1, 1, 0, stream>>>(hold_ns);
    CK(cudaEventRecord(a, stream));
    auto q0 = std::chrono::steady_clock::now();
    op();
    auto q1 = std::chrono::steady_clock::now();
    CK(cudaEventRecord(b, stream));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000.0);
    hq.push_back(std::chrono::duration<double, std::micro>(q1 - q0).count());
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  *host = median(hq);
  return median(t);
}

int main(int argc, char** argv) {
  int w = argc > 1 ? atoi(argv[1]) : 3840, h = argc > 2 ? atoi(argv[2]) : 2160;
  int reps = argc > 3 ? atoi(argv[3]) : 50;
  if (argc > 4) hold_ns = (unsigned)atoi(argv[4]);  // 0: time from an idle stream
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  ctx.hStream = stream;
  ctx.nCudaDeviceId = 0;
  ctx.nMultiProcessorCount = p.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = p.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = p.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = p.minor;
  ctx.nStreamFlags = cudaStreamNonBlocking;
  int driver = 0;
  cudaDriverGetVersion(&driver);
  char date[16];
  time_t now = time(nullptr);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));

  int s3, s1, d3;
  Npp8u* src = nppiMalloc_8u_C3(w, h, &s3);
  Npp8u* gray = nppiMalloc_8u_C1(w, h, &s1);
  Npp8u* dst = nppiMalloc_8u_C3(w, h, &d3);
  std::vector<unsigned char> host((size_t)s3 * h);
  srand(1);
  for (auto& v : host) v = rand() & 255;  // never time on zeros
  CK(cudaMemcpy(src, host.data(), host.size(), cudaMemcpyHostToDevice));
  int s1b, s16, sf, df;
  Npp8u* src1 = nppiMalloc_8u_C1(w, h, &s1b);
  Npp16s* d16 = nppiMalloc_16s_C1(w, h, &s16);
  Npp32f* srcf = nppiMalloc_32f_C1(w, h, &sf);
  Npp32f* dstf = nppiMalloc_32f_C1(w, h, &df);
  CK(cudaMemcpy2D(src1, s1b, host.data(), w, w, h, cudaMemcpyHostToDevice));
  {
    std::vector<float> hf((size_t)w * h);
    for (auto& v : hf) v = rand() / (float)RAND_MAX;
    CK(cudaMemcpy2D(srcf, sf, hf.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  }
  // Random (not separable) filter2D kernels of 3, 7, 15 and 31 taps a side.
  Npp32f* kern[32] = {};
  for (int n : {3, 5, 7, 9, 15, 31}) {
    std::vector<float> k(n * n);
    for (auto& v : k) v = rand() / (float)RAND_MAX / (n * n);
    CK(cudaMalloc(&kern[n], k.size() * 4));
    CK(cudaMemcpy(kern[n], k.data(), k.size() * 4, cudaMemcpyHostToDevice));
  }
  NppiSize roi = {w, h};
  NppiPoint o0 = {0, 0};
  auto rep = NPP_BORDER_REPLICATE;
  auto f2d = [&](int n) {
    return [&, n] { return nppiFilterBorder_32f_C1R_Ctx(srcf, sf, roi, o0, dstf, df, roi, kern[n], {n, n}, {n / 2, n / 2}, rep, ctx); };
  };
  struct Case {
    const char* op;
    const char* type;
    double bytes;
    std::function<NppStatus()> run;
  } cases[] = {
      {"cvtColor BGR2GRAY", "8UC3", 4.0 * w * h, [&] { return nppiRGBToGray_8u_C3C1R_Ctx(src, s3, gray, s1, roi, ctx); }},
      {"cvtColor BGR2Lab", "8UC3", 6.0 * w * h, [&] { return nppiBGRToLab_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
      {"cvtColor BGR2HSV", "8UC3", 6.0 * w * h, [&] { return nppiRGBToHSV_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
      {"cvtColor BGR2YCrCb", "8UC3", 6.0 * w * h, [&] { return nppiRGBToYCbCr_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
      {"cvtColor BGR2XYZ", "8UC3", 6.0 * w * h, [&] { return nppiRGBToXYZ_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
      {"gaussian 5x5", "8UC1", 2.0 * w * h, [&] { return nppiFilterGaussBorder_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, NPP_MASK_SIZE_5_X_5, rep, ctx); }},
      {"gaussian 5x5", "8UC3", 6.0 * w * h, [&] { return nppiFilterGaussBorder_8u_C3R_Ctx(src, s3, roi, o0, dst, d3, roi, NPP_MASK_SIZE_5_X_5, rep, ctx); }},
      {"box 5x5", "8UC1", 2.0 * w * h, [&] { return nppiFilterBoxBorder_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, {5, 5}, {2, 2}, rep, ctx); }},
      {"sobel 3x3 dx 8U->16S", "8UC1", 3.0 * w * h, [&] { return nppiFilterSobelVertBorder_8u16s_C1R_Ctx(src1, s1b, roi, o0, d16, s16, roi, NPP_MASK_SIZE_3_X_3, rep, ctx); }},
      {"filter2D 3x3", "32FC1", 8.0 * w * h, f2d(3)},
      {"filter2D 7x7", "32FC1", 8.0 * w * h, f2d(7)},
      {"filter2D 15x15", "32FC1", 8.0 * w * h, f2d(15)},
      {"filter2D 31x31", "32FC1", 8.0 * w * h, f2d(31)},
      {"filter2D 7x7", "8UC3", 6.0 * w * h, [&] { return nppiFilterBorder32f_8u_C3R_Ctx(src, s3, roi, o0, dst, d3, roi, kern[7], {7, 7}, {3, 3}, rep, ctx); }},
  };
  // Resizes of the 8UC3 image, by gpuimg's bench names (bench/resize.go): NPP's
  // linear, super-sampling (its area), cubic, Lanczos and nearest interpolations.
  int rsd;
  Npp8u* rdst = nppiMalloc_8u_C3(2 * w, 2 * h, &rsd);
  auto resize = [&](double f, int tw, int th, int interp) {
    int dw = tw ? tw : (int)(w * f + 0.5), dh = th ? th : (int)(h * f + 0.5);
    return [=] {
      return nppiResize_8u_C3R_Ctx(src, s3, roi, {0, 0, w, h}, rdst, rsd, {dw, dh}, {0, 0, dw, dh}, interp, ctx);
    };
  };
  auto rbytes = [&](double f, int tw, int th) {
    double dw = tw ? tw : (int)(w * f + 0.5), dh = th ? th : (int)(h * f + 0.5);
    return 3.0 * (w * (double)h + dw * dh);
  };
  std::vector<Case> all(std::begin(cases), std::end(cases));
  struct R {
    const char* op;
    double f;
    int tw, th, interp;
  } rcases[] = {
      {"resize linear 1/2", 0.5, 0, 0, NPPI_INTER_LINEAR},   {"resize area 1/2", 0.5, 0, 0, NPPI_INTER_SUPER},
      {"resize cubic 1/2", 0.5, 0, 0, NPPI_INTER_CUBIC},     {"resize lanczos4 1/2", 0.5, 0, 0, NPPI_INTER_LANCZOS},
      {"resize nearest 1/2", 0.5, 0, 0, NPPI_INTER_NN},      {"resize linear x2", 2, 0, 0, NPPI_INTER_LINEAR},
      {"resize cubic x2", 2, 0, 0, NPPI_INTER_CUBIC},        {"resize area ->224x224", 0, 224, 224, NPPI_INTER_SUPER},
      {"resize linear 2/3", 2.0 / 3, 0, 0, NPPI_INTER_LINEAR}, {"resize area 2/3", 2.0 / 3, 0, 0, NPPI_INTER_SUPER},
      {"resize lanczos4 x2", 2, 0, 0, NPPI_INTER_LANCZOS},   {"resize cubic 2/3", 2.0 / 3, 0, 0, NPPI_INTER_CUBIC},
      {"resize linear x1.5", 1.5, 0, 0, NPPI_INTER_LINEAR},
  };
  const char* only = getenv("NPP_ONLY");
  for (auto& r : rcases) all.push_back({r.op, "8UC3", rbytes(r.f, r.tw, r.th), resize(r.f, r.tw, r.th, r.interp)});
  // The sweep (bench/sweep.go's names and bytes): NPP's equivalent of each case.
  int su16, du16;
  void *rsrc = nullptr, *rout = nullptr;  // the resize sweep's buffers
  Npp16u* src16 = nppiMalloc_16u_C1(w, h, &su16);
  Npp16u* dst16 = nppiMalloc_16u_C1(w, h, &du16);
  CK(cudaMemcpy2D(src16, su16, host.data(), 2 * w, 2 * w, h, cudaMemcpyHostToDevice));
  if (getenv("NPP_SWEEP")) {
    all.clear();
    static char names[256][48];
    int nn = 0;
    auto name = [&](const char* fmt, int a) {
      snprintf(names[nn], sizeof names[nn], fmt, a, a);
      return (const char*)names[nn++];
    };
    double px = (double)w * h;
    for (int n : {3, 5, 7, 9, 15, 31}) {
      NppiSize ks = {n, n};
      NppiPoint an = {n / 2, n / 2};
      const char* op = name("filter2D %dx%d", n);
      all.push_back({op, "8UC1", 2 * px, [=] { return nppiFilterBorder32f_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, kern[n], ks, an, rep, ctx); }});
      all.push_back({op, "8UC3", 6 * px, [=] { return nppiFilterBorder32f_8u_C3R_Ctx(src, s3, roi, o0, dst, d3, roi, kern[n], ks, an, rep, ctx); }});
      all.push_back({op, "16UC1", 4 * px, [=] { return nppiFilterBorder32f_16u_C1R_Ctx(src16, su16, roi, o0, dst16, du16, roi, kern[n], ks, an, rep, ctx); }});
      all.push_back({op, "32FC1", 8 * px, [=] { return nppiFilterBorder_32f_C1R_Ctx(srcf, sf, roi, o0, dstf, df, roi, kern[n], ks, an, rep, ctx); }});
    }
    for (int k : {1, 3, 5}) {
      // NPP's Laplacian masks are 3x3 and 5x5 (OpenCV's ksize 1 is a 3x3 kernel too).
      NppiMaskSize m = k == 5 ? NPP_MASK_SIZE_5_X_5 : NPP_MASK_SIZE_3_X_3;
      all.push_back({name("laplacian ksize %d 8U->8U", k), "8UC1", 2 * px, [=] { return nppiFilterLaplaceBorder_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, m, rep, ctx); }});
      all.push_back({name("laplacian ksize %d 8U->16S", k), "8UC1", 3 * px, [=] { return nppiFilterLaplaceBorder_8u16s_C1R_Ctx(src1, s1b, roi, o0, d16, s16, roi, m, rep, ctx); }});
    }
    all.push_back({"sobel 3x3 dx 8U->16S", "8UC1", 3 * px, [=] { return nppiFilterSobelVertBorder_8u16s_C1R_Ctx(src1, s1b, roi, o0, d16, s16, roi, NPP_MASK_SIZE_3_X_3, rep, ctx); }});
    all.push_back({"scharr dx 8U->16S", "8UC1", 3 * px, [=] { return nppiFilterScharrVertBorder_8u16s_C1R_Ctx(src1, s1b, roi, o0, d16, s16, roi, rep, ctx); }});
    all.push_back({"sobel 3x3 dx 8U->8U", "8UC1", 2 * px, [=] { return nppiFilterSobelVertBorder_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, rep, ctx); }});
    // NPP's Horiz masks are OpenCV's dy kernels negated: the same work.
    all.push_back({"sobel 3x3 dy 8U->16S", "8UC1", 3 * px, [=] { return nppiFilterSobelHorizBorder_8u16s_C1R_Ctx(src1, s1b, roi, o0, d16, s16, roi, NPP_MASK_SIZE_3_X_3, rep, ctx); }});
    all.push_back({"scharr dy 8U->16S", "8UC1", 3 * px, [=] { return nppiFilterScharrHorizBorder_8u16s_C1R_Ctx(src1, s1b, roi, o0, d16, s16, roi, rep, ctx); }});
    all.push_back({"sobel 3x3 dy 8U->8U", "8UC1", 2 * px, [=] { return nppiFilterSobelHorizBorder_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, rep, ctx); }});
    // (NPP has no Scharr to 8U.)
    for (int n : {3, 5, 11}) {
      NppiSize ks = {n, n};
      NppiPoint an = {n / 2, n / 2};
      const char* op = name("box %dx%d", n);
      all.push_back({op, "8UC1", 2 * px, [=] { return nppiFilterBoxBorder_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, ks, an, rep, ctx); }});
      all.push_back({op, "8UC3", 6 * px, [=] { return nppiFilterBoxBorder_8u_C3R_Ctx(src, s3, roi, o0, dst, d3, roi, ks, an, rep, ctx); }});
    }
    for (int n : {3, 5, 9}) {
      NppiMaskSize m = n == 3 ? NPP_MASK_SIZE_3_X_3 : n == 5 ? NPP_MASK_SIZE_5_X_5 : NPP_MASK_SIZE_9_X_9;
      const char* op = name("gaussian %dx%d", n);
      all.push_back({op, "8UC1", 2 * px, [=] { return nppiFilterGaussBorder_8u_C1R_Ctx(src1, s1b, roi, o0, gray, s1, roi, m, rep, ctx); }});
      all.push_back({op, "8UC3", 6 * px, [=] { return nppiFilterGaussBorder_8u_C3R_Ctx(src, s3, roi, o0, dst, d3, roi, m, rep, ctx); }});
      all.push_back({op, "16UC1", 4 * px, [=] { return nppiFilterGaussBorder_16u_C1R_Ctx(src16, su16, roi, o0, dst16, du16, roi, m, rep, ctx); }});
    }
    // Conversions: NPP's RGB functions stand for the BGR codes (the same work with
    // the channels named the other way).
    static const Npp32f bgrGray[3] = {0.114f, 0.587f, 0.299f};
    all.push_back({"cvtColor BGR2GRAY", "8UC3", 4 * px, [=] { return nppiColorToGray_8u_C3C1R_Ctx(src, s3, gray, s1, roi, bgrGray, ctx); }});
    all.push_back({"cvtColor RGB2GRAY", "8UC3", 4 * px, [=] { return nppiRGBToGray_8u_C3C1R_Ctx(src, s3, gray, s1, roi, ctx); }});
    all.push_back({"cvtColor GRAY2BGR", "8UC1", 4 * px, [=] { return nppiDup_8u_C1C3R_Ctx(src1, s1b, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor BGR2YCrCb", "8UC3", 6 * px, [=] { return nppiRGBToYCbCr_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor YCrCb2BGR", "8UC3", 6 * px, [=] { return nppiYCbCrToRGB_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor BGR2HSV", "8UC3", 6 * px, [=] { return nppiRGBToHSV_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor HSV2BGR", "8UC3", 6 * px, [=] { return nppiHSVToRGB_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor BGR2HLS", "8UC3", 6 * px, [=] { return nppiRGBToHLS_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor HLS2BGR", "8UC3", 6 * px, [=] { return nppiHLSToRGB_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor BGR2Lab", "8UC3", 6 * px, [=] { return nppiBGRToLab_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor Lab2BGR", "8UC3", 6 * px, [=] { return nppiLabToBGR_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor BGR2XYZ", "8UC3", 6 * px, [=] { return nppiRGBToXYZ_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor XYZ2BGR", "8UC3", 6 * px, [=] { return nppiXYZToRGB_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor BGR2YUV", "8UC3", 6 * px, [=] { return nppiRGBToYUV_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    all.push_back({"cvtColor YUV2BGR", "8UC3", 6 * px, [=] { return nppiYUVToRGB_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }});
    // Resizes over depths and channels (bench/sweep.go's "rsweep" cases): NPP's
    // nearest, linear, cubic, super-sampling (its area: shrinks only) and Lanczos,
    // from one random buffer (floats in [0, 1), whatever the depth reads them as).
    CK(cudaMalloc(&rsrc, (size_t)w * h * 16));
    CK(cudaMalloc(&rout, (size_t)4 * w * h * 16));
    {
      std::vector<float> hf((size_t)w * h * 4);
      for (auto& v : hf) v = rand() / (float)RAND_MAX;
      CK(cudaMemcpy(rsrc, hf.data(), hf.size() * 4, cudaMemcpyHostToDevice));
    }
    struct RT {
      const char* type;
      int size;  // bytes a pixel
      NppStatus (*fn)(const void*, int, NppiSize, NppiRect, void*, int, NppiSize, NppiRect, int, NppStreamContext);
    };
#define GI_NPP_RESIZE(SFX, T)                                                                                              \
  [](const void* a, int as, NppiSize sz, NppiRect sr, void* b, int bs, NppiSize dz, NppiRect dr, int in, NppStreamContext c) { \
    return nppiResize_##SFX##_Ctx((const T*)a, as, sz, sr, (T*)b, bs, dz, dr, in, c);                                        \
  }
    static const RT rtypes[] = {
        {"8UC1", 1, GI_NPP_RESIZE(8u_C1R, Npp8u)},    {"8UC4", 4, GI_NPP_RESIZE(8u_C4R, Npp8u)},
        {"16UC1", 2, GI_NPP_RESIZE(16u_C1R, Npp16u)}, {"16UC3", 6, GI_NPP_RESIZE(16u_C3R, Npp16u)},
        {"32FC1", 4, GI_NPP_RESIZE(32f_C1R, Npp32f)}, {"32FC3", 12, GI_NPP_RESIZE(32f_C3R, Npp32f)},
    };
#undef GI_NPP_RESIZE
    static const struct {
      const char* name;
      int interp;
    } rinterps[] = {{"nearest", NPPI_INTER_NN}, {"linear", NPPI_INTER_LINEAR}, {"cubic", NPPI_INTER_CUBIC}, {"area", NPPI_INTER_SUPER}, {"lanczos4", NPPI_INTER_LANCZOS}};
    static const struct {
      const char* name;
      double f;
    } rfactors[] = {{"1/2", 0.5}, {"x2", 2}, {"2/3", 2.0 / 3}};
    static char rnames[64][48];
    int rn = 0;
    for (auto& in : rinterps)
      for (auto& f : rfactors) {
        if (in.interp == NPPI_INTER_SUPER && f.f > 1) continue;
        snprintf(rnames[rn], sizeof rnames[rn], "rsweep %s %s", in.name, f.name);
        const char* op = rnames[rn++];
        const int dw = (int)(w * f.f + 0.5), dh = (int)(h * f.f + 0.5), interp = in.interp;
        for (auto& t : rtypes) {
          const RT* tp = &t;
          const void* a = rsrc;
          void* b = rout;
          all.push_back({op, t.type, (double)t.size * ((double)w * h + (double)dw * dh), [=] {
                           return tp->fn(a, w * tp->size, {w, h}, {0, 0, w, h}, b, dw * tp->size, {dw, dh}, {0, 0, dw, dh}, interp, ctx);
                         }});
        }
      }
  }
  for (auto& c : all) {
    if (only && !strstr(c.op, only)) continue;
    double host;
    double us = median_us(c.run, reps, &host);
    printf("%s,%d,%d,%s,npp,kernel,%.2f,%.1f,%s,%d.%d,%s\n", c.op, w, h, c.type, us, c.bytes / us / 1e3, p.name,
           driver / 1000, driver % 1000 / 10, date);
    printf("%s,%d,%d,%s,npp,host,%.2f,0.0,%s,%d.%d,%s\n", c.op, w, h, c.type, host, p.name, driver / 1000,
           driver % 1000 / 10, date);
  }
  nppiFree(rdst);
  cudaFree(rsrc);
  cudaFree(rout);
  nppiFree(src16);
  nppiFree(dst16);
  nppiFree(src);
  nppiFree(gray);
  nppiFree(dst);
  nppiFree(src1);
  nppiFree(d16);
  nppiFree(srcf);
  nppiFree(dstf);
  for (auto k : kern) cudaFree(k);
  return 0;
}
