package resample

import (
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// pyrPlan is one pyramid step: src's size, dst's, and the border rule (PyrDown's;
// PyrUp's is always BORDER_REFLECT_101 on the upsampled grid).
type pyrPlan struct {
	up                 bool
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
	return runPyr(op, s, dst, &pyrPlan{up: true, sw: s.Cols, sh: s.Rows, dw: size.X, dh: size.Y, cn: s.Chans, border: int(gpuimage.BorderReflect101)}, opts)
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
	out := dst
	if d := core.StateOf(dst); d == s || core.Overlaps(s, d) {
		out = &gpuimage.Image{}
		defer out.Close()
	}
	d := core.StateOf(out)
	if d == nil {
		return fmt.Errorf("%s: %w", op, core.ErrNil)
	}
	if err := d.Create(s.Dev, pl.dh, pl.dw, s.Depth, s.Chans); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			pyrCPU(d, s, pl)
			return nil
		}
		return pyrCUDA(str, d, s, pl)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if out != dst {
		return out.CopyTo(dst, opts...)
	}
	return nil
}
