"""GPU FFT peers for gpuimg's bench: PyTorch and CuPy (both cuFFT underneath) doing
what fftfilter's forward DFT and Gaussian low-pass call do on a 32F image, timed
with CUDA events (warm-up, median of reps), printed as bench CSV rows.
Run on the GPU host by .gpu/run.sh: python3 fft_peers.py 3840 2160 50"""
import datetime
import statistics
import sys

import numpy as np

w, h = int(sys.argv[1]), int(sys.argv[2])
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 50
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
CUTOFF = 100.0  # cycles per image, as the bench's fftfilter.LowPass call

# The Gaussian low-pass mask on the half spectrum (rfft2 layout), with the 1/(w*h)
# of the inverse folded in, as fftfilter does.
fy = np.fft.fftfreq(h) * h
fx = np.arange(w // 2 + 1, dtype=np.float64)
mask = (np.exp(-(fy[:, None] ** 2 + fx[None, :] ** 2) / (2 * CUTOFF * CUTOFF)) / (w * h)).astype(np.float32)
x = np.random.default_rng(1).random((h, w), dtype=np.float32)


def report(name, timer, rfft2, irfft2, xd, md):
    for op, bpp, fn in (
        ("dft forward complex", 12, lambda: rfft2(xd)),
        ("lowpass gaussian", 8, lambda: irfft2(rfft2(xd) * md, s=(h, w))),
    ):
        us = statistics.median(timer(fn))
        print(f"{op},{w},{h},32FC1,{name},kernel,{us:.2f},{bpp * w * h / us / 1e3:.1f},{name} (cuFFT),,{date}")


try:
    import torch

    def torch_timer(fn):
        for _ in range(5):
            fn()
        out = []
        for _ in range(reps):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            b.record()
            b.synchronize()
            out.append(a.elapsed_time(b) * 1e3)
        return out

    report("torch-cuda", torch_timer, torch.fft.rfft2, torch.fft.irfft2,
           torch.from_numpy(x).cuda(), torch.from_numpy(mask).cuda())
except Exception as e:  # noqa: BLE001 - report it and go on to CuPy
    print("torch peer failed:", e, file=sys.stderr)

try:
    import cupy as cp

    def cupy_timer(fn):
        for _ in range(5):
            fn()
        out = []
        for _ in range(reps):
            a, b = cp.cuda.Event(), cp.cuda.Event()
            a.record()
            fn()
            b.record()
            b.synchronize()
            out.append(cp.cuda.get_elapsed_time(a, b) * 1e3)
        return out

    report("cupy-cuda", cupy_timer, cp.fft.rfft2, cp.fft.irfft2, cp.asarray(x), cp.asarray(mask))
except Exception as e:  # noqa: BLE001
    print("cupy peer failed:", e, file=sys.stderr)
