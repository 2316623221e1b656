package fftfilter

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// The CPU device is the reference: transforms in float64 with gonum's FFT, and the
// same packing, masks and conversions as the CUDA kernels (kernels/fft.cu).

// elem reads the element at byte offset off of a host buffer as float64.
func elem(b []byte, off int, d core.Depth) float64 { return float64(cpu.ReadElem(b, off, d)) }

// access addresses an image (or plane) as lines of elements.
type access struct {
	b               []byte
	off, line, step int // byte offsets: pixel (0,0), next line, next element
	depth           core.Depth
}

func accessOf(g geom, s *core.State) access {
	l, e := g.strides(s.Layout)
	return access{b: s.Buf.Host, off: s.Off, line: l, step: e, depth: s.Depth}
}

func (a access) at(l, k int) int { return a.off + l*a.line + k*a.step }
func (a access) real(l, k int) float64 {
	return elem(a.b, a.at(l, k), a.depth)
}
func (a access) cplx(l, k int) complex128 {
	o := a.at(l, k)
	return complex(elem(a.b, o, a.depth), elem(a.b, o+4, a.depth))
}
func (a access) setReal(l, k int, v float64) { cpu.WriteElem(a.b, a.at(l, k), a.depth, float32(v)) }
func (a access) setCplx(l, k int, v complex128) {
	o := a.at(l, k)
	cpu.WriteElem(a.b, o, a.depth, float32(real(v)))
	cpu.WriteElem(a.b, o+4, a.depth, float32(imag(v)))
}

// lineFFT transforms each line of x (complex, in place) forward or inverse.
func lineFFT(x [][]complex128, inverse bool) {
	if len(x) == 0 {
		return
	}
	t := fourier.NewCmplxFFT(len(x[0]))
	for _, v := range x {
		if inverse {
			t.Sequence(v, v)
		} else {
			t.Coefficients(v, v)
		}
	}
}

// columnFFT transforms the first n columns of x forward or inverse.
func columnFFT(x [][]complex128, n int, inverse bool) {
	col := make([][]complex128, n)
	for k := range col {
		col[k] = make([]complex128, len(x))
		for l := range x {
			col[k][l] = x[l][k]
		}
	}
	lineFFT(col, inverse)
	for k := range col {
		for l := range x {
			x[l][k] = col[k][l]
		}
	}
}

// rfft is the forward transform of real lines (2-D when g.twoD): half[l][k] for
// k <= n/2.
func rfft(g geom, get func(l, k int) float64) [][]complex128 {
	t := fourier.NewFFT(g.n)
	seq := make([]float64, g.n)
	h := make([][]complex128, g.lines)
	for l := range h {
		for k := range seq {
			seq[k] = get(l, k)
		}
		h[l] = t.Coefficients(nil, seq)
	}
	if g.twoD {
		columnFFT(h, g.half(), false)
	}
	return h
}

// irfft is the inverse of rfft (unnormalised); it changes h.
func irfft(g geom, h [][]complex128) [][]float64 {
	if g.twoD {
		columnFFT(h, g.half(), true)
	}
	t := fourier.NewFFT(g.n)
	x := make([][]float64, g.lines)
	for l := range x {
		x[l] = t.Sequence(nil, h[l])
	}
	return x
}

// cfft is the complex transform of the lines (2-D when g.twoD).
func cfft(g geom, x [][]complex128, inverse bool) {
	lineFFT(x, inverse)
	if g.twoD {
		columnFFT(x, g.n, inverse)
	}
}

// ccsAt is element (l, k) of the CCS packing of half spectrum h (OpenCV's layout):
// line by line for 1-D transforms; for 2-D ones the first column (and the last, for
// even widths) packs the real-symmetric columns of h down the rows.
func ccsAt(g geom, h [][]complex128, l, k int) float64 {
	// pick is element j of the 1-D CCS packing of the values at(0), at(1), ...
	pick := func(at func(i int) complex128, j int) float64 {
		switch {
		case j == 0:
			return real(at(0))
		case j%2 == 1:
			return real(at((j + 1) / 2))
		}
		return imag(at(j / 2))
	}
	if g.twoD && (k == 0 || (g.n%2 == 0 && k == g.n-1)) {
		c := 0
		if k != 0 {
			c = g.n / 2
		}
		return pick(func(i int) complex128 { return h[i][c] }, l) // down column c
	}
	return pick(func(i int) complex128 { return h[l][i] }, k)
}

// fullAt is element (l, k) of the whole complex spectrum, from the half one by
// conjugate symmetry.
func fullAt(g geom, h [][]complex128, l, k int) complex128 {
	if k <= g.n/2 {
		return h[l][k]
	}
	ml := l
	if g.twoD {
		ml = (g.lines - l) % g.lines
	}
	return cmplx.Conj(h[ml][g.n-k])
}

// unpackCCS is the half spectrum held in a CCS-packed image.
func unpackCCS(g geom, get func(l, k int) float64) [][]complex128 {
	one := func(j, n int, at func(j int) float64) complex128 { // element j of a packed line of n
		switch {
		case j == 0:
			return complex(at(0), 0)
		case n%2 == 0 && j == n/2:
			return complex(at(n-1), 0)
		}
		return complex(at(2*j-1), at(2*j))
	}
	h := make([][]complex128, g.lines)
	for l := range h {
		h[l] = make([]complex128, g.half())
		for k := range h[l] {
			packed := g.twoD && (k == 0 || (g.n%2 == 0 && k == g.n/2))
			if !packed {
				h[l][k] = one(k, g.n, func(j int) float64 { return get(l, j) })
				continue
			}
			c := 0
			if k != 0 {
				c = g.n - 1
			}
			col := func(i int) float64 { return get(i, c) }
			if l <= g.lines/2 {
				h[l][k] = one(l, g.lines, col)
			} else {
				h[l][k] = cmplx.Conj(one(g.lines-l, g.lines, col))
			}
		}
	}
	return h
}

func cpuDFT(j *dftJob) {
	g, sc := j.g, float64(j.scale)
	src, dst := accessOf(g, j.src), accessOf(g, j.dst)
	each := func(fn func(l, k int)) {
		for l := 0; l < g.lines; l++ {
			for k := 0; k < g.n; k++ {
				fn(l, k)
			}
		}
	}
	switch {
	case !j.cin && !j.inverse:
		h := rfft(g, src.real)
		if j.cout {
			each(func(l, k int) { dst.setCplx(l, k, fullAt(g, h, l, k)*complex(sc, 0)) })
		} else {
			each(func(l, k int) { dst.setReal(l, k, ccsAt(g, h, l, k)*sc) })
		}
	case j.cin && j.cout:
		x := make([][]complex128, g.lines)
		for l := range x {
			x[l] = make([]complex128, g.n)
			for k := range x[l] {
				x[l][k] = src.cplx(l, k)
			}
		}
		cfft(g, x, j.inverse)
		each(func(l, k int) { dst.setCplx(l, k, x[l][k]*complex(sc, 0)) })
	default: // inverse to a real image, from CCS or from a whole spectrum
		var h [][]complex128
		if j.cin {
			h = make([][]complex128, g.lines)
			for l := range h {
				h[l] = make([]complex128, g.half())
				for k := range h[l] {
					h[l][k] = src.cplx(l, k)
				}
			}
		} else {
			h = unpackCCS(g, src.real)
		}
		x := irfft(g, h)
		each(func(l, k int) { dst.setReal(l, k, x[l][k]*sc) })
	}
}

// ccsKind classifies element (l, k) of a CCS spectrum: 0 a real value, 1 the real
// part of a pair whose imaginary part is at (pl, pk), 2 the imaginary part of a pair
// whose real part is at (pl, pk).
func ccsKind(g geom, l, k int) (kind, pl, pk int) {
	if g.twoD && (k == 0 || (g.n%2 == 0 && k == g.n-1)) {
		switch {
		case l == 0 || (g.lines%2 == 0 && l == g.lines-1):
			return 0, l, k
		case l%2 == 1:
			return 1, l + 1, k
		}
		return 2, l - 1, k
	}
	switch {
	case k == 0 || (g.n%2 == 0 && k == g.n-1):
		return 0, l, k
	case k%2 == 1:
		return 1, l, k + 1
	}
	return 2, l, k - 1
}

func cpuMul(j *mulJob) {
	g := j.g
	a, b, d := accessOf(g, j.a), accessOf(g, j.b), accessOf(g, j.dst)
	conj := func(v complex128) complex128 {
		if j.conj {
			return cmplx.Conj(v)
		}
		return v
	}
	if j.cplx {
		for l := 0; l < g.lines; l++ {
			for k := 0; k < g.n; k++ {
				d.setCplx(l, k, a.cplx(l, k)*conj(b.cplx(l, k)))
			}
		}
		return
	}
	out := make([]float64, g.lines*g.n) // dst may be a or b: compute everything first
	for l := 0; l < g.lines; l++ {
		for k := 0; k < g.n; k++ {
			kind, pl, pk := ccsKind(g, l, k)
			var v float64
			switch kind {
			case 0:
				v = a.real(l, k) * b.real(l, k)
			case 1:
				v = real(complex(a.real(l, k), a.real(pl, pk)) * conj(complex(b.real(l, k), b.real(pl, pk))))
			case 2:
				v = imag(complex(a.real(pl, pk), a.real(l, k)) * conj(complex(b.real(pl, pk), b.real(l, k))))
			}
			out[l*g.n+k] = v
		}
	}
	for l := 0; l < g.lines; l++ {
		for k := 0; k < g.n; k++ {
			d.setReal(l, k, out[l*g.n+k])
		}
	}
}

func cpuPolar(d, x, y *core.State, mode int) {
	xv, yv, dv := cpu.HostView(x), cpu.HostView(y), cpu.HostView(d)
	for r := 0; r < d.Rows; r++ {
		xr, yr, dr := cpu.Row[float32](xv, r), cpu.Row[float32](yv, r), cpu.Row[float32](dv, r)
		for i := range dr {
			dr[i] = polarValue(xr[i], yr[i], mode)
		}
	}
}

// polarValue is the magnitude or the angle of (x, y), computed in float32 as the
// kernel does.
func polarValue(x, y float32, mode int) float32 {
	if mode == polarMagnitude {
		return float32(math.Sqrt(float64(x)*float64(x) + float64(y)*float64(y)))
	}
	a := math.Atan2(float64(y), float64(x))
	if a < 0 {
		a += 2 * math.Pi
	}
	if mode == polarDegrees {
		a *= 180 / math.Pi
		if float32(a) >= 360 {
			a = 0
		}
	} else if float32(a) >= float32(2*math.Pi) {
		a = 0
	}
	return float32(a)
}

// loadPlane returns channel c of the job's source as a P x Q plane: the image
// shifted by the anchor, through the border rule out to fillRows x fillCols, and
// zeros beyond.
func (j *filterJob) loadPlane(c int) []float64 {
	s := j.src
	wr, wc, ox, oy := s.BorderGeometry(j.isolated)
	esz, base := s.Depth.Size(), s.Off-oy*s.Pitch-ox*s.ElemSize()
	plane := make([]float64, j.p*j.q)
	for y := 0; y < j.fillRows; y++ {
		my := cpu.BorderMap(oy+y-j.ay, wr, j.border)
		for x := 0; x < j.fillCols; x++ {
			mx := cpu.BorderMap(ox+x-j.ax, wc, j.border)
			if my < 0 || mx < 0 {
				plane[y*j.q+x] = float64(j.value[c])
				continue
			}
			plane[y*j.q+x] = elem(s.Buf.Host, base+my*s.Pitch+(mx*s.Chans+c)*esz, s.Depth)
		}
	}
	return plane
}

// storePlane writes the top-left rows x cols of plane, times scale plus delta, to
// channel c of dst.
func (j *filterJob) storePlane(plane []float64, c int, scale float64) {
	d := j.dst
	for y := 0; y < d.Rows; y++ {
		for x := 0; x < d.Cols; x++ {
			cpu.WriteElem(d.Buf.Host, d.Off+y*d.Pitch+(x*d.Chans+c)*d.Depth.Size(), d.Depth, float32(plane[y*j.q+x]*scale+j.delta))
		}
	}
}

// planeGet reads a P x Q plane in the job's transform geometry.
func (j *filterJob) planeGet(plane []float64) func(l, k int) float64 {
	if j.g.trans {
		return func(_, k int) float64 { return plane[k] }
	}
	return func(l, k int) float64 { return plane[l*j.q+k] }
}

func (j *filterJob) planeOf(x [][]float64) []float64 {
	plane := make([]float64, j.p*j.q)
	for l, line := range x {
		for k, v := range line {
			if j.g.trans {
				plane[k] = v
			} else {
				plane[l*j.q+k] = v
			}
		}
	}
	return plane
}

// maskAt is the gain the job's filter or mask gives element (l, k) of the half
// spectrum.
func (j *filterJob) maskAt(l, k int) float64 {
	if j.mask == nil {
		fx, fy := j.freq(l, k)
		return j.f.Response(fx, fy)
	}
	m := accessOf(j.g, j.mask)
	return m.real((l+j.g.lines/2)%j.g.lines, (k+j.g.n/2)%j.g.n)
}

func cpuFilter(j *filterJob) {
	var kh [][]complex128
	if j.kernel != nil {
		kp := make([]float64, j.p*j.q)
		for i, row := range j.kernel {
			copy(kp[i*j.q:], row)
		}
		kh = rfft(j.g, j.planeGet(kp))
	}
	for c := 0; c < j.src.Chans; c++ {
		h := rfft(j.g, j.planeGet(j.loadPlane(c)))
		for l := range h {
			for k := range h[l] {
				if kh != nil {
					h[l][k] *= cmplx.Conj(kh[l][k])
				} else {
					h[l][k] *= complex(j.maskAt(l, k), 0)
				}
			}
		}
		j.storePlane(j.planeOf(irfft(j.g, h)), c, j.scale())
	}
}

func cpuSpectrum(j *filterJob) {
	g := j.g
	h := rfft(g, j.planeGet(j.loadPlane(0)))
	logmag := make([]float64, g.lines*g.n) // in shifted order
	lo, hi := math.Inf(1), math.Inf(-1)
	for l := 0; l < g.lines; l++ {
		for k := 0; k < g.n; k++ {
			// shifted position (l, k) shows frequency ((l - lines/2) mod lines, ...)
			fl, fk := (l-g.lines/2+g.lines)%g.lines, (k-g.n/2+g.n)%g.n
			v := float64(float32(math.Log1p(cmplx.Abs(fullAt(g, h, fl, fk)))))
			logmag[l*g.n+k] = v
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	scale, shift := 0.0, 0.0
	if hi > lo {
		scale = 255 / (hi - lo)
		shift = -lo * scale
	}
	d := accessOf(g, j.dst)
	for l := 0; l < g.lines; l++ {
		for k := 0; k < g.n; k++ {
			d.setReal(l, k, float64(float32(logmag[l*g.n+k]*scale+shift)))
		}
	}
}
