package colorconv_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
)

func TestBadInput(t *testing.T) {
	dev := gpuimage.CPU()
	bgr, _ := gpuimage.New(dev, 4, 4, gpuimage.CV8UC3)
	defer bgr.Close()
	gray, _ := gpuimage.New(dev, 4, 4, gpuimage.CV8UC1)
	defer gray.Close()
	s16, _ := gpuimage.New(dev, 4, 4, gpuimage.CV16SC3)
	defer s16.Close()
	u16, _ := gpuimage.New(dev, 4, 4, gpuimage.CV16UC3)
	defer u16.Close()
	closed, _ := gpuimage.New(dev, 4, 4, gpuimage.CV8UC3)
	closed.Close()
	var out gpuimage.Image
	defer out.Close()
	for _, c := range []struct {
		name string
		err  error
		want error
		msg  string
	}{
		{"unknown code", colorconv.CvtColor(bgr, &out, colorconv.Code(12)), nil, "unknown or unsupported code 12"},
		{"gray input for BGR2Lab", colorconv.CvtColor(gray, &out, colorconv.ColorBGRToLab), gpuimage.ErrBadType, "1 channels"},
		{"BGR input for GRAY2BGR", colorconv.CvtColor(bgr, &out, colorconv.ColorGrayToBGR), gpuimage.ErrBadType, "3 channels"},
		{"16S", colorconv.CvtColor(s16, &out, colorconv.ColorBGRToGray), gpuimage.ErrBadType, "depth 16S"},
		{"16U HSV", colorconv.CvtColor(u16, &out, colorconv.ColorBGRToHSV), gpuimage.ErrBadType, "takes 8U 32F"},
		{"closed", colorconv.CvtColor(closed, &out, colorconv.ColorBGRToGray), gpuimage.ErrClosed, "closed"},
		{"nil", colorconv.CvtColor(nil, &out, colorconv.ColorBGRToGray), gpuimage.ErrNil, "nil"},
		{"closed output", colorconv.CvtColor(bgr, closed, colorconv.ColorBGRToRGB), gpuimage.ErrClosed, ""},
		{"Transform rows", colorconv.Transform(bgr, &out, [][]float64{{1, 2, 3}, {1, 2, 3}}), gpuimage.ErrBadType, "2 rows"},
		{"Transform cols", colorconv.Transform(bgr, &out, [][]float64{{1, 2}}), gpuimage.ErrSizeMismatch, "row 0 has 2 entries"},
		{"Transform nil", colorconv.Transform(bgr, &out, nil), gpuimage.ErrBadType, "0 rows"},
	} {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if c.want != nil && !errors.Is(c.err, c.want) {
			t.Errorf("%s: %q is not %q", c.name, c.err, c.want)
		}
		if !strings.Contains(c.err.Error(), c.msg) || !strings.HasPrefix(c.err.Error(), "colorconv.") {
			t.Errorf("%s: %q should mention %q", c.name, c.err, c.msg)
		}
	}
}

func TestCodesHaveNames(t *testing.T) {
	if len(colorconv.Codes()) != 56 { // distinct OpenCV numbers (RGB aliases share them)
		t.Fatalf("only %d codes", len(colorconv.Codes()))
	}
	for _, c := range colorconv.Codes() {
		if strings.HasPrefix(c.String(), "Code(") {
			t.Errorf("code %d has no name", int(c))
		}
	}
	if colorconv.ColorBGRToLab.String() != "BGR2Lab" || colorconv.Code(999).String() != "Code(999)" {
		t.Error("names")
	}
}

func Example() {
	dev := gpuimage.CPU() // or gpuimage.Default()
	bgr, _ := gpuimage.NewFromData(dev, 1, 2, gpuimage.CV8UC3, []uint8{255, 0, 0, 0, 0, 255})
	defer bgr.Close()
	var hsv gpuimage.Image
	defer hsv.Close()
	if err := colorconv.CvtColor(bgr, &hsv, colorconv.ColorBGRToHSV); err != nil {
		panic(err)
	}
	v, _ := gpuimage.ToData[uint8](&hsv)
	fmt.Println(v) // blue: hue 120 (of 180); red: hue 0
	// Output: [120 255 255 0 255 255]
}
