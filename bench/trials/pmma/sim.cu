// Host check of the staged pass's layout (no GPU): for random spans W and tile
// offsets, every lane's B reads lie inside the bytes its row's staging copies, the
// 32 staged rows do not overlap and fit their stage, and each half-warp's 8-byte
// reads of an n-step and k-step hit all 32 banks once.
// prepare.sh compiles and runs it against the patched kernels (a host program:
// nvcc -std=c++14 -arch=sm_90 -I kernels -o sim sim.cu, in a tree with
// kernels.patch applied).
#include <cstdio>
#include <cstdlib>
#include "resample_pmma.cu"

int main() {
  srand(12345);
  long checks = 0;
  for (int it = 0; it < 200000; ++it) {
    const int KS = 1 + rand() % 4;
    int off[4] = {0};
    for (int w = 1; w < 4; ++w) off[w] = off[w - 1] + 8 * (rand() % 17);  // a0 non-decreasing, 8-byte steps
    const int W = off[3] + 32 * KS;
    const int S = pmma::stagedStride(W);
    if (S < W + 64 || S % 128 != 32) { printf("bad stride W=%d S=%d\n", W, S); return 1; }
    for (int r = 0; r < 32; ++r) {
      const int lo = pmma::stagedRow(r, S), hi = lo + W;
      if (lo % 8 || hi > 32 * S) { printf("row %d out of its stage: W=%d S=%d\n", r, W, S); return 1; }
      if (r < 31 && hi > pmma::stagedRow(r + 1, S)) { printf("rows %d, %d overlap: W=%d S=%d\n", r, r + 1, W, S); return 1; }
    }
    for (int w = 0; w < 4; ++w)
      for (int q = 0; q < 4; ++q)
        for (int s = 0; s < KS; ++s)
          for (int half = 0; half < 2; ++half) {
            unsigned banks = 0;
            for (int l = 16 * half; l < 16 * half + 16; ++l) {
              const int g = l >> 2, t = l & 3, row = 8 * (g >> 1) + (g & 1) + 2 * q;
              const int a = pmma::stagedRow(row, S) + off[w] + 32 * s + 8 * t;
              if (a % 8 || a < pmma::stagedRow(row, S) || a + 8 > pmma::stagedRow(row, S) + W) {
                printf("read outside row %d: W=%d off=%d\n", row, W, off[w]);
                return 1;
              }
              banks |= 1u << ((a / 4) % 32) | 1u << ((a / 4 + 1) % 32);
              ++checks;
            }
            if (banks != 0xffffffffu) { printf("bank conflict: W=%d S=%d off=%d q=%d s=%d half=%d\n", W, S, off[w], q, s, half); return 1; }
          }
  }
  printf("staged layout: %ld lane reads checked, no overlap, no bank conflict\n", checks);
  return 0;
}
