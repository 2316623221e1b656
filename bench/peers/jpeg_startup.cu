// What starting CUDA and nvJPEG costs, call by call, in a fresh process: the floor
// under a CLI batch's wall time. Built and run on the GPU host:
//   nvcc -O2 -o jpeg_startup jpeg_startup.cu -lnvjpeg -lcuda && ./jpeg_startup FILE.jpg [threads]
// Prints one line per step: milliseconds since the process started and the step's own.
// JS_ALLOC=1 gives nvJPEG allocators that log each slow allocation; JS_PAR=1 creates
// the two handles on two threads at once.
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvjpeg.h>
#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

static auto t_start = std::chrono::steady_clock::now();
static auto t_last = t_start;
static void mark(const char* what) {
  auto now = std::chrono::steady_clock::now();
  printf("%8.1f ms  %8.1f ms  %s\n", std::chrono::duration<double, std::milli>(now - t_start).count(),
         std::chrono::duration<double, std::milli>(now - t_last).count(), what);
  fflush(stdout);
  t_last = now;
}
#define CU(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { fprintf(stderr, "%s: %d\n", #x, r); exit(1); } } while (0)
#define NJ(x) do { nvjpegStatus_t r = (x); if (r != NVJPEG_STATUS_SUCCESS) { fprintf(stderr, "%s: %d\n", #x, r); exit(1); } } while (0)
#define RT(x) do { cudaError_t r = (x); if (r != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(r)); exit(1); } } while (0)

// Allocators that log every allocation over a millisecond (JS_ALLOC=1): what nvJPEG's
// handles and states allocate, and how long each costs.
static bool log_alloc = getenv("JS_ALLOC") != nullptr;
static int logged(const char* kind, size_t size, double ms) {
  if (log_alloc && ms > 1.0) printf("      %s %zu bytes: %.1f ms\n", kind, size, ms);
  return 0;
}
static int dev_malloc(void** p, size_t size) {
  auto t = std::chrono::steady_clock::now();
  int r = cudaMalloc(p, size);
  logged("cudaMalloc", size, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
  return r;
}
static int dev_free(void* p) { return cudaFree(p); }
static int pinned_malloc(void** p, size_t size, unsigned int flags) {
  auto t = std::chrono::steady_clock::now();
  int r = cudaHostAlloc(p, size, flags);
  logged("cudaHostAlloc", size, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
  return r;
}
static int pinned_free(void* p) { return cudaFreeHost(p); }
static nvjpegDevAllocator_t dev_alloc = {dev_malloc, dev_free};
static nvjpegPinnedAllocator_t pin_alloc = {pinned_malloc, pinned_free};

// sampleSyscalls samples, every 200 µs while fn runs, which system call the calling
// thread is in (/proc/self/task/TID/syscall: a number, or "running"), and prints the
// tally: where a slow call waits.
static void sampleSyscalls(const char* what, void (*fn)()) {
  if (!getenv("JS_SAMPLE")) { fn(); return; }
  long tid = syscall(SYS_gettid);
  std::atomic<bool> done{false};
  std::map<std::string, int> tally;
  std::thread s([&] {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", tid);
    while (!done) {
      FILE* f = fopen(path, "r");
      char buf[64] = {0};
      if (f) {
        if (fscanf(f, "%63s", buf) != 1) buf[0] = 0;
        fclose(f);
      }
      tally[buf]++;
      usleep(200);
    }
  });
  fn();
  done = true;
  s.join();
  printf("      %s: samples by syscall:", what);
  for (auto& kv : tally) printf(" %s:%d", kv.first.c_str(), kv.second);
  printf("\n");
}
static nvjpegHandle_t sampled;
static void createDefault() { nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, nullptr, nullptr, 0, &sampled); }

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s FILE.jpg [threads]\n", argv[0]); return 2; }
  int threads = argc > 2 ? atoi(argv[2]) : 16;
  FILE* f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  std::vector<unsigned char> data;
  unsigned char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
  fclose(f);
  mark("read the file");
  CU(cuInit(0));
  mark("cuInit");
  CUdevice dev;
  CUcontext ctx;
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  mark("primary context retained and current");
  CUdeviceptr p;
  CU(cuMemAlloc(&p, 1 << 20));
  mark("first cuMemAlloc");
  nvjpegHandle_t hyb, hw;
  nvjpegDevAllocator_t* da = log_alloc ? &dev_alloc : nullptr;
  nvjpegPinnedAllocator_t* pa = log_alloc ? &pin_alloc : nullptr;
  nvjpegStatus_t hs;
  if (getenv("JS_PAR")) {
    // Both handles at once, on two threads: do they serialize?
    std::thread other([&] { CU(cuCtxSetCurrent(ctx)); hs = nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, da, pa, 0, &hw); });
    NJ(nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, da, pa, 0, &hyb));
    other.join();
    mark("nvjpegCreateEx DEFAULT and HARDWARE on two threads");
  } else {
    NJ(nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, da, pa, 0, &hyb));
    mark("nvjpegCreateEx DEFAULT");
    hs = nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, da, pa, 0, &hw);
    mark(hs == NVJPEG_STATUS_SUCCESS ? "nvjpegCreateEx HARDWARE" : "nvjpegCreateEx HARDWARE (failed)");
    nvjpegHandle_t gpu;
    if (nvjpegCreateEx(NVJPEG_BACKEND_GPU_HYBRID, da, pa, 0, &gpu) == NVJPEG_STATUS_SUCCESS) mark("nvjpegCreateEx GPU_HYBRID");
    sampleSyscalls("nvjpegCreateEx", createDefault);
    mark("nvjpegCreateEx DEFAULT, a second one");
    NJ(nvjpegDestroy(sampled));
    mark("nvjpegDestroy of it");
  }
  int nc, w[NVJPEG_MAX_COMPONENT], h[NVJPEG_MAX_COMPONENT];
  nvjpegChromaSubsampling_t ss;
  NJ(nvjpegGetImageInfo(hyb, data.data(), data.size(), &nc, &ss, w, h));
  printf("image %dx%d, %d components, subsampling %d\n", w[0], h[0], nc, ss);
  cudaStream_t s;
  RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  mark("cudaStreamCreate (runtime's first call)");
  nvjpegImage_t out = {};
  for (int c = 0; c < 3; c++) {
    RT(cudaMalloc((void**)&out.channel[c], (size_t)w[0] * h[0]));
    out.pitch[c] = w[0];
  }
  mark("cudaMalloc planes");
  nvjpegJpegState_t st;
  NJ(nvjpegJpegStateCreate(hyb, &st));
  mark("nvjpegJpegStateCreate (hybrid)");
  for (int k = 0; k < 3; k++) {
    NJ(nvjpegDecode(hyb, st, data.data(), data.size(), NVJPEG_OUTPUT_BGR, &out, s));
    RT(cudaStreamSynchronize(s));
    mark(k == 0 ? "hybrid decode, first" : "hybrid decode, again");
  }
  if (hs == NVJPEG_STATUS_SUCCESS) {
    nvjpegJpegState_t hst;
    NJ(nvjpegJpegStateCreate(hw, &hst));
    mark("nvjpegJpegStateCreate (hardware)");
    NJ(nvjpegDecodeBatchedInitialize(hw, hst, 1, 1, NVJPEG_OUTPUT_BGR));
    mark("nvjpegDecodeBatchedInitialize");
    for (int k = 0; k < 3; k++) {
      const unsigned char* d = data.data();
      size_t len = data.size();
      NJ(nvjpegDecodeBatched(hw, hst, &d, &len, &out, s));
      RT(cudaStreamSynchronize(s));
      mark(k == 0 ? "hardware decode, first" : "hardware decode, again");
    }
  }
  if (hs == NVJPEG_STATUS_SUCCESS) {
    // Can the engines' handle do what the hybrid one does besides decoding?
    int nc2, w2[NVJPEG_MAX_COMPONENT], h2[NVJPEG_MAX_COMPONENT];
    nvjpegChromaSubsampling_t ss2;
    printf("hardware handle: nvjpegGetImageInfo %d\n", nvjpegGetImageInfo(hw, data.data(), data.size(), &nc2, &ss2, w2, h2));
    nvjpegEncoderState_t e;
    nvjpegEncoderParams_t p;
    nvjpegStatus_t r = nvjpegEncoderStateCreate(hw, &e, s);
    printf("hardware handle: nvjpegEncoderStateCreate %d\n", r);
    if (r == NVJPEG_STATUS_SUCCESS) {
      NJ(nvjpegEncoderParamsCreate(hw, &p, s));
      NJ(nvjpegEncoderParamsSetQuality(p, 95, s));
      NJ(nvjpegEncoderParamsSetSamplingFactors(p, NVJPEG_CSS_420, s));
      r = nvjpegEncodeImage(hw, e, p, &out, NVJPEG_INPUT_BGR, w[0], h[0], s);
      size_t len = 0;
      if (r == NVJPEG_STATUS_SUCCESS) r = nvjpegEncodeRetrieveBitstream(hw, e, nullptr, &len, s);
      RT(cudaStreamSynchronize(s));
      printf("hardware handle: encode %d, %zu bytes\n", r, len);
    }
    mark("hardware handle's info and encode");
  }
  nvjpegEncoderState_t es;
  nvjpegEncoderParams_t ep;
  NJ(nvjpegEncoderStateCreate(hyb, &es, s));
  NJ(nvjpegEncoderParamsCreate(hyb, &ep, s));
  NJ(nvjpegEncoderParamsSetQuality(ep, 95, s));
  NJ(nvjpegEncoderParamsSetSamplingFactors(ep, NVJPEG_CSS_420, s));
  mark("encoder state and params");
  std::vector<unsigned char> enc;
  for (int k = 0; k < 3; k++) {
    NJ(nvjpegEncodeImage(hyb, es, ep, &out, NVJPEG_INPUT_BGR, w[0], h[0], s));
    size_t len = 0;
    NJ(nvjpegEncodeRetrieveBitstream(hyb, es, nullptr, &len, s));
    enc.resize(len);
    NJ(nvjpegEncodeRetrieveBitstream(hyb, es, enc.data(), &len, s));
    RT(cudaStreamSynchronize(s));
    mark(k == 0 ? "encode, first" : "encode, again");
  }
  // atOnce runs fn on threads threads at once, each with the context current and a
  // stream of its own (what a batch's workers do), and marks the time they took.
  auto atOnce = [&](const char* what, auto fn) {
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; t++) {
      ts.emplace_back([&] {
        CU(cuCtxSetCurrent(ctx));
        cudaStream_t st;
        RT(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
        fn(st);
        RT(cudaStreamSynchronize(st));
      });
    }
    for (auto& t : ts) t.join();
    char line[96];
    snprintf(line, sizeof line, "%d %s, at once", threads, what);
    mark(line);
  };
  atOnce("new encoder states, one encode each", [&](cudaStream_t st) {
    nvjpegEncoderState_t e;
    NJ(nvjpegEncoderStateCreate(hyb, &e, st));
    NJ(nvjpegEncodeImage(hyb, e, ep, &out, NVJPEG_INPUT_BGR, w[0], h[0], st));
    size_t len = 0;
    NJ(nvjpegEncodeRetrieveBitstream(hyb, e, nullptr, &len, st));
    std::vector<unsigned char> b(len);
    NJ(nvjpegEncodeRetrieveBitstream(hyb, e, b.data(), &len, st));
  });
  atOnce("new hybrid decoder states, one decode each", [&](cudaStream_t st) {
    nvjpegJpegState_t d;
    NJ(nvjpegJpegStateCreate(hyb, &d));
    NJ(nvjpegDecode(hyb, d, data.data(), data.size(), NVJPEG_OUTPUT_BGR, &out, st));
  });
  return 0;
}
