package main

import (
	"fmt"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
)

// Signal cases (package dsp): batches of 1-D signals, one a row of a random 32FC1
// image, at the shapes of -signals. A row's Width is the samples a signal, its
// Height the signals; bytes count the signal read and each output written.
// bench/peers/dsp_bench.py times CuPy and PyTorch on the same cases.
var signalCases []benchCase

// sos2tf multiplies second-order sections out into one transfer function (b, a).
func sos2tf(sos dsp.SOS) (b, a []float64) {
	mul := func(p, q []float64) []float64 {
		out := make([]float64, len(p)+len(q)-1)
		for i, x := range p {
			for j, y := range q {
				out[i+j] += x * y
			}
		}
		return out
	}
	b, a = []float64{1}, []float64{1}
	for _, s := range sos {
		b, a = mul(b, s[:3]), mul(a, s[3:])
	}
	return b, a
}

func init() {
	add := func(op string, outputs int, f func(src, dst *gpuimage.Image, on gpuimage.Option) error) {
		signalCases = append(signalCases, benchCase{op, unary(gpuimage.CV32FC1, 4*(1+outputs), f)})
	}
	for _, m := range []int{63, 512, 8192} {
		taps := make([]float64, m)
		for i := range taps {
			taps[i] = float64((i*7919)%97)/97 - 0.5 // fixed, not zeros, not symmetric
		}
		add(fmt.Sprintf("dsp convolve %d taps", m), 1, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return dsp.Convolve(src, dst, taps, dsp.Same, dsp.Auto, on)
		})
	}
	// Butterworth order 8 low-pass at 0.2 of Nyquist: 4 sections, as the cases.
	sos, err := dsp.Butter(8, []float64{0.2}, dsp.Lowpass, 0)
	if err != nil {
		panic(err)
	}
	b, a := sos2tf(sos)
	add("dsp sosfilt butter8", 1, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return dsp.SOSFilt(src, dst, sos, on)
	})
	add("dsp lfilter butter8", 1, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return dsp.LFilter(src, dst, b, a, on)
	})
	add("dsp sosfiltfilt butter8", 1, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return dsp.SOSFiltFilt(src, dst, sos, on)
	})
	// The 4-band crossover of 8191-tap bands at 250 Hz, 2 kHz and 8 kHz for 48 kHz
	// audio: one ConvolveBank (mode same) of one input.
	bands, err := dsp.Crossover(48000, []float64{250, 2000, 8000}, 8191, nil)
	if err != nil {
		panic(err)
	}
	outs := make([]*gpuimage.Image, len(bands))
	for i := 1; i < len(outs); i++ {
		outs[i] = &gpuimage.Image{}
	}
	add("dsp crossover 4x8191", len(bands), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		outs[0] = dst
		return dsp.ConvolveBank(src, outs, bands, dsp.Same, dsp.Auto, on)
	})
	// The spectrogram of the spectral issue: 1024-sample Hann segments, hop 256,
	// SciPy's other defaults (constant detrend, density, one-sided PSD); bytes count
	// the signal and the spectrogram (513 frequencies a segment).
	signalCases = append(signalCases, benchCase{"dsp spectrogram 1024/256 hann", timed(gpuimage.CV32FC1,
		func(src, dst *gpuimage.Image) int64 { return int64(src.Cols()*src.Rows()+dst.Cols()*dst.Rows()) * 4 },
		func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			if src.Cols() < 1024 {
				return nil
			}
			_, err := dsp.Spectrogram(src, dst, &dsp.SpectralOptions{NPerSeg: 1024, NOverlap: 768, Window: dsp.Hann}, on)
			return err
		})})
	// Rational resampling (package resample): 44.1 to 48 kHz and back, and by 2.
	for _, r := range [][2]int{{160, 147}, {147, 160}, {2, 1}, {1, 2}} {
		signalCases = append(signalCases, benchCase{fmt.Sprintf("resample poly %d/%d", r[0], r[1]), resized(gpuimage.CV32FC1,
			func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return resample.Poly(src, dst, r[0], r[1], nil, on)
			})})
	}
}
