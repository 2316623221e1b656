"""SciPy's answers for resample's tests: reads a JSON list of cases on stdin, writes
a JSON list of results (each a list of rows, or {"error": message}) on stdout.

Run with Debian's python3 (python3-scipy), as the tests do."""
import json
import sys

import numpy as np
from scipy import signal


def one(c):
    # The rows as the float32 values the test resamples (JSON's shortest decimals of
    # them read as float64 are up to half a float32 ulp off).
    x = np.asarray(c["x"], dtype=np.float32).astype(np.float64)
    if c["fn"] == "resample_poly":
        w = c.get("window", ["kaiser", 5.0])
        if c.get("taps") is not None:
            w = np.asarray(c["taps"], dtype=np.float64)
        elif isinstance(w, list):
            w = tuple(w)
        return signal.resample_poly(x, c["up"], c["down"], axis=1, window=w).tolist()
    if c["fn"] == "upfirdn":
        return signal.upfirdn(np.asarray(c["h"], dtype=np.float64), x, c["up"], c["down"], axis=1).tolist()
    if c["fn"] == "filter":
        w = c.get("window", ["kaiser", 5.0])
        w = tuple(w) if isinstance(w, list) else w
        m = max(c["up"], c["down"])
        return (signal.firwin(2 * 10 * m + 1, 1.0 / m, window=w) * c["up"]).tolist()
    raise ValueError("unknown case " + c["fn"])


out = []
for c in json.load(sys.stdin):
    try:
        out.append(one(c))
    except Exception as e:  # the test expects an error too
        out.append({"error": str(e)})
print(json.dumps(out))
