package dsp

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"slices"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// MaxOrder is the highest order LFilter and FiltFilt run (SOSFilt takes any number
// of sections): a transfer function of higher order is numerically fragile anyway
// (scipy.signal.tf2sos makes sections of it), except an FIR filter (a = [a0]),
// which LFilter runs at any length without state. The GPU's kernels take order 16,
// but its 16-value state came out of the scan up to 2.6e-4 of the RMS off the
// CPU's (8 and less: 2e-6), so both devices stop at 8.
const MaxOrder = 8

// LFilter filters every row of src (32FC1, one signal a row) with the rational
// transfer function b(z)/a(z), as scipy.signal.lfilter(b, a, row) on each: direct
// form II transposed, b and a divided by a[0], from a zero state. dst becomes a
// 32FC1 image of src's size. The GPU runs the recursion as a scan over runs of the
// signal, so one long signal uses the whole device; it computes in float32 (the
// CPU device in float64 within a call).
func LFilter(src, dst *gpuimage.Image, b, a []float64, opts ...gpuimage.Option) error {
	return LFilterState(src, dst, b, a, nil, nil, opts...)
}

// LFilterState is LFilter with an initial state and the final one, as
// scipy.signal.lfilter(b, a, x, zi=zi) returning (y, zf): zi is nil (a zero state)
// or a 32FC1 image of src.Rows() rows by max(len(a), len(b))-1 (SciPy's layout of
// zi for 2-D x), and zf, if not nil, becomes an image of that shape holding the
// state after the last sample. Feeding zf to the next call as zi filters a signal
// in pieces exactly as one call on the whole. zi and zf may be the same image.
func LFilterState(src, dst *gpuimage.Image, b, a []float64, zi, zf *gpuimage.Image, opts ...gpuimage.Option) error {
	const op = "dsp.LFilter"
	s, bn, an, err := checkTF(op, src, dst, b, a)
	if err != nil {
		return err
	}
	order := len(bn) - 1
	if order > MaxOrder && isFIR(an) && zi == nil && zf == nil {
		// An FIR filter of any length: the first n samples of the full convolution.
		return conv1d(op, src, []*gpuimage.Image{dst}, [][]float64{bn}, Full, Auto, true, opts, s.Cols)
	}
	if order > MaxOrder {
		return fmt.Errorf("%s: order %d is above %d (use SOSFilt with second-order sections)", op, order, MaxOrder)
	}
	c, err := tfCascade(op, bn, an)
	if err != nil {
		return err
	}
	st := stateShape{rows: s.Rows, cols: order, secs: 0}
	return runFilter(op, src, dst, []*cascade{c}, st, zi, zf, opts)
}

// SOSFilt filters every row of src with the second-order sections sos in turn, as
// scipy.signal.sosfilt(sos, row) on each: the stable way to run a filter of high
// order (Butter designs them). Each section's a0 must be 1 and its poles inside
// the unit circle. Otherwise as LFilter.
func SOSFilt(src, dst *gpuimage.Image, sos SOS, opts ...gpuimage.Option) error {
	return SOSFiltState(src, dst, sos, nil, nil, opts...)
}

// SOSFiltState is SOSFilt with an initial state and the final one, as
// scipy.signal.sosfilt(sos, x, zi=zi) returning (y, zf). SciPy's zi for 2-D x has
// the shape (sections, rows, 2); here it is a 32FC1 image of len(sos) rows by
// 2*src.Rows() columns (row k holds section k's two state values for each signal,
// one after the other). zf, if not nil, becomes an image of that shape. zi and zf
// may be the same image.
func SOSFiltState(src, dst *gpuimage.Image, sos SOS, zi, zf *gpuimage.Image, opts ...gpuimage.Option) error {
	const op = "dsp.SOSFilt"
	s, err := checkSignals(op, src, dst)
	if err != nil {
		return err
	}
	cs, err := sosCascades(op, sos)
	if err != nil {
		return err
	}
	return runFilter(op, src, dst, cs, stateShape{rows: s.Rows, cols: 2 * s.Rows, secs: len(sos)}, zi, zf, opts)
}

// FiltFilt filters every row of src forward and then backward with b/a, as
// scipy.signal.filtfilt(b, a, row) with its defaults: zero phase, the signal
// extended at both ends by 3*max(len(a), len(b)) samples of odd symmetry (which it
// must be longer than), each pass started in the steady state of its first sample
// (LFilterZi). dst becomes a 32FC1 image of src's size.
func FiltFilt(src, dst *gpuimage.Image, b, a []float64, opts ...gpuimage.Option) error {
	const op = "dsp.FiltFilt"
	s, bn, an, err := checkTF(op, src, dst, b, a)
	if err != nil {
		return err
	}
	if order := len(bn) - 1; order > MaxOrder {
		return fmt.Errorf("%s: order %d is above %d (use SOSFiltFilt with second-order sections)", op, order, MaxOrder)
	}
	pad := 3 * max(len(a), len(b))
	if s.Cols <= pad {
		return fmt.Errorf("%s: signals of %d samples: they must be longer than the padding, %d", op, s.Cols, pad)
	}
	c, err := tfCascade(op, bn, an)
	if err != nil {
		return err
	}
	zi, err := lfilterZi(bn, an)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	c.zi = zi
	return runFiltFilt(op, src, dst, []*cascade{c}, pad, opts)
}

// SOSFiltFilt is FiltFilt with second-order sections, as
// scipy.signal.sosfiltfilt(sos, row): the padding is 3*(2*len(sos)+1) samples, less
// 3 for each section that both sos[k][2] and sos[k][5] leave out (SciPy's rule).
func SOSFiltFilt(src, dst *gpuimage.Image, sos SOS, opts ...gpuimage.Option) error {
	const op = "dsp.SOSFiltFilt"
	s, err := checkSignals(op, src, dst)
	if err != nil {
		return err
	}
	cs, err := sosCascades(op, sos)
	if err != nil {
		return err
	}
	zb, za := 0, 0
	for _, sec := range sos {
		if sec[2] == 0 {
			zb++
		}
		if sec[5] == 0 {
			za++
		}
	}
	pad := 3 * (2*len(sos) + 1 - min(zb, za))
	if s.Cols <= pad {
		return fmt.Errorf("%s: signals of %d samples: they must be longer than the padding, %d", op, s.Cols, pad)
	}
	zi, err := SOSFiltZi(sos)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	for _, c := range cs {
		c.zi = make([]float64, c.sreal)
		for k := 0; k < c.sreal/2; k++ {
			copy(c.zi[2*k:], zi[c.sec0+k][:])
		}
	}
	return runFiltFilt(op, src, dst, cs, pad, opts)
}

// LFilterZi is the initial state of LFilter for the steady state of a step: as
// scipy.signal.lfilter_zi(b, a), max(len(a), len(b))-1 values that, times a
// signal's first sample, start the filter as if that sample had always been its
// input.
func LFilterZi(b, a []float64) ([]float64, error) {
	bn, an, err := normalize("dsp.LFilterZi", b, a)
	if err != nil {
		return nil, err
	}
	zi, err := lfilterZi(bn, an)
	if err != nil {
		return nil, fmt.Errorf("dsp.LFilterZi: %w", err)
	}
	return zi, nil
}

// SOSFiltZi is SOSFilt's initial state for the steady state of a step, as
// scipy.signal.sosfilt_zi(sos): section k's lfilter_zi scaled by the DC gain of the
// sections before it.
func SOSFiltZi(sos SOS) ([][2]float64, error) {
	if err := checkSOS("dsp.SOSFiltZi", sos); err != nil {
		return nil, err
	}
	zi := make([][2]float64, len(sos))
	scale := 1.0
	for k, s := range sos {
		z, err := lfilterZi(s[:3], s[3:])
		if err != nil {
			return nil, fmt.Errorf("dsp.SOSFiltZi: section %d: %w", k, err)
		}
		zi[k] = [2]float64{scale * z[0], scale * z[1]}
		scale *= (s[0] + s[1] + s[2]) / (s[3] + s[4] + s[5])
	}
	return zi, nil
}

// checkSignal checks a batch of signals: an open 32FC1 image.
func checkSignal(op string, src *gpuimage.Image) (*core.State, error) {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if s.Depth != core.Depth32F || s.Chans != 1 {
		return nil, fmt.Errorf("%s: %w: %v (signals are 32FC1, one a row)", op, gpuimage.ErrBadType, src.Type())
	}
	return s, nil
}

// checkSignals checks a filter call's source and destination.
func checkSignals(op string, src, dst *gpuimage.Image) (*core.State, error) {
	s, err := checkSignal(op, src)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		return nil, fmt.Errorf("%s: %w: dst", op, gpuimage.ErrNil)
	}
	return s, nil
}

// checkTaps checks FIR taps: at least one, each a finite float32 value.
func checkTaps(op string, taps []float64) error {
	if len(taps) == 0 {
		return fmt.Errorf("%s: no taps", op)
	}
	for i, t := range taps {
		if !finite32(t) {
			return fmt.Errorf("%s: tap %d is %v (taps must be finite float32 values)", op, i, t)
		}
	}
	return nil
}

// finite32 reports whether t is a finite float32 value (false for NaN).
func finite32(t float64) bool { return t >= -math.MaxFloat32 && t <= math.MaxFloat32 }

// float32Taps writes taps to g (as long) as float32 values, reversed if reverse,
// and returns the index of the first tap that is not a finite float32 value, or -1
// (checkTaps's test, in the same pass).
func float32Taps(g []float32, taps []float64, reverse bool) int {
	g = g[:len(taps)]
	bad := false
	for i, t := range taps {
		if !finite32(t) {
			bad = true
		}
		if reverse {
			g[len(g)-1-i] = float32(t)
		} else {
			g[i] = float32(t)
		}
	}
	if bad {
		return slices.IndexFunc(taps, func(t float64) bool { return !finite32(t) })
	}
	return -1
}

// checkTF checks LFilter's and FiltFilt's signals and transfer function: the
// source's state, and b and a normalized (see normalize).
func checkTF(op string, src, dst *gpuimage.Image, b, a []float64) (*core.State, []float64, []float64, error) {
	s, err := checkSignals(op, src, dst)
	if err != nil {
		return nil, nil, nil, err
	}
	bn, an, err := normalize(op, b, a)
	if err != nil {
		return nil, nil, nil, err
	}
	return s, bn, an, nil
}

// normalize checks b and a and returns them divided by a[0], padded with zeros to
// one length.
func normalize(op string, b, a []float64) ([]float64, []float64, error) {
	if len(b) == 0 || len(a) == 0 {
		return nil, nil, fmt.Errorf("%s: empty coefficients (len(b) %d, len(a) %d)", op, len(b), len(a))
	}
	for name, v := range map[string][]float64{"b": b, "a": a} {
		for i, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, nil, fmt.Errorf("%s: %s[%d] is %v (coefficients must be finite)", op, name, i, x)
			}
		}
	}
	if a[0] == 0 {
		return nil, nil, fmt.Errorf("%s: a[0] is 0 (the coefficients are divided by it)", op)
	}
	n := max(len(a), len(b))
	bn, an := make([]float64, n), make([]float64, n)
	for i, x := range b {
		bn[i] = x / a[0]
	}
	for i, x := range a {
		an[i] = x / a[0]
	}
	return bn, an, nil
}

func isFIR(a []float64) bool {
	for _, x := range a[1:] {
		if x != 0 {
			return false
		}
	}
	return true
}

// checkSOS checks sos as SciPy does (a0 = 1), and more: finite values, poles on or
// inside the unit circle.
func checkSOS(op string, sos SOS) error {
	if len(sos) == 0 {
		return fmt.Errorf("%s: no sections", op)
	}
	for k, s := range sos {
		for i, x := range s {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("%s: sos[%d][%d] is %v (coefficients must be finite)", op, k, i, x)
			}
		}
		if s[3] != 1 {
			return fmt.Errorf("%s: sos[%d][3] is %v: each section's a0 must be 1", op, k, s[3])
		}
		if r := poleRadius(s[4], s[5]); r > 1+1e-12 {
			return fmt.Errorf("%s: section %d is unstable: a pole of radius %.6g (above 1)", op, k, r)
		}
	}
	return nil
}

// poleRadius is the largest |p| of the roots of z^2 + a1 z + a2.
func poleRadius(a1, a2 float64) float64 {
	d := cmplx.Sqrt(complex(a1*a1-4*a2, 0))
	return math.Max(cmplx.Abs((complex(-a1, 0)+d)/2), cmplx.Abs((complex(-a1, 0)-d)/2))
}

// lfilterZi solves (I - A) zi = b[1:] - a[1:] b[0] for the state of a step's steady
// state, A the companion matrix of the normalized a (as SciPy's lfilter_zi).
func lfilterZi(b, a []float64) ([]float64, error) {
	n := len(a) - 1
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n+1)
		m[i][i] = 1
		m[i][0] += a[i+1] // I - companion(a).T: its first column is -a[1:]
		if i+1 < n {
			m[i][i+1] -= 1
		}
		m[i][n] = b[i+1] - a[i+1]*b[0]
	}
	// Gaussian elimination with partial pivoting.
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-300 {
			return nil, errors.New("no steady state: the filter has a pole at z = 1")
		}
		m[c], m[p] = m[p], m[c]
		for r := 0; r < n; r++ {
			if r != c {
				f := m[r][c] / m[c][c]
				for k := c; k <= n; k++ {
					m[r][k] -= f * m[c][k]
				}
			}
		}
	}
	zi := make([]float64, n)
	for i := range zi {
		zi[i] = m[i][n] / m[i][i]
	}
	return zi, nil
}
