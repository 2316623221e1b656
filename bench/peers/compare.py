"""Prints one table from a bench CSV: per operation and size, each system's median,
GB/s, share of the device-copy ceiling, and gpuimg's speedup over NPP and OpenCV.
Usage: python3 compare.py bench.csv [ceiling_GBps]"""
import csv
import sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
ceiling = float(sys.argv[2]) if len(sys.argv) > 2 else 2793.0
by = defaultdict(dict)
for r in rows:
    by[(r["op"], r["width"], r["height"], r["type"])][(r["system"], r["variant"])] = r

print(f"{'op':26} {'size':10} {'type':6} {'gpuimg us':>10} {'GB/s':>7} {'%ceil':>6} {'NPP us':>8} {'OpenCV us':>10} {'xNPP':>6} {'xOpenCV':>8} {'torch us':>9} {'cupy us':>8} {'e2e pin':>9} {'e2e page':>9}")
for key, systems in by.items():
    g = systems.get(("gpuimg-cuda", "kernel"))
    if g is None:
        continue
    n = systems.get(("npp", "kernel"))
    o = systems.get(("opencv-cpu", "cpu"))
    gu = float(g["median_us"])
    line = f"{key[0]:26} {key[1]+'x'+key[2]:10} {key[3]:6} {gu:10.1f} {float(g['gbps']):7.0f} {100*float(g['gbps'])/ceiling:5.0f}%"
    line += f" {float(n['median_us']):8.1f}" if n else f" {'-':>8}"
    line += f" {float(o['median_us']):10.0f}" if o else f" {'-':>10}"
    line += f" {float(n['median_us'])/gu:6.2f}" if n else f" {'-':>6}"
    line += f" {float(o['median_us'])/gu:8.0f}" if o else f" {'-':>8}"
    for peer, width in ((("torch-cuda", "kernel"), 9), (("cupy-cuda", "kernel"), 8),
                        (("gpuimg-cuda", "e2e-pinned"), 9), (("gpuimg-cuda", "e2e-pageable"), 9)):
        p = systems.get(peer)
        line += f" {float(p['median_us']):{width}.1f}" if p else f" {'-':>{width}}"
    print(line)
