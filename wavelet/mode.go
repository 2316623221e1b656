package wavelet

import (
	"fmt"
	"strings"
)

// Mode is how a transform extends a signal past its ends (PyWavelets' modes).
type Mode int

// The modes, for a signal x of n samples.
const (
	Symmetric     Mode = iota // x[-1] = x[0], x[n] = x[n-1] (half-sample symmetric; the default)
	Periodization             // periodic, with ceil(n/2) coefficients: no redundant ones (odd n: x[n] = x[n-1])
	Zero                      // zeros
	Reflect                   // x[-1] = x[1], x[n] = x[n-2] (whole-sample symmetric)
	Periodic                  // x[-1] = x[n-1]
	Constant                  // x[-k] = x[0], x[n-1+k] = x[n-1]
	Smooth                    // the line through the two end samples, extended
	Antisymmetric             // x[-1] = -x[0], x[n] = -x[n-1]
)

var modeNames = [...]string{"symmetric", "periodization", "zero", "reflect", "periodic", "constant", "smooth", "antisymmetric"}

// String is the mode's PyWavelets name.
func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode reads a mode's PyWavelets name (e.g. "symmetric", "periodization";
// "per", "sym", "zpd", "ppd", "cpd", "sp1" as pywt's short names too).
func ParseMode(s string) (Mode, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	short := map[string]Mode{"sym": Symmetric, "symh": Symmetric, "per": Periodization, "zpd": Zero, "symw": Reflect,
		"ppd": Periodic, "cpd": Constant, "sp1": Smooth, "asym": Antisymmetric, "asymh": Antisymmetric}
	if m, ok := short[s]; ok {
		return m, nil
	}
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	if s == "antireflect" || s == "asymw" {
		return 0, fmt.Errorf("wavelet: mode %q is not supported (one of %s)", s, strings.Join(modeNames[:], ", "))
	}
	return 0, fmt.Errorf("wavelet: unknown mode %q (one of %s)", s, strings.Join(modeNames[:], ", "))
}

func (m Mode) check() error {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Errorf("unknown mode %v", m)
	}
	return nil
}

// CoeffLen is the number of coefficients of each kind one level of a transform of
// n samples gives with filters of flen taps (pywt.dwt_coeff_len):
// floor((n+flen-1)/2), or ceil(n/2) in Periodization mode.
func CoeffLen(n, flen int, m Mode) int {
	if n < 1 {
		return 0
	}
	if m == Periodization {
		return (n + 1) / 2
	}
	return (n + flen - 1) / 2
}

// MaxLevel is the deepest useful level of a transform of n samples with filters
// of flen taps (pywt.dwt_max_level): floor(log2(n/(flen-1))), 0 when n < flen-1.
func MaxLevel(n, flen int) int {
	if flen < 2 || n < flen-1 {
		return 0
	}
	l := 0
	for q := n / (flen - 1); q > 1; q >>= 1 {
		l++
	}
	return l
}

// ext is sample k of x extended by mode m: w1*x[i1] + w2*x[i2] (w2 is 0 but for
// Smooth; w1 is 0 where the extension is zero). n is x's length; in
// Periodization mode an odd n counts its last sample twice.
func ext(k, n int, m Mode) (i1 int, w1 float64, i2 int, w2 float64) {
	if k >= 0 && k < n {
		return k, 1, 0, 0
	}
	switch m {
	case Zero:
		return 0, 0, 0, 0
	case Constant:
		if k < 0 {
			return 0, 1, 0, 0
		}
		return n - 1, 1, 0, 0
	case Periodic:
		return mod(k, n), 1, 0, 0
	case Periodization:
		p := n + n%2
		i := mod(k, p)
		if i == n {
			i = n - 1
		}
		return i, 1, 0, 0
	case Symmetric, Antisymmetric:
		i := mod(k, 2*n)
		s := 1.0
		if i >= n {
			i = 2*n - 1 - i
			if m == Antisymmetric {
				s = -1
			}
		}
		return i, s, 0, 0
	case Reflect:
		if n == 1 {
			return 0, 1, 0, 0
		}
		p := 2*n - 2
		i := mod(k, p)
		if i >= n {
			i = p - i
		}
		return i, 1, 0, 0
	case Smooth:
		if n == 1 {
			return 0, 1, 0, 0
		}
		if k < 0 {
			return 0, float64(1 - k), 1, float64(k)
		}
		d := float64(k - n + 1)
		return n - 1, 1 + d, n - 2, -d
	}
	return 0, 0, 0, 0
}

func mod(a, b int) int {
	r := a % b
	if r < 0 {
		r += b
	}
	return r
}
