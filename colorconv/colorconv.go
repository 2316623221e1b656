// Package colorconv converts images between colour spaces on the GPU or the CPU, as
// OpenCV's cvtColor and transform do: the same codes, value ranges and rounding.
//
// 8-bit and 16-bit results follow OpenCV's fixed-point arithmetic where OpenCV uses
// it (gray, YCrCb, YUV, XYZ, HSV, 8-bit RGB to Lab and Lab and Luv to RGB), so they
// are bit-exact with OpenCV; the other non-linear conversions go through float and
// agree within ±1. 32-bit RGB to Lab and Luv run OpenCV's own table and spline
// approximations (lab32.go) and give its results. Value ranges:
//   - 8U hue is 0..180 (HSV, HLS) or 0..255 (the _FULL codes); 32F hue is 0..360,
//     and other 32F hues are reduced as OpenCV reduces them (HSV: fmod 360, a
//     negative hue then reads as 0; HLS: by whole turns into 0..360, as OpenCV's
//     scalar loop does), except that an infinite or NaN hue reads as 0, where
//     OpenCV's HLS loop never ends;
//   - 8U Lab is L*255/100, a+128, b+128; 32F Lab has L in 0..100;
//   - 8U Luv is L*255/100, (u+134)*255/354, (v+140)*255/262;
//   - 32F inputs of the non-linear conversions are expected in 0..1.
package colorconv

import (
	"fmt"
	"strings"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// CvtColor converts src to dst with the given code. dst is (re)allocated as the
// code requires, as gocv does, and may not be src itself. src may be a region view.
// OpenCV's rules apply: the BGR-to-X codes take 3 or 4 channels, the others 3
// (GRAY2X: 1); depths 8U, 16U and 32F (HSV, HLS, Lab, Luv: 8U and 32F).
func CvtColor(src, dst *gpuimage.Image, code Code, opts ...gpuimage.Option) error {
	sp, ok := specs[code]
	if !ok {
		return fmt.Errorf("colorconv.CvtColor: unknown or unsupported code %d", int(code))
	}
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("colorconv.CvtColor %v: %w", code, err)
	}
	if d := core.StateOf(dst); d != nil && (src == dst || core.Overlaps(s, d)) {
		// In place, or into a view overlapping the source: convert into a new image.
		return throughNew("colorconv.CvtColor", dst, opts, func(tmp *gpuimage.Image) error { return CvtColor(src, tmp, code, opts...) })
	}
	if !strings.Contains(" "+sp.depths+" ", " "+s.Depth.String()+" ") {
		return fmt.Errorf("colorconv.CvtColor %v: %w: depth %v (this code takes %s)", code, gpuimage.ErrBadType, s.Depth, sp.depths)
	}
	okCn := false
	for _, c := range sp.scn {
		okCn = okCn || c == s.Chans
	}
	if !okCn {
		return fmt.Errorf("colorconv.CvtColor %v: %w: %d channels (this code takes %v)", code, gpuimage.ErrBadType, s.Chans, sp.scn)
	}
	param := sp.param
	if s.Depth == core.Depth32F {
		param = sp.floatP
	}
	d := core.StateOf(dst)
	if err := d.Create(s.Dev, s.Rows, s.Cols, s.Depth, sp.dcn); err != nil {
		return fmt.Errorf("colorconv.CvtColor %v: %w", code, err)
	}
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			return cpuConvert(sp.fam, d, s, sp.bidx, param)
		}
		return cudaConvert(str, sp, d, s, param)
	})
	if err != nil {
		return fmt.Errorf("colorconv.CvtColor %v: %w", code, err)
	}
	return nil
}

// throughNew runs fn into a new image and copies the result to dst (for outputs
// that share memory with the input).
func throughNew(op string, dst *gpuimage.Image, opts []gpuimage.Option, fn func(tmp *gpuimage.Image) error) error {
	tmp := &gpuimage.Image{}
	defer tmp.Close()
	if err := fn(tmp); err != nil {
		return err
	}
	if err := tmp.CopyTo(dst, opts...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
