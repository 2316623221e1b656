package dsp

import (
	"fmt"
	"math"
	"math/cmplx"
	"sort"
)

// SOS is a filter as second-order sections, one row a section: b0, b1, b2, a0, a1,
// a2 (a0 = 1), SciPy's sos layout.
type SOS [][6]float64

// Butter designs a digital Butterworth filter of the given order as second-order
// sections, as scipy.signal.butter(order, wn, btype, output='sos', fs=fs): one
// critical frequency for Lowpass and Highpass, two for Bandpass and Bandstop (which
// double the order), in the units of fs (0 or 2: fractions of the Nyquist
// frequency), strictly between 0 and fs/2. The analog prototype is warped and
// mapped by the bilinear transform, and the poles and zeros are paired into
// sections as SciPy's zpk2sos does (pairing 'nearest').
func Butter(order int, wn []float64, band BandType, fs float64) (SOS, error) {
	if order < 1 || order > 500 {
		return nil, fmt.Errorf("dsp.Butter: order %d: want 1 to 500", order)
	}
	if fs == 0 {
		fs = 2
	}
	if !(fs > 0) || math.IsInf(fs, 0) {
		return nil, fmt.Errorf("dsp.Butter: sampling frequency %g", fs)
	}
	want := 1
	if band == Bandpass || band == Bandstop {
		want = 2
	} else if band != Lowpass && band != Highpass {
		return nil, fmt.Errorf("dsp.Butter: unknown band type %v", band)
	}
	if len(wn) != want {
		return nil, fmt.Errorf("dsp.Butter: a %v filter takes %d critical frequencies, not %d", band, want, len(wn))
	}
	warped := make([]float64, len(wn))
	for i, f := range wn {
		w := 2 * f / fs
		if !(w > 0 && w < 1) {
			return nil, fmt.Errorf("dsp.Butter: critical frequency %g: digital filters need 0 < Wn < fs/2 (%g)", f, fs/2)
		}
		// Pre-warped for the bilinear transform at fs = 2.
		warped[i] = 4 * math.Tan(math.Pi*w/2)
	}
	if want == 2 && !(warped[1] > warped[0]) {
		return nil, fmt.Errorf("dsp.Butter: critical frequencies %v: the second must be above the first", wn)
	}
	// The analog prototype: no zeros, poles on the left half of the unit circle.
	var z []complex128
	p := make([]complex128, order)
	for i := range p {
		m := float64(-order + 1 + 2*i)
		p[i] = -cmplx.Exp(complex(0, math.Pi*m/float64(2*order)))
	}
	k := 1.0
	switch band {
	case Lowpass:
		z, p, k = lp2lp(z, p, k, warped[0])
	case Highpass:
		z, p, k = lp2hp(z, p, k, warped[0])
	case Bandpass:
		z, p, k = lp2bp(z, p, k, math.Sqrt(warped[0]*warped[1]), warped[1]-warped[0])
	case Bandstop:
		z, p, k = lp2bs(z, p, k, math.Sqrt(warped[0]*warped[1]), warped[1]-warped[0])
	}
	z, p, k = bilinear(z, p, k, 2)
	return zpk2sos(z, p, k)
}

// lp2lp scales a low-pass prototype to the cutoff wo (scipy.signal.lp2lp_zpk).
func lp2lp(z, p []complex128, k, wo float64) ([]complex128, []complex128, float64) {
	deg := len(p) - len(z)
	zl, pl := scale(z, complex(wo, 0)), scale(p, complex(wo, 0))
	return zl, pl, k * math.Pow(wo, float64(deg))
}

// lp2hp turns a low-pass prototype into a high-pass filter of cutoff wo
// (scipy.signal.lp2hp_zpk).
func lp2hp(z, p []complex128, k, wo float64) ([]complex128, []complex128, float64) {
	deg := len(p) - len(z)
	zh := make([]complex128, 0, len(z)+deg)
	for _, v := range z {
		zh = append(zh, complex(wo, 0)/v)
	}
	ph := make([]complex128, len(p))
	for i, v := range p {
		ph[i] = complex(wo, 0) / v
	}
	for i := 0; i < deg; i++ {
		zh = append(zh, 0)
	}
	return zh, ph, k * real(prodNeg(z)/prodNeg(p))
}

// lp2bp turns a low-pass prototype into a band-pass filter centred on wo, bw wide
// (scipy.signal.lp2bp_zpk).
func lp2bp(z, p []complex128, k, wo, bw float64) ([]complex128, []complex128, float64) {
	deg := len(p) - len(z)
	split := func(r []complex128) []complex128 {
		lo := scale(r, complex(bw/2, 0))
		out := make([]complex128, 2*len(lo))
		for i, v := range lo {
			s := cmplx.Sqrt(v*v - complex(wo*wo, 0))
			out[i], out[len(lo)+i] = v+s, v-s
		}
		return out
	}
	zb, pb := split(z), split(p)
	for i := 0; i < deg; i++ {
		zb = append(zb, 0)
	}
	return zb, pb, k * math.Pow(bw, float64(deg))
}

// lp2bs turns a low-pass prototype into a band-stop filter centred on wo, bw wide
// (scipy.signal.lp2bs_zpk).
func lp2bs(z, p []complex128, k, wo, bw float64) ([]complex128, []complex128, float64) {
	deg := len(p) - len(z)
	split := func(r []complex128) []complex128 {
		out := make([]complex128, 2*len(r))
		for i, v := range r {
			h := complex(bw/2, 0) / v
			s := cmplx.Sqrt(h*h - complex(wo*wo, 0))
			out[i], out[len(r)+i] = h+s, h-s
		}
		return out
	}
	zb, pb := split(z), split(p)
	for i := 0; i < deg; i++ {
		zb = append(zb, complex(0, wo))
	}
	for i := 0; i < deg; i++ {
		zb = append(zb, complex(0, -wo))
	}
	return zb, pb, k * real(prodNeg(z)/prodNeg(p))
}

// bilinear maps an analog filter to a digital one at sampling frequency fs
// (scipy.signal.bilinear_zpk).
func bilinear(z, p []complex128, k, fs float64) ([]complex128, []complex128, float64) {
	deg := len(p) - len(z)
	fs2 := complex(2*fs, 0)
	zz := make([]complex128, 0, len(z)+deg)
	num, den := complex(1, 0), complex(1, 0)
	for _, v := range z {
		zz = append(zz, (fs2+v)/(fs2-v))
		num *= fs2 - v
	}
	pz := make([]complex128, len(p))
	for i, v := range p {
		pz[i] = (fs2 + v) / (fs2 - v)
		den *= fs2 - v
	}
	for i := 0; i < deg; i++ {
		zz = append(zz, -1)
	}
	return zz, pz, k * real(num/den)
}

func scale(r []complex128, s complex128) []complex128 {
	out := make([]complex128, len(r))
	for i, v := range r {
		out[i] = v * s
	}
	return out
}

// prodNeg is the product of -r over r.
func prodNeg(r []complex128) complex128 {
	out := complex(1, 0)
	for _, v := range r {
		out *= -v
	}
	return out
}

// zpk2sos pairs a digital filter's poles and zeros into second-order sections as
// scipy.signal.zpk2sos(z, p, k, pairing='nearest') does: the poles closest to the
// unit circle go last, each with the zeros nearest it, and the gain goes into the
// first section.
func zpk2sos(z, p []complex128, k float64) (SOS, error) {
	if len(z) == 0 && len(p) == 0 {
		return SOS{{k, 0, 0, 1, 0, 0}}, nil
	}
	for len(p) < len(z) {
		p = append(p, 0)
	}
	for len(z) < len(p) {
		z = append(z, 0)
	}
	n := (len(p) + 1) / 2
	if len(p)%2 == 1 {
		p, z = append(p, 0), append(z, 0)
	}
	var err error
	if z, err = cplxReal(z); err != nil {
		return nil, err
	}
	if p, err = cplxReal(p); err != nil {
		return nil, err
	}
	isReal := func(v complex128) bool { return imag(v) == 0 }
	worst := func(r []complex128) int { // the nearest the unit circle (the first of ties)
		best := 0
		for i, v := range r {
			if math.Abs(1-cmplx.Abs(v)) < math.Abs(1-cmplx.Abs(r[best])) {
				best = i
			}
		}
		return best
	}
	remove := func(r []complex128, i int) []complex128 { return append(r[:i:i], r[i+1:]...) }
	countReal := func(r []complex128) int {
		c := 0
		for _, v := range r {
			if isReal(v) {
				c++
			}
		}
		return c
	}
	sos := make(SOS, n)
	for si := n - 1; si >= 0; si-- {
		i := worst(p)
		p1 := p[i]
		p = remove(p, i)
		switch {
		case isReal(p1) && countReal(p) == 0:
			// The last real pole: with the nearest real zero.
			j := nearest(z, p1, 'r')
			z1 := z[j]
			z = remove(z, j)
			sos[si] = section([]complex128{z1, 0}, []complex128{p1, 0})
		case len(p)+1 == len(z) && !isReal(p1) && countReal(p) == 1 && countReal(z) == 1:
			// One real pole and one real zero left: this complex pole must take a
			// complex zero.
			j := nearest(z, p1, 'c')
			z1 := z[j]
			z = remove(z, j)
			sos[si] = section([]complex128{z1, cmplx.Conj(z1)}, []complex128{p1, cmplx.Conj(p1)})
		default:
			var p2 complex128
			if isReal(p1) {
				var reals []int
				for i, v := range p {
					if isReal(v) {
						reals = append(reals, i)
					}
				}
				sub := make([]complex128, len(reals))
				for i, r := range reals {
					sub[i] = p[r]
				}
				j := reals[worst(sub)]
				p2 = p[j]
				p = remove(p, j)
			} else {
				p2 = cmplx.Conj(p1)
			}
			if len(z) == 0 {
				sos[si] = section(nil, []complex128{p1, p2})
				break
			}
			j := nearest(z, p1, 'a')
			z1 := z[j]
			z = remove(z, j)
			if !isReal(z1) {
				sos[si] = section([]complex128{z1, cmplx.Conj(z1)}, []complex128{p1, p2})
			} else if len(z) > 0 {
				j := nearest(z, p1, 'r')
				z2 := z[j]
				z = remove(z, j)
				sos[si] = section([]complex128{z1, z2}, []complex128{p1, p2})
			} else {
				sos[si] = section([]complex128{z1}, []complex128{p1, p2})
			}
		}
	}
	for c := 0; c < 3; c++ {
		sos[0][c] *= k
	}
	return sos, nil
}

// nearest is the index of the root of fro nearest to to, among all ('a'), the real
// ('r') or the complex ('c') ones (scipy's _nearest_real_complex_idx; its argsort
// is not stable, but ties are equal roots here).
func nearest(fro []complex128, to complex128, which byte) int {
	best := -1
	for i, v := range fro {
		if which == 'r' && imag(v) != 0 || which == 'c' && imag(v) == 0 {
			continue
		}
		if best < 0 || cmplx.Abs(v-to) < cmplx.Abs(fro[best]-to) {
			best = i
		}
	}
	return best
}

// section is one row of sos: the polynomials with the zeros and the poles as roots
// (at most two each), right-aligned in b and a as SciPy's _single_zpksos does.
func section(z, p []complex128) [6]float64 {
	var s [6]float64
	b, a := poly(z), poly(p)
	for i, v := range b {
		s[3-len(b)+i] = real(v)
	}
	for i, v := range a {
		s[6-len(a)+i] = real(v)
	}
	return s
}

// poly is the monic polynomial with the given roots, highest power first
// (numpy.poly).
func poly(r []complex128) []complex128 {
	c := []complex128{1}
	for _, v := range r {
		next := make([]complex128, len(c)+1)
		for i, x := range c {
			next[i] += x
			next[i+1] -= x * v
		}
		c = next
	}
	return c
}

// cplxReal splits roots into complex conjugate pairs (one of each, positive
// imaginary part, averaged with its conjugate) followed by the real ones, in
// SciPy's _cplxreal order: both by real part, pairs of equal real part by the size
// of their imaginary part.
func cplxReal(z []complex128) ([]complex128, error) {
	if len(z) == 0 {
		return z, nil
	}
	const tol = 100 * 2.220446049250313e-16
	s := append([]complex128(nil), z...)
	sort.SliceStable(s, func(i, j int) bool {
		if real(s[i]) != real(s[j]) {
			return real(s[i]) < real(s[j])
		}
		return math.Abs(imag(s[i])) < math.Abs(imag(s[j]))
	})
	var zr []complex128
	var zp, zn []complex128
	for _, v := range s {
		switch {
		case math.Abs(imag(v)) <= tol*cmplx.Abs(v):
			zr = append(zr, complex(real(v), 0))
		case imag(v) > 0:
			zp = append(zp, v)
		default:
			zn = append(zn, v)
		}
	}
	if len(zp) != len(zn) {
		return nil, fmt.Errorf("dsp: a complex root has no matching conjugate")
	}
	// Runs of (nearly) equal real parts are ordered by the imaginary part's size.
	for start := 0; start < len(zp); {
		stop := start + 1
		for stop < len(zp) && real(zp[stop])-real(zp[stop-1]) <= tol*cmplx.Abs(zp[stop-1]) {
			stop++
		}
		for _, run := range [][]complex128{zp[start:stop], zn[start:stop]} {
			sort.SliceStable(run, func(i, j int) bool { return math.Abs(imag(run[i])) < math.Abs(imag(run[j])) })
		}
		start = stop
	}
	out := make([]complex128, 0, len(zp)+len(zr))
	for i := range zp {
		if cmplx.Abs(zp[i]-cmplx.Conj(zn[i])) > tol*cmplx.Abs(zn[i]) {
			return nil, fmt.Errorf("dsp: a complex root has no matching conjugate")
		}
		out = append(out, (zp[i]+cmplx.Conj(zn[i]))/2)
	}
	return append(out, zr...), nil
}
