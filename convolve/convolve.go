// Package convolve filters images with linear kernels, as OpenCV's imgproc filters
// do: Filter2D, SepFilter2D, GaussianBlur, BoxFilter/Blur, Sobel, Scharr and
// Laplacian, with OpenCV's depth rules, anchors and border types.
//
// On the CUDA device, the 3x3 and 5x5 normalized box filters and fixed-point
// Gaussian blurs of 8U images with 1, 3 or 4 channels run in packed integers (two
// 16-bit sums to a 32-bit register, taps as shifts and adds), with exact sums and
// so the CPU device's results. Other centred 3x3 and 5x5 kernels on one-channel 8U
// and 32F images run in registers (each warp loads whole rows, neighbours come by
// shuffles); on
// large one-channel 8U images, centred separable kernels up to 7x7 stream down
// strips of rows in registers instead (row pass, then rotating column sums).
// Otherwise each block of threads loads its tile of the image, with the
// apron the kernel needs around it, into shared memory (reading pixels outside the
// image through the border rule), and each thread computes several outputs from
// registers. Separable kernels (and 2-D kernels of rank one) run as a row pass and
// a column pass inside the same tile; other 2-D kernels up to 31x31 are unrolled
// with the taps as kernel parameters. Larger ones (over 31 taps either way, or
// separable ones over 63) go through the frequency domain (fftfilter.Convolve),
// which is faster there; GPUIMG_CONV_FFT_MIN_AREA moves that crossover down to a
// number of taps, and GPUIMG_CONV_FFT=off turns the route off.
//
// On views (Region), pixels outside the view but inside the image it belongs to are
// read as they are, as OpenCV does, unless the border type includes BorderIsolated.
package convolve

import (
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"strconv"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// BorderType says how pixels outside the image are made up (gpuimage.BorderType,
// numbered as OpenCV's cv::BorderTypes).
type BorderType = gpuimage.BorderType

// Border types, as gpuimage's. BorderIsolated may be or-ed with any of the others.
const (
	BorderConstant   = gpuimage.BorderConstant   // iiiiii|abcdefgh|iiiiiii, i from gpuimage.BorderValue (default 0)
	BorderReplicate  = gpuimage.BorderReplicate  // aaaaaa|abcdefgh|hhhhhhh
	BorderReflect    = gpuimage.BorderReflect    // fedcba|abcdefgh|hgfedcb
	BorderWrap       = gpuimage.BorderWrap       // cdefgh|abcdefgh|abcdefg
	BorderReflect101 = gpuimage.BorderReflect101 // gfedcb|abcdefgh|gfedcba
	BorderDefault    = gpuimage.BorderDefault
	BorderIsolated   = gpuimage.BorderIsolated // do not look outside a view into its parent image
)

// MaxKernelSize is the largest kernel extent (taps across or down) the calls take.
const MaxKernelSize = 4096

// checkExtent rejects kernel sizes that would only allocate without end.
func checkExtent(w, h int) error {
	if w > MaxKernelSize || h > MaxKernelSize {
		return fmt.Errorf("%w: a %dx%d kernel is larger than MaxKernelSize (%d)", ErrBadKernel, w, h, MaxKernelSize)
	}
	return nil
}

// SameDepth as ddepth makes the output the depth of the input (OpenCV's -1).
const SameDepth gpuimage.Depth = -1

// FilterScharr as Sobel's ksize selects the 3x3 Scharr kernel (OpenCV's FILTER_SCHARR).
const FilterScharr = -1

// Errors callers may test for with errors.Is.
var (
	ErrBadKernel = errors.New("bad kernel")
	ErrBadBorder = errors.New("unsupported border type")
	ErrBadDepth  = errors.New("unsupported output depth")
)

// plan is one filtering job: a separable or a 2-D kernel with its anchor, the
// output depth, the delta added and the border rule.
type plan struct {
	op       string
	sep      bool
	kx, ky   []float64   // separable: row and column kernels
	k        [][]float64 // 2-D: kh rows of kw taps
	ax, ay   int
	delta    float64
	ddepth   core.Depth
	border   BorderType // without BorderIsolated
	isolated bool
	value    [4]float32 // BorderConstant's value per channel, saturated to the input depth
	kw, kh   int
	halfUp   bool // round 8-bit results half up (OpenCV's fixed-point GaussianBlur)
}

// isView reports whether s is a view into a larger image (OpenCV's isSubmatrix).
func isView(s *core.State) bool { return s.Rows != s.WholeRows || s.Cols != s.WholeCols }

// Filter2D convolves src with kernel (correlation, as OpenCV's filter2D: no
// flipping) into dst of depth ddepth: dst(x,y) = sum kernel(i,j)*src(x+j-ax, y+i-ay)
// + delta, saturated. anchor (-1,-1) is the kernel's centre. A kernel of rank one
// runs as two 1-D passes. On the GPU, 8U to 8U with kernels up to 7x7 may run on
// integer tensor cores, the taps rounded to 16 or 24 bits so that no result moves
// by more than 1/256 before it is rounded (within ±1 of OpenCV, almost always equal).
func Filter2D(src, dst *gpuimage.Image, ddepth gpuimage.Depth, kernel [][]float64, anchor image.Point, delta float64, border BorderType, opts ...gpuimage.Option) error {
	p := &plan{op: "Filter2D", delta: delta}
	if err := p.setKernel2D(kernel, anchor); err != nil {
		return p.fail(err)
	}
	return p.run(src, dst, ddepth, border, opts)
}

// SepFilter2D applies kernelX to each row and then kernelY to each column (OpenCV's
// sepFilter2D), adds delta and saturates to ddepth.
func SepFilter2D(src, dst *gpuimage.Image, ddepth gpuimage.Depth, kernelX, kernelY []float64, anchor image.Point, delta float64, border BorderType, opts ...gpuimage.Option) error {
	p := &plan{op: "SepFilter2D", delta: delta}
	if err := p.setSep(kernelX, kernelY, anchor); err != nil {
		return p.fail(err)
	}
	return p.run(src, dst, ddepth, border, opts)
}

// GaussianBlur smooths src with a Gaussian kernel (OpenCV's GaussianBlur). ksize's
// X and Y must be odd and positive, or zero to derive them from the sigmas; a zero
// sigmaY means sigmaX, and sigmas <= 0 are derived from ksize. dst has src's depth.
func GaussianBlur(src, dst *gpuimage.Image, ksize image.Point, sigmaX, sigmaY float64, border BorderType, opts ...gpuimage.Option) error {
	p := &plan{op: "GaussianBlur"}
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return p.fail(err)
	}
	if math.IsNaN(sigmaX) || math.IsInf(sigmaX, 0) || math.IsNaN(sigmaY) || math.IsInf(sigmaY, 0) {
		return p.fail(fmt.Errorf("%w: sigmas %v, %v must be finite", ErrBadKernel, sigmaX, sigmaY))
	}
	if sigmaY <= 0 {
		sigmaY = sigmaX
	}
	mult := 4.0
	if s.Depth == core.Depth8U {
		mult = 3
	}
	fromSigma := func(sigma float64) int {
		if n := math.RoundToEven(sigma*mult*2 + 1); n <= MaxKernelSize {
			return int(n) | 1
		}
		return MaxKernelSize + 1 // rejected by checkExtent with the size it would take
	}
	if ksize.X <= 0 && sigmaX > 0 {
		ksize.X = fromSigma(sigmaX)
	}
	if ksize.Y <= 0 && sigmaY > 0 {
		ksize.Y = fromSigma(sigmaY)
	}
	if err := checkExtent(ksize.X, ksize.Y); err != nil {
		return p.fail(err)
	}
	if ksize.X <= 0 || ksize.Y <= 0 || ksize.X%2 == 0 || ksize.Y%2 == 0 {
		return p.fail(fmt.Errorf("%w: ksize %dx%d must be odd and positive (or zero with a sigma > 0)", ErrBadKernel, ksize.X, ksize.Y))
	}
	kx, err := GaussianKernel(ksize.X, math.Max(sigmaX, 0))
	if err != nil {
		return p.fail(err)
	}
	ky, err := GaussianKernel(ksize.Y, math.Max(sigmaY, 0))
	if err != nil {
		return p.fail(err)
	}
	// OpenCV blurs 8-bit images that are not views (or with BORDER_ISOLATED) in
	// fixed point: taps in 1/256ths, exact sums, and the result rounded half up. With
	// the same taps every sum is exact in float32 too, so the result is bit-exact.
	if s.Depth == core.Depth8U && (border&BorderIsolated != 0 || !isView(s)) {
		kx, ky = fixedPoint8(kx), fixedPoint8(ky)
		p.halfUp = true
	}
	if err := p.setSep(kx, ky, image.Pt(-1, -1)); err != nil {
		return p.fail(err)
	}
	return p.run(src, dst, SameDepth, border, opts)
}

// BoxFilter sums (normalize false) or averages (normalize true) the ksize
// neighbourhood of each pixel (OpenCV's boxFilter). Even sizes are allowed.
func BoxFilter(src, dst *gpuimage.Image, ddepth gpuimage.Depth, ksize, anchor image.Point, normalize bool, border BorderType, opts ...gpuimage.Option) error {
	p := &plan{op: "BoxFilter"}
	if ksize.X <= 0 || ksize.Y <= 0 {
		return p.fail(fmt.Errorf("%w: ksize %dx%d must be positive", ErrBadKernel, ksize.X, ksize.Y))
	}
	if err := checkExtent(ksize.X, ksize.Y); err != nil {
		return p.fail(err)
	}
	kx, ky := make([]float64, ksize.X), make([]float64, ksize.Y)
	scale := 1.0
	if normalize {
		scale = 1 / float64(ksize.X*ksize.Y)
	}
	for i := range kx {
		kx[i] = 1
	}
	for i := range ky {
		ky[i] = scale
	}
	if err := p.setSep(kx, ky, anchor); err != nil {
		return p.fail(err)
	}
	return p.run(src, dst, ddepth, border, opts)
}

// Blur is the normalized box filter with dst of src's depth (OpenCV's blur).
func Blur(src, dst *gpuimage.Image, ksize, anchor image.Point, border BorderType, opts ...gpuimage.Option) error {
	err := BoxFilter(src, dst, SameDepth, ksize, anchor, true, border, opts...)
	if err != nil {
		return fmt.Errorf("Blur: %w", err)
	}
	return nil
}

// Sobel computes the dx-th and dy-th derivative with a ksize Sobel kernel (1, 3, 5,
// 7 ... 31; ksize 1 means 3x1 or 1x3; FilterScharr the 3x3 Scharr kernel), times
// scale plus delta (OpenCV's Sobel). For 8-bit input use ddepth 16S or 32F to keep
// negative values.
func Sobel(src, dst *gpuimage.Image, ddepth gpuimage.Depth, dx, dy, ksize int, scale, delta float64, border BorderType, opts ...gpuimage.Option) error {
	p := &plan{op: "Sobel", delta: delta}
	kx, ky, err := DerivKernels(dx, dy, ksize)
	if err != nil {
		return p.fail(fmt.Errorf("%w: %v", ErrBadKernel, err))
	}
	scaleDeriv(kx, ky, dx, scale)
	if err := p.setSep(kx, ky, image.Pt(-1, -1)); err != nil {
		return p.fail(err)
	}
	return p.run(src, dst, ddepth, border, opts)
}

// Scharr computes the first x or y derivative with the 3x3 Scharr kernel, times
// scale plus delta (OpenCV's Scharr): exactly one of dx, dy is 1, the other 0.
func Scharr(src, dst *gpuimage.Image, ddepth gpuimage.Depth, dx, dy int, scale, delta float64, border BorderType, opts ...gpuimage.Option) error {
	err := Sobel(src, dst, ddepth, dx, dy, FilterScharr, scale, delta, border, opts...)
	if err != nil {
		return fmt.Errorf("Scharr: %w", err)
	}
	return nil
}

// scaleDeriv folds scale into the smoothing kernel, as OpenCV does.
func scaleDeriv(kx, ky []float64, dx int, scale float64) {
	k := ky
	if dx == 0 {
		k = kx
	}
	for i := range k {
		k[i] *= scale
	}
}

// Laplacian sums the second x and y derivatives (OpenCV's Laplacian): ksize 1 is
// the 3x3 kernel [0 1 0; 1 -4 1; 0 1 0], 3 is [2 0 2; 0 -8 0; 2 0 2], and larger
// odd sizes (up to 31) add two Sobel second derivatives; times scale plus delta.
func Laplacian(src, dst *gpuimage.Image, ddepth gpuimage.Depth, ksize int, scale, delta float64, border BorderType, opts ...gpuimage.Option) error {
	p := &plan{op: "Laplacian", delta: delta}
	var k [][]float64
	switch {
	case ksize == 1:
		k = [][]float64{{0, 1, 0}, {1, -4, 1}, {0, 1, 0}}
	case ksize == 3:
		k = [][]float64{{2, 0, 2}, {0, -8, 0}, {2, 0, 2}}
	case ksize > 3 && ksize%2 == 1 && ksize <= 31:
		d2, sm := sobel(ksize, 2), sobel(ksize, 0)
		k = outer(d2, sm)
		for i, row := range outer(sm, d2) {
			for j, v := range row {
				k[i][j] += v
			}
		}
	default:
		return p.fail(fmt.Errorf("%w: ksize %d must be odd, 1 to 31", ErrBadKernel, ksize))
	}
	for _, row := range k {
		for j := range row {
			row[j] *= scale
		}
	}
	if err := p.setKernel2D(k, image.Pt(-1, -1)); err != nil {
		return p.fail(err)
	}
	return p.run(src, dst, ddepth, border, opts)
}

func (p *plan) fail(err error) error { return fmt.Errorf("convolve.%s: %w", p.op, err) }

func anchorOf(anchor image.Point, kw, kh int) (int, int, error) {
	ax, ay, err := core.KernelAnchor(anchor, kw, kh)
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %v", ErrBadKernel, err)
	}
	return ax, ay, nil
}

func checkTaps(v []float64, what string) error {
	if err := core.CheckTaps(v, what); err != nil {
		return fmt.Errorf("%w: %v", ErrBadKernel, err)
	}
	return nil
}

func (p *plan) setSep(kx, ky []float64, anchor image.Point) error {
	if err := checkTaps(kx, "kernelX"); err != nil {
		return err
	}
	if err := checkTaps(ky, "kernelY"); err != nil {
		return err
	}
	if err := checkExtent(len(kx), len(ky)); err != nil {
		return err
	}
	p.sep, p.kx, p.ky, p.kw, p.kh = true, kx, ky, len(kx), len(ky)
	var err error
	p.ax, p.ay, err = anchorOf(anchor, p.kw, p.kh)
	return err
}

func (p *plan) setKernel2D(k [][]float64, anchor image.Point) error {
	if err := core.CheckKernel2D(k); err != nil {
		return fmt.Errorf("%w: %v", ErrBadKernel, err)
	}
	p.kw, p.kh = len(k[0]), len(k)
	if err := checkExtent(p.kw, p.kh); err != nil {
		return err
	}
	var err error
	if p.ax, p.ay, err = anchorOf(anchor, p.kw, p.kh); err != nil {
		return err
	}
	if kx, ky, ok := separate(k); ok {
		p.sep, p.kx, p.ky = true, kx, ky
		return nil
	}
	p.k = k
	return nil
}

// outDepth applies OpenCV's ddepth rules for linear filters (no 64F here).
func outDepth(sd core.Depth, dd gpuimage.Depth) (core.Depth, error) {
	d, ok := core.FilterDepth(sd, int(dd))
	if !ok {
		return 0, fmt.Errorf("%w: ddepth %v for %v input (allowed: %s)", ErrBadDepth, core.Depth(dd), sd, core.FilterDepths(sd))
	}
	return d, nil
}

// fftMinArea is the smallest 2-D kernel (in taps) that the CUDA device filters
// through the frequency domain (fftfilter.Convolve) rather than directly. Measured
// at 3840x2160 on an H100 (bench cases "conv direct/fft"), the unrolled kernels win
// up to 31x31 (426 µs against 557) and the FFT wins from there on: the generic direct
// kernel takes 17 ms at 41x41 where the FFT takes 539 µs. So every kernel too large
// for the unrolled ones (over 31 taps either way) goes through the FFT, and this
// area threshold (GPUIMG_CONV_FFT_MIN_AREA) only moves the crossover down.
// GPUIMG_CONV_FFT=off turns the route off (the bench measures the direct kernels so).
var (
	fftMinArea = envInt("GPUIMG_CONV_FFT_MIN_AREA", 32*32)
	fftOff     = os.Getenv("GPUIMG_CONV_FFT") == "off"
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// fftRoute reports whether the plan runs faster through the frequency domain: on
// the CUDA device, for 2-D kernels from fftMinArea taps or over 31 taps either way,
// and separable ones too long for the tiled kernel.
func (p *plan) fftRoute(s *core.State) bool {
	if s.Dev.IsCPU() || fftOff {
		return false
	}
	if p.sep {
		return max(p.kw, p.kh) > sepMax
	}
	return p.kw*p.kh >= fftMinArea || bucket(convSizes, max(p.kw, p.kh)) == 0
}

// run checks the images and the border, allocates dst and filters.
func (p *plan) run(src, dst *gpuimage.Image, ddepth gpuimage.Depth, border BorderType, opts []gpuimage.Option) error {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return p.fail(err)
	}
	var err error
	if p.ddepth, err = outDepth(s.Depth, ddepth); err != nil {
		return p.fail(err)
	}
	p.isolated = border&BorderIsolated != 0
	p.border = border &^ BorderIsolated
	if p.border < BorderConstant || p.border > BorderReflect101 {
		return p.fail(fmt.Errorf("%w: %v", ErrBadBorder, border))
	}
	// A kernel larger than the image is filtered as OpenCV filters it: the border
	// rule maps every tap (reflections repeat as often as needed).
	for c, v := range core.BorderValueOf(opts) {
		p.value[c] = cpu.ScalarValue(s.Depth, v)
	}
	d := core.StateOf(dst)
	if d == nil {
		return p.fail(core.ErrNil)
	}
	// Filtering in place (or into memory the source shares) would read pixels that
	// are already overwritten: filter into a new image and copy.
	if d.Buf != nil && d.Buf == s.Buf {
		tmp := &gpuimage.Image{}
		defer tmp.Close()
		if err := p.run(src, tmp, gpuimage.Depth(p.ddepth), border, opts); err != nil {
			return err
		}
		if err := tmp.CopyTo(dst, opts...); err != nil {
			return p.fail(err)
		}
		return nil
	}
	if p.fftRoute(s) {
		k := p.k
		if p.sep {
			k = outer(p.kx, p.ky)
		}
		if err := fftfilter.Convolve(src, dst, gpuimage.Depth(p.ddepth), k, image.Pt(p.ax, p.ay), p.delta, border, opts...); err != nil {
			return p.fail(err)
		}
		return nil
	}
	if err := d.Create(s.Dev, s.Rows, s.Cols, p.ddepth, s.Chans); err != nil {
		return p.fail(err)
	}
	err = core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			cpuFilter(d, s, p)
			return nil
		}
		return cudaFilter(str, d, s, p)
	})
	if err != nil {
		return p.fail(err)
	}
	return nil
}
