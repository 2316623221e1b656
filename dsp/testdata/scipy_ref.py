"""SciPy's answers for dsp's design tests: reads a JSON list of cases on stdin,
writes a JSON list of results (or {"error": message}) on stdout.

Run with Debian's python3 (python3-scipy), as the tests do."""
import json
import sys

import numpy as np
from scipy import signal


def sig(v):
    """A signal (or state) the test holds as float32: the values dsp filters, exactly.
    JSON carries float32 values as their shortest decimals, which read as float64
    are up to half a float32 ulp off them; a 40-pole filter once amplified that to
    6e-5 of the output's RMS."""
    return np.asarray(v, dtype=np.float32).astype(np.float64)


def window(w):
    return (w[0], w[1]) if isinstance(w, list) else w


def one(c):
    fn = c["fn"]
    if fn == "get_window":
        return list(signal.get_window(window(c["window"]), c["n"], fftbins=c["fftbins"]))
    if fn == "kaiser_beta":
        return signal.kaiser_beta(c["a"])
    if fn == "kaiser_atten":
        return signal.kaiser_atten(c["numtaps"], c["width"])
    if fn == "kaiserord":
        n, beta = signal.kaiserord(c["ripple"], c["width"])
        return [int(n), beta]
    if fn == "firwin":
        h = signal.firwin(c["numtaps"], c["cutoff"], width=c.get("width"), window=window(c["window"]),
                          pass_zero=c["pass_zero"], scale=c["scale"], fs=c["fs"])
        if not np.all(np.isfinite(h)):  # a gain of 0 to scale by: dsp refuses it
            raise ValueError("non-finite taps")
        return list(h)
    if fn == "butter":
        return signal.butter(c["N"], c["Wn"], btype=c["btype"], output="sos", fs=c["fs"]).tolist()
    if fn in ("convolve", "correlate"):
        f = signal.convolve if fn == "convolve" else signal.correlate
        x = sig(c["x"])
        h = np.asarray(c["h"], dtype=np.float64)
        return list(f(x, h, mode=c["mode"], method="direct"))
    if fn in ("lfilter", "sosfilt"):
        x = sig(c["x"])
        zi = None if c.get("zi") is None else sig(c["zi"])
        if fn == "lfilter":
            r = signal.lfilter(c["b"], c["a"], x, zi=zi)
        else:
            r = signal.sosfilt(np.asarray(c["sos"]), x, zi=zi)
        if zi is None:
            return {"y": r.tolist()}
        return {"y": r[0].tolist(), "zf": r[1].tolist()}
    if fn == "filtfilt":
        return list(signal.filtfilt(c["b"], c["a"], sig(c["x"])))
    if fn == "sosfiltfilt":
        return list(signal.sosfiltfilt(np.asarray(c["sos"]), sig(c["x"])))
    if fn == "lfilter_zi":
        return list(signal.lfilter_zi(c["b"], c["a"]))
    if fn == "sosfilt_zi":
        return signal.sosfilt_zi(np.asarray(c["sos"])).tolist()
    if fn == "istft":
        # istft of a given two-sided spectrum (frequency rows, segment columns):
        # a complex signal.
        z = np.asarray(c["re"]) + 1j * np.asarray(c["im"])
        t, x = signal.istft(z, fs=c["fs"], window=window(c["window"]), nperseg=c["nperseg"], noverlap=c["noverlap"],
                            nfft=c["nfft"], input_onesided=False, boundary=c["boundary"], scaling=c["scaling"])
        return {"re": np.real(x).tolist(), "im": np.imag(x).tolist()}
    if fn in ("spectrogram", "stft", "welch"):
        # Spectra of a float64 signal: frequencies, times and the result (real and
        # imaginary parts for complex results), flattened row-major.
        x = sig(c["x"])
        kw = dict(fs=c["fs"], window=window(c["window"]), nperseg=c["nperseg"], noverlap=c["noverlap"],
                  nfft=c["nfft"], detrend=c["detrend"] or False, return_onesided=c["onesided"], scaling=c["scaling"])
        if fn == "spectrogram":
            f, t, s = signal.spectrogram(x, mode=c["mode"], **kw)
        elif fn == "stft" and c.get("inverse"):
            # stft then istft: the round trip's signal (istft's boundary: whether
            # stft had one).
            f, t, z = signal.stft(x, boundary=c.get("boundary", "zeros"), padded=c.get("padded", True), **kw)
            del kw["detrend"], kw["return_onesided"]
            t, s = signal.istft(z, boundary=c.get("boundary", "zeros") is not None, input_onesided=c["onesided"], **kw)
        elif fn == "stft":
            f, t, s = signal.stft(x, boundary=c.get("boundary", "zeros"), padded=c.get("padded", True), **kw)
        else:
            f, s = signal.welch(x, average=c.get("average", "mean"), **kw)
            t = np.zeros(0)
        return {"f": f.tolist(), "t": t.tolist(), "re": np.real(s).ravel().tolist(), "im": np.imag(s).ravel().tolist()}
    raise ValueError("unknown case " + fn)


out = []
for c in json.load(sys.stdin):
    try:
        out.append(one(c))
    except Exception as e:  # the test expects an error too
        out.append({"error": str(e)})
print(json.dumps(out))
