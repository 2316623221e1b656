package wavelet

import (
	"fmt"
	"image"
	"math"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// ShrinkMethod is how Denoise picks its thresholds (scikit-image's method).
type ShrinkMethod int

// The methods.
const (
	// BayesShrink thresholds each detail subband by sigma² / sqrt(max(mean(d²) -
	// sigma², eps)) (Chang, Yu and Vetterli).
	BayesShrink ShrinkMethod = iota
	// VisuShrink thresholds every detail by sigma sqrt(2 ln(pixels)) (Donoho and
	// Johnstone's universal threshold).
	VisuShrink
)

// DenoiseOptions are Denoise's choices, scikit-image's names and meanings; the
// zero value is denoise_wavelet's defaults.
type DenoiseOptions struct {
	Wavelet *Wavelet // nil: db1 (haar)
	Method  ShrinkMethod
	Hard    bool // hard thresholding, not soft
	// Levels of the transform (0: the deepest MaxLevel allows of the shorter side,
	// less 3, at least 1).
	Levels int
	// Sigma is each channel's noise standard deviation, in the image's units (0-255
	// for 8-bit images); nil or a zero entry estimates it from the finest diagonal
	// details: median(|d| != 0) / 0.6745.
	Sigma []float64
	// YCbCr denoises a 3-channel (BGR) image's luma and chroma, not its B, G and R.
	YCbCr bool
}

// madScale is scipy.stats.norm.ppf(0.75): the median of |N(0, 1)|.
const madScale = 0.6744897501960817

// Denoise removes noise from src (8U or 32F, 1, 3 or 4 channels) by wavelet
// thresholding into dst (src's type), as skimage.restoration.denoise_wavelet(x,
// sigma, wavelet, mode, wavelet_levels, convert2ycbcr, method, rescale_sigma=True,
// channel_axis=-1 for several channels): each channel's WaveDec2 (symmetric
// mode), its details thresholded (soft or hard), WaveRec2. 8-bit images are
// scaled to [0, 1] first (img_as_float) and clipped to it after; YCbCr channels
// are OpenCV's (BGR2YCrCb), a per-channel affine image of scikit-image's
// rgb2ycbcr, which the thresholds follow.
func Denoise(src, dst *gpuimage.Image, o *DenoiseOptions, opts ...gpuimage.Option) error {
	const op = "wavelet.Denoise"
	if o == nil {
		o = &DenoiseOptions{}
	}
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: src: %w", op, err)
	}
	if (s.Depth != core.Depth8U && s.Depth != core.Depth32F) || s.Chans == 2 {
		return fmt.Errorf("%s: %w: src is %v (8U or 32F, 1, 3 or 4 channels)", op, gpuimage.ErrBadType, src.Type())
	}
	if dst == nil {
		return fmt.Errorf("%s: %w: dst", op, gpuimage.ErrNil)
	}
	w := o.Wavelet
	if w == nil {
		w, _ = New("db1")
	}
	if err := w.check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if o.Method != BayesShrink && o.Method != VisuShrink {
		return fmt.Errorf("%s: unknown method %d", op, o.Method)
	}
	if o.YCbCr && s.Chans != 3 {
		return fmt.Errorf("%s: YCbCr needs a 3-channel image, not %v", op, src.Type())
	}
	if o.Sigma != nil && len(o.Sigma) != s.Chans {
		return fmt.Errorf("%s: %d sigmas for %d channels", op, len(o.Sigma), s.Chans)
	}
	for _, sg := range o.Sigma {
		if !(sg >= 0 && sg < math.Inf(1)) {
			return fmt.Errorf("%s: sigma %v (a noise standard deviation, 0 to estimate it)", op, sg)
		}
	}
	levels := o.Levels
	maxLevel := MaxLevel(min(s.Rows, s.Cols), w.Len())
	if levels == 0 {
		levels = max(maxLevel-3, 1)
	}
	if levels < 0 || levels > max(maxLevel, 1) {
		return fmt.Errorf("%s: %d levels: 1 to %d for a %dx%d image and %s", op, levels, max(maxLevel, 1), s.Cols, s.Rows, w.Name)
	}
	if min(s.Rows, s.Cols) < 2 {
		return fmt.Errorf("%s: a %dx%d image: at least 2x2", op, s.Cols, s.Rows)
	}

	// Floats, [0, 1] for 8-bit images; YCrCb.
	scale := 1.0
	if s.Depth == core.Depth8U {
		scale = 1.0 / 255
	}
	f := &gpuimage.Image{}
	defer f.Close()
	if err := src.ConvertTo(f, gpuimage.Depth32F, scale, 0, opts...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if o.YCbCr {
		if err := colorconv.CvtColor(f, f, colorconv.ColorBGRToYCrCb, opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	planes := []*gpuimage.Image{f}
	if s.Chans > 1 {
		var err error
		if planes, err = gpuimage.Split(f, opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		defer closeAll(planes)
	}
	for c, pl := range planes {
		sigma := 0.0
		if o.Sigma != nil {
			sigma = o.Sigma[c] * scale
			if o.YCbCr {
				return fmt.Errorf("%s: YCbCr with given sigmas is not supported (leave Sigma nil to estimate them)", op)
			}
		}
		if err := denoisePlane(pl, w, levels, sigma, o, opts); err != nil {
			return fmt.Errorf("%s: channel %d: %w", op, c, err)
		}
	}
	if s.Chans > 1 {
		if err := gpuimage.Merge(planes, f, opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	if o.YCbCr {
		if err := colorconv.CvtColor(f, f, colorconv.ColorYCrCbToBGR, opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	// Back to src's depth: 8-bit saturates, which is scikit-image's clip to [0, 1].
	if err := f.ConvertTo(dst, src.Depth(), 1/scale, 0, opts...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// denoisePlane thresholds one 32FC1 plane's details in place.
func denoisePlane(pl *gpuimage.Image, w *Wavelet, levels int, sigma float64, o *DenoiseOptions, opts []gpuimage.Option) error {
	c, err := WaveDec2(pl, w, Symmetric, levels, opts...)
	if err != nil {
		return err
	}
	defer c.Close()
	if sigma == 0 {
		if sigma, err = madSigma(c.Details[len(c.Details)-1].D, opts); err != nil {
			return err
		}
	}
	var bands []*gpuimage.Image
	for _, d := range c.Details {
		bands = append(bands, d.H, d.V, d.D)
	}
	thr := make([]float64, len(bands))
	vr := sigma * sigma
	switch o.Method {
	case VisuShrink:
		t := sigma * math.Sqrt(2*math.Log(float64(pl.Rows()*pl.Cols())))
		for i := range thr {
			thr[i] = t
		}
	case BayesShrink:
		sums, err := sumSquares(bands, opts)
		if err != nil {
			return err
		}
		for i, b := range bands {
			dvar := sums[i] / float64(b.Rows()*b.Cols())
			thr[i] = vr / math.Sqrt(math.Max(dvar-vr, 0x1p-52)) // float64's eps, as the float64 coefficients scikit-image thresholds
		}
	}
	if err := thresholds(bands, thr, o.Hard, opts); err != nil {
		return err
	}
	rec := &gpuimage.Image{}
	defer rec.Close()
	if err := WaveRec2(c, rec, w, Symmetric, opts...); err != nil {
		return err
	}
	cut, err := rec.Region(image.Rect(0, 0, pl.Cols(), pl.Rows()))
	if err != nil {
		return err
	}
	defer cut.Close()
	return cut.CopyTo(pl, opts...)
}

// madSigma is the noise estimate from the finest diagonal details d: the median
// of the magnitudes that are not zero (scikit-image leaves out a flat region's
// zeros), over 0.6745 (0 if all are zero).
func madSigma(d *gpuimage.Image, opts []gpuimage.Option) (float64, error) {
	b := make([]byte, d.Rows()*d.Cols()*4)
	if err := d.Download(b, opts...); err != nil {
		return 0, err
	}
	if s := core.StreamOf(opts); s != nil {
		if err := s.Sync(); err != nil {
			return 0, err
		}
	}
	// scikit-image leaves out the details that are exactly zero: a flat region's
	// Haar details, which both devices leave at exactly 0 (the kernels round
	// two-tap products before adding them, as float64 does). Details that are zero
	// only in exact arithmetic (quantised pixels whose differences cancel) may come
	// out 0 in one precision and a rounding residue in another, so on 8-bit
	// images the median can fall a quantisation step off scikit-image's or the
	// other device's.
	v := make([]float32, 0, len(b)/4)
	for i := 0; i < len(b); i += 4 {
		x := math.Float32frombits(uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24)
		if x != 0 {
			v = append(v, float32(math.Abs(float64(x))))
		}
	}
	n := len(v)
	if n == 0 {
		return 0, nil
	}
	m := float64(selectK(v, n/2))
	if n%2 == 0 {
		// The mean of the two middle values (np.median): the lower is the largest
		// of the half below.
		lo := v[0]
		for _, x := range v[:n/2] {
			lo = max(lo, x)
		}
		m = (m + float64(lo)) / 2
	}
	return m / madScale, nil
}

// selectK reorders v so that v[k] is its k-th smallest value, those before it no
// larger and those after no smaller (Hoare's selection), and returns it.
func selectK(v []float32, k int) float32 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		p := v[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// bandStates are bands' states, checked.
func bandStates(bands []*gpuimage.Image) ([]*core.State, error) {
	sts := make([]*core.State, len(bands))
	for i, b := range bands {
		sts[i] = core.StateOf(b)
		if err := sts[i].Check(); err != nil {
			return nil, err
		}
	}
	return sts, nil
}

// sumSquares is each band's sum of squares (32FC1 bands on one device).
func sumSquares(bands []*gpuimage.Image, opts []gpuimage.Option) ([]float64, error) {
	sts, err := bandStates(bands)
	if err != nil {
		return nil, err
	}
	dev := sts[0].Dev
	sums := make([]float64, len(sts))
	err = core.Run(dev, opts, sts, func(str core.Stream) error {
		if dev.IsCPU() {
			for i, s := range sts {
				sums[i] = sumSquaresCPU(s)
			}
			return nil
		}
		return sumSquaresCUDA(str, sts, sums)
	})
	return sums, err
}

// thresholds thresholds each band in place by its threshold.
func thresholds(bands []*gpuimage.Image, thr []float64, hard bool, opts []gpuimage.Option) error {
	sts, err := bandStates(bands)
	if err != nil {
		return err
	}
	dev := sts[0].Dev
	return core.Run(dev, opts, sts, func(str core.Stream) error {
		for i, s := range sts {
			if dev.IsCPU() {
				thresholdCPU(s, float32(thr[i]), hard)
			} else if err := thresholdCUDA(str, s, float32(thr[i]), hard); err != nil {
				return err
			}
		}
		return nil
	})
}
