#!/usr/bin/env python3
"""The README's headline table (one size, bold where a GPU peer is faster) from a
bench CSV (bench/results/h100.csv): gpuimg's kernel and queue times, GB/s and share
of the copy ceiling, time with page-locked transfers, NPP, OpenCV, PyTorch / CuPy,
and the speedups over the best GPU peer and over OpenCV. Markdown on stdout.

    python3 headline.py h100.csv [WxH [ceiling_GBps]]
"""
import csv
import sys

ROWS = [  # label, op, type
    ("BGR→GRAY 8U", "cvtColor BGR2GRAY", "8UC3"),
    ("BGR→Lab 8U", "cvtColor BGR2Lab", "8UC3"),
    ("BGR→HSV 8U", "cvtColor BGR2HSV", "8UC3"),
    ("BGR→YCrCb 8U", "cvtColor BGR2YCrCb", "8UC3"),
    ("BGR→XYZ 8U", "cvtColor BGR2XYZ", "8UC3"),
    ("BGR→Lab 32F", "cvtColor BGR2Lab", "32FC3"),
    ("ConvertTo 8UC3 → 32FC3", "convertTo 8UC3->32FC3", "8UC3"),
    ("Gaussian 5x5 8UC1", "gaussian 5x5", "8UC1"),
    ("Gaussian 5x5 8UC3", "gaussian 5x5", "8UC3"),
    ("box 5x5 8UC1", "box 5x5", "8UC1"),
    ("Sobel 3x3 dx 8U→16S", "sobel 3x3 dx 8U->16S", "8UC1"),
    ("filter2D 3x3 32FC1", "filter2D 3x3", "32FC1"),
    ("filter2D 7x7 32FC1", "filter2D 7x7", "32FC1"),
    ("filter2D 15x15 32FC1", "filter2D 15x15", "32FC1"),
    ("filter2D 31x31 32FC1", "filter2D 31x31", "32FC1"),
    ("filter2D 7x7 8UC3", "filter2D 7x7", "8UC3"),
    ("DFT 32FC1 → CCS (OpenCV's default)", "dft forward CCS", "32FC1"),
    ("DFT 32FC1 → whole complex spectrum", "dft forward complex", "32FC1"),
    ("Gaussian low-pass 32FC1 (transform, mask, inverse)", "lowpass gaussian", "32FC1"),
]


def num(v):
    """v with thousands separators and one decimal below 1,000."""
    return f"{v:,.1f}" if v < 1000 else f"{v:,.0f}"


def whole(v):
    """v with thousands separators, no decimals (host-side and end-to-end times)."""
    return f"{v:,.0f}"


def ratio(v):
    return f"{v:,.2f}" if v < 10 else f"{v:,.0f}"


def main(path, size="3840x2160", ceiling=2793.0):
    w, h = size.split("x")
    t = {}
    for r in csv.DictReader(open(path, newline="")):
        if r["width"] == w and r["height"] == h:
            t[(r["op"], r["type"], r["system"], r["variant"])] = (float(r["median_us"]), float(r["gbps"] or 0))
    print("| operation | gpuimg kernel | queue (host) | GB/s (% of {:,.0f}) | with transfers (pinned) | NPP | OpenCV CPU | "
          "PyTorch / CuPy | vs best GPU peer | vs OpenCV |".format(ceiling))
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, op, typ in ROWS:
        g = t.get((op, typ, "gpuimg-cuda", "kernel"))
        if g is None:
            continue
        get = lambda s, v: t.get((op, typ, s, v), (None, 0))[0]
        host, pin = get("gpuimg-cuda", "host"), get("gpuimg-cuda", "e2e-pinned")
        npp, cv = get("npp", "kernel"), get("opencv-cpu", "cpu")
        torch, cupy = get("torch-cuda", "kernel"), get("cupy-cuda", "kernel")
        peers = [p for p in (npp, torch, cupy) if p]
        best = min(peers) / g[0] if peers else None
        vs = ratio(best) + "×" if best else ""
        if best and best < 1:
            vs = f"**{vs}**"
        tc = f"{num(torch)} / {num(cupy)} µs" if torch and cupy else ""
        cells = [label, f"{num(g[0])} µs", f"{num(host)} µs" if host else "", f"{g[1]:,.0f} ({100 * g[1] / ceiling:.0f}%)",
                 f"{whole(pin)} µs" if pin else "", f"{num(npp)} µs" if npp else "", f"{whole(cv)} µs" if cv else "", tc, vs,
                 f"{cv / g[0]:,.0f}×" if cv else ""]
        print("| " + " | ".join(cells) + " |")
    k = [t.get((f"pipeline {n} ops", "8UC3", "gpuimg-cuda", v), (0, 0))[0] for n in (1, 3, 5) for v in ("kernel", "e2e-pinned")]
    cv = [t.get((f"pipeline {n} ops", "8UC3", "opencv-cpu", "cpu"), (0, 0))[0] for n in (1, 3, 5)]
    if all(k) and all(cv):
        print(f"| pipeline of 1 / 3 / 5 operations, 8UC3 | {k[0]:.0f} / {k[2]:.0f} / {k[4]:.0f} µs | | | "
              f"{k[1]:,.0f} / {k[3]:,.0f} / {k[5]:,.0f} µs | | {cv[0]:,.0f} / {cv[1]:,.0f} / {cv[2]:,.0f} µs | | | "
              f"{cv[0] / k[1]:.1f} / {cv[1] / k[3]:.1f} / {cv[2] / k[5]:.1f}× with transfers |")


if __name__ == "__main__":
    main(sys.argv[1], *(sys.argv[2:3]), *(float(a) for a in sys.argv[3:4]))
