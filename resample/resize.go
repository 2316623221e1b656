package resample

import (
	"fmt"
	"image"
	"math"
	"sync"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/memo"
)

// Interpolation is a resizing method, OpenCV's cv::InterpolationFlags.
type Interpolation int

// The interpolations of cv::resize, with OpenCV's values.
const (
	// InterNearest takes the pixel at floor(x/scale) (INTER_NEAREST).
	InterNearest Interpolation = 0
	// InterLinear is bilinear interpolation (INTER_LINEAR); a shrink by exactly 2
	// on both axes is InterArea's average of 2x2 pixels, as in OpenCV.
	InterLinear Interpolation = 1
	// InterCubic is bicubic interpolation over 4x4 pixels, a = -0.75 (INTER_CUBIC).
	InterCubic Interpolation = 2
	// InterArea averages the source pixels each output pixel covers when
	// shrinking, and interpolates like InterLinear when enlarging (INTER_AREA).
	InterArea Interpolation = 3
	// InterLanczos4 is Lanczos interpolation over 8x8 pixels (INTER_LANCZOS4).
	InterLanczos4 Interpolation = 4
	// InterLinearExact is bilinear interpolation in fixed point, the same on
	// every platform (INTER_LINEAR_EXACT; 32F images get InterLinear).
	InterLinearExact Interpolation = 5
	// InterNearestExact takes the pixel nearest to each output pixel's centre,
	// as Pillow and scikit-image do (INTER_NEAREST_EXACT).
	InterNearestExact Interpolation = 6
)

func (i Interpolation) String() string {
	switch i {
	case InterNearest:
		return "nearest"
	case InterLinear:
		return "linear"
	case InterCubic:
		return "cubic"
	case InterArea:
		return "area"
	case InterLanczos4:
		return "lanczos4"
	case InterLinearExact:
		return "linear-exact"
	case InterNearestExact:
		return "nearest-exact"
	}
	return fmt.Sprintf("Interpolation(%d)", int(i))
}

// ParseInterpolation returns the interpolation a name (String's, or OpenCV's
// INTER_* without the prefix, in any case) stands for.
func ParseInterpolation(name string) (Interpolation, error) {
	for i := InterNearest; i <= InterNearestExact; i++ {
		if equalFold(name, i.String()) || equalFold(name, cvName(i)) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("resample: unknown interpolation %q (nearest, linear, cubic, area, lanczos4, linear-exact, nearest-exact)", name)
}

func cvName(i Interpolation) string {
	return [...]string{"NEAREST", "LINEAR", "CUBIC", "AREA", "LANCZOS4", "LINEAR_EXACT", "NEAREST_EXACT"}[i]
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// maxResize bounds an output's pixels (and each side) so that every index the
// kernels compute fits in 32 bits.
const maxResize = 1 << 30

// Resize resizes src into dst as OpenCV's cv::resize(src, dst, size, fx, fy,
// interp): dst gets size when it is not zero, else round(cols*fx) x
// round(rows*fy); the scale factors are size/src's size when size is given, fx
// and fy otherwise. 8U, 16U, 16S and 32F images of 1 to 4 channels; 8-bit
// results are OpenCV's own (its fixed-point arithmetic, reproduced), others
// within a unit of the last place. One exception: InterArea's 8-bit shrinks by
// other than whole factors with 2.5 source rows an output row or more, which
// OpenCV computes in float, sum the rows first on the GPU, and an element may
// differ from OpenCV's by one where its float sum lies within rounding of a half
// (from 2e-5 of the elements near 1x to 1e-3 at 34x); GPUIMG_AREAF=off gives
// OpenCV's results there too (resample/areaf.go).
func Resize(src, dst *gpuimage.Image, size image.Point, fx, fy float64, interp Interpolation, opts ...gpuimage.Option) error {
	const op = "resample.Resize"
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if interp < InterNearest || interp > InterNearestExact {
		return fmt.Errorf("%s: unknown interpolation %d", op, int(interp))
	}
	if s.Chans > 4 {
		return fmt.Errorf("%s: %d channels (1 to 4)", op, s.Chans)
	}
	size, ifx, ify, err := resizeTarget(s.Cols, s.Rows, size, fx, fy)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if size.X == s.Cols && size.Y == s.Rows {
		return src.CopyTo(dst, opts...)
	}
	key := planKey{"resize", s.Cols, s.Rows, size.X, size.Y, s.Chans, s.Depth, ifx, ify, int(interp)}
	pl := cachedPlan(key, func() *resizePlan {
		return newResizePlan(s.Cols, s.Rows, size.X, size.Y, s.Chans, s.Depth, ifx, ify, interp)
	})
	return runResize(op, s, dst, pl, opts)
}

// resizeTarget is cv::resize's output size and inverse scale factors for a
// cols x rows source: size with size/source's size where size is given, else
// round(cols*fx) x round(rows*fy) with fx, fy; an error where size is negative or
// half given, the factors are not positive and finite, or the result is empty
// or too large.
func resizeTarget(cols, rows int, size image.Point, fx, fy float64) (image.Point, float64, float64, error) {
	if size.X < 0 || size.Y < 0 {
		return size, 0, 0, fmt.Errorf("size %dx%d is negative", size.X, size.Y)
	}
	if size.X != 0 && size.Y != 0 {
		if size.X >= maxResize || size.Y >= maxResize || int64(size.X)*int64(size.Y) >= maxResize {
			return size, 0, 0, fmt.Errorf("size %dx%d: too large", size.X, size.Y)
		}
		return size, float64(size.X) / float64(cols), float64(size.Y) / float64(rows), nil
	}
	if size.X != 0 || size.Y != 0 {
		return size, 0, 0, fmt.Errorf("size %dx%d: give both sides, or neither and fx, fy", size.X, size.Y)
	}
	if !(fx > 0 && fy > 0) || math.IsInf(fx, 0) || math.IsInf(fy, 0) {
		return size, 0, 0, fmt.Errorf("no size, and scale factors fx %v, fy %v are not both positive", fx, fy)
	}
	w, h := float64(cols)*fx, float64(rows)*fy
	if w >= maxResize || h >= maxResize || w*h >= maxResize {
		return size, 0, 0, fmt.Errorf("%gx%g from %dx%d at fx %v, fy %v: too large", w, h, cols, rows, fx, fy)
	}
	size = image.Pt(int(math.RoundToEven(w)), int(math.RoundToEven(h)))
	if size.X < 1 || size.Y < 1 {
		return size, 0, 0, fmt.Errorf("%dx%d at fx %v, fy %v gives an empty %dx%d", cols, rows, fx, fy, size.X, size.Y)
	}
	return size, fx, fy, nil
}

// runResize makes dst (a new image first where it shares memory with src) and
// fills it by the plan on src's device.
func runResize(op string, s *core.State, dst *gpuimage.Image, pl *resizePlan, opts []gpuimage.Option) error {
	return into(op, s, dst, pl.dh, pl.dw, s.Depth, s.Chans, opts, func(str core.Stream, d *core.State) error {
		if s.Dev.IsCPU() {
			resizeCPU(d, s, pl)
			return nil
		}
		return resizeCUDA(str, d, s, pl)
	})
}

// into makes dst a rows x cols image of depth and chans on src's device (a new
// image first where dst shares memory with src, copied into dst at the end) and
// runs fill on it, on the stream opts name; errors carry op.
func into(op string, s *core.State, dst *gpuimage.Image, rows, cols int, depth core.Depth, chans int, opts []gpuimage.Option, fill func(str core.Stream, d *core.State) error) error {
	out := dst
	if d := core.StateOf(dst); d == s || core.Overlaps(s, d) {
		out = &gpuimage.Image{}
		defer out.Close()
	}
	d := core.StateOf(out)
	if d == nil {
		return fmt.Errorf("%s: %w", op, core.ErrNil)
	}
	if err := d.Create(s.Dev, rows, cols, depth, chans); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error { return fill(str, d) }); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if out != dst {
		return out.CopyTo(dst, opts...)
	}
	return nil
}

// A resizePlan is how one resize computes its pixels, as OpenCV's cv::resize
// would: a gather (the nearest interpolations), the integer-factor area average,
// or a separable filter (every other case) whose horizontal pass runs along each
// needed source row and whose vertical pass combines ny of those rows.
type resizePlan struct {
	sw, sh, dw, dh, cn int
	depth              core.Depth
	kind               resizeKind

	// kindGather: output (x, y) is source pixel (xs[x], ys[y]).
	xs, ys []int32

	// kindAreaFast: the average of ix x iy pixels; round2 marks OpenCV's
	// (sum + 2) >> 2 of its 2x2 fast path (integer depths, 1, 3 or 4 channels).
	ix, iy int
	round2 bool

	// kindSep: the two passes' taps and the arithmetic that combines them.
	x, y  axis
	arith arith
	// simd is how many elements at the start of each output row OpenCV's 8-bit
	// vertical pass computes with vector arithmetic (simdLinear or simdCubic),
	// which rounds otherwise than its scalar tail.
	simd     int
	simdKind int

	// The tables as the kernels read them, and their digest (devcache.Sum), made
	// once for every call with the plan (resample/cuda.go's deviceTables).
	tabsOnce sync.Once
	tabs     [][]byte
	tabsSum  uint64

	// The tensor-core passes' tables (Scale's 8-bit plans), by the source rows'
	// offset from a multiple of 8 (resample/pmma.go).
	pmmaMu   sync.Mutex
	pmmaTabs map[int]*pmmaTables

	// area: x and y are areaAxis's (InterArea's fractional shrinks); their runs
	// for gi_resize_areaf_* (resample/areaf.go), built on first use.
	area      bool
	areafOnce sync.Once
	areafTabs *areafTables

	// The tile kernel's shapes, by device kind (resample/cuda.go's tileShape).
	tileMu sync.Mutex
	tiles  map[[2]int]resizeTile

	// The fixed-weight kernel that computes the plan (resample/fixed.go's
	// resizeFixed).
	fixedOnce sync.Once
	fixed     string
}

type resizeKind int

const (
	kindGather resizeKind = iota
	kindAreaFast
	kindSep
)

// arith is how the separable passes compute.
type arith int

const (
	// arFloat: float32 sums, each product rounded, in OpenCV's order; the
	// result rounded half to even and saturated (16U, 16S, 32F; area for all).
	arFloat arith = iota
	// arFix8: 8U's INTER_RESIZE_COEF_BITS fixed point: integer taps scaled by
	// 2048, exact integer horizontal sums, (sum + 2^21) >> 22 vertically.
	arFix8
	// arExact: INTER_LINEAR_EXACT's fixed point: taps with 8 (8-bit) or 16
	// fraction bits, the vertical product rounded at twice that.
	arExact
	// arPillow: Pillow's 8-bit resampling: 22-bit integer taps, each pass
	// rounded ((sum + 2^21) >> 22) and clipped to 0..255 (Scale).
	arPillow
)

const (
	simdNone = iota
	simdLinear
	simdCubic
)

// axis is one pass's taps: output i reads the n source indices start[i] + j
// (clamped to the image: OpenCV replicates the edge) with weights w[i*n + j].
type axis struct {
	start []int32
	n     int
	w     []float32
}

// newResizePlan builds OpenCV's tables for a resize of sw x sh to dw x dh at
// the inverse scales ifx, ify (hal::resize's inv_scale_x, inv_scale_y).
func newResizePlan(sw, sh, dw, dh, cn int, depth core.Depth, ifx, ify float64, interp Interpolation) *resizePlan {
	pl := &resizePlan{sw: sw, sh: sh, dw: dw, dh: dh, cn: cn, depth: depth}
	if interp == InterLinearExact && depth == core.Depth32F {
		interp = InterLinear
	}
	scx, scy := 1/ifx, 1/ify
	iscx, iscy := int(math.RoundToEven(scx)), int(math.RoundToEven(scy))
	areaFast := math.Abs(scx-float64(iscx)) < 0x1p-52 && math.Abs(scy-float64(iscy)) < 0x1p-52
	if interp == InterLinearExact {
		if areaFast && iscx == 2 && iscy == 2 && cn != 2 {
			interp = InterArea
		} else {
			pl.kind, pl.arith = kindSep, arExact
			pl.x = exactAxis(sw, dw, ifx, depth)
			pl.y = exactAxis(sh, dh, ify, depth)
			return pl
		}
	}
	switch interp {
	case InterNearest:
		pl.kind = kindGather
		pl.xs, pl.ys = nearestTab(sw, dw, 1/ifx), nearestTab(sh, dh, 1/ify)
		return pl
	case InterNearestExact:
		pl.kind = kindGather
		pl.xs, pl.ys = nearestExactTab(sw, dw), nearestExactTab(sh, dh)
		return pl
	}
	if interp == InterLinear && areaFast && iscx == 2 && iscy == 2 {
		interp = InterArea
	}
	if interp == InterArea && scx >= 1 && scy >= 1 {
		if areaFast {
			pl.kind, pl.ix, pl.iy = kindAreaFast, iscx, iscy
			pl.round2 = iscx == 2 && iscy == 2 && cn != 2 && depth != core.Depth32F
			return pl
		}
		pl.kind, pl.arith, pl.area = kindSep, arFloat, true
		pl.x, pl.y = areaAxis(sw, dw, scx), areaAxis(sh, dh, scy)
		return pl
	}
	pl.kind, pl.arith = kindSep, arFloat
	if depth == core.Depth8U {
		pl.arith = arFix8
	}
	pl.x = interpAxis(sw, dw, scx, ifx, interp, pl.arith == arFix8, true)
	pl.y = interpAxis(sh, dh, scy, ify, interp, pl.arith == arFix8, false)
	if pl.arith == arFix8 {
		n := dw * cn
		switch pl.x.n {
		case 2: // VResizeLinear's 8U specialisation: its scalar tail rounds as its vectors do
			pl.simd, pl.simdKind = n, simdLinear
		case 4: // VResizeCubicVec_32s8u: 8 elements a step
			pl.simd, pl.simdKind = n/8*8, simdCubic
		}
	}
	return pl
}

// nearestTab is resizeNN's offsets: min(floor(i*scale), n-1).
func nearestTab(n, dn int, scale float64) []int32 {
	t := make([]int32, dn)
	for i := range t {
		t[i] = int32(min(int(math.Floor(float64(i)*scale)), n-1))
	}
	return t
}

// nearestExactTab is resizeNN_bitexact's 16.16 fixed-point offsets (pixel
// centres, rounded as Pillow does).
func nearestExactTab(n, dn int) []int32 {
	t := make([]int32, dn)
	f := int64((n<<16)+dn/2) / int64(dn)
	f0 := f/2 - 1 // OpenCV 4.6 (later versions: f/2 - n%2)
	for i := range t {
		t[i] = int32(min((f*int64(i)+f0)>>16, int64(n-1)))
	}
	return t
}

// interpAxis is hal::resize's tables for linear, cubic, Lanczos4 and the
// enlarging area mode: xofs (as the first tap's index) and alpha (scaled to
// 2048 and rounded for 8U). Along x, the linear kinds clamp the first and last
// positions to the edge pixel; along y OpenCV keeps the unclamped weights and
// clamps only the rows.
func interpAxis(n, dn int, scale, inv float64, interp Interpolation, fix, isX bool) axis {
	k := 2
	switch interp {
	case InterCubic:
		k = 4
	case InterLanczos4:
		k = 8
	}
	area := interp == InterArea
	a := axis{start: make([]int32, dn), n: k, w: make([]float32, dn*k)}
	var c [8]float32
	for d := 0; d < dn; d++ {
		var f float32
		var s int
		if !area {
			f = float32(float64((float64(d)+0.5)*scale) - 0.5)
			s = int(math.Floor(float64(f)))
			f -= float32(s)
		} else {
			s = int(math.Floor(float64(d) * scale))
			f = float32(float64(d+1) - float64(float64(s+1)*inv))
			if f <= 0 {
				f = 0
			} else {
				f -= float32(math.Floor(float64(f)))
			}
		}
		if isX && k == 2 {
			if s < 0 {
				f, s = 0, 0
			}
			if s >= n-1 {
				f, s = 0, n-1
			}
		}
		switch k {
		case 4:
			cubicCoeffs(f, c[:4])
		case 8:
			lanczos4Coeffs(f, c[:8])
		default:
			c[0], c[1] = 1-f, f
		}
		a.start[d] = int32(s - (k/2 - 1))
		for j := 0; j < k; j++ {
			v := c[j]
			if fix {
				v = float32(satShort(float32(v * 2048)))
			}
			a.w[d*k+j] = v
		}
	}
	return a
}

func satShort(f float32) int16 {
	r := math.RoundToEven(float64(f))
	return int16(max(math.MinInt16, min(math.MaxInt16, r)))
}

// cubicCoeffs is OpenCV's interpolateCubic (A = -0.75), in float32 as it
// computes them (each operation rounded).
func cubicCoeffs(x float32, c []float32) {
	const A = float32(-0.75)
	x1 := float32(x + 1)
	c[0] = float32(float32(float32(float32(float32(float32(A*x1)-5*A)*x1)+8*A)*x1) - 4*A)
	c[1] = float32(float32(float32(float32(float32((A+2)*x)-(A+3))*x)*x) + 1)
	x2 := float32(1 - x)
	c[2] = float32(float32(float32(float32(float32((A+2)*x2)-(A+3))*x2)*x2) + 1)
	c[3] = float32(float32(float32(1-c[0])-c[1]) - c[2])
}

// lanczos4Coeffs is OpenCV's interpolateLanczos4.
func lanczos4Coeffs(x float32, c []float32) {
	const s45 = 0.70710678118654752440084436210485
	cs := [8][2]float64{{1, 0}, {-s45, -s45}, {0, 1}, {s45, -s45}, {-1, 0}, {s45, s45}, {0, -1}, {-s45, s45}}
	var sum float32
	y0 := -float64(x+3) * math.Pi * 0.25
	s0, c0 := math.Sin(y0), math.Cos(y0)
	for i := 0; i < 8; i++ {
		y0i := float32(x + 3 - float32(i))
		if math.Abs(float64(y0i)) >= 1e-6 {
			y := -float64(y0i) * math.Pi * 0.25
			c[i] = float32((cs[i][0]*s0 + cs[i][1]*c0) / (y * y))
		} else {
			c[i] = 1e30
		}
		sum += c[i]
	}
	sum = 1 / sum
	for i := range c[:8] {
		c[i] *= sum
	}
}

// areaAxis is computeResizeAreaTab's weights (the share of each source pixel in
// an output pixel), as consecutive taps; outputs with fewer taps than the most
// repeat their last index with weight 0.
func areaAxis(n, dn int, scale float64) axis {
	type tap struct {
		s int
		w float32
	}
	taps := make([][]tap, dn)
	k := 0
	for d := range taps {
		f1 := float64(d) * scale
		f2 := f1 + scale
		cell := math.Min(scale, float64(n)-f1)
		s1, s2 := int(math.Ceil(f1)), int(math.Floor(f2))
		s2 = min(s2, n-1)
		s1 = min(s1, s2)
		if float64(s1)-f1 > 1e-3 {
			taps[d] = append(taps[d], tap{s1 - 1, float32((float64(s1) - f1) / cell)})
		}
		for s := s1; s < s2; s++ {
			taps[d] = append(taps[d], tap{s, float32(1 / cell)})
		}
		if f2-float64(s2) > 1e-3 {
			taps[d] = append(taps[d], tap{s2, float32(math.Min(math.Min(f2-float64(s2), 1), cell) / cell)})
		}
		k = max(k, len(taps[d]))
	}
	a := axis{start: make([]int32, dn), n: k, w: make([]float32, dn*k)}
	for d, t := range taps {
		a.start[d] = int32(t[0].s)
		for j, v := range t {
			a.w[d*k+j] = v.w
		}
	}
	return a
}

// exactAxis is resize_bitExact's interpolationLinear: offsets and fixed-point
// weights with 8 (8U) or 16 fraction bits, rounded half to even from double;
// positions before the first pixel centre or past the last take the edge pixel
// (weights one and zero).
func exactAxis(n, dn int, inv float64, depth core.Depth) axis {
	one := 1 << 16
	if depth == core.Depth8U {
		one = 1 << 8
	}
	scale := 1 / inv
	a := axis{start: make([]int32, dn), n: 2, w: make([]float32, dn*2)}
	for d := 0; d < dn; d++ {
		f := float64(scale*(float64(d)+0.5)) - 0.5
		i := int(math.Floor(f))
		s, w1 := 0, 0
		switch {
		case i < 0 || n <= 1:
		case i < n-1:
			s, w1 = i, int(math.RoundToEven((f-float64(i))*float64(one)))
		default:
			s = n - 1
		}
		a.start[d] = int32(s)
		a.w[d*2], a.w[d*2+1] = float32(one-w1), float32(w1)
	}
	return a
}

// The plans of recent resizes, by what determines them: building one (OpenCV's or
// Pillow's weights, sines for Lanczos, for every output row and column) takes
// longer than the GPU takes to resize a 4K image, and a batch or a video resizes
// frame after frame alike. At most 64 are kept.
type planKey struct {
	op                 string
	sw, sh, dw, dh, cn int
	depth              core.Depth
	fx, fy             float64
	mode               int
}

var plans = memo.Cache[planKey, *resizePlan]{Max: 64}

// cachedPlan returns the plan for key, made by build the first time.
func cachedPlan(key planKey, build func() *resizePlan) *resizePlan {
	pl, _ := plans.Get(key, func() (*resizePlan, error) { return build(), nil })
	return pl
}
