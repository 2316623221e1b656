package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
)

const spectrogramUsage = `Usage: gpuimg spectrogram IN.wav|IN.npy -o OUT [flags]

Draws one channel's spectrogram (dsp.Spectrogram, scipy.signal.spectrogram's PSD):
-nperseg samples a segment, -noverlap shared by neighbours, each in dB below the
peak over -range dB, coloured by -colormap, low frequencies at the bottom, time to
the right (one pixel a segment, one a frequency). OUT .npy or .tiff: the PSD itself
(32-bit floats, frequencies down, segments across).

Flags:
`

// cmdSpectrogram is the spectrogram command.
func cmdSpectrogram(argv []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spectrogram", flag.ContinueOnError)
	helpTo(fs, argv, stdout, stderr)
	var o runOpts
	commonFlags(fs, &o)
	var (
		nperseg  = fs.Int("nperseg", 1024, "samples a segment")
		noverlap = fs.Int("noverlap", -2, "samples two segments share (default nperseg*3/4; 0: none)")
		nfft     = fs.Int("nfft", 0, "the transform's length, zero-padding each segment (0: nperseg)")
		window   = fs.String("window", "hann", "boxcar, hann, hamming, blackman, kaiser:BETA or tukey:ALPHA")
		rate     = fs.Float64("fs", 0, "the sampling rate for .npy files (WAV files carry theirs)")
		channel  = fs.Int("channel", 0, "the channel (row) to draw")
		rng      = fs.Float64("range", 80, "dB below the peak the colours span")
		cmap     = fs.String("colormap", "magma", "gray or one of OpenCV's maps (magma, viridis, inferno, turbo, ...)")
	)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), spectrogramUsage)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\nExample:\n  gpuimg spectrogram song.wav -o spec.png -nperseg 1024 -noverlap 768\n")
	}
	words, err := splitArgs(fs, argv)
	if err != nil {
		return flagExit(err)
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gpuimg spectrogram: "+format+"\n", a...)
		return exitUsage
	}
	if err := finishFlags(&o); err != nil {
		return usageErr("%v", err)
	}
	if len(words) != 1 || o.out == "" {
		return usageErr("want one input file and -o OUT (see gpuimg help spectrogram)")
	}
	w, err := parseWindow(*window)
	if err != nil {
		return usageErr("%v", err)
	}
	ov := *noverlap
	switch ov {
	case -2:
		ov = *nperseg * 3 / 4
	case 0:
		ov = dsp.NoOverlap
	}
	floats := extOf(o.out) == ".npy" || extOf(o.out) == ".tif" || extOf(o.out) == ".tiff"
	if !floats {
		if err := checkWritable(o.out); err != nil {
			return usageErr("%v", err)
		}
	}
	sig, err := readSignal(words[0])
	if err != nil {
		fmt.Fprintf(stderr, "gpuimg spectrogram: %v\n", err)
		return exitFail
	}
	if *channel < 0 || *channel >= sig.rows {
		return usageErr("-channel %d: %s has %d channels", *channel, words[0], sig.rows)
	}
	f := *rate
	if sig.rate > 0 {
		f = float64(sig.rate)
	}
	dev, err := pickDevice(o.device)
	if err != nil {
		return usageErr("%v", err)
	}
	so := &dsp.SpectralOptions{Fs: f, Window: w, NPerSeg: *nperseg, NOverlap: ov, NFFT: *nfft}
	if err := spectrogramFile(dev, sig, *channel, so, &dsp.SpectrogramImageOptions{DynamicRange: *rng, Colormap: *cmap}, o, floats); err != nil {
		fmt.Fprintf(stderr, "gpuimg spectrogram: %v\n", err)
		return exitFail
	}
	return exitOK
}

// spectrogramFile draws (or, for float outputs, computes) channel ch's spectrogram
// on dev and writes it.
func spectrogramFile(dev *gpuimage.Device, sig *sigBatch, ch int, so *dsp.SpectralOptions, io *dsp.SpectrogramImageOptions, o runOpts, floats bool) error {
	src, err := gpuimage.NewFromData(dev, 1, sig.n, gpuimage.CV32FC1, sig.data[ch*sig.n:(ch+1)*sig.n])
	if err != nil {
		return err
	}
	defer src.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	if floats {
		if _, err := dsp.Spectrogram(src, dst, so); err != nil {
			return err
		}
		vals, err := gpuimage.ToData[float32](dst)
		if err != nil {
			return err
		}
		if extOf(o.out) == ".npy" {
			return writeSignal(o.out, &sigBatch{rows: dst.Rows(), n: dst.Cols(), data: vals})
		}
		return encode(o.out, pixels{rows: dst.Rows(), cols: dst.Cols(), typ: gpuimage.CV32FC1, data: f32Bytes(vals)}, o.write)
	}
	if _, err := dsp.SpectrogramImage(src, dst, so, io); err != nil {
		return err
	}
	data, err := gpuimage.ToData[uint8](dst)
	if err != nil {
		return err
	}
	return encode(o.out, pixels{rows: dst.Rows(), cols: dst.Cols(), typ: dst.Type(), data: data}, o.write)
}
