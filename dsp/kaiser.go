package dsp

import (
	"fmt"
	"math"
)

// KaiserBeta is the Kaiser window's beta for a stop-band attenuation of a dB
// (scipy.signal.kaiser_beta): 0.1102(a-8.7) above 50 dB,
// 0.5842(a-21)^0.4 + 0.07886(a-21) from 21 to 50, 0 below.
func KaiserBeta(a float64) float64 {
	switch {
	case a > 50:
		return 0.1102 * (a - 8.7)
	case a > 21:
		return 0.5842*math.Pow(a-21, 0.4) + 0.07886*(a-21)
	}
	return 0
}

// KaiserAtten is the attenuation in dB of a Kaiser-windowed FIR filter of numtaps
// taps and a transition width of width (a fraction of the Nyquist frequency), as
// scipy.signal.kaiser_atten: 2.285(numtaps-1)πwidth + 7.95.
func KaiserAtten(numtaps int, width float64) float64 {
	return 2.285*float64(numtaps-1)*math.Pi*width + 7.95
}

// KaiserOrd is the number of taps and the beta of a Kaiser-windowed FIR filter
// whose ripple (pass and stop) stays ripple dB below 1 and whose transition band
// is width wide (a fraction of the Nyquist frequency), as scipy.signal.kaiserord.
func KaiserOrd(ripple, width float64) (numtaps int, beta float64, err error) {
	a := math.Abs(ripple)
	if a < 8 || math.IsNaN(a) {
		return 0, 0, fmt.Errorf("dsp.KaiserOrd: a ripple of %g dB is too small for the Kaiser formula (at least 8)", a)
	}
	if !(width > 0) || math.IsInf(width, 0) {
		return 0, 0, fmt.Errorf("dsp.KaiserOrd: transition width %g: want a positive fraction of the Nyquist frequency", width)
	}
	n := (a-7.95)/2.285/(math.Pi*width) + 1
	return int(math.Ceil(n)), KaiserBeta(a), nil
}
