"""The CLI batch benchmark's input and its OpenCV peer.

  python3 batch_bench.py gen DIR N W H [EXT] writes N WxH images to DIR: random BMPs,
      or photo-like (smooth, with fine texture) JPEGs (quality 90) or PNGs
  python3 batch_bench.py opencv DIR OUT T     runs the same 3-step pipeline as
      `gpuimg run DIR -o OUT -ext bmp cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR`
      with OpenCV: T worker threads, one image each at a time (cv2 releases the GIL),
      and also one image at a time with T OpenCV threads; prints the faster as JSON.
BMP keeps the codecs cheap, so the pipeline and the transfers are what is measured;
JPEG and PNG are what users' files are."""
import concurrent.futures
import json
import os
import sys
import time

import cv2
import numpy as np


def gen(d, n, w, h, ext="bmp"):
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(7)
    if ext == "bmp":
        base = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    else:  # photo-like: smooth colour fields with a little grain
        small = rng.integers(0, 256, (h // 60 + 2, w // 60 + 2, 3), dtype=np.uint8)
        base = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        base = cv2.add(base, rng.integers(0, 12, (h, w, 3), dtype=np.uint8))
    for i in range(n):
        img = np.roll(base, i * 17, axis=1)  # different images, cheaply
        params = [cv2.IMWRITE_JPEG_QUALITY, 90] if ext == "jpg" else []
        cv2.imwrite(os.path.join(d, f"img{i:04d}.{ext}"), img, params)


def one(src, dst):
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    lab = cv2.GaussianBlur(lab, (5, 5), 0)
    cv2.imwrite(dst, cv2.cvtColor(lab, cv2.COLOR_Lab2BGR))
    return img.shape[0] * img.shape[1]


def opencv(d, out, threads):
    os.makedirs(out, exist_ok=True)
    files = sorted(f for f in os.listdir(d) if f.endswith((".bmp", ".jpg", ".png")))
    jobs = [(os.path.join(d, f), os.path.join(out, f)) for f in files]
    results = {}
    cv2.setNumThreads(1)
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(threads) as ex:
        px = sum(ex.map(lambda j: one(*j), jobs))
    results["pool"] = time.perf_counter() - t0
    cv2.setNumThreads(threads)
    t0 = time.perf_counter()
    px = sum(one(*j) for j in jobs)
    results["sequential"] = time.perf_counter() - t0
    mode = min(results, key=results.get)
    wall = results[mode]
    print(json.dumps({"system": f"cv2 {cv2.__version__}", "threads": threads, "mode": mode, "images": len(jobs),
                      "wall_s": round(wall, 3), "images_per_s": round(len(jobs) / wall, 2),
                      "megapixels_per_s": round(px / 1e6 / wall, 1),
                      "wall_s_by_mode": {k: round(v, 3) for k, v in results.items()}}))


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), *(sys.argv[6:7] or ["bmp"]))
    else:
        opencv(sys.argv[2], sys.argv[3], int(sys.argv[4]))
