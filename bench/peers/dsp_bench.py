"""GPU peers for the bench's signal (dsp) cases: CuPy (cupyx.scipy.signal) and
PyTorch doing what bench/signals.go times, on random float32 signals of the same
shapes, printed as bench CSV rows (width = samples a signal, height = signals).
Timed as gpu_peers.py times its cases: CUDA events, warm-up, median of reps, each
timed run queued behind a 2 ms busy kernel.

  python3 dsp_bench.py 1x1000000,64x1000000 [REPS]

With RESAMPLE_ONLY=1 in the environment, only the resampling cases (CuPy's
resample_poly, torchaudio's resample); with SPEC_ONLY=1, only the spectrogram; with
IIR_ONLY=1, only sosfilt, lfilter and sosfiltfilt; with FIR_ONLY=1, only the
convolutions and the crossover."""
import datetime
import os
import statistics
import sys

import cupy as cp
import cupyx.scipy.signal as cps

shapes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[1].split(",") if s]
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
HOLD_NS = 2_000_000

spin = cp.RawKernel(r'''
extern "C" __global__ void spin(unsigned int ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}''', "spin")


def timed(fn, record, elapsed):
    for _ in range(3):
        fn()
    out = []
    for _ in range(reps):
        spin((1,), (1,), (cp.uint32(HOLD_NS),))
        a, b = record()
        fn()
        b.record()
        b.synchronize()
        out.append(elapsed(a, b))
    return statistics.median(out)


def cupy_us(fn):
    def record():
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        return a, b
    return timed(fn, record, lambda a, b: cp.cuda.get_elapsed_time(a, b) * 1e3)


try:
    import torch
    import torch.nn.functional as F

    def torch_us(fn):
        def record():
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            return a, b
        # torch's stream is the legacy default stream, as CuPy's: the spin holds it too.
        return timed(fn, record, lambda a, b: a.elapsed_time(b) * 1e3)
except Exception as e:  # noqa: BLE001
    print("torch peer missing:", e, file=sys.stderr)
    torch = None


def row(op, n, rows, system, us, outputs=1):
    print(f"{op},{n},{rows},32FC1,{system},kernel,{us:.2f},{4 * (1 + outputs) * n * rows / us / 1e3:.1f},{system},,{date}", flush=True)


sos = cps.butter(8, 0.2, output="sos").astype(cp.float32)
b, a = (v.astype(cp.float32) for v in cps.butter(8, 0.2))
taps = {m: cp.asarray([((i * 7919) % 97) / 97 - 0.5 for i in range(m)], dtype=cp.float32) for m in (63, 512, 8192)}
bands = [cp.asarray(cp.random.default_rng(k).standard_normal(8191), dtype=cp.float32) for k in range(4)]
try:
    import torchaudio.functional as taf
except Exception as e:  # noqa: BLE001
    print("torchaudio peer missing:", e, file=sys.stderr)
    taf = None
for rows, n in shapes:
    x = cp.random.default_rng(1).random((rows, n), dtype=cp.float32)
    iir_only = bool(os.environ.get("IIR_ONLY"))
    fir_only = bool(os.environ.get("FIR_ONLY"))
    for up, down in (() if os.environ.get("SPEC_ONLY") or iir_only or fir_only else ((160, 147), (147, 160), (2, 1), (1, 2))):
        op, ratio = f"resample poly {up}/{down}", up / down
        row(op, n, rows, "cupy-cuda", cupy_us(lambda: cps.resample_poly(x, up, down, axis=-1)), outputs=ratio)
        if taf is not None and torch is not None:
            tx = torch.as_tensor(x, device="cuda")
            row(op, n, rows, "torchaudio-cuda", torch_us(lambda: taf.resample(tx, down, up)), outputs=ratio)
    if os.environ.get("RESAMPLE_ONLY"):
        continue
    if os.environ.get("SPEC_ONLY") or iir_only:
        taps, bands = {}, []
    for m, h in taps.items():
        op = f"dsp convolve {m} taps"
        if rows == 1:
            row(op, n, rows, "cupy-cuda", cupy_us(lambda: cps.convolve(x[0], h, mode="same")))
        else:
            row(op, n, rows, "cupy-cuda", cupy_us(lambda: cps.oaconvolve(x, h[None, :], mode="same", axes=1)))
        if torch is not None and m * rows * n <= 1 << 32:  # conv1d of 8192 taps on 64 x 1e6: seconds a call
            tx = torch.as_tensor(x, device="cuda").reshape(rows, 1, n)
            th = torch.as_tensor(h, device="cuda").flip(0).reshape(1, 1, m)
            row(op, n, rows, "torch-cuda", torch_us(lambda: F.conv1d(tx, th, padding=m // 2)))
    if not os.environ.get("SPEC_ONLY") and not fir_only:
        row("dsp sosfilt butter8", n, rows, "cupy-cuda", cupy_us(lambda: cps.sosfilt(sos, x, axis=-1)))
        row("dsp lfilter butter8", n, rows, "cupy-cuda", cupy_us(lambda: cps.lfilter(b, a, x, axis=-1)))
    if n > 3 * 2 * (2 * len(sos) + 1) and not os.environ.get("SPEC_ONLY") and not fir_only:
        row("dsp sosfiltfilt butter8", n, rows, "cupy-cuda", cupy_us(lambda: cps.sosfiltfilt(sos, x, axis=-1)))
    if n >= 8191 and bands:
        if rows == 1:
            xc = lambda: [cps.oaconvolve(x[0], h, mode="same") for h in bands]  # noqa: E731
        else:
            xc = lambda: [cps.oaconvolve(x, h[None, :], mode="same", axes=1) for h in bands]  # noqa: E731
        row("dsp crossover 4x8191", n, rows, "cupy-cuda", cupy_us(xc), outputs=4)
    # Spectrogram, 1024-sample Hann segments, hop 256 (SciPy's defaults otherwise:
    # constant detrend, density, one-sided PSD): CuPy's spectrogram, torch's stft
    # and |X|^2 (no detrend or scaling: less work than the case asks).
    if n >= 1024 and not os.environ.get("SPEC_SKIP") and not iir_only and not fir_only:
        op = "dsp spectrogram 1024/256 hann"
        nseg = (n - 1024) // 256 + 1
        outs = 513 * nseg / n
        row(op, n, rows, "cupy-cuda", cupy_us(lambda: cps.spectrogram(x, window="hann", nperseg=1024, noverlap=768, axis=-1)), outputs=outs)
        if torch is not None:
            tx = torch.as_tensor(x, device="cuda")
            win = torch.hann_window(1024, device="cuda")
            row(op, n, rows, "torch-cuda", torch_us(lambda: torch.stft(tx, 1024, hop_length=256, window=win, center=False,
                                                                      return_complex=True).abs().pow(2)), outputs=outs)
