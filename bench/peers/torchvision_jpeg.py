"""torchvision's nvJPEG decode and encode, the peer of codec.DecodeJPEG/EncodeJPEG.

  python3 torchvision_jpeg.py DIR [REPS]

reads DIR's .jpg files (bench/peers/batch_bench.py gen DIR 100 3840 2160 jpg),
then times, after a warm-up, REPS rounds (median) of:
  decode  torchvision.io.decode_jpeg(list of files, device="cuda") (batched nvJPEG)
  encode  torchvision.io.encode_jpeg(list of CUDA images, quality=90); the files
          stay in device memory there, so "encode+copy" also copies them to the host
          (what codec.EncodeJPEG returns)
and prints images/s of each as JSON."""
import json
import os
import statistics
import sys
import time

import torch
import torchvision
from torchvision.io import decode_jpeg, encode_jpeg


def rate(fn, n, reps):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return n / statistics.median(times)


def main(d, reps=5):
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".jpg"))
    datas = [torchvision.io.read_file(f) for f in files]
    n = len(datas)
    imgs = decode_jpeg(datas, device="cuda")
    out = {"torchvision": torchvision.__version__, "torch": torch.__version__, "images": n,
           "device": torch.cuda.get_device_name(), "bytes_per_file": sum(len(x) for x in datas) / n}
    out["decode"] = rate(lambda: decode_jpeg(datas, device="cuda"), n, reps)
    out["encode"] = rate(lambda: encode_jpeg(imgs, quality=90), n, reps)
    out["encode_on"] = str(encode_jpeg(imgs[:1], quality=90)[0].device)
    out["encode+copy"] = rate(lambda: [e.cpu() for e in encode_jpeg(imgs, quality=90)], n, reps)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:]))
