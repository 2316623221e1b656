package dsp

import (
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// sosGroup is the most sections one pass of the IIR kernels runs; longer cascades
// run in passes of this many. The kernels take up to GI_IIR_MAXS/2 = 8; a state of
// 16 (8 sections) came out up to 5e-3 of the RMS off the CPU's on 1.1e6 samples of
// an order-8 band-pass started from random states, against 3e-5 with 4. Random
// states drive such cascades to outputs of 1e9 and more in the first samples,
// which then dominate the RMS (with 4 sections too: 1e-4 for 12 sections from
// random states, 8e-6 from zero); 8 sections from steady states are not measured
// yet, so 4 it stays, at twice the passes for more than 4 sections.
const sosGroup = 4

// cascade is K sections of order P in direct form II transposed, shaped as one of
// the kernels (K*P <= GI_IIR_MAXS): SOSFilt's groups of up to sosGroup sections
// (P = 2, padded with pass-through sections to K = 1, 2, 4 or 8) or LFilter's one
// section of order up to MaxOrder (padded with zero coefficients to P = 1, 2, 4, 8
// or 16).
type cascade struct {
	k, p  int
	sreal int       // the state values that are the filter's (zi, zf)
	sec0  int       // the group's first section in the filter (SOSFilt's zi rows)
	coef  []float64 // each section's b0..bP, then -a1..-aP
	zi    []float64 // the steady state of a unit step (FiltFilt), sreal values
	a     []float64 // the state's one-sample map with no input, S x S row-major
	tpow  []float64 // A^(L*2^j) for the threads' scans, j < GI_IIR_TLEVELS, each S x S
	g     []float64 // gi_iir_scan's state responses of GI_IIR_SCAN_G samples (g[i*S+s])
	ag    []float64 // A^GI_IIR_SCAN_G, S x S row-major
}

func pow2AtLeast(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// tfCascade shapes LFilter's normalized b and a (of one length) as a cascade.
func tfCascade(op string, b, a []float64) (*cascade, error) {
	order := len(b) - 1
	c := &cascade{k: 1, p: pow2AtLeast(max(order, 1)), sreal: order}
	c.coef = make([]float64, 2*c.p+1)
	copy(c.coef, b)
	for i := 1; i <= order; i++ {
		c.coef[c.p+i] = -a[i]
	}
	if err := c.powers(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return c, nil
}

// sosCascades checks sos and shapes it as cascades of up to sosGroup sections.
func sosCascades(op string, sos SOS) ([]*cascade, error) {
	if err := checkSOS(op, sos); err != nil {
		return nil, err
	}
	var cs []*cascade
	for g := 0; g < len(sos); g += sosGroup {
		secs := sos[g:min(len(sos), g+sosGroup)]
		c := &cascade{k: pow2AtLeast(len(secs)), p: 2, sreal: 2 * len(secs), sec0: g}
		c.coef = make([]float64, c.k*5)
		for k := 0; k < c.k; k++ {
			s := [6]float64{1, 0, 0, 1, 0, 0} // passes samples through
			if k < len(secs) {
				s = secs[k]
			}
			copy(c.coef[k*5:], []float64{s[0], s[1], s[2], -s[4], -s[5]})
		}
		if err := c.powers(); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// merged is the cascades as one, with no pass-through sections: the CPU device
// runs a filter in one pass, in float64 throughout (the GPU rounds to float32
// between its passes of sosGroup sections).
func merged(cs []*cascade) []*cascade {
	if len(cs) == 1 && (cs[0].p != 2 || cs[0].k*2 == cs[0].sreal) {
		return cs // a transfer function, or sections with no padding
	}
	m := &cascade{p: 2}
	for _, c := range cs {
		secs := c.sreal / 2
		m.k += secs
		m.sreal += c.sreal
		m.coef = append(m.coef, c.coef[:secs*5]...)
		m.zi = append(m.zi, c.zi...)
	}
	return []*cascade{m}
}

// step filters one sample v through the sections from state z (K*P values), as the
// kernels' Cascade::step.
func (c *cascade) step(z []float64, v float64) float64 {
	p := c.p
	for k := 0; k < c.k; k++ {
		s, q := c.coef[k*(2*p+1):], z[k*p:]
		y := s[0]*v + q[0]
		for i := 0; i < p-1; i++ {
			q[i] = s[i+1]*v + s[p+1+i]*y + q[i+1]
		}
		q[p-1] = s[p]*v + s[2*p]*y
		v = y
	}
	return v
}

// asF32 is c with its coefficients rounded to float32, as the kernels filter.
func (c *cascade) asF32() cascade {
	f := *c
	f.coef = make([]float64, len(c.coef))
	for i, v := range c.coef {
		f.coef[i] = float64(float32(v))
	}
	return f
}

// powers sets c.a, the state's one-sample map with no input, c.tpow, the powers
// of it the threads' scans take in their parameters, and c.g and c.ag, what the
// single-pass kernel takes there; and it checks the powers the scans use:
// A^(L*2^j) for the threads' runs of L samples, then A^(B*2^j) for blocks of B
// (gi_iir_powers makes those on the device), all successive squares of A^L, up to
// 2^23 samples (the single-pass kernel's reach no further than 2^18). A filter
// whose state grows without bound is refused.
func (c *cascade) powers() error {
	s := c.k * c.p
	m := make([]float64, s*s)
	z := make([]float64, s)
	// A of the coefficients the GPU filters with (float32): the powers of a
	// filter's A move by about n times its rounding, 4e-4 for the 4096 samples of a
	// block, enough to show in the outputs of a pole near the unit circle.
	f32 := c.asF32()
	for j := 0; j < s; j++ {
		clear(z)
		z[j] = 1
		f32.step(z, 0)
		for i := 0; i < s; i++ {
			m[i*s+j] = z[i]
		}
	}
	c.a = m
	// The single-pass kernel's state responses: state s after GI_IIR_SCAN_G samples
	// from zero of a unit sample at i and zeros. The last one's is the state one
	// step from zero; each one before it is A times the next one's.
	c.g = make([]float64, iirScanG*s)
	clear(z)
	f32.step(z, 1)
	copy(c.g[(iirScanG-1)*s:], z)
	for i := iirScanG - 2; i >= 0; i-- {
		next, g := c.g[(i+1)*s:(i+2)*s], c.g[i*s:(i+1)*s]
		for r := 0; r < s; r++ {
			for k := 0; k < s; k++ {
				g[r] += m[r*s+k] * next[k]
			}
		}
	}
	c.ag = m
	for l := 1; l < iirScanG; l *= 2 {
		c.ag = matSquare(c.ag, s)
	}
	for l := 1; l < iirL; l *= 2 {
		m = matSquare(m, s)
	}
	c.tpow = c.tpow[:0]
	for j := 0; j < iirTLevels+iirBLevels; j++ {
		if j > 0 {
			m = matSquare(m, s)
		}
		if j < iirTLevels {
			c.tpow = append(c.tpow, m...)
		}
		for _, x := range m {
			if math.IsNaN(x) || math.Abs(x) > 1e30 {
				return fmt.Errorf("the filter is unstable: its state grows without bound (a pole outside the unit circle)")
			}
		}
	}
	return nil
}

func matSquare(m []float64, s int) []float64 {
	out := make([]float64, s*s)
	for i := 0; i < s; i++ {
		for k := 0; k < s; k++ {
			if a := m[i*s+k]; a != 0 {
				for j := 0; j < s; j++ {
					out[i*s+j] += a * m[k*s+j]
				}
			}
		}
	}
	return out
}

// stateRef is where a filter's state lives in an image: value s of signal y at byte
// off + y*row + (s/2)*pair + (s%2)*4 from the image's first element.
type stateRef struct {
	st             *core.State
	off, row, pair int
}

// stateShape is the zi/zf image a call takes: LFilter's rows x order (secs 0), or
// SOSFilt's secs x 2*rows.
type stateShape struct{ rows, cols, secs int }

func (sh stateShape) dims() (int, int) {
	if sh.secs > 0 {
		return sh.secs, sh.cols
	}
	return sh.rows, sh.cols
}

// ref is the state of cascade c in image st.
func (sh stateShape) ref(st *core.State, c *cascade) stateRef {
	if sh.secs > 0 {
		return stateRef{st: st, off: c.sec0 * st.Pitch, row: 8, pair: st.Pitch}
	}
	return stateRef{st: st, row: st.Pitch, pair: 8}
}

// iirStep is one pass of a cascade over a batch (IIRParams, which the kernels
// take, says what each field means).
type iirStep struct {
	c                       *cascade
	in, out                 *core.State
	pad, length, opad, outn int
	rev                     bool
	ziMode                  int
	zi, zf                  stateRef
	x0in, x0out             *core.State
}

// runSteps runs the passes in order on the device of src.
func runSteps(dev core.Backend, opts []gpuimage.Option, imgs []*core.State, steps []iirStep) error {
	return core.Run(dev, opts, imgs, func(str core.Stream) error {
		for i := range steps {
			var err error
			if dev.IsCPU() {
				iirCPU(&steps[i])
			} else {
				err = iirCUDA(str, dev, &steps[i])
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// runFilter runs LFilterState and SOSFiltState once checked: the cascades in turn,
// src into dst, then dst into itself.
func runFilter(op string, src, dst *gpuimage.Image, cs []*cascade, sh stateShape, zi, zf *gpuimage.Image, opts []gpuimage.Option) error {
	s, d := core.StateOf(src), core.StateOf(dst)
	if s.Dev.IsCPU() {
		cs = merged(cs)
	}
	r, c := sh.dims()
	if (zi != nil || zf != nil) && c == 0 {
		return fmt.Errorf("%s: the filter has no state (order 0): zi and zf must be nil", op)
	}
	var zs *core.State
	if zi != nil {
		zs = core.StateOf(zi)
		if err := zs.Check(); err != nil {
			return fmt.Errorf("%s: zi: %w", op, err)
		}
		if zs.Dev != s.Dev {
			return fmt.Errorf("%s: zi: %w: on %s, signals on %s", op, gpuimage.ErrDeviceMismatch, zs.Dev.Name(), s.Dev.Name())
		}
		if zs.Depth != core.Depth32F || zs.Chans != 1 || zs.Rows != r || zs.Cols != c {
			return fmt.Errorf("%s: zi: %w: %v %dx%d, want 32FC1 %dx%d (rows x cols)", op, gpuimage.ErrSizeMismatch, zi.Type(), zs.Rows, zs.Cols, r, c)
		}
	}
	// Outputs that overlap an input are written through new images.
	if core.Overlaps(s, d) || zs != nil && core.Overlaps(zs, d) {
		tmp := &gpuimage.Image{}
		defer tmp.Close()
		if err := runFilter(op, src, tmp, cs, sh, zi, zf, opts); err != nil {
			return err
		}
		return copyOut(op, tmp, dst, opts)
	}
	if zf != nil {
		if fs := core.StateOf(zf); fs.Buf != nil && (core.Overlaps(fs, s) || zs != nil && core.Overlaps(fs, zs) || core.Overlaps(fs, d)) {
			tmp := &gpuimage.Image{}
			defer tmp.Close()
			if err := runFilter(op, src, dst, cs, sh, zi, tmp, opts); err != nil {
				return err
			}
			return copyOut(op, tmp, zf, opts)
		}
	}
	if err := d.Create(s.Dev, s.Rows, s.Cols, core.Depth32F, 1); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	imgs := []*core.State{s, d}
	var fs *core.State
	if zf != nil {
		fs = core.StateOf(zf)
		if err := fs.Create(s.Dev, r, c, core.Depth32F, 1); err != nil {
			return fmt.Errorf("%s: zf: %w", op, err)
		}
		imgs = append(imgs, fs)
	}
	if zs != nil {
		imgs = append(imgs, zs)
	}
	steps := make([]iirStep, len(cs))
	for g, c := range cs {
		st := iirStep{c: c, in: s, out: d, length: s.Cols, outn: s.Cols}
		if g > 0 {
			st.in = d
		}
		if zs != nil {
			st.ziMode, st.zi = 1, sh.ref(zs, c)
		}
		if fs != nil {
			st.zf = sh.ref(fs, c)
		}
		steps[g] = st
	}
	if err := runSteps(s.Dev, opts, imgs, steps); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// runFiltFilt runs FiltFilt and SOSFiltFilt once checked: the cascades forward over
// src extended by pad samples at each end into a work image, then backward over
// that into dst, each pass from the steady state of its first sample (the first
// cascade's passes record that sample for the later ones, in x0). The CPU device
// runs both passes of its one merged cascade in float64 instead (filtFiltCPU).
func runFiltFilt(op string, src, dst *gpuimage.Image, cs []*cascade, pad int, opts []gpuimage.Option) error {
	s, d := core.StateOf(src), core.StateOf(dst)
	if s.Dev.IsCPU() {
		cs = merged(cs)
	}
	if core.Overlaps(s, d) {
		tmp := &gpuimage.Image{}
		defer tmp.Close()
		if err := runFiltFilt(op, src, tmp, cs, pad, opts); err != nil {
			return err
		}
		return copyOut(op, tmp, dst, opts)
	}
	if err := d.Create(s.Dev, s.Rows, s.Cols, core.Depth32F, 1); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if s.Dev.IsCPU() {
		c := cs[0] // merged: the whole filter
		err := core.Run(s.Dev, opts, []*core.State{s, d}, func(core.Stream) error {
			filtFiltCPU(c, s, d, pad)
			return nil
		})
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		return nil
	}
	n, l := s.Cols, s.Cols+2*pad
	var work, x0 gpuimage.Image
	defer work.Close()
	defer x0.Close()
	ws, xs := core.StateOf(&work), core.StateOf(&x0)
	if err := ws.Create(s.Dev, s.Rows, l, core.Depth32F, 1); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	imgs := []*core.State{s, d, ws}
	if len(cs) > 1 {
		if err := xs.Create(s.Dev, 1, s.Rows, core.Depth32F, 1); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		imgs = append(imgs, xs)
	} else {
		xs = nil
	}
	var steps []iirStep
	for _, rev := range []bool{false, true} {
		for g, c := range cs {
			st := iirStep{c: c, in: ws, out: ws, length: l, outn: l, rev: rev, ziMode: 2}
			if !rev && g == 0 {
				st.in, st.pad = s, pad
			}
			if rev && g == len(cs)-1 {
				st.out, st.opad, st.outn = d, pad, n
			}
			if xs != nil {
				if g == 0 {
					st.x0out = xs
				} else {
					st.x0in = xs
				}
			}
			steps = append(steps, st)
		}
	}
	if err := runSteps(s.Dev, opts, imgs, steps); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// copyOut copies a result made in a new image to the caller's.
func copyOut(op string, tmp, dst *gpuimage.Image, opts []gpuimage.Option) error {
	if err := tmp.CopyTo(dst, opts...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
