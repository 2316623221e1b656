package fftfilter

import (
	"fmt"
	"image"
	"math"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// Shape is the profile of a filter's frequency response (Gonzalez and Woods'
// ideal, Butterworth and Gaussian filters).
type Shape int

// Shapes.
const (
	Ideal       Shape = iota // a sharp edge at the cutoff (rings in the image)
	Butterworth              // 1/(1+(D/D0)^2n), with the filter's Order n
	Gaussian                 // exp(-D²/2D0²)
)

func (s Shape) String() string {
	switch s {
	case Ideal:
		return "ideal"
	case Butterworth:
		return "Butterworth"
	case Gaussian:
		return "Gaussian"
	}
	return fmt.Sprintf("Shape(%d)", int(s))
}

// Kind says which frequencies a Filter keeps.
type Kind int

// Kinds of filters.
const (
	LowPassKind     Kind = iota // frequencies within Cutoff of zero
	HighPassKind                // frequencies beyond Cutoff
	BandPassKind                // frequencies within Width/2 of the ring at Cutoff
	BandRejectKind              // all but the band
	NotchRejectKind             // all but discs of Radius around each notch and its mirror
	NotchPassKind               // only those discs
)

// Notch is a frequency to reject (or pass) with its mirror image: U cycles across
// the image's width and V cycles down its height, in a disc of the given radius.
type Notch struct {
	U, V, Radius float64
}

// MaxNotches is the most notches one filter takes.
const MaxNotches = 16

// Filter is a frequency-domain filter. Distances D are measured from zero frequency
// in cycles per image (the index of a frequency in the spectrum of the unpadded
// image, as in Gonzalez and Woods), so a filter means the same however the image
// is padded.
type Filter struct {
	Kind    Kind
	Shape   Shape
	Cutoff  float64 // D0: the radius of a low- or high-pass filter, or the band's centre radius
	Width   float64 // W: the width of a band filter
	Order   int     // n: a Butterworth filter's order (1 or more)
	Notches []Notch // the notches of a notch filter
}

func (f *Filter) check() error {
	fin := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if f.Shape < Ideal || f.Shape > Gaussian {
		return fmt.Errorf("%w: unknown shape %v", ErrBadMask, f.Shape)
	}
	if f.Shape == Butterworth && (f.Order < 1 || f.Order > 64) {
		return fmt.Errorf("%w: Butterworth order %d (want 1 to 64)", ErrBadMask, f.Order)
	}
	switch f.Kind {
	case LowPassKind, HighPassKind, BandPassKind, BandRejectKind:
		if !fin(f.Cutoff) || f.Cutoff <= 0 {
			return fmt.Errorf("%w: cutoff %v (want > 0)", ErrBadMask, f.Cutoff)
		}
		if (f.Kind == BandPassKind || f.Kind == BandRejectKind) && (!fin(f.Width) || f.Width <= 0) {
			return fmt.Errorf("%w: band width %v (want > 0)", ErrBadMask, f.Width)
		}
	case NotchRejectKind, NotchPassKind:
		if len(f.Notches) == 0 || len(f.Notches) > MaxNotches {
			return fmt.Errorf("%w: %d notches (want 1 to %d)", ErrBadMask, len(f.Notches), MaxNotches)
		}
		for i, n := range f.Notches {
			if !fin(n.U) || !fin(n.V) || !fin(n.Radius) || n.Radius <= 0 {
				return fmt.Errorf("%w: notch %d %+v (want finite, radius > 0)", ErrBadMask, i, n)
			}
		}
	default:
		return fmt.Errorf("%w: unknown kind %d", ErrBadMask, int(f.Kind))
	}
	return nil
}

// lowPass is the shape's low-pass response at squared distance d2 for cutoff d0.
// Distances are squared so that the ideal filters' edges are exact (the CUDA
// kernel, gi_fft_mask, computes the same way).
func lowPass(s Shape, n int, d2, d0 float64) float64 {
	switch s {
	case Ideal:
		if d2 <= d0*d0 {
			return 1
		}
		return 0
	case Butterworth: // 1/(1+(D/D0)^2n)
		return 1 / (1 + math.Pow(d2/(d0*d0), float64(n)))
	}
	return math.Exp(-0.5 * d2 / (d0 * d0)) // exp(-D²/2D0²)
}

// bandReject is the shape's band-reject response at squared distance d2 for the
// band of width w around c0.
func bandReject(s Shape, n int, d2, c0, w float64) float64 {
	den := d2 - c0*c0
	switch s {
	case Ideal:
		if d := math.Sqrt(d2); d >= c0-w/2 && d <= c0+w/2 {
			return 0
		}
		return 1
	case Butterworth: // 1/(1+(D W/(D²-C0²))^2n)
		if den == 0 {
			return 0
		}
		return 1 / (1 + math.Pow(d2*w*w/(den*den), float64(n)))
	}
	if d2 == 0 {
		return 1
	}
	return 1 - math.Exp(-den*den/(d2*w*w)) // 1-exp(-((D²-C0²)/(D W))²)
}

// sq is x*x, rounded before any addition (no fused multiply-add), as the kernel's
// __dmul_rn.
func sq(x float64) float64 { return float64(x * x) }

// Response is the filter's gain at horizontal frequency fx and vertical frequency
// fy (cycles per image).
func (f *Filter) Response(fx, fy float64) float64 {
	d2 := sq(fx) + sq(fy)
	switch f.Kind {
	case LowPassKind:
		return lowPass(f.Shape, f.Order, d2, f.Cutoff)
	case HighPassKind:
		return 1 - lowPass(f.Shape, f.Order, d2, f.Cutoff)
	case BandRejectKind:
		return bandReject(f.Shape, f.Order, d2, f.Cutoff, f.Width)
	case BandPassKind:
		return 1 - bandReject(f.Shape, f.Order, d2, f.Cutoff, f.Width)
	}
	h := 1.0
	for _, nt := range f.Notches {
		h *= 1 - lowPass(f.Shape, f.Order, sq(fx-nt.U)+sq(fy-nt.V), nt.Radius)
		h *= 1 - lowPass(f.Shape, f.Order, sq(fx+nt.U)+sq(fy+nt.V), nt.Radius)
	}
	if f.Kind == NotchPassKind {
		return 1 - h
	}
	return h
}

// Apply filters each channel of src in the frequency domain into dst (src's size,
// depth and channels; 8- and 16-bit results are rounded and saturated). The image
// is padded to the next optimal DFT size by mirroring (BORDER_REFLECT_101), which
// keeps the edges from ringing, and cropped back.
func Apply(src, dst *gpuimage.Image, f Filter, opts ...gpuimage.Option) error {
	if err := f.check(); err != nil {
		return fmt.Errorf("fftfilter.Apply: %w", err)
	}
	if err := maskFilter(src, dst, &f, nil, opts); err != nil {
		return fmt.Errorf("fftfilter.Apply: %w", err)
	}
	return nil
}

// LowPass keeps frequencies within cutoff cycles per image (Apply with LowPassKind).
// order is used by Butterworth filters only.
func LowPass(src, dst *gpuimage.Image, shape Shape, cutoff float64, order int, opts ...gpuimage.Option) error {
	return Apply(src, dst, Filter{Kind: LowPassKind, Shape: shape, Cutoff: cutoff, Order: order}, opts...)
}

// HighPass removes frequencies within cutoff cycles per image (Apply with HighPassKind).
func HighPass(src, dst *gpuimage.Image, shape Shape, cutoff float64, order int, opts ...gpuimage.Option) error {
	return Apply(src, dst, Filter{Kind: HighPassKind, Shape: shape, Cutoff: cutoff, Order: order}, opts...)
}

// BandPass keeps the ring of frequencies of the given width around center.
func BandPass(src, dst *gpuimage.Image, shape Shape, center, width float64, order int, opts ...gpuimage.Option) error {
	return Apply(src, dst, Filter{Kind: BandPassKind, Shape: shape, Cutoff: center, Width: width, Order: order}, opts...)
}

// BandReject removes the ring of frequencies of the given width around center.
func BandReject(src, dst *gpuimage.Image, shape Shape, center, width float64, order int, opts ...gpuimage.Option) error {
	return Apply(src, dst, Filter{Kind: BandRejectKind, Shape: shape, Cutoff: center, Width: width, Order: order}, opts...)
}

// NotchReject removes each notch's frequency and its mirror image, as for periodic
// noise (Apply with NotchRejectKind).
func NotchReject(src, dst *gpuimage.Image, shape Shape, notches []Notch, order int, opts ...gpuimage.Option) error {
	return Apply(src, dst, Filter{Kind: NotchRejectKind, Shape: shape, Notches: notches, Order: order}, opts...)
}

// ApplyMask multiplies each channel's spectrum by mask and transforms back: mask is
// a 32FC1 image of src's size laid out as Spectrum shows spectra, with zero
// frequency at (cols/2, rows/2). It should be symmetric about that point (gain at f
// equal to gain at -f); only the half with non-negative horizontal frequencies is
// read. The image is transformed at its own size, without padding.
func ApplyMask(src, dst, mask *gpuimage.Image, opts ...gpuimage.Option) error {
	if mask == nil {
		return fmt.Errorf("fftfilter.ApplyMask: %w: mask is nil", ErrBadMask)
	}
	if err := maskFilter(src, dst, nil, mask, opts); err != nil {
		return fmt.Errorf("fftfilter.ApplyMask: %w", err)
	}
	return nil
}

// filterJob is one filter call: the image is loaded into a P x Q plane per channel.
type filterJob struct {
	src, dst, mask *core.State
	f              *Filter
	p, q           int // padded size
	g              geom
	// Convolve: kernel taps, anchor, border and delta; the plane holds the source
	// shifted by the anchor with its border, out to fillRows x fillCols.
	kernel             [][]float64
	ax, ay             int
	border             int
	isolated           bool
	value              [4]float32
	delta              float64
	fillRows, fillCols int
}

// scale is the factor that undoes the unnormalised forward and inverse transforms.
func (j *filterJob) scale() float64 { return 1 / float64(j.p*j.q) }

// freq returns the frequency (cycles per image) of element k of line i of the half
// spectrum, as (fx, fy).
func (j *filterJob) freq(i, k int) (fx, fy float64) {
	signed := func(i, n int) int {
		if i <= n/2 {
			return i
		}
		return i - n
	}
	sx, sy := j.freqScale()
	if j.g.trans { // one line down a column: k is the vertical frequency
		return 0, float64(signed(k, j.p)) * sy
	}
	return float64(k) * sx, float64(signed(i, j.p)) * sy
}

// freqScale is the size of one frequency step of the padded transform in cycles per
// image, across and down.
func (j *filterJob) freqScale() (sx, sy float64) {
	return float64(j.src.Cols) / float64(j.q), float64(j.src.Rows) / float64(j.p)
}

func maskFilter(src, dst *gpuimage.Image, f *Filter, mask *gpuimage.Image, opts []gpuimage.Option) error {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return err
	}
	if s.Chans == 2 {
		return fmt.Errorf("%w: 2-channel input (filter images of 1, 3 or 4 channels)", gpuimage.ErrBadType)
	}
	j := &filterJob{src: s, f: f, p: GetOptimalDFTSize(s.Rows), q: GetOptimalDFTSize(s.Cols), border: int(gpuimage.BorderReflect101), isolated: true}
	if mask != nil {
		m := core.StateOf(mask)
		if err := m.Check(); err != nil {
			return fmt.Errorf("%w: %w", ErrBadMask, err)
		}
		if m.Depth != core.Depth32F || m.Chans != 1 || !core.SameSize(m, s) || m.Dev != s.Dev {
			return fmt.Errorf("%w: %dx%d %v C%d on %s (want 32FC1, %dx%d, on %s)", ErrBadMask,
				m.Rows, m.Cols, m.Depth, m.Chans, m.Dev.Name(), s.Rows, s.Cols, s.Dev.Name())
		}
		j.mask, j.p, j.q = m, s.Rows, s.Cols
	}
	j.fillRows, j.fillCols = j.p, j.q
	j.g = geomOf(j.p, j.q, false)
	return runFilter(j, s, dst, s.Depth, opts)
}

// runFilter allocates dst (of depth dd) and runs the job on the device.
func runFilter(j *filterJob, s *core.State, dst *gpuimage.Image, dd core.Depth, opts []gpuimage.Option) error {
	imgs := []*core.State{s}
	if j.mask != nil {
		imgs = append(imgs, j.mask)
	}
	return intoNew(s, dst, opts, func(d *core.State) error {
		if err := d.Create(s.Dev, s.Rows, s.Cols, dd, s.Chans); err != nil {
			return err
		}
		j.dst = d
		return core.Run(s.Dev, opts, append(imgs, d), func(str core.Stream) error {
			if s.Dev.IsCPU() {
				cpuFilter(j)
				return nil
			}
			return cudaFilter(str, j)
		})
	})
}

// Spectrum writes the centred log-magnitude spectrum of src (one channel, any
// depth) to dst as 8UC1 of src's size: log(1+|F|) with zero frequency moved to
// (cols/2, rows/2), stretched to 0..255 (OpenCV's normalize with NORM_MINMAX).
func Spectrum(src, dst *gpuimage.Image, opts ...gpuimage.Option) error {
	s := core.StateOf(src)
	err := s.Check()
	if err == nil && s.Chans != 1 {
		err = fmt.Errorf("%w: %d channels (want 1; Split the image first)", gpuimage.ErrBadType, s.Chans)
	}
	if err == nil {
		j := &filterJob{src: s, p: s.Rows, q: s.Cols, fillRows: s.Rows, fillCols: s.Cols, isolated: true}
		j.g = geomOf(j.p, j.q, false)
		err = intoNew(s, dst, opts, func(d *core.State) error {
			if err := d.Create(s.Dev, s.Rows, s.Cols, core.Depth8U, 1); err != nil {
				return err
			}
			j.dst = d
			return core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
				if s.Dev.IsCPU() {
					cpuSpectrum(j)
					return nil
				}
				return cudaSpectrum(str, j)
			})
		})
	}
	if err != nil {
		return fmt.Errorf("fftfilter.Spectrum: %w", err)
	}
	return nil
}

// Convolve filters src with kernel through the frequency domain, with the meaning
// of convolve.Filter2D (correlation, anchor (-1,-1) for the centre, delta, OpenCV's
// ddepth rules, every border type, views reading their parent image unless
// BorderIsolated). It is faster than direct convolution for large kernels; float32
// rounding differs from the direct sum by about 1e-6 of the image's magnitude.
func Convolve(src, dst *gpuimage.Image, ddepth gpuimage.Depth, kernel [][]float64, anchor image.Point, delta float64, border gpuimage.BorderType, opts ...gpuimage.Option) error {
	if err := convolveFFT(src, dst, ddepth, kernel, anchor, delta, border, opts); err != nil {
		return fmt.Errorf("fftfilter.Convolve: %w", err)
	}
	return nil
}

func convolveFFT(src, dst *gpuimage.Image, ddepth gpuimage.Depth, kernel [][]float64, anchor image.Point, delta float64, border gpuimage.BorderType, opts []gpuimage.Option) error {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return err
	}
	if s.Chans == 2 {
		return fmt.Errorf("%w: 2-channel input (filter images of 1, 3 or 4 channels)", gpuimage.ErrBadType)
	}
	if err := core.CheckKernel2D(kernel); err != nil {
		return fmt.Errorf("%w: %v", ErrBadKernel, err)
	}
	kh, kw := len(kernel), len(kernel[0])
	ax, ay, err := core.KernelAnchor(anchor, kw, kh)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadKernel, err)
	}
	dd, ok := core.FilterDepth(s.Depth, int(ddepth))
	if !ok {
		return fmt.Errorf("%w: ddepth %v for %v input (allowed: %s)", gpuimage.ErrBadType, core.Depth(ddepth), s.Depth, core.FilterDepths(s.Depth))
	}
	b := border &^ gpuimage.BorderIsolated
	if b < gpuimage.BorderConstant || b > gpuimage.BorderReflect101 {
		return fmt.Errorf("unsupported border type %v", border)
	}
	if math.IsNaN(delta) || math.IsInf(delta, 0) {
		return fmt.Errorf("delta %v is not finite", delta)
	}
	fr, fc := s.Rows+kh-1, s.Cols+kw-1
	j := &filterJob{src: s, kernel: kernel, ax: ax, ay: ay, border: int(b), isolated: border&gpuimage.BorderIsolated != 0,
		delta: delta, p: GetOptimalDFTSize(fr), q: GetOptimalDFTSize(fc), fillRows: fr, fillCols: fc}
	if j.p < 0 || j.q < 0 {
		return fmt.Errorf("%w: a %dx%d kernel on a %dx%d image is too large to transform", ErrBadKernel, kw, kh, s.Cols, s.Rows)
	}
	for c, v := range core.BorderValueOf(opts) {
		j.value[c] = cpu.ScalarValue(s.Depth, v)
	}
	j.g = geomOf(j.p, j.q, false)
	return runFilter(j, s, dst, dd, opts)
}
