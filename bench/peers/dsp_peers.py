"""Peers of dsp.Convolve and the IIR filters on the GPU: CuPy (cupyx.scipy.signal)
and PyTorch, timed with CUDA events (warm-up, then the median of REPS), on random
float32 signals.

  python3 dsp_peers.py [REPS]

prints one JSON object a case: rows, n, taps and each peer's median microseconds."""
import json
import statistics
import sys

import cupy as cp
import cupyx.scipy.signal as cps
import torch
import torch.nn.functional as F


def median_us(fn, reps, event, elapsed_ms, sync):
    """fn's median time in microseconds between two events, after a warm-up."""
    for _ in range(3):
        fn()
    sync()
    start, end = event(), event()
    ts = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        ts.append(elapsed_ms(start, end) * 1e3)
    return statistics.median(ts)


def cupy_time(fn, reps):
    return median_us(fn, reps, cp.cuda.Event, cp.cuda.get_elapsed_time, cp.cuda.Device().synchronize)


def torch_time(fn, reps):
    return median_us(fn, reps, lambda: torch.cuda.Event(enable_timing=True), lambda a, b: a.elapsed_time(b),
                     torch.cuda.synchronize)


def main(reps=20):
    for rows, n, m in [(1, 1000000, 512), (1, 1000000, 8192), (64, 1000000, 512), (1, 1000000, 63), (64, 16384, 512)]:
        rng = cp.random.default_rng(1)
        x = rng.standard_normal((rows, n), dtype=cp.float32)
        h = rng.standard_normal(m, dtype=cp.float32)
        out = {"rows": rows, "n": n, "taps": m}
        if rows == 1:
            out["cupy_convolve_direct"] = cupy_time(lambda: cps.convolve(x[0], h, mode="same", method="direct"), reps)
            out["cupy_convolve_auto"] = cupy_time(lambda: cps.convolve(x[0], h, mode="same"), reps)
        out["cupy_oaconvolve"] = cupy_time(lambda: cps.oaconvolve(x, h[None, :], mode="same", axes=1), reps)
        tx = torch.as_tensor(x, device="cuda").reshape(rows, 1, n)
        th = torch.as_tensor(h, device="cuda").flip(0).reshape(1, 1, m)
        out["torch_conv1d"] = torch_time(lambda: F.conv1d(tx, th, padding=m // 2), reps)
        print(json.dumps(out), flush=True)
    # IIR: Butterworth order 8 low-pass at 0.2 of Nyquist (4 sections), as dsp's
    # BenchmarkCUDAIIR. torchaudio's lfilter runs one sample at a time (1.8 s for
    # 1e7 samples on the H100, issue #23): left out here.
    sos = cps.butter(8, 0.2, output="sos").astype(cp.float32)
    b, a = cps.butter(8, 0.2)
    b, a = b.astype(cp.float32), a.astype(cp.float32)
    for rows, n in [(1, 10000000), (64, 1000000), (64, 16384)]:
        rng = cp.random.default_rng(2)
        x = rng.standard_normal((rows, n), dtype=cp.float32)
        out = {"rows": rows, "n": n, "filter": "butter8"}
        out["cupy_sosfilt"] = cupy_time(lambda: cps.sosfilt(sos, x, axis=-1), reps)
        out["cupy_lfilter"] = cupy_time(lambda: cps.lfilter(b, a, x, axis=-1), reps)
        if rows == 1:
            out["cupy_sosfiltfilt"] = cupy_time(lambda: cps.sosfiltfilt(sos, x, axis=-1), reps)
        print(json.dumps(out), flush=True)
    # The 4-band crossover of dsp's BenchmarkCUDACrossover: 8191-tap bands on 1e7
    # samples, four oaconvolve calls (the peer).
    rng = cp.random.default_rng(3)
    x = rng.standard_normal(10000000, dtype=cp.float32)
    bands = [rng.standard_normal(8191, dtype=cp.float32) for _ in range(4)]
    t = cupy_time(lambda: [cps.oaconvolve(x, h, mode="same") for h in bands], reps)
    print(json.dumps({"rows": 1, "n": 10000000, "crossover": "4 x 8191", "cupy_oaconvolve": t}), flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
