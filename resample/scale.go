package resample

import (
	"fmt"
	"image"
	"math"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Filter is Scale's resampling filter, Pillow's names (Image.Resampling).
type Filter int

// The filters: the support (in source pixels at scale 1) grows with the
// shrinking factor, so every source pixel counts (antialiasing).
const (
	// Box is the mean of the pixels an output pixel covers (support 0.5).
	Box Filter = iota
	// Bilinear is the triangle filter (support 1).
	Bilinear
	// Bicubic is the cubic filter with a = -0.5 (support 2), Pillow's default.
	Bicubic
	// Lanczos3 is the 3-lobe Lanczos filter (support 3).
	Lanczos3
	// Hamming is the Hamming-windowed sinc of support 1.
	Hamming
)

func (f Filter) String() string {
	switch f {
	case Box:
		return "box"
	case Bilinear:
		return "bilinear"
	case Bicubic:
		return "bicubic"
	case Lanczos3:
		return "lanczos3"
	case Hamming:
		return "hamming"
	}
	return fmt.Sprintf("Filter(%d)", int(f))
}

// ParseFilter returns the filter a name (String's, in any case; "lanczos" too)
// stands for.
func ParseFilter(name string) (Filter, error) {
	for f := Box; f <= Hamming; f++ {
		if equalFold(name, f.String()) {
			return f, nil
		}
	}
	if equalFold(name, "lanczos") {
		return Lanczos3, nil
	}
	return 0, fmt.Errorf("resample: unknown filter %q (box, bilinear, bicubic, lanczos3, hamming)", name)
}

// support and weight are Pillow's filters (libImaging/Resample.c).
func (f Filter) support() float64 {
	return [...]float64{Box: 0.5, Bilinear: 1, Bicubic: 2, Lanczos3: 3, Hamming: 1}[f]
}

func (f Filter) weight(x float64) float64 {
	switch f {
	case Box:
		if x > -0.5 && x <= 0.5 {
			return 1
		}
		return 0
	case Bilinear:
		x = math.Abs(x)
		if x < 1 {
			return 1 - x
		}
		return 0
	case Bicubic:
		const a = -0.5
		x = math.Abs(x)
		if x < 1 {
			return ((a+2)*x-(a+3))*x*x + 1
		}
		if x < 2 {
			return (((x-5)*x+8)*x - 4) * a
		}
		return 0
	case Hamming:
		if x < 0 {
			x = -x
		}
		if x == 0 {
			return 1
		}
		if x >= 1 {
			return 0
		}
		x *= math.Pi
		return math.Sin(x) / x * (float64(float32(0.54)) + float64(float32(0.46))*math.Cos(x)) // Pillow's 0.54f, 0.46f
	}
	if -3 <= x && x < 3 {
		return sinc(x) * sinc(x/3)
	}
	return 0
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	x *= math.Pi
	return math.Sin(x) / x
}

// Scale resizes src into dst (of size) with an antialiasing filter, as Pillow's
// Image.resize(size, filter) and libvips do: when shrinking, the filter is
// stretched by the factor, so that every source pixel contributes (cv::resize's
// linear, cubic and Lanczos4 kernels sample only a few pixels and alias). 8-bit
// images are computed as Pillow computes them (22-bit fixed-point weights, the
// horizontal pass first, rounded to 8 bits between the passes); 16U, 16S and 32F
// in float32. Channels are resampled independently (Pillow's "RGBa": premultiply
// a straight alpha first, as Pillow does for "RGBA").
func Scale(src, dst *gpuimage.Image, size image.Point, f Filter, opts ...gpuimage.Option) error {
	const op = "resample.Scale"
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if f < Box || f > Hamming {
		return fmt.Errorf("%s: unknown filter %d", op, int(f))
	}
	if size.X < 1 || size.Y < 1 {
		return fmt.Errorf("%s: size %dx%d: both sides must be positive", op, size.X, size.Y)
	}
	if size.X >= maxResize || size.Y >= maxResize || int64(size.X)*int64(size.Y) >= maxResize {
		return fmt.Errorf("%s: size %dx%d: too large", op, size.X, size.Y)
	}
	if s.Chans > 4 {
		return fmt.Errorf("%s: %d channels (1 to 4)", op, s.Chans)
	}
	if size.X == s.Cols && size.Y == s.Rows {
		return src.CopyTo(dst, opts...)
	}
	key := planKey{"scale", s.Cols, s.Rows, size.X, size.Y, s.Chans, s.Depth, 0, 0, int(f)}
	pl := cachedPlan(key, func() *resizePlan { return scalePlan(s.Cols, s.Rows, size.X, size.Y, s.Chans, s.Depth, f) })
	return runResize(op, s, dst, pl, opts)
}

// scalePlan is Scale's resize of sw x sh to dw x dh by f: Pillow's weights on
// each axis (a pass that keeps its size copies, as Pillow skips it), in Pillow's
// 8-bit arithmetic for 8U and in float32 otherwise.
func scalePlan(sw, sh, dw, dh, cn int, depth core.Depth, f Filter) *resizePlan {
	pl := &resizePlan{sw: sw, sh: sh, dw: dw, dh: dh, cn: cn, depth: depth, kind: kindSep, arith: arFloat}
	fix := depth == core.Depth8U
	if fix {
		pl.arith = arPillow
	}
	pl.x, pl.y = pillowAxis(sw, dw, f, fix), pillowAxis(sh, dh, f, fix)
	if dh == sh {
		pl.y = identityAxis(sh, fix)
	}
	if dw == sw {
		pl.x = identityAxis(sw, fix)
	}
	return pl
}

// pillowBits are the fraction bits of Pillow's 8-bit weights (PRECISION_BITS).
const pillowBits = 22

// pillowAxis is Pillow's precompute_coeffs: output i reads the source pixels
// [xmin, xmin+n) around its centre (i+0.5)*scale, weighted by the filter stretched
// by max(scale, 1) and normalised to sum 1; for 8-bit images the weights are then
// rounded to 22-bit integers (normalize_coeffs_8bpc). The table is as wide as
// the most taps an output sums, which is often one fewer than Pillow's ksize
// (12 of 13 for Lanczos3 by 2, 8 of 9 for bicubic by 2: a whole group of 4 taps
// less for the kernels that sum 4 at a time); outputs with fewer taps than that
// repeat their last index with weight 0, as Pillow pads its rows of ksize.
func pillowAxis(n, dn int, f Filter, fix bool) axis {
	scale := float64(n) / float64(dn)
	fs := math.Max(scale, 1)
	support := f.support() * fs
	ksize := int(math.Ceil(support))*2 + 1
	centre := func(d int) float64 { return (float64(d) + 0.5) * scale }
	window := func(d int) (lo, hi int) {
		c := centre(d)
		lo = max(int(c-support+0.5), 0)
		return lo, min(min(int(c+support+0.5), n)-lo, ksize)
	}
	k := 1
	for d := range dn {
		_, hi := window(d)
		k = max(k, hi)
	}
	a := axis{start: make([]int32, dn), n: k, w: make([]float32, dn*k)}
	w := make([]float64, k)
	for d := range dn {
		c := centre(d)
		lo, hi := window(d)
		var sum float64
		for x := 0; x < hi; x++ {
			w[x] = f.weight((float64(x+lo) - c + 0.5) / fs)
			sum += w[x]
		}
		a.start[d] = int32(lo)
		for x := 0; x < hi; x++ {
			v := w[x]
			if sum != 0 {
				v /= sum
			}
			if fix {
				if v < 0 {
					v = float64(int(-0.5 + v*(1<<pillowBits)))
				} else {
					v = float64(int(0.5 + v*(1<<pillowBits)))
				}
			}
			a.w[d*k+x] = float32(v)
		}
	}
	return a
}

// identityAxis is a pass that copies (one tap of weight one).
func identityAxis(n int, fix bool) axis {
	a := axis{start: make([]int32, n), n: 1, w: make([]float32, n)}
	one := float32(1)
	if fix {
		one = 1 << pillowBits
	}
	for i := range a.start {
		a.start[i], a.w[i] = int32(i), one
	}
	return a
}
