package resample

import (
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// pyrPlan is PyrDown's step: src's size, dst's, and the border rule.
type pyrPlan struct {
	sw, sh, dw, dh, cn int
	border             int
}

// PyrDown blurs src with OpenCV's 5x5 Gaussian ([1 4 6 4 1] / 16 on each axis) and
// drops every other row and column into dst, as cv::pyrDown(src, dst, size,
// border): dst gets size when it is not zero (within 2 of half of src's on each
// side), ((cols+1)/2, (rows+1)/2) otherwise. Pixels outside src come from border
// (any rule but BorderConstant; the pixels around a view are never read). Integer
// depths are exact, as OpenCV's fixed point.
func PyrDown(src, dst *gpuimage.Image, size image.Point, border gpuimage.BorderType, opts ...gpuimage.Option) error {
	const op = "resample.PyrDown"
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	b := border &^ gpuimage.BorderIsolated
	if b < gpuimage.BorderReplicate || b > gpuimage.BorderReflect101 {
		return fmt.Errorf("%s: border %v (BORDER_CONSTANT is not supported, as in OpenCV)", op, border)
	}
	if size == (image.Point{}) {
		size = image.Pt((s.Cols+1)/2, (s.Rows+1)/2)
	}
	if size.X < 1 || size.Y < 1 || abs(size.X*2-s.Cols) > 2 || abs(size.Y*2-s.Rows) > 2 {
		return fmt.Errorf("%s: size %dx%d for %dx%d: each side must be within 2 of half of src's", op, size.X, size.Y, s.Cols, s.Rows)
	}
	if s.Chans > 4 {
		return fmt.Errorf("%s: %d channels (1 to 4)", op, s.Chans)
	}
	return runPyr(op, s, dst, &pyrPlan{sw: s.Cols, sh: s.Rows, dw: size.X, dh: size.Y, cn: s.Chans, border: int(b)}, opts)
}

// PyrUp doubles src's size into dst, zeros between the pixels blurred by OpenCV's
// 5x5 Gaussian times 4, as cv::pyrUp(src, dst, size, border): dst gets size when it
// is not zero (twice src's, or one more or less on an odd side), (2*cols, 2*rows)
// otherwise. border must be BorderDefault (BORDER_REFLECT_101 on the upsampled
// grid), as in OpenCV.
func PyrUp(src, dst *gpuimage.Image, size image.Point, border gpuimage.BorderType, opts ...gpuimage.Option) error {
	const op = "resample.PyrUp"
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if border&^gpuimage.BorderIsolated != gpuimage.BorderDefault {
		return fmt.Errorf("%s: border %v (only BORDER_DEFAULT, as in OpenCV)", op, border)
	}
	if size == (image.Point{}) {
		size = image.Pt(s.Cols*2, s.Rows*2)
	}
	if size.X < 1 || size.Y < 1 || abs(size.X-s.Cols*2) != size.X%2 || abs(size.Y-s.Rows*2) != size.Y%2 {
		return fmt.Errorf("%s: size %dx%d for %dx%d: each side must be twice src's (one more or less when odd)", op, size.X, size.Y, s.Cols, s.Rows)
	}
	if int64(size.X)*int64(size.Y) >= maxResize {
		return fmt.Errorf("%s: size %dx%d: too large", op, size.X, size.Y)
	}
	if s.Chans > 4 {
		return fmt.Errorf("%s: %d channels (1 to 4)", op, s.Chans)
	}
	key := planKey{"pyrup", s.Cols, s.Rows, size.X, size.Y, s.Chans, s.Depth, 0, 0, 0}
	pl := cachedPlan(key, func() *resizePlan { return pyrUpPlan(s.Cols, s.Rows, size.X, size.Y, s.Chans, s.Depth) })
	return runResize(op, s, dst, pl, opts)
}

// pyrUpPlan is pyrUp as a separable resize: on each axis, output X of the
// upsampled grid (zeros between the source pixels, [1 4 6 4 1], BORDER_REFLECT_101
// on the grid of twice the source's size) is 2 taps ((x+1)/2 ... ) folded onto the
// source pixels: s[x-1] + 6s[x] + s[x+1] at even X = 2x, 4(s[x] + s[x+1]) at odd
// X, and at the edges 6s[0] + 2s[1], s[w-2] + 7s[w-1], 8s[w-1] (8s[0] for a
// 1-pixel side); an odd extra output repeats the one before it (row 2h repeats
// row 2h-2). The weights carry OpenCV's final division by 64: for 8U and 16-bit
// scaled so that the exact fixed-point arithmetic (arExact) gives (sum + 32) >> 6;
// for 32F as /64 in the vertical pass (exact: a power of two), summed in OpenCV's
// order but at the edges, where the folded weights round once instead of twice.
func pyrUpPlan(sw, sh, dw, dh, cn int, depth core.Depth) *resizePlan {
	pl := &resizePlan{sw: sw, sh: sh, dw: dw, dh: dh, cn: cn, depth: depth, kind: kindSep, arith: arExact}
	hs, vs := float32(32), float32(32) // 8U: (v * 2^10 + 2^15) >> 16
	if depth == core.Depth16U || depth == core.Depth16S {
		hs, vs = 1<<13, 1<<13 // (v * 2^26 + 2^31) >> 32
	}
	if depth == core.Depth32F {
		pl.arith, hs, vs = arFloat, 1, 1.0/64
	}
	axisOf := func(n, dn int, rows bool, scale float32) axis {
		a := axis{start: make([]int32, dn), n: 3, w: make([]float32, dn*3)}
		for X := 0; X < dn; X++ {
			xx := X
			if xx == 2*n {
				xx = 2*n - 1
				if rows {
					xx = 2*n - 2
				}
			}
			x := xx / 2
			var st int
			var w [3]float32
			switch {
			case n == 1:
				w = [3]float32{8}
			case xx%2 == 1 && x == n-1:
				st, w = x, [3]float32{8}
			case xx%2 == 1:
				st, w = x, [3]float32{4, 4}
			case x == 0:
				w = [3]float32{6, 2}
			case x == n-1:
				st, w = x-1, [3]float32{1, 7}
			default:
				st, w = x-1, [3]float32{1, 6, 1}
			}
			a.start[X] = int32(st)
			for j := range w {
				a.w[X*3+j] = w[j] * scale
			}
		}
		return a
	}
	pl.x, pl.y = axisOf(sw, dw, false, hs), axisOf(sh, dh, true, vs)
	return pl
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// runPyr makes dst (a new image first where it shares memory with src) and fills
// it on src's device.
func runPyr(op string, s *core.State, dst *gpuimage.Image, pl *pyrPlan, opts []gpuimage.Option) error {
	return into(op, s, dst, pl.dh, pl.dw, s.Depth, s.Chans, opts, func(str core.Stream, d *core.State) error {
		if s.Dev.IsCPU() {
			pyrCPU(d, s, pl)
			return nil
		}
		return pyrCUDA(str, d, s, pl)
	})
}
