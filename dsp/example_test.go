package dsp_test

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// A 101-tap low-pass FIR filter at 1 kHz for 48 kHz audio, Hamming-windowed.
func ExampleFirWin() {
	taps, err := dsp.FirWin(101, []float64{1000}, dsp.Lowpass, &dsp.FirWinOptions{Fs: 48000})
	if err != nil {
		panic(err)
	}
	var sum float64
	for _, t := range taps {
		sum += t
	}
	fmt.Printf("%d taps, gain at 0 Hz %.6f, middle tap %.6f\n", len(taps), sum, taps[50])
	// Output: 101 taps, gain at 0 Hz 1.000000, middle tap 0.041507
}

// An order-4 Butterworth band-pass filter from 300 Hz to 3.4 kHz at 8 kHz: twice the
// order in poles, so four second-order sections.
func ExampleButter() {
	sos, err := dsp.Butter(4, []float64{300, 3400}, dsp.Bandpass, 8000)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(sos), "sections, a0 =", sos[0][3])
	// Output: 4 sections, a0 = 1
}

// Kaiser's formulas: the taps and beta for 60 dB with a transition of 2% of Nyquist.
func ExampleKaiserOrd() {
	n, beta, err := dsp.KaiserOrd(60, 0.02)
	fmt.Printf("%d taps, beta %.4f, %v\n", n, beta, err)
	// Output: 364 taps, beta 5.6533, <nil>
}

// Filter a batch of two signals (one a row) with an order-4 Butterworth low-pass,
// forward only and with zero phase, on the CPU device (gpuimage.CUDA(0) for the GPU).
func ExampleSOSFilt() {
	sos, _ := dsp.Butter(4, []float64{0.1}, dsp.Lowpass, 0)
	x := make([]float32, 2*64)
	for i := range x {
		if i%64 >= 16 {
			x[i] = 1 // a step in each row
		}
	}
	src, _ := gpuimage.New(gpuimage.CPU(), 2, 64, gpuimage.CV32FC1)
	defer src.Close()
	src.Upload(unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x)))
	var y, z gpuimage.Image
	defer y.Close()
	defer z.Close()
	if err := dsp.SOSFilt(src, &y, sos); err != nil {
		fmt.Println(err)
	}
	if err := dsp.SOSFiltFilt(src, &z, sos); err != nil {
		fmt.Println(err)
	}
	out := make([]float32, 2*64)
	y.Download(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*len(out)))
	fmt.Printf("sosfilt: %.4f %.4f %.4f\n", out[16], out[24], out[63])
	z.Download(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*len(out)))
	fmt.Printf("sosfiltfilt: %.4f %.4f %.4f\n", out[15], out[16], out[63])
	// Output:
	// sosfilt: 0.0004 0.4472 0.9983
	// sosfiltfilt: 0.4488 0.5512 0.9997
}

// The spectrogram of a 1 kHz tone sampled at 8 kHz (256-sample segments): every
// segment's strongest frequency, and Welch's average spectrum's.
func ExampleSpectrogram() {
	const fs, n = 8000.0, 4000
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(math.Sin(2 * math.Pi * 1000 * float64(i) / fs))
	}
	src, _ := gpuimage.NewFromData(gpuimage.CPU(), 1, n, gpuimage.CV32FC1, x)
	defer src.Close()
	var sxx, pxx gpuimage.Image
	defer sxx.Close()
	defer pxx.Close()
	o := &dsp.SpectralOptions{Fs: fs, NPerSeg: 256}
	a, err := dsp.Spectrogram(src, &sxx, o)
	if err != nil {
		panic(err)
	}
	psd, _ := gpuimage.ToData[float32](&sxx) // frequencies down, segments across
	best := 0
	for k := range a.Freqs {
		if psd[k*len(a.Times)] > psd[best*len(a.Times)] {
			best = k
		}
	}
	fmt.Printf("%d frequencies x %d segments; the first segment peaks at %g Hz\n", len(a.Freqs), len(a.Times), a.Freqs[best])
	freqs, err := dsp.Welch(src, &pxx, o)
	if err != nil {
		panic(err)
	}
	w, _ := gpuimage.ToData[float32](&pxx)
	best = 0
	for k := range w {
		if w[k] > w[best] {
			best = k
		}
	}
	fmt.Printf("Welch peaks at %g Hz\n", freqs[best])
	// Output:
	// 129 frequencies x 17 segments; the first segment peaks at 1000 Hz
	// Welch peaks at 1000 Hz
}
