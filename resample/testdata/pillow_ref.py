"""Pillow's Image.resize for resample's Scale tests: reads a JSON list of cases
{w, h, cn, data (base64 bytes, 8-bit, rows packed), dw, dh, filter} on stdin and
writes a JSON list of the resized pixels (base64), one a case."""
import base64
import json
import sys

import numpy as np
from PIL import Image

F = {"box": Image.BOX, "bilinear": Image.BILINEAR, "bicubic": Image.BICUBIC,
     "lanczos3": Image.LANCZOS, "hamming": Image.HAMMING}
# 4 channels as "RGBa" (premultiplied: resampled channel by channel; "RGBA" would
# premultiply by the fourth first).
MODE = {1: "L", 3: "RGB", 4: "RGBa"}
out = []
for c in json.load(sys.stdin):
    a = np.frombuffer(base64.b64decode(c["data"]), np.uint8).reshape(c["h"], c["w"], c["cn"])
    im = Image.frombytes(MODE[c["cn"]], (c["w"], c["h"]), a.tobytes())
    r = np.asarray(im.resize((c["dw"], c["dh"]), F[c["filter"]]))
    out.append(base64.b64encode(r.tobytes()).decode())
json.dump(out, sys.stdout)
