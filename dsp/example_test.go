package dsp_test

import (
	"fmt"

	"github.com/gpuimg/gpuimg/dsp"
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
