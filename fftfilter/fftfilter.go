// Package fftfilter transforms images to the frequency domain and filters them
// there, as OpenCV's dft, idft, mulSpectrums, magnitude and phase do, with cuFFT on
// the CUDA device and gonum's FFT on the CPU device.
//
// Spectra use OpenCV's layouts. A forward DFT of a real (one-channel, 32F) image
// gives a 32FC1 image in the packed CCS format, or with DFTComplexOutput the whole
// 32FC2 spectrum; complex (32FC2) images transform to complex images. DFTRows makes
// one 1-D transform per row; a single row or column is transformed as a 1-D line.
//
// The filters (LowPass, HighPass, BandPass, BandReject, Notch, ApplyMask) pad the
// image to a size cuFFT transforms fast, transform each channel, multiply the
// spectrum by a mask, transform back, crop and convert to the image's depth, all on
// the image's device. Convolve filters with large kernels the same way.
//
// On the CUDA device cuFFT is loaded when first used (libcufft.so.12, .11 or .10,
// whichever the machine has). Plans are cached per size, layout and stream; those
// made for a stream are freed when the stream is closed, and FreePlans frees them all.
package fftfilter

import (
	"errors"
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Flags select the transform, as OpenCV's cv::DftFlags (and gocv's DftFlags).
type Flags int

// DFT flags; or them together.
const (
	DFTForward       Flags = 0
	DFTInverse       Flags = 1  // inverse transform (IDFT)
	DFTScale         Flags = 2  // divide the result by the number of elements transformed
	DFTRows          Flags = 4  // one 1-D transform per row
	DFTComplexOutput Flags = 16 // forward transform of a real image: the whole complex spectrum
	DFTRealOutput    Flags = 32 // inverse transform of a complex spectrum: a real image
	DFTComplexInput  Flags = 64 // the input is complex (2 channels)
)

const knownFlags = DFTInverse | DFTScale | DFTRows | DFTComplexOutput | DFTRealOutput | DFTComplexInput

// Errors callers may test for with errors.Is.
var (
	ErrBadFlags    = errors.New("bad DFT flags")
	ErrBadSpectrum = errors.New("bad spectrum")
	ErrBadMask     = errors.New("bad mask")
	ErrBadKernel   = errors.New("bad kernel")
)

// GetOptimalDFTSize returns the smallest size >= n whose only prime factors are 2,
// 3 and 5, which transforms fastest (OpenCV's getOptimalDFTSize); -1 for n too large.
func GetOptimalDFTSize(n int) int {
	if n <= 1 {
		return 1
	}
	const limit = 1 << 30
	if n > limit {
		return -1
	}
	best := -1
	for p5 := 1; p5 < 2*limit; p5 *= 5 {
		for p35 := p5; p35 < 2*limit; p35 *= 3 {
			m := p35
			for m < n {
				m *= 2
			}
			if m <= limit && (best < 0 || m < best) {
				best = m
			}
		}
	}
	return best
}

// geom is the shape of one transform call in lines of n elements. A 2-D transform
// has lines = rows; a column vector (trans) is one line running down the column.
type geom struct {
	lines, n int
	twoD     bool
	trans    bool
}

func geomOf(rows, cols int, rowsFlag bool) geom {
	switch {
	case rowsFlag || rows == 1:
		return geom{lines: rows, n: cols}
	case cols == 1:
		return geom{lines: 1, n: rows, trans: true}
	}
	return geom{lines: rows, n: cols, twoD: true}
}

// half is the number of complex values a real line of n transforms to.
func (g geom) half() int { return g.n/2 + 1 }

// count is the number of elements one transform covers (DFTScale divides by it).
func (g geom) count() int {
	if g.twoD {
		return g.lines * g.n
	}
	return g.n
}

// strides returns the byte step between lines and between elements of an image in
// the geometry's terms.
func (g geom) strides(l core.Layout) (line, elem int) {
	if g.trans {
		return 0, l.Pitch
	}
	return l.Pitch, l.ElemSize()
}

// DFT transforms src into dst as OpenCV's dft. src is 32FC1 (real) or 32FC2
// (complex). Forward: real gives CCS-packed 32FC1, or 32FC2 with DFTComplexOutput;
// complex gives complex. With DFTInverse: CCS (32FC1) gives a real image; complex
// gives complex, or real with DFTRealOutput (the spectrum taken as conjugate
// symmetric). DFTScale divides by the number of elements; DFTRows transforms each
// row alone. dst is allocated (or reused) as gocv does.
func DFT(src, dst *gpuimage.Image, flags Flags, opts ...gpuimage.Option) error {
	op := "DFT"
	if flags&DFTInverse != 0 {
		op = "IDFT"
	}
	if err := dft(src, dst, flags, opts); err != nil {
		return fmt.Errorf("fftfilter.%s: %w", op, err)
	}
	return nil
}

// IDFT is DFT with DFTInverse (OpenCV's idft).
func IDFT(src, dst *gpuimage.Image, flags Flags, opts ...gpuimage.Option) error {
	return DFT(src, dst, flags|DFTInverse, opts...)
}

// dftJob is one DFT call, checked.
type dftJob struct {
	g        geom
	inverse  bool
	cin      bool // src is complex
	cout     bool // dst is complex
	scale    float32
	src, dst *core.State
}

func dft(src, dst *gpuimage.Image, flags Flags, opts []gpuimage.Option) error {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return err
	}
	if flags&^knownFlags != 0 {
		return fmt.Errorf("%w: unknown bits %#x", ErrBadFlags, int(flags&^knownFlags))
	}
	if s.Depth != core.Depth32F || (s.Chans != 1 && s.Chans != 2) {
		return fmt.Errorf("%w: %v input (want 32FC1 real or 32FC2 complex)", gpuimage.ErrBadType, gpuimage.MakeType(gpuimage.Depth(s.Depth), s.Chans))
	}
	if flags&DFTComplexInput != 0 && s.Chans != 2 {
		return fmt.Errorf("%w: DFTComplexInput on a real (1-channel) image", ErrBadFlags)
	}
	j := &dftJob{g: geomOf(s.Rows, s.Cols, flags&DFTRows != 0), inverse: flags&DFTInverse != 0, cin: s.Chans == 2, scale: 1}
	switch {
	case !j.inverse && !j.cin:
		j.cout = flags&DFTComplexOutput != 0
	case j.inverse && j.cin:
		j.cout = flags&DFTRealOutput == 0
	default:
		j.cout = j.cin
	}
	if flags&DFTScale != 0 {
		j.scale = 1 / float32(j.g.count())
	}
	return intoNew(s, dst, opts, func(d *core.State) error {
		cn := 1
		if j.cout {
			cn = 2
		}
		create := d.Create
		if j.ccsInPlace() && !s.Dev.IsCPU() {
			create = func(dev core.Backend, rows, cols int, depth core.Depth, cn int) error {
				return createCCS(d, dev, rows, cols)
			}
		}
		if err := create(s.Dev, s.Rows, s.Cols, core.Depth32F, cn); err != nil {
			return err
		}
		j.src, j.dst = s, d
		return core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
			if s.Dev.IsCPU() {
				cpuDFT(j)
				return nil
			}
			return cudaDFT(str, j)
		})
	})
}

// ccsInPlace reports whether the job makes a CCS spectrum that cuFFT can write in
// place (ccsLayout): a forward transform of real rows.
func (j *dftJob) ccsInPlace() bool {
	return !j.inverse && !j.cin && !j.cout && !j.g.trans && j.g.n > 1
}

// ccsLead is the Lead of a CCS spectrum laid out for cuFFT (see createCCS).
const ccsLead = 4

// createCCS makes d a rows x cols 32FC1 image for a CCS spectrum, as Create does
// (keeping memory of the right size and type), except that a new one is laid out
// so that cuFFT can write the half spectrum straight into it: each row starts 4
// bytes past an 8-byte boundary, so the complex values of the interior columns,
// which CCS keeps at odd float offsets, are aligned; and the pitch leaves a float
// before and after each row for the two values CCS drops.
func createCCS(d *core.State, dev core.Backend, rows, cols int) error {
	if d.Buf != nil && d.Rows == rows && d.Cols == cols && d.Depth == core.Depth32F && d.Chans == 1 {
		return d.CheckDst(dev)
	}
	if err := d.CheckDst(dev); err != nil {
		return err
	}
	d.Release()
	a := dev.PitchAlign()
	lay := core.Layout{Rows: rows, Cols: cols, Depth: core.Depth32F, Chans: 1, WholeRows: rows, WholeCols: cols,
		Pitch: (4*cols + 2*ccsLead + a - 1) / a * a, Off: ccsLead, Lead: ccsLead}
	buf, err := dev.Alloc(lay.Pitch*rows + 2*ccsLead)
	if err != nil {
		return err
	}
	d.Dev, d.Buf, d.Layout = dev, buf, lay
	return nil
}

// intoNew calls fn with dst's state, or with a temporary image when dst shares src's
// memory (transforms read the whole input), copying the result to dst after.
func intoNew(s *core.State, dst *gpuimage.Image, opts []gpuimage.Option, fn func(d *core.State) error) error {
	d := core.StateOf(dst)
	if d == nil {
		return core.ErrNil
	}
	if d.Buf == nil || d.Buf != s.Buf {
		return fn(d)
	}
	tmp := &gpuimage.Image{}
	defer tmp.Close()
	if err := fn(core.StateOf(tmp)); err != nil {
		return err
	}
	return tmp.CopyTo(dst, opts...)
}

// MulSpectrums multiplies two spectra element by element (OpenCV's mulSpectrums):
// both CCS-packed 32FC1 (as DFT makes them, with the same DFTRows flag) or both
// complex 32FC2. With conj, b's conjugate is used, which turns the product into a
// correlation.
func MulSpectrums(a, b, dst *gpuimage.Image, flags Flags, conj bool, opts ...gpuimage.Option) error {
	if err := mulSpectrums(a, b, dst, flags, conj, opts); err != nil {
		return fmt.Errorf("fftfilter.MulSpectrums: %w", err)
	}
	return nil
}

type mulJob struct {
	g          geom
	cplx, conj bool
	a, b, dst  *core.State
}

func mulSpectrums(a, b, dst *gpuimage.Image, flags Flags, conj bool, opts []gpuimage.Option) error {
	sa, sb := core.StateOf(a), core.StateOf(b)
	if err := sa.Check(); err != nil {
		return err
	}
	if err := sb.Check(); err != nil {
		return err
	}
	if flags&^(DFTRows|DFTScale|DFTInverse) != 0 {
		return fmt.Errorf("%w: %#x (MulSpectrums takes DFTRows)", ErrBadFlags, int(flags))
	}
	if sa.Depth != core.Depth32F || (sa.Chans != 1 && sa.Chans != 2) {
		return fmt.Errorf("%w: %v spectrum (want 32FC1 CCS or 32FC2 complex)", ErrBadSpectrum, gpuimage.MakeType(gpuimage.Depth(sa.Depth), sa.Chans))
	}
	if sb.Depth != sa.Depth || sb.Chans != sa.Chans || !core.SameSize(sa, sb) {
		return fmt.Errorf("%w: %w: %dx%d C%d and %dx%d C%d", ErrBadSpectrum, gpuimage.ErrSizeMismatch, sa.Rows, sa.Cols, sa.Chans, sb.Rows, sb.Cols, sb.Chans)
	}
	if sa.Dev != sb.Dev {
		return core.ErrDeviceMismatch
	}
	j := &mulJob{g: geomOf(sa.Rows, sa.Cols, flags&DFTRows != 0), cplx: sa.Chans == 2, conj: conj, a: sa, b: sb}
	d := core.StateOf(dst)
	if d == nil {
		return core.ErrNil
	}
	// Each output element is computed from the same elements of a and b only, so
	// dst may be a or b; a dst shifted against either goes through a new image.
	if core.PartlyOverlaps(d, sa) || core.PartlyOverlaps(d, sb) {
		return throughNew(dst, opts, func(tmp *gpuimage.Image) error { return mulSpectrums(a, b, tmp, flags, conj, opts) })
	}
	if !core.SameView(d, sa) && !core.SameView(d, sb) {
		if err := d.Create(sa.Dev, sa.Rows, sa.Cols, sa.Depth, sa.Chans); err != nil {
			return err
		}
	}
	j.dst = d
	return core.Run(sa.Dev, opts, []*core.State{sa, sb, d}, func(str core.Stream) error {
		if sa.Dev.IsCPU() {
			cpuMul(j)
			return nil
		}
		return cudaMul(str, j)
	})
}

// Magnitude computes sqrt(x² + y²) element by element (OpenCV's magnitude); x and y
// are 32F images of the same size and channels.
func Magnitude(x, y, dst *gpuimage.Image, opts ...gpuimage.Option) error {
	if err := polar(x, y, dst, polarMagnitude, opts); err != nil {
		return fmt.Errorf("fftfilter.Magnitude: %w", err)
	}
	return nil
}

// Phase computes the angle of (x, y) element by element, in [0, 2π) radians or
// [0, 360) degrees (OpenCV's phase, which is accurate to about 0.3°; this is exact).
func Phase(x, y, dst *gpuimage.Image, angleInDegrees bool, opts ...gpuimage.Option) error {
	mode := polarRadians
	if angleInDegrees {
		mode = polarDegrees
	}
	if err := polar(x, y, dst, mode, opts); err != nil {
		return fmt.Errorf("fftfilter.Phase: %w", err)
	}
	return nil
}

const (
	polarMagnitude = 0
	polarRadians   = 1
	polarDegrees   = 2
)

func polar(x, y, dst *gpuimage.Image, mode int, opts []gpuimage.Option) error {
	sx, sy := core.StateOf(x), core.StateOf(y)
	if err := sx.Check(); err != nil {
		return err
	}
	if err := sy.Check(); err != nil {
		return err
	}
	if sx.Depth != core.Depth32F {
		return fmt.Errorf("%w: %v input (want 32F)", gpuimage.ErrBadType, sx.Depth)
	}
	if sy.Depth != sx.Depth || sy.Chans != sx.Chans || !core.SameSize(sx, sy) {
		return fmt.Errorf("%w: x is %dx%d C%d %v, y is %dx%d C%d %v", gpuimage.ErrSizeMismatch,
			sx.Rows, sx.Cols, sx.Chans, sx.Depth, sy.Rows, sy.Cols, sy.Chans, sy.Depth)
	}
	if sx.Dev != sy.Dev {
		return core.ErrDeviceMismatch
	}
	d := core.StateOf(dst)
	if d == nil {
		return core.ErrNil
	}
	if core.PartlyOverlaps(d, sx) || core.PartlyOverlaps(d, sy) {
		return throughNew(dst, opts, func(tmp *gpuimage.Image) error { return polar(x, y, tmp, mode, opts) })
	}
	if !core.SameView(d, sx) && !core.SameView(d, sy) {
		if err := d.Create(sx.Dev, sx.Rows, sx.Cols, sx.Depth, sx.Chans); err != nil {
			return err
		}
	}
	return core.Run(sx.Dev, opts, []*core.State{sx, sy, d}, func(str core.Stream) error {
		if sx.Dev.IsCPU() {
			cpuPolar(d, sx, sy, mode)
			return nil
		}
		return cudaPolar(str, d, sx, sy, mode)
	})
}

// PadToOptimal copies src into the top-left corner of dst, GetOptimalDFTSize(rows)
// x GetOptimalDFTSize(cols) of src's type, and zeros the rest (OpenCV's
// copyMakeBorder with BORDER_CONSTANT, as its DFT examples pad). Crop a result
// back with Region(image.Rect(0, 0, cols, rows)).
func PadToOptimal(src, dst *gpuimage.Image, opts ...gpuimage.Option) error {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("fftfilter.PadToOptimal: %w", err)
	}
	d := core.StateOf(dst)
	if d == nil {
		return fmt.Errorf("fftfilter.PadToOptimal: %w", core.ErrNil)
	}
	if d.Buf != nil && d.Buf == s.Buf {
		return fmt.Errorf("fftfilter.PadToOptimal: dst must not share src's memory")
	}
	p, q := GetOptimalDFTSize(s.Rows), GetOptimalDFTSize(s.Cols)
	err := d.Create(s.Dev, p, q, s.Depth, s.Chans)
	if err == nil {
		err = dst.SetTo(gpuimage.Scalar{}, opts...)
	}
	if err == nil {
		var corner *gpuimage.Image
		if corner, err = dst.Region(image.Rect(0, 0, s.Cols, s.Rows)); err == nil {
			err = src.CopyTo(corner, opts...)
			corner.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("fftfilter.PadToOptimal: %w", err)
	}
	return nil
}

// throughNew runs fn into a new image and copies the result to dst (for outputs
// that overlap an input in a way the operation cannot write through).
func throughNew(dst *gpuimage.Image, opts []gpuimage.Option, fn func(tmp *gpuimage.Image) error) error {
	tmp := &gpuimage.Image{}
	defer tmp.Close()
	if err := fn(tmp); err != nil {
		return err
	}
	return tmp.CopyTo(dst, opts...)
}
