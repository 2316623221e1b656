package resample_test

import (
	"image"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
)

type resizeCase struct {
	size   image.Point
	fx, fy float64
}

func resizeCases(cols, rows int) []resizeCase {
	c := []resizeCase{
		{fx: 0.5, fy: 0.5}, {fx: 2, fy: 2}, {fx: 1.0 / 3, fy: 0.25}, {fx: 0.3, fy: 1.7}, {fx: 3, fy: 0.5},
		{size: image.Pt(cols*2, rows*2)}, {size: image.Pt((cols+1)/2, (rows+1)/2)},
		{size: image.Pt(cols*3/7+1, rows*5/3+1)}, {size: image.Pt(cols+3, max(1, rows-2))},
		{size: image.Pt(1, 1)}, {size: image.Pt(cols/3+1, rows/4+1)},
	}
	var out []resizeCase
	for _, k := range c {
		if k.size == (image.Point{}) {
			w, h := float64(cols)*k.fx, float64(rows)*k.fy
			if w < 0.5 || h < 0.5 || (w == 0.5 || h == 0.5) {
				continue
			}
		}
		out = append(out, k)
	}
	return out
}

var allInterps = []resample.Interpolation{resample.InterNearest, resample.InterLinear, resample.InterCubic,
	resample.InterArea, resample.InterLanczos4, resample.InterLinearExact, resample.InterNearestExact}

// Bad input gets an error that names the problem, on both devices' code path.
func TestResizeBadInput(t *testing.T) {
	src, err := gpuimage.New(gpuimage.CPU(), 10, 20, gpuimage.CV8UC3)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	closed, _ := gpuimage.New(gpuimage.CPU(), 2, 2, gpuimage.CV8UC1)
	closed.Close()
	for _, c := range []struct {
		src    *gpuimage.Image
		size   image.Point
		fx, fy float64
		in     resample.Interpolation
		want   string
	}{
		{src, image.Pt(-1, 5), 0, 0, resample.InterLinear, "negative"},
		{src, image.Pt(0, 5), 0, 0, resample.InterLinear, "both sides"},
		{src, image.Point{}, 0, 0, resample.InterLinear, "not both positive"},
		{src, image.Point{}, -1, 2, resample.InterLinear, "not both positive"},
		{src, image.Point{}, 0.01, 0.01, resample.InterLinear, "empty"},
		{src, image.Pt(5, 5), 0, 0, resample.Interpolation(9), "unknown interpolation"},
		{src, image.Point{}, 1e6, 1e6, resample.InterLinear, "too large"},
		{src, image.Pt(1<<20, 1<<20), 0, 0, resample.InterLinear, "too large"},
		{closed, image.Pt(5, 5), 0, 0, resample.InterLinear, "closed"},
		{nil, image.Pt(5, 5), 0, 0, resample.InterLinear, "nil"},
	} {
		dst := &gpuimage.Image{}
		err := resample.Resize(c.src, dst, c.size, c.fx, c.fy, c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resize(%v, %v, %v, %v): %v, want an error saying %q", c.size, c.fx, c.fy, c.in, err, c.want)
		}
		dst.Close()
	}
}

func TestParseInterpolation(t *testing.T) {
	for _, in := range allInterps {
		for _, name := range []string{in.String(), strings.ToUpper(in.String())} {
			if got, err := resample.ParseInterpolation(name); err != nil || got != in {
				t.Errorf("ParseInterpolation(%q) = %v, %v", name, got, err)
			}
		}
	}
	if got, err := resample.ParseInterpolation("LINEAR_EXACT"); err != nil || got != resample.InterLinearExact {
		t.Errorf("ParseInterpolation(LINEAR_EXACT) = %v, %v", got, err)
	}
	if _, err := resample.ParseInterpolation("bilinearish"); err == nil {
		t.Error("ParseInterpolation(bilinearish): no error")
	}
}

func TestPyrBadInput(t *testing.T) {
	src, err := gpuimage.New(gpuimage.CPU(), 10, 20, gpuimage.CV8UC3)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	for _, c := range []struct {
		err  error
		want string
	}{
		{resample.PyrDown(src, dst, image.Point{}, gpuimage.BorderConstant), "BORDER_CONSTANT"},
		{resample.PyrDown(src, dst, image.Pt(4, 5), gpuimage.BorderDefault), "within 2 of half"},
		{resample.PyrDown(src, dst, image.Pt(10, -5), gpuimage.BorderDefault), "within 2 of half"},
		{resample.PyrDown(nil, dst, image.Point{}, gpuimage.BorderDefault), "nil"},
		{resample.PyrUp(src, dst, image.Point{}, gpuimage.BorderReplicate), "only BORDER_DEFAULT"},
		{resample.PyrUp(src, dst, image.Pt(43, 20), gpuimage.BorderDefault), "twice"},
		{resample.PyrUp(src, dst, image.Pt(42, 20), gpuimage.BorderDefault), "twice"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%v: want an error saying %q", c.err, c.want)
		}
	}
}
