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
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
device = f"cv2 {cv2.__version__}, {cv2.getNumThreads()} threads"

cases = [
    ("cvtColor BGR2GRAY", "8UC3", 4 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2GRAY)),
    ("cvtColor BGR2Lab", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2Lab)),
    ("cvtColor BGR2HSV", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2HSV)),
    ("cvtColor BGR2YCrCb", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2YCrCb)),
    ("cvtColor BGR2XYZ", "8UC3", 6 * w * h, lambda: cv2.cvtColor(bgr8, cv2.COLOR_BGR2XYZ)),
    ("cvtColor BGR2Lab", "32FC3", 24 * w * h, lambda: cv2.cvtColor(bgr32, cv2.COLOR_BGR2Lab)),
    ("convertTo 8UC3->32FC3", "8UC3", 15 * w * h, lambda: bgr8.astype(np.float32) * (1 / 255)),
]
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
