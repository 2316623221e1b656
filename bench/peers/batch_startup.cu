// What a batch's device set-up costs, call by call, in a fresh process: loading a
// kernel module (a fatbin file) and allocating page-locked buffers, alone and from
// several threads at once. Built and run on the GPU host:
//   nvcc -O2 -o batch_startup batch_startup.cu -lcuda -lpthread
//   ./batch_startup FATBIN [MB per buffer] [buffers] [threads] [devices]
// Each device's context and module load run on a thread of their own, at once;
// then threads x buffers page-locked buffers are allocated (one context), first on
// one thread, then on `threads` threads at once. Prints milliseconds per step.
#include <cuda.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CU(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { fprintf(stderr, "%s: %d\n", #x, r); exit(1); } } while (0)
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: batch_startup FATBIN [MB] [buffers] [threads] [devices]\n"); return 2; }
  size_t mb = argc > 2 ? atoi(argv[2]) : 25;
  int nbuf = argc > 3 ? atoi(argv[3]) : 24, nthr = argc > 4 ? atoi(argv[4]) : 8, ndev = argc > 5 ? atoi(argv[5]) : 1;
  FILE* f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  std::vector<char> image;
  char buf[1 << 16];
  for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) image.insert(image.end(), buf, buf + n);
  fclose(f);
  auto t0 = clk::now();
  CU(cuInit(0));
  printf("cuInit %.1f ms (fatbin %zu bytes, CUDA_MODULE_LOADING=%s)\n", ms(t0, clk::now()), image.size(),
         getenv("CUDA_MODULE_LOADING") ? getenv("CUDA_MODULE_LOADING") : "(unset)");
  std::vector<CUcontext> ctx(ndev);
  std::vector<std::thread> th;
  for (int d = 0; d < ndev; d++) th.emplace_back([&, d] {
    CUdevice dev;
    auto a = clk::now();
    CU(cuDeviceGet(&dev, d));
    CU(cuDevicePrimaryCtxRetain(&ctx[d], dev));
    CU(cuCtxSetCurrent(ctx[d]));
    auto b = clk::now();
    CUmodule mod;
    CU(cuModuleLoadData(&mod, image.data()));
    auto c = clk::now();
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "gi_cvt_fromgray_16u_13"));
    auto e = clk::now();
    printf("device %d: context %.1f ms, module load %.1f ms, first function %.1f ms\n", d, ms(a, b), ms(b, c), ms(c, e));
  });
  for (auto& t : th) t.join();
  th.clear();
  size_t size = mb << 20;
  auto alloc = [&](int n, double* worst) {
    CU(cuCtxSetCurrent(ctx[0]));
    for (int i = 0; i < n; i++) {
      void* p;
      auto a = clk::now();
      CU(cuMemHostAlloc(&p, size, 0));
      ((volatile char*)p)[0] = 1;
      *worst = std::max(*worst, ms(a, clk::now()));
    }
  };
  double worst = 0;
  auto a = clk::now();
  alloc(nbuf, &worst);
  printf("%d x %zu MB page-locked, one thread: %.1f ms (%.1f ms each, slowest %.1f)\n", nbuf, mb, ms(a, clk::now()), ms(a, clk::now()) / nbuf, worst);
  std::vector<double> worsts(nthr);
  a = clk::now();
  for (int t = 0; t < nthr; t++) th.emplace_back(alloc, nbuf / nthr, &worsts[t]);
  for (auto& t : th) t.join();
  double w = 0;
  for (double x : worsts) w = std::max(w, x);
  printf("%d x %zu MB page-locked, %d threads at once: %.1f ms (slowest buffer %.1f)\n", nthr * (nbuf / nthr), mb, nthr, ms(a, clk::now()), w);
  a = clk::now();
  void* big;
  CU(cuMemHostAlloc(&big, size * nbuf, 0));
  printf("one %zu MB page-locked buffer: %.1f ms\n", mb * nbuf, ms(a, clk::now()));
  // mmap'd memory, touched, then registered: 4 KB pages, and 2 MB pages (THP).
  for (int huge = 0; huge < 2; huge++) {
    double tmap = 0, treg = 0;
    for (int i = 0; i < nbuf; i++) {
      auto a = clk::now();
      size_t n = size + (2 << 20);
      char* m = (char*)mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) { perror("mmap"); return 1; }
      char* p = (char*)(((uintptr_t)m + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
      if (huge) madvise(p, size, MADV_HUGEPAGE);
      for (size_t k = 0; k < size; k += 4096) p[k] = 1;
      auto b = clk::now();
      CU(cuMemHostRegister(p, size, CU_MEMHOSTREGISTER_PORTABLE));
      auto c = clk::now();
      tmap += ms(a, b); treg += ms(b, c);
    }
    printf("%d x %zu MB mmap'd%s: touching %.1f ms, cuMemHostRegister %.1f ms (%.2f ms a buffer)\n", nbuf, mb,
           huge ? " with MADV_HUGEPAGE" : "", tmap, treg, treg / nbuf);
  }
  return 0;
}
