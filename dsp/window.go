package dsp

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/dsp/window"
)

// Window names a window function as scipy.signal.get_window does: "boxcar"
// (rectangular), "hann", "hamming", "blackman", or "kaiser" with its shape
// parameter Beta.
type Window struct {
	Name string
	Beta float64 // kaiser's shape parameter
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

func (w Window) String() string {
	if strings.EqualFold(w.Name, "kaiser") {
		return fmt.Sprintf("kaiser(%g)", w.Beta)
	}
	return w.Name
}

// GetWindow returns n samples of the window, as scipy.signal.get_window(w, n,
// fftbins=periodic): periodic windows (for spectral analysis) are the first n of a
// symmetric window of n+1 samples; symmetric ones (for filter design) are
// symmetric about their middle.
func GetWindow(w Window, n int, periodic bool) ([]float64, error) {
	if n <= 0 {
		return nil, fmt.Errorf("dsp.GetWindow: %d samples: want at least 1", n)
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
		default:
			return nil, fmt.Errorf("dsp.GetWindow: unknown window %q (boxcar, hann, hamming, blackman or kaiser)", w.Name)
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
