#!/usr/bin/env python3
"""The "vs NPP" matrix of a sweep run (bench -sweep and npp_bench with NPP_SWEEP=1
in one CSV): an operation and type a row, a size a column, each cell NPP's kernel
time over gpuimg's (above 1: gpuimg faster); losses are marked. Markdown on stdout.

    python3 npp_matrix.py sweep.csv > matrix.md
"""
import csv
import sys
from collections import OrderedDict


def main(path):
    times = {}  # (op, type, size, system) -> median us
    ops = OrderedDict()
    sizes = OrderedDict()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r.get("variant") != "kernel" or r["op"] == "op":
                continue
            size = f'{r["width"]}x{r["height"]}'
            sys_ = "npp" if r["system"] == "npp" else ("gpuimg" if r["system"] == "gpuimg-cuda" else None)
            if sys_ is None:
                continue
            times[(r["op"], r["type"], size, sys_)] = float(r["median_us"])
            sizes[size] = True
            if sys_ == "gpuimg":
                ops[(r["op"], r["type"])] = True
    names = {"1920x1080": "1080p", "3840x2160": "4K", "7680x4320": "8K"}
    cols = list(sizes)
    print("| operation | type | " + " | ".join(names.get(s, s) for s in cols) + " |")
    print("| --- | --- | " + " | ".join("---:" for _ in cols) + " |")
    wins = losses = 0
    lost = []
    for op, typ in ops:
        cells = []
        for s in cols:
            g, n = times.get((op, typ, s, "gpuimg")), times.get((op, typ, s, "npp"))
            if g is None:
                cells.append("")
            elif n is None:
                cells.append(f"{g:.1f} us (no NPP)")
            else:
                x = n / g
                if x >= 1:
                    wins += 1
                    cells.append(f"{x:.2f}x")
                else:
                    losses += 1
                    lost.append(f"{op} {typ} {names.get(s, s)}: {g:.1f} against NPP's {n:.1f} us")
                    cells.append(f"**LOSS {x:.2f}x**")
        print(f"| {op} | {typ} | " + " | ".join(cells) + " |")
    print()
    print(f"NPP's kernel time over gpuimg's (above 1: gpuimg faster). {wins} wins, {losses} losses.")
    if lost:
        print()
        print("Losses:")
        for l in lost:
            print(f"- {l}")


if __name__ == "__main__":
    main(sys.argv[1])
