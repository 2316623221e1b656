package dsp

import (
	"github.com/gpuimg/gpuimg/internal/core"

	"fmt"
	"math"
)

// BandType is the kind of filter a design function makes.
type BandType int

// The band types. For FirWin with more than two cutoffs, Bandpass and Bandstop
// make multi-band filters whose first band stops or passes 0 Hz.
const (
	Lowpass BandType = iota
	Highpass
	Bandpass
	Bandstop
)

func (t BandType) String() string {
	switch t {
	case Lowpass:
		return "lowpass"
	case Highpass:
		return "highpass"
	case Bandpass:
		return "bandpass"
	case Bandstop:
		return "bandstop"
	}
	return fmt.Sprintf("BandType(%d)", int(t))
}

// FirWinOptions are FirWin's optional settings; the zero value (or nil) is SciPy's
// defaults.
type FirWinOptions struct {
	// Window is the window the ideal response is multiplied by (default Hamming).
	Window Window
	// Width, when positive, designs with a Kaiser window for this transition width
	// (in the units of the cutoffs) instead of Window, as firwin's width.
	Width float64
	// NoScale leaves the taps unscaled (firwin's scale=False); by default they are
	// scaled to a gain of exactly 1 at the centre of the first pass band (0 Hz, the
	// Nyquist frequency, or the band's middle).
	NoScale bool
	// Fs is the sampling frequency the cutoffs are in (default 2: fractions of the
	// Nyquist frequency).
	Fs float64
}

// FirWin designs a linear-phase FIR filter of numtaps taps by the window method,
// as scipy.signal.firwin(numtaps, cutoff, width, window, pass_zero=band, scale,
// fs=Fs): cutoffs strictly increasing between 0 and Fs/2; Lowpass and Highpass take
// one cutoff, Bandpass and Bandstop two or more. A filter that passes the Nyquist
// frequency (Highpass, Bandstop) needs an odd number of taps.
func FirWin(numtaps int, cutoff []float64, band BandType, o *FirWinOptions) ([]float64, error) {
	if o == nil {
		o = &FirWinOptions{}
	}
	fs := o.Fs
	if fs == 0 {
		fs = 2
	}
	if !(fs > 0) || math.IsInf(fs, 0) {
		return nil, fmt.Errorf("dsp.FirWin: sampling frequency %g", fs)
	}
	if numtaps < 1 || numtaps > core.MaxDim {
		return nil, fmt.Errorf("dsp.FirWin: %d taps: want 1 to %d", numtaps, core.MaxDim)
	}
	nyq := fs / 2
	if len(cutoff) == 0 {
		return nil, fmt.Errorf("dsp.FirWin: at least one cutoff frequency must be given")
	}
	c := make([]float64, len(cutoff))
	for i, f := range cutoff {
		c[i] = f / nyq
		if !(c[i] > 0 && c[i] < 1) {
			return nil, fmt.Errorf("dsp.FirWin: cutoff %g: frequencies must be greater than 0 and less than fs/2 (%g)", f, nyq)
		}
		if i > 0 && c[i] <= c[i-1] {
			return nil, fmt.Errorf("dsp.FirWin: cutoffs %v: they must be strictly increasing", cutoff)
		}
	}
	var passZero bool
	switch band {
	case Lowpass, Highpass:
		if len(c) != 1 {
			return nil, fmt.Errorf("dsp.FirWin: a %v filter takes one cutoff, not %d", band, len(c))
		}
		passZero = band == Lowpass
	case Bandpass, Bandstop:
		if len(c) < 2 {
			return nil, fmt.Errorf("dsp.FirWin: a %v filter takes at least two cutoffs, not %d", band, len(c))
		}
		passZero = band == Bandstop
	default:
		return nil, fmt.Errorf("dsp.FirWin: unknown band type %v", band)
	}
	passNyquist := (len(c)%2 == 1) != passZero
	if passNyquist && numtaps%2 == 0 {
		return nil, fmt.Errorf("dsp.FirWin: a %v filter passes the Nyquist frequency, so it needs an odd number of taps (not %d)", band, numtaps)
	}
	win := o.Window
	if win.Name == "" {
		win = Hamming
	}
	if o.Width > 0 {
		win = Kaiser(KaiserBeta(KaiserAtten(numtaps, o.Width/nyq)))
	} else if o.Width < 0 || math.IsNaN(o.Width) {
		return nil, fmt.Errorf("dsp.FirWin: transition width %g", o.Width)
	}
	// The band edges, in pairs: [0,] cutoffs [, 1].
	var edges []float64
	if passZero {
		edges = append(edges, 0)
	}
	edges = append(edges, c...)
	if passNyquist {
		edges = append(edges, 1)
	}
	alpha := 0.5 * float64(numtaps-1)
	h := make([]float64, numtaps)
	for k := range h {
		m := float64(k) - alpha
		for b := 0; b < len(edges); b += 2 {
			left, right := edges[b], edges[b+1]
			h[k] += right*sinc(right*m) - left*sinc(left*m)
		}
	}
	w, err := GetWindow(win, numtaps, false)
	if err != nil {
		return nil, fmt.Errorf("dsp.FirWin: %w", err)
	}
	for k := range h {
		h[k] *= w[k]
	}
	if !o.NoScale {
		left, right := edges[0], edges[1]
		f := 0.5 * (left + right)
		if left == 0 {
			f = 0
		} else if right == 1 {
			f = 1
		}
		var s float64
		for k := range h {
			s += h[k] * math.Cos(math.Pi*(float64(k)-alpha)*f)
		}
		if s == 0 || math.IsNaN(s) {
			return nil, fmt.Errorf("dsp.FirWin: the %d-tap %v filter has no gain to scale by at %g (a %v window of %d taps is 0 where it matters): use more taps, another window or NoScale", numtaps, band, f*nyq, win, numtaps)
		}
		for k := range h {
			h[k] /= s
		}
	}
	return h, nil
}

// sinc is the normalised sinc, sin(πx)/(πx), as numpy.sinc.
func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	y := math.Pi * x
	return math.Sin(y) / y
}
