"""The report's "Batches against OpenCV" table from the CLI batch results of one run
(gpuimg's `-timing=json` summaries and batch_bench.py's OpenCV figures).

  python3 batch_report.py DIR    prints the markdown section for DIR/batch-*.json
report.py includes it when given the directory."""
import json
import os
import sys

# (label, gpuimg's file, OpenCV's file) in the order shown.
BATCHES = [
    ("100 JPEG → JPEG (nvJPEG)", "batch-jpeg-gpuimg", "batch-jpeg-opencv"),
    ("400 JPEG → JPEG (nvJPEG)", "batch-jpeg400-gpuimg", "batch-jpeg400-opencv"),
    ("100 JPEG → JPEG (Go's codecs)", "batch-jpeg-gpuimg-go", "batch-jpeg-opencv"),
    ("40 PNG → PNG", "batch-png-gpuimg", "batch-png-opencv"),
    ("200 BMP → BMP", "batch-gpuimg", "batch-opencv"),
]


def lines(d):
    def load(name):
        try:
            return json.load(open(os.path.join(d, name + ".json")))
        except (OSError, ValueError):
            return None
    out = ["## Batches against OpenCV", "",
           "`gpuimg run DIR -o OUT cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR` on 3840x2160 "
           "photo-like files (BMP: noise) against the same pipeline in OpenCV on a 16-thread pool, same "
           "files, each pair from one run; wall clock includes opening the device and the codecs' start-up.", "",
           "| batch | gpuimg | OpenCV | speedup | gpuimg bound by |", "| --- | --- | --- | --- | --- |"]
    n = 0
    for label, g, c in BATCHES:
        gj, cj = load(g), load(c)
        if not gj or not cj:
            continue
        n += 1
        sp = gj["images_per_s"] / cj["images_per_s"]
        mark = "" if sp >= 1 else " (slower)"
        out.append(f"| {label} | {gj['images_per_s']:.1f} images/s | {cj['images_per_s']:.1f} images/s | "
                   f"{sp:.2f}x{mark} | {gj.get('bound_by', '')} |")
    return out + [""] if n else []


if __name__ == "__main__":
    print("\n".join(lines(sys.argv[1])))
