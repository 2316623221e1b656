package dsp

import (
	"github.com/gpuimg/gpuimg/internal/core"

	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/dsp/window"
)

// Window names a window function as scipy.signal.get_window does: "boxcar"
// (rectangular), "hann", "hamming", "blackman", "kaiser" with its shape
// parameter Beta, or "tukey" with its taper fraction Alpha.
type Window struct {
	Name  string
	Beta  float64 // kaiser's shape parameter
	Alpha float64 // tukey's fraction of the window inside the cosine tapers, 0..1
}

// The windows that take no parameter.
var (
	Boxcar   = Window{Name: "boxcar"}
	Hann     = Window{Name: "hann"}
	Hamming  = Window{Name: "hamming"}
	Blackman = Window{Name: "blackman"}
)

// Kaiser is the Kaiser window of shape parameter beta (see KaiserBeta).
func Kaiser(beta float64) Window { return Window{Name: "kaiser", Beta: beta} }

// Tukey is the tapered cosine window whose tapers fill the fraction alpha of it
// (0: boxcar, 1: Hann); scipy.signal.spectrogram's default is Tukey(0.25).
func Tukey(alpha float64) Window { return Window{Name: "tukey", Alpha: alpha} }

func (w Window) String() string {
	switch strings.ToLower(w.Name) {
	case "kaiser":
		return fmt.Sprintf("kaiser(%g)", w.Beta)
	case "tukey":
		return fmt.Sprintf("tukey(%g)", w.Alpha)
	}
	return w.Name
}

// GetWindow returns n samples of the window, as scipy.signal.get_window(w, n,
// fftbins=periodic): periodic windows (for spectral analysis) are the first n of a
// symmetric window of n+1 samples; symmetric ones (for filter design) are
// symmetric about their middle.
func GetWindow(w Window, n int, periodic bool) ([]float64, error) {
	if n <= 0 || n > core.MaxDim {
		return nil, fmt.Errorf("dsp.GetWindow: %d samples: want 1 to %d", n, core.MaxDim)
	}
	m := n
	if periodic && n > 1 { // one sample is 1 either way
		m = n + 1
	}
	seq := make([]float64, m)
	for i := range seq {
		seq[i] = 1
	}
	if m > 1 { // gonum's windows divide by m-1; one sample is 1 for every window
		switch strings.ToLower(w.Name) {
		case "boxcar", "rectangular", "ones":
		case "hann", "hanning":
			window.Hann(seq)
		case "hamming":
			window.Hamming(seq)
		case "blackman":
			window.Blackman(seq)
		case "kaiser":
			if math.IsNaN(w.Beta) || math.IsInf(w.Beta, 0) {
				return nil, fmt.Errorf("dsp.GetWindow: kaiser window with beta %v", w.Beta)
			}
			kaiser(seq, w.Beta)
		case "tukey":
			if !(w.Alpha >= 0 && w.Alpha <= 1) {
				return nil, fmt.Errorf("dsp.GetWindow: tukey window with alpha %v (want 0..1)", w.Alpha)
			}
			tukey(seq, w.Alpha)
		default:
			return nil, fmt.Errorf("dsp.GetWindow: unknown window %q (boxcar, hann, hamming, blackman, kaiser or tukey)", w.Name)
		}
	} else if _, err := GetWindow(w, 2, false); err != nil {
		return nil, err // the name is checked for one sample too
	}
	return seq[:n], nil
}

// kaiser multiplies seq by the symmetric Kaiser window of shape beta:
// I0(beta*sqrt(1-((k-a)/a)^2)) / I0(beta), a = (len-1)/2.
func kaiser(seq []float64, beta float64) {
	a := float64(len(seq)-1) / 2
	d := besselI0(beta)
	for k := range seq {
		r := (float64(k) - a) / a
		seq[k] *= besselI0(beta*math.Sqrt(math.Max(0, 1-r*r))) / d
	}
}

// tukey sets seq to scipy.signal.windows.tukey(len(seq), alpha) (symmetric): ones
// between two half-cosine tapers of floor(alpha*(len-1)/2)+1 samples each.
func tukey(seq []float64, alpha float64) {
	m := float64(len(seq) - 1)
	if alpha == 0 {
		return // boxcar
	}
	width := int(math.Floor(alpha * m / 2))
	for k := range seq {
		switch n := float64(k); {
		case k <= width:
			seq[k] = 0.5 * (1 + math.Cos(math.Pi*(-1+2*n/alpha/m)))
		case k >= len(seq)-width-1:
			seq[k] = 0.5 * (1 + math.Cos(math.Pi*(-2/alpha+1+2*n/alpha/m)))
		default:
			seq[k] = 1
		}
	}
}

// besselI0 is the modified Bessel function of the first kind of order 0, by its
// power series sum((x/2)^2k / (k!)^2), which converges for every x (to the last
// bit by k ~ x).
func besselI0(x float64) float64 {
	q := x * x / 4
	sum, term := 1.0, 1.0
	for k := 1; k < 1000; k++ {
		term *= q / float64(k*k)
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}
