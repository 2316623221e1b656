//go:build !noopencv

package main

import (
	"image"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// The CLI on the CPU device against the same operations done with gocv (OpenCV)
// on the test images, through PNG files.
func TestCLIMatchesOpenCV(t *testing.T) {
	dir := t.TempDir()
	sharpen := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV32F)
	defer sharpen.Close()
	for i, v := range []float32{0, -1, 0, -1, 5, -1, 0, -1, 0} {
		sharpen.SetFloatAt(i/3, i%3, v)
	}
	cases := []struct {
		name  string
		args  []string // after IN -o OUT
		input string
		tol   int // largest difference allowed
		share int // per thousand of values allowed beyond ±1
		cv    func(src gocv.Mat, dst *gocv.Mat)
	}{
		{"gray", []string{"cvtcolor", "-code", "BGR2GRAY"}, "chelsea.png", 0, 0, func(s gocv.Mat, d *gocv.Mat) {
			gocv.CvtColor(s, d, gocv.ColorBGRToGray)
		}},
		{"gaussian", []string{"gaussian", "-ksize", "5"}, "coffee.png", 0, 0, func(s gocv.Mat, d *gocv.Mat) {
			gocv.GaussianBlur(s, d, image.Pt(5, 5), 0, 0, gocv.BorderReflect101)
		}},
		{"filter2d", []string{"filter2d", "-kernel", "0,-1,0;-1,5,-1;0,-1,0", "-border", "replicate"}, "astronaut.png", 1, 0, func(s gocv.Mat, d *gocv.Mat) {
			gocv.Filter2D(s, d, -1, sharpen, image.Pt(-1, -1), 0, gocv.BorderReplicate)
		}},
		{"sobel", []string{"sobel", "-dx", "0", "-dy", "1", "-ddepth", "8U", "-scale", "0.5", "-delta", "128"}, "camera.png", 1, 0, func(s gocv.Mat, d *gocv.Mat) {
			gocv.Sobel(s, d, gocv.MatTypeCV8U, 0, 1, 3, 0.5, 128, gocv.BorderReflect101)
		}},
		{"resize", []string{"resize", "-size", "301x190", "-interp", "area"}, "coffee.png", 0, 0, func(s gocv.Mat, d *gocv.Mat) {
			gocv.Resize(s, d, image.Pt(301, 190), 0, 0, gocv.InterpolationArea)
		}},
		{"resize-fx", []string{"resize", "-fx", "1.5", "-fy", "0.75"}, "astronaut.png", 0, 0, func(s gocv.Mat, d *gocv.Mat) {
			gocv.Resize(s, d, image.Point{}, 1.5, 0.75, gocv.InterpolationLinear)
		}},
		{"pyrdown", []string{"pyrdown"}, "chelsea.png", 0, 0, func(s gocv.Mat, d *gocv.Mat) {
			gocv.PyrDown(s, d, image.Point{}, gocv.BorderReflect101)
		}},
		{"pyrup", []string{"run", "pyrup", "resize:size=640x480:interp=cubic"}, "camera.png", 1, 0, func(s gocv.Mat, d *gocv.Mat) {
			up := gocv.NewMat()
			defer up.Close()
			gocv.PyrUp(s, &up, image.Point{}, gocv.BorderReflect101)
			gocv.Resize(up, d, image.Pt(640, 480), 0, 0, gocv.InterpolationCubic)
		}},
		// OpenCV's 8-bit BGR2Lab uses its own fixed-point tables (ours is within ±1
		// of it but for 0.017% of values at ±2-3) and the blur adds ±1; Lab2BGR,
		// bit-exact with OpenCV's, then turns one unit of L, a or b into up to 5
		// units of B, G, R on this image (up to 40 in the dark, saturated corners
		// of the Lab cube). The image and the code are fixed, so this is no flake.
		{"pipeline", []string{"run", "cvtcolor:BGR2Lab", "gaussian:ksize=5", "cvtcolor:Lab2BGR"}, "chelsea.png", 5, 50, func(s gocv.Mat, d *gocv.Mat) {
			lab := gocv.NewMat()
			defer lab.Close()
			gocv.CvtColor(s, &lab, gocv.ColorBGRToLab)
			gocv.GaussianBlur(lab, &lab, image.Pt(5, 5), 0, 0, gocv.BorderReflect101)
			gocv.CvtColor(lab, d, gocv.ColorLabToBGR)
		}},
	}
	for _, c := range cases {
		in := filepath.Join(images, c.input)
		out := filepath.Join(dir, c.name+".png")
		argv := append([]string{c.args[0], in, "-o", out, "-device", "cpu"}, c.args[1:]...)
		if code, _, errs := runCLI(argv...); code != 0 {
			t.Fatalf("%s: gpuimg %s: exit %d: %s", c.name, strings.Join(argv, " "), code, errs)
		}
		src := gocv.IMRead(in, gocv.IMReadUnchanged)
		want := gocv.NewMat()
		c.cv(src, &want)
		got := gocv.IMRead(out, gocv.IMReadUnchanged)
		if got.Rows() != want.Rows() || got.Cols() != want.Cols() || got.Type() != want.Type() {
			t.Fatalf("%s: got %dx%d %v, OpenCV %dx%d %v", c.name, got.Cols(), got.Rows(), got.Type(), want.Cols(), want.Rows(), want.Type())
		}
		g, _ := got.DataPtrUint8()
		w, _ := want.DataPtrUint8()
		worst, off := 0, 0
		for i := range g {
			d := int(g[i]) - int(w[i])
			if d < 0 {
				d = -d
			}
			if d > worst {
				worst = d
			}
			if d > 1 {
				off++
			}
		}
		if worst > c.tol || off*1000 > c.share*len(g) {
			t.Errorf("%s: largest difference %d (allowed %d), %d of %d values off by more than 1", c.name, worst, c.tol, off, len(g))
		}
		for _, m := range []gocv.Mat{src, want, got} {
			m.Close()
		}
	}
}

// Float images go through TIFF (OpenCV writes 32-bit float TIFF) and come back 32F.
func TestFloatTIFF(t *testing.T) {
	out := filepath.Join(t.TempDir(), "f.tiff")
	if code, _, errs := runCLI("convert", filepath.Join(images, "camera.png"), "-o", out, "-device", "cpu", "-depth", "32F", "-alpha", "0.00390625"); code != 0 {
		t.Fatalf("convert to 32F TIFF: %d %s", code, errs)
	}
	m := gocv.IMRead(out, gocv.IMReadUnchanged)
	defer m.Close()
	src := gocv.IMRead(filepath.Join(images, "camera.png"), gocv.IMReadUnchanged)
	defer src.Close()
	if m.Type() != gocv.MatTypeCV32F || m.Rows() != src.Rows() {
		t.Fatalf("read back %v %dx%d", m.Type(), m.Cols(), m.Rows())
	}
	if got, want := m.GetFloatAt(10, 20), float32(src.GetUCharAt(10, 20))/256; got != want {
		t.Errorf("pixel (20,10) = %v, want %v", got, want)
	}
	back := filepath.Join(t.TempDir(), "b.png")
	if code, _, errs := runCLI("convert", out, "-o", back, "-device", "cpu", "-alpha", "256"); code != 0 {
		t.Fatalf("32F TIFF back to 8U: %d %s", code, errs)
	}
}
