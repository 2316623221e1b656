package wavelet

import (
	"fmt"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Axis is the direction a 1-D transform runs in.
type Axis int

// The axes.
const (
	AlongRows Axis = iota // each row is a signal (pywt's axis=-1): a batch of signals
	AlongCols             // each column is a signal (pywt's axis=0)
)

func (a Axis) String() string {
	switch a {
	case AlongRows:
		return "rows"
	case AlongCols:
		return "columns"
	}
	return fmt.Sprintf("Axis(%d)", int(a))
}

// kind is one transform kernel's job.
type kind int

const (
	fwdRows kind = iota
	fwdCols
	fwd2
	invRows
	invCols
	inv2
)

func (k kind) inverse() bool { return k >= invRows }

// step is one level of one transform: what the CPU twin computes and a kernel
// launches.
type step struct {
	kind   kind
	f      int       // taps
	lo, hi []float64 // decomposition filters (forward) or reconstruction ones (inverse)
	mode   Mode
	// off aligns the filters: forward, output o reads samples 2o+off-j (off is 1, or
	// f/2 in Periodization mode); inverse, output i takes coefficients (i+off-j)/2
	// (off is f-2, or f/2-1 in Periodization mode, its indices modulo the
	// coefficients' length).
	off     int
	in, out []*core.State
}

// newStep is the step of kind k with w and m.
func newStep(k kind, w *Wavelet, m Mode) *step {
	st := &step{kind: k, f: w.Len(), mode: m}
	per := m == Periodization
	switch {
	case !k.inverse() && per:
		st.lo, st.hi, st.off = w.DecLo, w.DecHi, st.f/2
	case !k.inverse():
		st.lo, st.hi, st.off = w.DecLo, w.DecHi, 1
	case per:
		st.lo, st.hi, st.off = w.RecLo, w.RecHi, st.f/2-1
	default:
		st.lo, st.hi, st.off = w.RecLo, w.RecHi, st.f-2
	}
	return st
}

// invLen is the length an inverse step makes from m coefficients of each kind:
// 2m-f+2, or 2m in Periodization mode (pywt's idwt_buffer_length).
func invLen(m, f int, mode Mode) int {
	if mode == Periodization {
		return 2 * m
	}
	return 2*m - f + 2
}

// prepare checks a call's wavelet, mode and input images (named as its
// parameters: 32FC1, one size, one device), its errors prefixed by op.
func prepare(op string, w *Wavelet, m Mode, names []string, ims ...*gpuimage.Image) ([]*core.State, error) {
	if err := w.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	in, err := checkCoeffs(names, ims)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return in, nil
}

// checkCoeffs checks that ims are open 32FC1 images of one size on one device.
func checkCoeffs(names []string, ims []*gpuimage.Image) ([]*core.State, error) {
	sts := make([]*core.State, len(ims))
	for i, im := range ims {
		s := core.StateOf(im)
		if err := s.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		if s.Depth != core.Depth32F || s.Chans != 1 {
			return nil, fmt.Errorf("%w: %s is %v (coefficients and signals are 32FC1)", gpuimage.ErrBadType, names[i], im.Type())
		}
		if i > 0 {
			if s.Dev != sts[0].Dev {
				return nil, fmt.Errorf("%w: %s is on %s, %s on %s", gpuimage.ErrDeviceMismatch, names[i], s.Dev.Name(), names[0], sts[0].Dev.Name())
			}
			if s.Rows != sts[0].Rows || s.Cols != sts[0].Cols {
				return nil, fmt.Errorf("%w: %s is %dx%d, %s %dx%d", gpuimage.ErrSizeMismatch, names[i], s.Cols, s.Rows, names[0], sts[0].Cols, sts[0].Rows)
			}
		}
		sts[i] = s
	}
	return sts, nil
}

// run makes the outputs (rows x cols 32FC1 each, on the inputs' device; through new
// images where one shares memory with an input or another output) and runs st.
func (st *step) run(op string, in []*core.State, outs []*gpuimage.Image, rows, cols int, opts []gpuimage.Option) error {
	dev := in[0].Dev
	if rows > maxDim || cols > maxDim {
		return fmt.Errorf("%s: a %dx%d result: at most %d rows and columns", op, cols, rows, maxDim)
	}
	st.in = in
	st.out = make([]*core.State, len(outs))
	var copies [][2]*gpuimage.Image
	defer func() {
		for _, c := range copies {
			c[0].Close()
		}
	}()
	for i, o := range outs {
		d := core.StateOf(o)
		if d == nil {
			return fmt.Errorf("%s: %w: output %d", op, gpuimage.ErrNil, i+1)
		}
		shared := false
		for _, s := range in {
			shared = shared || d == s || core.Overlaps(d, s)
		}
		for _, p := range outs[:i] {
			ps := core.StateOf(p)
			shared = shared || d == ps || core.Overlaps(d, ps)
		}
		if shared {
			if err := d.CheckDst(dev); err != nil {
				return fmt.Errorf("%s: output %d: %w", op, i+1, err)
			}
			tmp := &gpuimage.Image{}
			copies = append(copies, [2]*gpuimage.Image{tmp, o})
			d = core.StateOf(tmp)
		}
		if err := d.Create(dev, rows, cols, core.Depth32F, 1); err != nil {
			return fmt.Errorf("%s: output %d: %w", op, i+1, err)
		}
		st.out[i] = d
	}
	err := core.Run(dev, opts, append(append([]*core.State(nil), in...), st.out...), func(str core.Stream) error {
		if dev.IsCPU() {
			st.cpu()
			return nil
		}
		return st.cuda(str)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	for _, c := range copies {
		if err := c[0].CopyTo(c[1], opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	return nil
}

// maxDim bounds a transform's sizes (the kernels index in int32 and loop their
// grids over rows past 65535 blocks).
const maxDim = 1 << 28

// DWT is one level of the discrete wavelet transform of each row (AlongRows) or
// each column (AlongCols) of src (32FC1), as pywt.dwt(x, w, mode, axis): cA gets
// the approximation coefficients and cD the details, CoeffLen(n, w.Len(), m) of
// each along the axis. cA and cD are made (32FC1 on src's device) as
// gpuimage.Image's outputs are.
func DWT(src, cA, cD *gpuimage.Image, w *Wavelet, m Mode, axis Axis, opts ...gpuimage.Option) error {
	const op = "wavelet.DWT"
	in, err := prepare(op, w, m, []string{"src"}, src)
	if err != nil {
		return err
	}
	s := in[0]
	switch axis {
	case AlongRows:
		return newStep(fwdRows, w, m).run(op, in, []*gpuimage.Image{cA, cD}, s.Rows, CoeffLen(s.Cols, w.Len(), m), opts)
	case AlongCols:
		return newStep(fwdCols, w, m).run(op, in, []*gpuimage.Image{cA, cD}, CoeffLen(s.Rows, w.Len(), m), s.Cols, opts)
	}
	return fmt.Errorf("%s: unknown axis %v", op, axis)
}

// IDWT is one level of the inverse transform along the rows or columns, as
// pywt.idwt(cA, cD, w, mode, axis): cA and cD (32FC1, one size) give dst 2m-F+2
// samples along the axis from m coefficients of each (2m in Periodization mode).
func IDWT(cA, cD, dst *gpuimage.Image, w *Wavelet, m Mode, axis Axis, opts ...gpuimage.Option) error {
	const op = "wavelet.IDWT"
	in, err := prepare(op, w, m, []string{"cA", "cD"}, cA, cD)
	if err != nil {
		return err
	}
	s := in[0]
	n := s.Cols
	if axis == AlongCols {
		n = s.Rows
	} else if axis != AlongRows {
		return fmt.Errorf("%s: unknown axis %v", op, axis)
	}
	l := invLen(n, w.Len(), m)
	if l < 1 {
		return fmt.Errorf("%s: %d coefficients are too few for %s's %d taps (mode %v): at least %d", op, n, w.Name, w.Len(), m, w.Len()/2)
	}
	if axis == AlongRows {
		return newStep(invRows, w, m).run(op, in, []*gpuimage.Image{dst}, s.Rows, l, opts)
	}
	return newStep(invCols, w, m).run(op, in, []*gpuimage.Image{dst}, l, s.Cols, opts)
}

// DWT2 is one level of the 2-D transform of src (32FC1), as pywt.dwt2(x, w, mode):
// the approximation cA and the horizontal, vertical and diagonal details cH, cV
// and cD (pywt's (cA, (cH, cV, cD))), each CoeffLen of the columns wide and of the
// rows tall.
func DWT2(src, cA, cH, cV, cD *gpuimage.Image, w *Wavelet, m Mode, opts ...gpuimage.Option) error {
	const op = "wavelet.DWT2"
	in, err := prepare(op, w, m, []string{"src"}, src)
	if err != nil {
		return err
	}
	s := in[0]
	return newStep(fwd2, w, m).run(op, in, []*gpuimage.Image{cA, cH, cV, cD},
		CoeffLen(s.Rows, w.Len(), m), CoeffLen(s.Cols, w.Len(), m), opts)
}

// IDWT2 is one level of the inverse 2-D transform, as pywt.idwt2((cA, (cH, cV,
// cD)), w, mode): the four (32FC1, one size) give dst.
func IDWT2(cA, cH, cV, cD, dst *gpuimage.Image, w *Wavelet, m Mode, opts ...gpuimage.Option) error {
	const op = "wavelet.IDWT2"
	in, err := prepare(op, w, m, []string{"cA", "cH", "cV", "cD"}, cA, cH, cV, cD)
	if err != nil {
		return err
	}
	s := in[0]
	r, c := invLen(s.Rows, w.Len(), m), invLen(s.Cols, w.Len(), m)
	if r < 1 || c < 1 {
		return fmt.Errorf("%s: %dx%d coefficients are too few for %s's %d taps (mode %v): at least %d each way", op,
			s.Cols, s.Rows, w.Name, w.Len(), m, w.Len()/2)
	}
	return newStep(inv2, w, m).run(op, in, []*gpuimage.Image{dst}, r, c, opts)
}
