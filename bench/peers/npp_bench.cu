// NPP peer for gpuimg's bench: times NVIDIA NPP's equivalents of gpuimg operations
// with CUDA events (warm-up, median of reps) on random data, and prints CSV rows in
// the bench format. Built and run on the GPU host by .gpu/run.sh:
//   nvcc -O2 -o npp_bench npp_bench.cu -lnppisu -lnppicc -lnppc && ./npp_bench 3840 2160 50
#include <cuda_runtime.h>
#include <npp.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

static NppStreamContext ctx;
static cudaStream_t stream;

static double median_us(const std::function<NppStatus()>& op, int reps) {
  for (int i = 0; i < 5; i++) {
    NppStatus st = op();
    if (st != NPP_SUCCESS) { fprintf(stderr, "NPP error %d\n", (int)st); exit(1); }
  }
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < reps; i++) {
    CK(cudaEventRecord(a, stream));
    op();
    CK(cudaEventRecord(b, stream));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000.f);
  }
  std::sort(t.begin(), t.end());
  return reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
}

int main(int argc, char** argv) {
  int w = argc > 1 ? atoi(argv[1]) : 3840, h = argc > 2 ? atoi(argv[2]) : 2160;
  int reps = argc > 3 ? atoi(argv[3]) : 50;
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
  NppiSize roi = {w, h};
  struct Case {
    const char* op;
    double bytes;
    std::function<NppStatus()> run;
  } cases[] = {
      {"cvtColor BGR2GRAY", 4.0 * w * h, [&] { return nppiRGBToGray_8u_C3C1R_Ctx(src, s3, gray, s1, roi, ctx); }},
      {"cvtColor BGR2Lab", 6.0 * w * h, [&] { return nppiBGRToLab_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
      {"cvtColor BGR2HSV", 6.0 * w * h, [&] { return nppiRGBToHSV_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
      {"cvtColor BGR2YCrCb", 6.0 * w * h, [&] { return nppiRGBToYCbCr_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
      {"cvtColor BGR2XYZ", 6.0 * w * h, [&] { return nppiRGBToXYZ_8u_C3R_Ctx(src, s3, dst, d3, roi, ctx); }},
  };
  for (auto& c : cases) {
    double us = median_us(c.run, reps);
    printf("%s,%d,%d,8UC3,npp,kernel,%.2f,%.1f,%s,%d.%d,%s\n", c.op, w, h, us, c.bytes / us / 1e3, p.name,
           driver / 1000, driver % 1000 / 10, date);
  }
  nppiFree(src);
  nppiFree(gray);
  nppiFree(dst);
  return 0;
}
