"""OpenCV CPU peer for gpuimg's bench: times cv2's equivalents of gpuimg operations
(all cores, warm-up, median of reps) on random data and prints CSV rows in the bench
format. Run on the GPU host by .gpu/run.sh: python3 opencv_bench.py 3840 2160 20"""
import datetime
import os
import statistics
import sys
import time

import cv2
import numpy as np

w, h = int(sys.argv[1]), int(sys.argv[2])
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 20
cv2.setNumThreads(os.cpu_count())
rng = np.random.default_rng(1)
bgr8 = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
bgr32 = rng.random((h, w, 3), dtype=np.float32)
g8 = rng.integers(0, 256, (h, w), dtype=np.uint8)
g32 = rng.random((h, w), dtype=np.float32)
kern = {n: rng.random((n, n), dtype=np.float32) / (n * n) for n in (3, 7, 15, 31)}
# The Gaussian low-pass through OpenCV's DFT route: whole spectrum, times the mask
# (both channels), inverse to real with scaling; cutoff 100 cycles per image.
_fy = np.fft.fftfreq(h) * h
_fx = np.fft.fftfreq(w) * w
_m = np.exp(-(_fy[:, None] ** 2 + _fx[None, :] ** 2) / (2 * 100.0 ** 2)).astype(np.float32)
lp_mask = np.dstack([_m, _m])


def lowpass(img):
    spec = cv2.dft(img, flags=cv2.DFT_COMPLEX_OUTPUT)
    return cv2.dft(spec * lp_mask, flags=cv2.DFT_INVERSE | cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)


kx9 = np.array([1, 3, 7, 12, 15, 12, 7, 3, 1], dtype=np.float32)
ky9 = np.array([0.02, 0.05, 0.1, 0.15, 0.36, 0.15, 0.1, 0.05, 0.02], dtype=np.float32)
planes = cv2.split(bgr8)

# The bench's pipeline cases: the first n of these on 8UC3, OpenCV's default borders.
sharpen = np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], dtype=np.float32)
chain_ops = [
    lambda x: cv2.GaussianBlur(x, (5, 5), 0),
    lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2Lab),
    lambda x: cv2.cvtColor(x, cv2.COLOR_Lab2BGR),
    lambda x: cv2.filter2D(x, -1, sharpen),
    lambda x: cv2.blur(x, (5, 5)),
]


def chain(img, n):
    for op in chain_ops[:n]:
        img = op(img)
    return img


bgr8_out = bgr8.copy()
xform = np.array([[0.5, 0.3, 0.2, 1], [0.1, 0.8, 0.1, 2], [0.2, 0.2, 0.6, 3]], dtype=np.float32)
R = cv2.BORDER_REPLICATE  # the border NPP's filters support; gpuimg's bench uses it too
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
device = f"cv2 {cv2.__version__} ({cv2.getNumThreads()} threads)"

cases = [
    ("cvtColor BGR2GRAY", "8UC3", 4 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2GRAY)),
    ("cvtColor BGR2Lab", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2Lab)),
    ("cvtColor BGR2HSV", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2HSV)),
    ("cvtColor BGR2YCrCb", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2YCrCb)),
    ("cvtColor BGR2XYZ", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2XYZ)),
    ("cvtColor BGR2Lab", "32FC3", 24 * w * h, lambda: cv2.cvtColor(bgr32, cv2.COLOR_BGR2Lab)),
    ("convertTo 8UC3->32FC3", "8UC3", 15 * w * h, lambda: bgr8.astype(np.float32) * (1 / 255)),
    ("gaussian 5x5", "8UC1", 2 * w * h, lambda: cv2.GaussianBlur(g8, (5, 5), 0, borderType=R)),
    ("gaussian 5x5", "8UC3", 6 * w * h, lambda: cv2.GaussianBlur(bgr8, (5, 5), 0, borderType=R)),
    ("box 5x5", "8UC1", 2 * w * h, lambda: cv2.blur(g8, (5, 5), borderType=R)),
    ("sobel 3x3 dx 8U->16S", "8UC1", 3 * w * h, lambda: cv2.Sobel(g8, cv2.CV_16S, 1, 0, ksize=3, borderType=R)),
] + [
    (f"filter2D {n}x{n}", "32FC1", 8 * w * h, (lambda n=n: cv2.filter2D(g32, -1, kern[n], borderType=R))) for n in (3, 7, 15, 31)
] + [
    ("filter2D 7x7", "8UC3", 6 * w * h, lambda: cv2.filter2D(bgr8, -1, kern[7], borderType=R)),
    ("dft forward CCS", "32FC1", 8 * w * h, lambda: cv2.dft(g32)),
    ("dft forward complex", "32FC1", 12 * w * h, lambda: cv2.dft(g32, flags=cv2.DFT_COMPLEX_OUTPUT)),
    ("lowpass gaussian", "32FC1", 8 * w * h, lambda: lowpass(g32)),
] + [
    (f"pipeline {n} ops", "8UC3", 6 * w * h, (lambda n=n: chain(bgr8, n))) for n in (1, 3, 5)
] + [
    # coverage: the rest of the shipped operations that OpenCV has
    ("cvtColor BGR2HLS", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2HLS)),
    ("cvtColor BGR2Luv", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2Luv)),
    ("cvtColor BGR2YUV", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2YUV)),
    ("cvtColor BGR2RGB", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2RGB)),
    ("cvtColor BGR2BGRA", "8UC3", 7 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2BGRA)),
    ("cvtColor GRAY2BGR", "8UC1", 4 * w * h, lambda: cv2.cvtColor(g8, cv2.COLOR_GRAY2BGR)),
    ("cvtColor Lab2BGR", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_Lab2BGR)),
    ("cvtColor Luv2BGR", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_Luv2BGR)),
    ("cvtColor BGR2HSV", "32FC3", 24 * w * h, lambda: cv2.cvtColor(bgr32, cv2.COLOR_BGR2HSV)),
    ("setTo", "8UC3", 3 * w * h, lambda: bgr8_out.__setitem__(slice(None), (1, 2, 3))),
    ("transform 3x4", "8UC3", 6 * w * h, lambda: cv2.transform(bgr8, xform)),
    ("scharr dx 8U->16S", "8UC1", 3 * w * h, lambda: cv2.Scharr(g8, cv2.CV_16S, 1, 0, borderType=R)),
    ("laplacian 3x3 8U->16S", "8UC1", 3 * w * h, lambda: cv2.Laplacian(g8, cv2.CV_16S, ksize=3, borderType=R)),
    ("sobel 3x3 dx 32F", "32FC1", 8 * w * h, lambda: cv2.Sobel(g32, cv2.CV_32F, 1, 0, ksize=3, borderType=R)),
    ("idft CCS to real", "32FC1", 8 * w * h, lambda: cv2.idft(g32, flags=cv2.DFT_SCALE)),
    ("mulSpectrums CCS", "32FC1", 12 * w * h, lambda: cv2.mulSpectrums(g32, g32, 0, conjB=True)),
    ("magnitude", "32FC1", 12 * w * h, lambda: cv2.magnitude(g32, g32)),
    ("phase", "32FC1", 12 * w * h, lambda: cv2.phase(g32, g32)),
    ("padToOptimal", "32FC1", 8 * w * h, lambda: cv2.copyMakeBorder(
        g32, 0, cv2.getOptimalDFTSize(h) - h, 0, cv2.getOptimalDFTSize(w) - w, cv2.BORDER_CONSTANT, value=0)),
    ("sepFilter2D 9x9", "32FC1", 8 * w * h, lambda: cv2.sepFilter2D(g32, -1, kx9, ky9, borderType=R)),
    ("merge 3x8UC1->8UC3", "8UC3", 6 * w * h, lambda: cv2.merge(planes)),
    # the DFT route for a user mask, as lowpass above
    ("applyMask", "32FC1", 12 * w * h, lambda: lowpass(g32)),
]

# Resizes of the 8UC3 image, by gpuimg's bench names (bench/resize.go).
def rsz(f, size, interp):
    dw, dh = size if size else (int(round(w * f)), int(round(h * f)))
    return 3 * (w * h + dw * dh), (lambda: cv2.resize(bgr8, (dw, dh), interpolation=interp))


for name, f, size, interp in [
    ("resize linear 1/2", 0.5, None, cv2.INTER_LINEAR), ("resize area 1/2", 0.5, None, cv2.INTER_AREA),
    ("resize cubic 1/2", 0.5, None, cv2.INTER_CUBIC), ("resize lanczos4 1/2", 0.5, None, cv2.INTER_LANCZOS4),
    ("resize nearest 1/2", 0.5, None, cv2.INTER_NEAREST), ("resize linear x2", 2, None, cv2.INTER_LINEAR),
    ("resize cubic x2", 2, None, cv2.INTER_CUBIC), ("resize area ->224x224", 0, (224, 224), cv2.INTER_AREA),
    ("resize linear 2/3", 2 / 3, None, cv2.INTER_LINEAR), ("resize area 2/3", 2 / 3, None, cv2.INTER_AREA),
    ("resize lanczos4 x2", 2, None, cv2.INTER_LANCZOS4), ("resize cubic 2/3", 2 / 3, None, cv2.INTER_CUBIC),
    ("resize linear x1.5", 1.5, None, cv2.INTER_LINEAR),
]:
    nb, fn = rsz(f, size, interp)
    cases.append((name, "8UC3", nb, fn))
cases += [
    ("pyrDown", "8UC3", 3 * (w * h + ((w + 1) // 2) * ((h + 1) // 2)), lambda: cv2.pyrDown(bgr8)),
    ("pyrUp", "8UC3", 3 * 5 * w * h, lambda: cv2.pyrUp(bgr8)),
]
only = os.environ.get("ONLY", "")  # time only the cases whose name contains it
cases = [c for c in cases if only in c[0]]
for op, typ, nbytes, fn in cases:
    for _ in range(3):
        fn()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn()
        t.append((time.perf_counter_ns() - t0) / 1e3)
    us = statistics.median(t)
    print(f"{op},{w},{h},{typ},opencv-cpu,cpu,{us:.2f},{nbytes / us / 1e3:.1f},{device},,{date}")
