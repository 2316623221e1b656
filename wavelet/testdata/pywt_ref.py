"""PyWavelets' (and scikit-image's) answers for the wavelet package's tests: reads a
JSON list of cases on stdin, writes a JSON list of results on stdout.

Run with Debian's python3 (python3-pywt, python3-skimage), as the tests do."""
import json
import sys

import numpy as np
import pywt


def arr(v):
    """An input the test holds as float32, exactly (JSON's shortest decimals of a
    float32 value read as float64 are up to half a float32 ulp off it)."""
    return np.asarray(v, dtype=np.float32).astype(np.float64)


def out(v):
    return np.asarray(v, dtype=np.float64).tolist()


def one(c):
    fn, w, mode = c["fn"], c.get("wavelet"), c.get("mode")
    axis = -1 if c.get("axis", 0) == 0 else 0
    if fn == "dwt":
        a, d = pywt.dwt(arr(c["x"]), w, mode, axis=axis)
        return [out(a), out(d)]
    if fn == "idwt":
        return out(pywt.idwt(arr(c["a"]), arr(c["d"]), w, mode, axis=axis))
    if fn == "dwt2":
        a, (h, v, d) = pywt.dwt2(arr(c["x"]), w, mode)
        return [out(a), out(h), out(v), out(d)]
    if fn == "idwt2":
        return out(pywt.idwt2((arr(c["a"]), (arr(c["h"]), arr(c["v"]), arr(c["d"]))), w, mode))
    if fn == "wavedec":
        return [out(x) for x in pywt.wavedec(arr(c["x"]), w, mode, level=c["level"], axis=axis)]
    if fn == "wavedec2":
        cs = pywt.wavedec2(arr(c["x"]), w, mode, level=c["level"])
        return [out(cs[0])] + [[out(h), out(v), out(d)] for (h, v, d) in cs[1:]]
    if fn == "denoise":
        from skimage.restoration import denoise_wavelet
        x = arr(c["x"])
        if c.get("u8"):
            x = x.astype(np.uint8)
        kw = dict(wavelet=w, mode=c["thresh"], method=c["method"], wavelet_levels=c.get("levels"),
                  sigma=c.get("sigma"), convert2ycbcr=c.get("ycbcr", False))
        if kw["sigma"] is not None and x.ndim == 2:
            kw["sigma"] = kw["sigma"][0]
        if x.ndim == 3:
            kw["channel_axis"] = -1
        return out(denoise_wavelet(x, rescale_sigma=True, **kw))
    raise ValueError("unknown fn " + fn)


print(json.dumps([one(c) for c in json.load(sys.stdin)]))
