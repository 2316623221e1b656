//go:build cuda

package fftfilter

import (
	"fmt"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cuda"
	"github.com/gpuimg/gpuimg/internal/cufft"
	"github.com/gpuimg/gpuimg/internal/fftplan"
)

// FreePlans waits for the streams that used cached cuFFT plans and frees them all,
// with their work areas.
func FreePlans() error { return fftplan.FreeAll() }

// side is one side of a transform in device memory: a base address and byte steps
// between lines and between elements.
type side struct {
	ptr        uintptr
	line, step int
}

// layout is the cuFFT layout of a side whose elements are esz bytes: the basic
// layout when its lines of n elements are packed (cuFFT's fastest plans), the
// advanced one otherwise.
func (g geom) layout(s side, esz, n int) cufft.Layout {
	if s.step == esz && (s.line == esz*n || (!g.twoD && g.lines == 1)) {
		return cufft.Layout{}
	}
	return g.advanced(s, esz, n)
}

// layouts returns the layouts of a transform's two sides: basic only when both can
// be (cuFFT takes the basic layout on both sides or on neither).
func (g geom) layouts(in side, inSize, inN int, out side, outSize, outN int) (cufft.Layout, cufft.Layout) {
	li, lo := g.layout(in, inSize, inN), g.layout(out, outSize, outN)
	if (li.Embed == nil) != (lo.Embed == nil) {
		li, lo = g.advanced(in, inSize, inN), g.advanced(out, outSize, outN)
	}
	return li, lo
}

// advanced is the cuFFT advanced layout of a side.
func (g geom) advanced(s side, esz, n int) cufft.Layout {
	if g.twoD {
		return cufft.Layout{Embed: []int{g.lines, s.line / esz}, Stride: s.step / esz, Dist: g.lines * s.line / esz}
	}
	dist := s.line / esz
	if g.lines == 1 {
		dist = n * s.step / esz
	}
	return cufft.Layout{Embed: []int{n}, Stride: s.step / esz, Dist: dist}
}

func (g geom) dims() ([]int, int) {
	if g.twoD {
		return []int{g.lines, g.n}, 1
	}
	return []int{g.n}, g.lines
}

// fft is the device's transform machinery for one call.
type fft struct {
	b    *cuda.Backend
	str  core.Stream
	dev  core.Backend
	bufs []*core.Buffer
}

func newFFT(str core.Stream, dev core.Backend) (*fft, error) {
	b, ok := dev.(*cuda.Backend)
	if !ok {
		return nil, fmt.Errorf("fftfilter: %s is not a CUDA device", dev.Name())
	}
	if _, _, err := cufft.Load(); err != nil {
		return nil, err
	}
	return &fft{b: b, str: str, dev: dev}, nil
}

// alloc returns a temporary device buffer, freed by done.
func (f *fft) alloc(n int) (uintptr, error) {
	buf, err := f.dev.Alloc(n)
	if err != nil {
		return 0, err
	}
	buf.Touch(f.str)
	f.bufs = append(f.bufs, buf)
	return buf.Ptr, nil
}

func (f *fft) done() {
	for _, b := range f.bufs {
		b.Release()
	}
}

// launch runs a frequency-domain kernel over cols x rows elements, its parameter
// struct p (fftfilter/params.go) passed by value.
func (f *fft) launch(name string, cols, rows int, p core.Params) error {
	return launchFFT(f.dev, f.str, name, cols, rows, p)
}

func launchFFT(dev core.Backend, str core.Stream, name string, cols, rows int, p core.Params) error {
	return dev.Launch(str, name, core.Grid(cols, rows, fftThreads), [3]int{fftThreads, 1, 1}, 0, p)
}

// fs is the side as the kernels' FftSide.
func (s side) fs() fftSide { return fftSide{P: s.ptr, Line: int32(s.line), Step: int32(s.step)} }

// copyElems copies n-byte elements (lines x count of them) between sides, for the
// length-1 transforms cuFFT is not asked to do.
func (f *fft) copyElems(g geom, dst, src side, size int) error {
	if g.n != 1 {
		return fmt.Errorf("fftfilter: internal error: copyElems on lines of %d", g.n)
	}
	return f.dev.Copy2D(core.Copy{Dst: &core.Buffer{Ptr: dst.ptr, Dev: f.dev}, DstPitch: dst.line,
		Src: &core.Buffer{Ptr: src.ptr, Dev: f.dev}, SrcPitch: src.line, Width: size, Rows: g.lines}, f.str)
}

// rfft transforms real lines at in to the packed half spectrum at out.
func (f *fft) rfft(g geom, in side, out uintptr) error {
	return f.rfftTo(g, in, side{ptr: out, line: 8 * g.half(), step: 8})
}

// rfftTo transforms real lines at in to the half spectrum laid out as half says.
func (f *fft) rfftTo(g geom, in side, half side) error {
	out := half.ptr
	if g.n == 1 {
		if err := f.dev.Memset2D(&core.Buffer{Ptr: out, Dev: f.dev}, 0, 8, 8, g.lines, 0, f.str); err != nil {
			return err
		}
		return f.copyElems(g, half, in, 4)
	}
	n, batch := g.dims()
	li, lo := g.layouts(in, 4, g.n, half, 8, g.half())
	p, err := fftplan.Get(f.b, f.str, cufft.R2C, n, li, lo, batch)
	if err != nil {
		return err
	}
	return p.Exec(f.b, f.str, func(p *cufft.Plan) error { return p.ExecR2C(in.ptr, out) })
}

// irfft transforms the packed half spectrum at in (which it overwrites) to real lines.
func (f *fft) irfft(g geom, in uintptr, out side) error {
	half := side{ptr: in, line: 8 * g.half(), step: 8}
	if g.n == 1 {
		return f.copyElems(g, out, half, 4)
	}
	n, batch := g.dims()
	li, lo := g.layouts(half, 8, g.half(), out, 4, g.n)
	p, err := fftplan.Get(f.b, f.str, cufft.C2R, n, li, lo, batch)
	if err != nil {
		return err
	}
	return p.Exec(f.b, f.str, func(p *cufft.Plan) error { return p.ExecC2R(in, out.ptr) })
}

// cfft transforms complex lines.
func (f *fft) cfft(g geom, in, out side, dir int) error {
	if g.n == 1 {
		return f.copyElems(g, out, in, 8)
	}
	n, batch := g.dims()
	li, lo := g.layouts(in, 8, g.n, out, 8, g.n)
	p, err := fftplan.Get(f.b, f.str, cufft.C2C, n, li, lo, batch)
	if err != nil {
		return err
	}
	return p.Exec(f.b, f.str, func(p *cufft.Plan) error { return p.ExecC2C(in.ptr, out.ptr, dir) })
}

func sideOf(g geom, s *core.State) side {
	l, e := g.strides(s.Layout)
	return side{ptr: s.Ptr(), line: l, step: e}
}

// aligned reports whether cuFFT may read or write the side in place: element and
// line steps whole multiples of the element and an 8-byte aligned base.
func (s side) aligned(esz int) bool {
	return s.ptr%8 == 0 && s.line%esz == 0 && s.step%esz == 0
}

func cudaDFT(str core.Stream, j *dftJob) error {
	f, err := newFFT(str, j.src.Dev)
	if err != nil {
		return err
	}
	defer f.done()
	g := j.g
	src, dst := sideOf(g, j.src), sideOf(g, j.dst)
	switch {
	case j.ccsInPlace() && j.dst.Lead == ccsLead && j.dst.Off == ccsLead && dst.line >= 4*g.n+2*ccsLead:
		// cuFFT writes the half spectrum 4 bytes before each row (createCCS), which
		// puts the interior columns where CCS wants them; then only the first and
		// last columns are repacked.
		if !src.aligned(4) {
			if src, err = f.stage(g, src, 4); err != nil {
				return err
			}
		}
		if err := f.rfftTo(g, src, side{ptr: dst.ptr - ccsLead, line: dst.line, step: 8}); err != nil {
			return err
		}
		if !g.twoD {
			err = f.launch("gi_fft_ccs_fix1d", g.lines, 1, core.Struct(&fftCcsParams{Dst: dst.ptr, Pitch: int32(dst.line), Lines: int32(g.lines)}))
		} else {
			var tmp uintptr
			if tmp, err = f.alloc(8 * 2 * (g.lines/2 + 1)); err != nil {
				return err
			}
			p := core.Struct(&fftCcsParams{Dst: dst.ptr, Pitch: int32(dst.line), Lines: int32(g.lines), N: int32(g.n), Tmp: tmp})
			err = f.launch("gi_fft_ccs_save", g.lines/2+1, 1, p)
			if err == nil {
				err = f.launch("gi_fft_ccs_fill", g.lines, 1, p)
			}
		}
		if err != nil || j.scale == 1 {
			return err
		}
		return f.launch("gi_fft_scale_real", g.n, g.lines, core.Struct(&fftScaleParams{P: dst.fs(), Lines: int32(g.lines), N: int32(g.n), Scale: float32(j.scale)}))
	case !j.cin && !j.inverse && j.cout && j.scale == 1 && g.n > 1:
		// cuFFT writes the half spectrum into the left of dst; the right half is its
		// mirror image.
		if !src.aligned(4) {
			if src, err = f.stage(g, src, 4); err != nil {
				return err
			}
		}
		if err := f.rfftTo(g, src, dst); err != nil {
			return err
		}
		return f.launch("gi_fft_mirror", g.n-g.half(), g.lines, core.Struct(&fftMirrorParams{D: dst.fs(), Lines: int32(g.lines), N: int32(g.n), TwoD: core.Flag(g.twoD)}))
	case !j.cin && !j.inverse:
		h, err := f.alloc(8 * g.lines * g.half())
		if err != nil {
			return err
		}
		if !src.aligned(4) {
			if src, err = f.stage(g, src, 4); err != nil {
				return err
			}
		}
		if err := f.rfft(g, src, h); err != nil {
			return err
		}
		p := core.Struct(&fftPackParams{H: h, Lines: int32(g.lines), N: int32(g.n), TwoD: core.Flag(g.twoD), Dst: dst.fs(), Scale: float32(j.scale)})
		if j.cout {
			return f.launch("gi_fft_pack_full", g.n, g.lines, p)
		}
		return f.launch("gi_fft_pack_ccs", g.half(), g.lines, p)
	case j.cin && j.cout:
		dir := cufft.Forward
		if j.inverse {
			dir = cufft.Inverse
		}
		if err := f.cfft(g, src, dst, dir); err != nil {
			return err
		}
		if j.scale == 1 {
			return nil
		}
		return f.launch("gi_fft_scale", g.n, g.lines, core.Struct(&fftScaleParams{P: dst.fs(), Lines: int32(g.lines), N: int32(g.n), Scale: float32(j.scale)}))
	}
	// Inverse to a real image, from CCS or from a whole spectrum.
	h, err := f.alloc(8 * g.lines * g.half())
	if err != nil {
		return err
	}
	if err := f.launch("gi_fft_unpack", g.half(), g.lines, core.Struct(&fftUnpackParams{Src: src.fs(), Lines: int32(g.lines), N: int32(g.n),
		TwoD: core.Flag(g.twoD), Ccs: core.Flag(!j.cin), H: h, Scale: float32(j.scale)})); err != nil {
		return err
	}
	out := dst
	if !dst.aligned(4) {
		p, err := f.alloc(4 * g.lines * g.n)
		if err != nil {
			return err
		}
		out = side{ptr: p, line: 4 * g.n, step: 4}
	}
	if err := f.irfft(g, h, out); err != nil {
		return err
	}
	if out != dst {
		return f.copy(g, out, dst)
	}
	return nil
}

// stage copies real lines into a packed temporary that cuFFT can read.
func (f *fft) stage(g geom, s side, esz int) (side, error) {
	p, err := f.alloc(esz * g.lines * g.n)
	if err != nil {
		return side{}, err
	}
	t := side{ptr: p, line: esz * g.n, step: esz}
	return t, f.copy(g, s, t)
}

// copy copies the float elements of s to d.
func (f *fft) copy(g geom, s, d side) error {
	return f.launch("gi_fft_copy", g.n, g.lines, core.Struct(&fftCopyParams{S: s.fs(), D: d.fs(), Lines: int32(g.lines), N: int32(g.n)}))
}

func cudaMul(str core.Stream, j *mulJob) error {
	g := j.g
	a, b, d := sideOf(g, j.a), sideOf(g, j.b), sideOf(g, j.dst)
	return launchFFT(j.a.Dev, str, "gi_fft_mul", g.n, g.lines, core.Struct(&fftMulParams{A: a.fs(), B: b.fs(), D: d.fs(),
		Lines: int32(g.lines), N: int32(g.n), TwoD: core.Flag(g.twoD), Cplx: core.Flag(j.cplx), Conj: core.Flag(j.conj), Scale: 1}))
}

func cudaPolar(str core.Stream, d, x, y *core.State, mode int) error {
	n := d.Cols * d.Chans
	return launchFFT(d.Dev, str, "gi_fft_polar", n, d.Rows, core.Struct(&fftPolarParams{X: x.Ptr(), Xp: int32(x.Pitch),
		Y: y.Ptr(), Yp: int32(y.Pitch), D: d.Ptr(), Dp: int32(d.Pitch), Lines: int32(d.Rows), N: int32(n), Mode: int32(mode)}))
}

// filterParams fills gi_fft_mask's filter fields from a Filter: kind, shape, order,
// notch count, then cutoff, width, 1/cutoff² and each notch's (u, v, radius,
// 1/radius²).
func filterParams(fl *Filter, p *fftMaskParams) {
	inv := func(r float64) float64 {
		if r == 0 {
			return 0
		}
		return 1 / (r * r)
	}
	p.Kind, p.Shape, p.Order, p.Nnotch = int32(fl.Kind), int32(fl.Shape), int32(fl.Order), int32(len(fl.Notches))
	p.V[0], p.V[1], p.V[2] = fl.Cutoff, fl.Width, inv(fl.Cutoff)
	for i, n := range fl.Notches {
		copy(p.V[4+4*i:], []float64{n.U, n.V, n.Radius, inv(n.Radius)})
	}
}

// planeSide is a packed P x Q float plane in the job's transform geometry.
func (j *filterJob) planeSide(p uintptr) side {
	if j.g.trans {
		return side{ptr: p, line: 4 * j.p, step: 4}
	}
	return side{ptr: p, line: 4 * j.q, step: 4}
}

// load launches gi_fft_load: channel c of the source into a P x Q plane.
func (j *filterJob) load(f *fft, plane uintptr, c int) error {
	s := j.src
	wr, wc, ox, oy := s.BorderGeometry(j.isolated)
	return f.launch("gi_fft_load", j.q, j.p, core.Struct(&fftLoadParams{Src: s.Ptr(), Sp: int32(s.Pitch), Depth: int32(s.Depth),
		Cn: int32(s.Chans), C: int32(c), Wrows: int32(wr), Wcols: int32(wc), Ox: int32(ox), Oy: int32(oy), Border: int32(j.border),
		Bval: j.value[c], Ax: int32(j.ax), Ay: int32(j.ay), FillRows: int32(j.fillRows), FillCols: int32(j.fillCols),
		Plane: plane, P: int32(j.p), Q: int32(j.q)}))
}

func cudaFilter(str core.Stream, j *filterJob) error {
	f, err := newFFT(str, j.src.Dev)
	if err != nil {
		return err
	}
	defer f.done()
	g := j.g
	hlen := g.lines * g.half()
	h, err := f.alloc(8 * hlen)
	if err != nil {
		return err
	}
	plane, err := f.alloc(4 * j.p * j.q)
	if err != nil {
		return err
	}
	var kh uintptr
	if j.kernel != nil {
		// The kernel's spectrum: its taps at the plane's top-left corner, zeros elsewhere.
		if kh, err = f.alloc(8 * hlen); err != nil {
			return err
		}
		// Taps go in by value, tapsChunk at a time (no copy from host memory, which
		// would wait for the stream).
		kw := len(j.kernel[0])
		pb := &core.Buffer{Ptr: plane, Dev: f.dev}
		if err := f.dev.Memset2D(pb, 0, 4*j.q, 4*j.q, j.p, 0, str); err != nil {
			return err
		}
		var flat []float32
		for _, row := range j.kernel {
			for _, v := range row {
				flat = append(flat, float32(v))
			}
		}
		for first := 0; first < len(flat); first += tapsChunk {
			p := &fftTapsParams{Plane: plane, Q: int32(j.q), Kw: int32(kw), First: int32(first)}
			n := copy(p.V[:], flat[first:])
			p.Count = int32(n)
			if err := f.launch("gi_fft_taps", n, 1, core.Struct(p)); err != nil {
				return err
			}
		}
		if err := f.rfft(g, j.planeSide(plane), kh); err != nil {
			return err
		}
	}
	s, d := j.src, j.dst
	same := j.p == s.Rows && j.q == s.Cols && j.kernel == nil
	direct := func(st *core.State) (side, bool) {
		sd := sideOf(g, st)
		return sd, same && st.Depth == core.Depth32F && st.Chans == 1 && sd.aligned(4)
	}
	mask := &fftMaskParams{H: h, Lines: int32(g.lines), N: int32(g.n), Trans: core.Flag(g.trans), P: int32(j.p)}
	if j.f != nil {
		filterParams(j.f, mask)
	}
	mask.Sx, mask.Sy = j.freqScale()
	mask.Scale = j.scale()
	for c := 0; c < s.Chans; c++ {
		in, ok := direct(s)
		if !ok {
			if err := j.load(f, plane, c); err != nil {
				return err
			}
			in = j.planeSide(plane)
		}
		if err := f.rfft(g, in, h); err != nil {
			return err
		}
		switch {
		case j.kernel != nil:
			hs := side{ptr: h, line: 8 * g.half(), step: 8}
			ks := side{ptr: kh, line: hs.line, step: hs.step}
			err = f.launch("gi_fft_mul", g.half(), g.lines, core.Struct(&fftMulParams{A: hs.fs(), B: ks.fs(), D: hs.fs(),
				Lines: int32(g.lines), N: int32(g.half()), Cplx: 1, Conj: 1, Scale: float32(j.scale())}))
		case j.mask != nil:
			m := sideOf(g, j.mask)
			err = f.launch("gi_fft_mulmask", g.half(), g.lines, core.Struct(&fftMulMaskParams{H: h, Lines: int32(g.lines), N: int32(g.n),
				M: m.fs(), Scale: float32(j.scale())}))
		default:
			err = f.launch("gi_fft_mask", g.half(), g.lines, core.Struct(mask))
		}
		if err != nil {
			return err
		}
		out, ok := direct(d)
		ok = ok && j.delta == 0
		if !ok {
			out = j.planeSide(plane)
		}
		if err := f.irfft(g, h, out); err != nil {
			return err
		}
		if !ok {
			err := f.launch("gi_fft_store", d.Cols, d.Rows, core.Struct(&fftStoreParams{Plane: plane, Q: int32(j.q), Dst: d.Ptr(),
				Dp: int32(d.Pitch), Depth: int32(d.Depth), Cn: int32(d.Chans), C: int32(c), Rows: int32(d.Rows), Cols: int32(d.Cols),
				Delta: float32(j.delta)}))
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func cudaSpectrum(str core.Stream, j *filterJob) error {
	f, err := newFFT(str, j.src.Dev)
	if err != nil {
		return err
	}
	defer f.done()
	g := j.g
	h, err := f.alloc(8 * g.lines * g.half())
	if err != nil {
		return err
	}
	plane, err := f.alloc(4*j.p*j.q + 8)
	if err != nil {
		return err
	}
	if err := j.load(f, plane, 0); err != nil {
		return err
	}
	if err := f.rfft(g, j.planeSide(plane), h); err != nil {
		return err
	}
	// plane now holds the log magnitudes, then the minimum and maximum (as bits).
	mm := plane + uintptr(4*j.p*j.q)
	mb := &core.Buffer{Ptr: mm, Dev: f.dev}
	if err := f.dev.Memset2D(mb, 0, 4, 4, 1, 0xff, str); err != nil {
		return err
	}
	if err := f.dev.Memset2D(mb, 4, 4, 4, 1, 0, str); err != nil {
		return err
	}
	if err := f.launch("gi_fft_logmag", g.n, g.lines, core.Struct(&fftLogMagParams{H: h, Lines: int32(g.lines), N: int32(g.n),
		TwoD: core.Flag(g.twoD), Out: plane, Mm: mm})); err != nil {
		return err
	}
	d := sideOf(g, j.dst)
	return f.launch("gi_fft_norm8u", g.n, g.lines, core.Struct(&fftNormParams{In: plane, Lines: int32(g.lines), N: int32(g.n), Mm: mm, Dst: d.fs()}))
}

// CUFFTVersion loads cuFFT (as the first transform on a CUDA device does) and
// returns the library's file name and version, such as 11206 for CUDA 13's.
func CUFFTVersion() (lib string, version int, err error) { return cufft.Load() }
