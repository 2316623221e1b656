package wavelet

import (
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// mat is a rows x cols matrix of float64 values, row after row.
type mat struct {
	rows, cols int
	v          []float64
}

func newMat(rows, cols int) *mat { return &mat{rows, cols, make([]float64, rows*cols)} }

func (m *mat) row(r int) []float64 { return m.v[r*m.cols : (r+1)*m.cols] }

// t is m transposed.
func (m *mat) t() *mat {
	o := newMat(m.cols, m.rows)
	for r := 0; r < m.rows; r++ {
		for c, x := range m.row(r) {
			o.v[c*o.cols+r] = x
		}
	}
	return o
}

// load reads a 32FC1 image.
func load(s *core.State) *mat {
	m := newMat(s.Rows, s.Cols)
	v := cpu.HostView(s)
	for r := 0; r < s.Rows; r++ {
		for c, x := range cpu.Row[float32](v, r) {
			m.v[r*m.cols+c] = float64(x)
		}
	}
	return m
}

// store writes m into a 32FC1 image of its size.
func store(m *mat, d *core.State) {
	v := cpu.HostView(d)
	for r := 0; r < m.rows; r++ {
		out := cpu.Row[float32](v, r)
		for c, x := range m.row(r) {
			out[c] = float32(x)
		}
	}
}

// cpu is the CPU twin of the wavelet kernels (kernels/wavelet.cu): the same sums
// in float64, from PyWavelets' definitions.
func (st *step) cpu() {
	switch st.kind {
	case fwdRows:
		a, d := st.fwd(load(st.in[0]))
		store(a, st.out[0])
		store(d, st.out[1])
	case fwdCols:
		a, d := st.fwd(load(st.in[0]).t())
		store(a.t(), st.out[0])
		store(d.t(), st.out[1])
	case fwd2:
		// Along the columns, then along the rows (pywt's dwtn: axis 0 first).
		va, vd := st.fwd(load(st.in[0]).t())
		aa, ad := st.fwd(va.t())
		da, dd := st.fwd(vd.t())
		store(aa, st.out[0]) // cA
		store(da, st.out[1]) // cH: details along the columns
		store(ad, st.out[2]) // cV: details along the rows
		store(dd, st.out[3]) // cD
	case invRows:
		store(st.inv(load(st.in[0]), load(st.in[1])), st.out[0])
	case invCols:
		store(st.inv(load(st.in[0]).t(), load(st.in[1]).t()).t(), st.out[0])
	case inv2:
		lo := st.inv(load(st.in[0]), load(st.in[2])) // cA, cV
		hi := st.inv(load(st.in[1]), load(st.in[3])) // cH, cD
		store(st.inv(lo.t(), hi.t()).t(), st.out[0])
	}
}

// fwd is one forward level of each row of x: a[o] = sum_j lo[j] x[2o+off-j], d
// likewise with hi, x extended by the mode.
func (st *step) fwd(x *mat) (a, d *mat) {
	n := x.cols
	m := CoeffLen(n, st.f, st.mode)
	a, d = newMat(x.rows, m), newMat(x.rows, m)
	cpu.ParallelRows(x.rows, m*st.f*16, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			xr, ar, dr := x.row(r), a.row(r), d.row(r)
			for o := 0; o < m; o++ {
				var sa, sd float64
				if k := 2*o + st.off; k-st.f+1 >= 0 && k < n {
					// Inside the signal: no extension (the same sums as below).
					for j := 0; j < st.f; j++ {
						v := xr[k-j]
						sa += st.lo[j] * v
						sd += st.hi[j] * v
					}
					ar[o], dr[o] = sa, sd
					continue
				}
				for j := 0; j < st.f; j++ {
					i1, w1, i2, w2 := ext(2*o+st.off-j, n, st.mode)
					v := w1 * xr[i1]
					if w2 != 0 {
						v += w2 * xr[i2]
					}
					sa += st.lo[j] * v
					sd += st.hi[j] * v
				}
				ar[o], dr[o] = sa, sd
			}
		}
	})
	return a, d
}

// inv is one inverse level of each row of a and d: out[i] = sum over the j of
// i+off's parity of lo[j] a[k] + hi[j] d[k], k = (i+off-j)/2 (modulo the
// coefficients' length in Periodization mode; in range otherwise).
func (st *step) inv(a, d *mat) *mat {
	m := a.cols
	l := invLen(m, st.f, st.mode)
	out := newMat(a.rows, l)
	cpu.ParallelRows(a.rows, l*st.f*8, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			ar, dr, or := a.row(r), d.row(r), out.row(r)
			for i := 0; i < l; i++ {
				var s float64
				for j := (i + st.off) & 1; j < st.f; j += 2 {
					k := (i + st.off - j) / 2 // exact: i+off-j is even
					if st.mode == Periodization {
						k = mod(k, m)
					} else if k < 0 || k >= m {
						continue
					}
					s += st.lo[j]*ar[k] + st.hi[j]*dr[k]
				}
				or[i] = s
			}
		}
	})
	return out
}

// sumSquaresCPU is the CPU twin of gi_wt_sumsq: a band's sum of squares.
func sumSquaresCPU(s *core.State) float64 {
	v := cpu.HostView(s)
	t := 0.0
	for r := 0; r < s.Rows; r++ {
		for _, x := range cpu.Row[float32](v, r) {
			t += float64(x) * float64(x)
		}
	}
	return t
}

// thresholdCPU is the CPU twin of gi_wt_threshold (pywt.threshold): soft, x -
// thr sign(x) where |x| > thr; hard, x where |x| >= thr; 0 elsewhere.
func thresholdCPU(s *core.State, thr float32, hard bool) {
	v := cpu.HostView(s)
	for r := 0; r < s.Rows; r++ {
		row := cpu.Row[float32](v, r)
		for i, x := range row {
			a := float32(math.Abs(float64(x)))
			switch {
			case hard && a < thr, !hard && a <= thr:
				row[i] = 0
			case !hard:
				row[i] = float32(math.Copysign(float64(a-thr), float64(x)))
			}
		}
	}
}
