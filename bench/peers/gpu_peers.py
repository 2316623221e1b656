"""GPU peers for gpuimg's bench: PyTorch and CuPy doing what gpuimg's bench cases do
where they have the operation: the forward DFT and the Gaussian low-pass call (both
cuFFT underneath), filter2D 3x3..31x31 on 32FC1 and box 5x5 on 8UC1 with replicated
borders (torch: F.pad + conv2d; CuPy: cupyx.scipy.ndimage). Timed with CUDA events
(warm-up, median of reps), each timed run queued behind a 2 ms busy kernel so that
the events measure device work and not Python's time to queue it (gpuimg's and NPP's
harnesses hold the device the same way), printed as bench CSV rows.
Run on the GPU host by .gpu/run.sh: python3 gpu_peers.py 3840 2160 50"""
import datetime
import os
import statistics
import sys

import numpy as np

w, h = int(sys.argv[1]), int(sys.argv[2])
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 50
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
HOLD_NS = 2_000_000  # device busy time ahead of each timed run (CuPy: global timer)
HOLD_CYCLES = 4_000_000  # the same for torch.cuda._sleep, in clock cycles (~2 ms at H100 clocks)
CUTOFF = 100.0  # cycles per image, as the bench's fftfilter.LowPass call

# The Gaussian low-pass mask on the half spectrum (rfft2 layout), with the 1/(w*h)
# of the inverse folded in, as fftfilter does.
fy = np.fft.fftfreq(h) * h
fx = np.arange(w // 2 + 1, dtype=np.float64)
mask = (np.exp(-(fy[:, None] ** 2 + fx[None, :] ** 2) / (2 * CUTOFF * CUTOFF)) / (w * h)).astype(np.float32)
x = np.random.default_rng(1).random((h, w), dtype=np.float32)


# The bench's filter2D kernels: random, as in bench/main.go's spirit (not separable).
kernels = {n: (np.random.default_rng(n).random((n, n)) / (n * n)).astype(np.float32) for n in (3, 7, 15, 31)}
g8 = np.random.default_rng(2).integers(0, 256, (h, w), dtype=np.uint8)


ONLY = os.environ.get("ONLY", "")  # time only the cases whose name contains it


def report(name, timer, cases):
    for op, typ, bpp, fn in cases:
        if ONLY not in op:
            continue
        try:
            us = statistics.median(timer(fn))
        except Exception as e:  # noqa: BLE001 - a peer without the case
            print(f"{name} {op}: {e}", file=sys.stderr)
            continue
        print(f"{op},{w},{h},{typ},{name},kernel,{us:.2f},{bpp * w * h / us / 1e3:.1f},{name},,{date}")


try:
    import torch

    def torch_timer(fn):
        for _ in range(5):
            fn()
        out = []
        for _ in range(reps):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda._sleep(HOLD_CYCLES)  # keep the device busy: time the work, not Python's queueing
            a.record()
            fn()
            b.record()
            b.synchronize()
            out.append(a.elapsed_time(b) * 1e3)
        return out

    import torch.nn.functional as F

    xd, md, g8d = torch.from_numpy(x).cuda(), torch.from_numpy(mask).cuda(), torch.from_numpy(g8).cuda()
    kd = {n: torch.from_numpy(k).cuda()[None, None] for n, k in kernels.items()}
    box = torch.ones((1, 1, 5, 5), device="cuda") / 25

    def conv(img, k):  # filter2D with BORDER_REPLICATE: correlation, as conv2d computes
        r = k.shape[-1] // 2
        return F.conv2d(F.pad(img[None, None], (r, r, r, r), mode="replicate"), k)[0, 0]

    report("torch-cuda", torch_timer, [
        ("dft forward complex", "32FC1", 12, lambda: torch.fft.rfft2(xd)),
        ("lowpass gaussian", "32FC1", 8, lambda: torch.fft.irfft2(torch.fft.rfft2(xd) * md, s=(h, w))),
        ("box 5x5", "8UC1", 2, lambda: conv(g8d.float(), box).round().to(torch.uint8)),
    ] + [(f"filter2D {n}x{n}", "32FC1", 8, (lambda n=n: conv(xd, kd[n]))) for n in (3, 7, 15, 31)])
    # Antialiased downscaling, beside gpuimg's 8UC3 Scale cases: torch has it for
    # float32 only (no 8-bit antialiased resize on CUDA) and no Lanczos, so its
    # bilinear and bicubic antialias stand in (bytes counted as for 8UC3).
    rgb = torch.rand((1, 3, h, w), device="cuda")
    report("torch-cuda", torch_timer, [
        ("scale lanczos3 1/2", "8UC3", 3.75, lambda: F.interpolate(rgb, size=(h // 2, w // 2), mode="bilinear", antialias=True)),
        ("scale bicubic 1/2", "8UC3", 3.75, lambda: F.interpolate(rgb, size=(h // 2, w // 2), mode="bicubic", antialias=True)),
        ("scale bilinear 1/2", "8UC3", 3.75, lambda: F.interpolate(rgb, size=(h // 2, w // 2), mode="bilinear", antialias=True)),
    ])
    # A 2-D Haar transform as a torch user writes one (there is no GPU wavelet
    # library on the host): the four polyphase quarters, their sums and differences,
    # level after level on the approximation; beside gpuimg's "wavelet haar2" cases.
    img = torch.rand((h, w), device="cuda")

    def haar2(x, levels):
        out = []
        for _ in range(levels):
            a, b, c, d = x[0::2, 0::2], x[0::2, 1::2], x[1::2, 0::2], x[1::2, 1::2]
            out.append(((a + b - c - d) / 2, (a - b + c - d) / 2, (a - b - c + d) / 2))
            x = (a + b + c + d) / 2
        return x, out

    def ihaar2(x, details):
        for ch, cv, cd in reversed(details):
            y = torch.empty((2 * x.shape[0], 2 * x.shape[1]), device="cuda")
            y[0::2, 0::2] = (x + ch + cv + cd) / 2
            y[0::2, 1::2] = (x + ch - cv - cd) / 2
            y[1::2, 0::2] = (x - ch + cv - cd) / 2
            y[1::2, 1::2] = (x - ch - cv + cd) / 2
            x = y
        return x

    wbytes = lambda levels: sum(8 / 4 ** l for l in range(levels))  # noqa: E731 - bytes a pixel, as the Go bench
    wcases = [("wavelet haar2 1 level", "32FC1", wbytes(1), lambda: haar2(img, 1))]
    if h % 32 == 0 and w % 32 == 0:  # five halvings without odd sizes (which this simple Haar does not take)
        coeffs5 = haar2(img, 5)
        wcases += [("wavelet haar2 5 levels", "32FC1", wbytes(5), lambda: haar2(img, 5)),
                   ("wavelet haar2 inverse 5 levels", "32FC1", wbytes(5), lambda: ihaar2(*coeffs5))]
    report("torch-cuda", torch_timer, wcases)
except Exception as e:  # noqa: BLE001 - report it and go on to CuPy
    print("torch peer failed:", e, file=sys.stderr)

try:
    import cupy as cp

    spin = cp.RawKernel(r'''
extern "C" __global__ void spin(unsigned int ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}''', "spin")

    def cupy_timer(fn):
        for _ in range(5):
            fn()
        out = []
        for _ in range(reps):
            a, b = cp.cuda.Event(), cp.cuda.Event()
            spin((1,), (1,), (cp.uint32(HOLD_NS),))  # as for PyTorch
            a.record()
            fn()
            b.record()
            b.synchronize()
            out.append(cp.cuda.get_elapsed_time(a, b) * 1e3)
        return out

    import cupyx.scipy.ndimage as ndi

    xd, md, g8d = cp.asarray(x), cp.asarray(mask), cp.asarray(g8)
    kd = {n: cp.asarray(k) for n, k in kernels.items()}
    report("cupy-cuda", cupy_timer, [
        ("dft forward complex", "32FC1", 12, lambda: cp.fft.rfft2(xd)),
        ("lowpass gaussian", "32FC1", 8, lambda: cp.fft.irfft2(cp.fft.rfft2(xd) * md, s=(h, w))),
        ("box 5x5", "8UC1", 2, lambda: ndi.uniform_filter(g8d, 5, mode="nearest")),
    ] + [(f"filter2D {n}x{n}", "32FC1", 8, (lambda n=n: ndi.correlate(xd, kd[n], mode="nearest"))) for n in (3, 7, 15, 31)])
except Exception as e:  # noqa: BLE001
    print("cupy peer failed:", e, file=sys.stderr)

try:
    # Shepard (inverse distance weighting) as a CuPy user writes it: an elementwise
    # kernel over the map's pixels, each looping over the points (power 2), beside
    # gpuimg's "shepard p2 N points" cases (random points over the map).
    import cupy as cp

    idw = cp.ElementwiseKernel(
        "raw float32 px, raw float32 py, raw float32 pv, int32 n, int32 w", "float32 out",
        """
        float x = (float)(i % w), y = (float)(i / w), num = 0.f, den = 0.f;  // i: the element
        for (int j = 0; j < n; ++j) {
          float dx = x - px[j], dy = y - py[j], d2 = dx * dx + dy * dy;
          if (d2 == 0.f) { num = pv[j]; den = 1.f; break; }
          float wt = 1.f / d2;
          num += wt * pv[j];
          den += wt;
        }
        out = num / den;
        """, "idw")
    rng = np.random.default_rng(1)
    cases = []
    for n in (64, 1000, 10000):
        px = cp.asarray(rng.random(n, dtype=np.float32) * w)
        py = cp.asarray(rng.random(n, dtype=np.float32) * h)
        pv = cp.asarray(rng.random(n, dtype=np.float32) * 100)
        out = cp.empty(w * h, dtype=cp.float32)
        cases.append((f"shepard p2 {n} points", "32FC1", 4,
                      (lambda px=px, py=py, pv=pv, n=n, out=out: idw(px, py, pv, cp.int32(n), cp.int32(w), out))))
    report("cupy-cuda", cupy_timer, cases)
except Exception as e:  # noqa: BLE001
    print("cupy idw peer failed:", e, file=sys.stderr)
