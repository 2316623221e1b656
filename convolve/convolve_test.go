package convolve_test

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

func TestBadInput(t *testing.T) {
	r := tu.Rand(t)
	src, _ := tu.Random(t, r, gpuimage.CPU(), 20, 30, gpuimage.CV8UC1)
	defer src.Close()
	tiny, _ := tu.Random(t, r, gpuimage.CPU(), 2, 2, gpuimage.CV8UC1)
	defer tiny.Close()
	f32, _ := tu.Random(t, r, gpuimage.CPU(), 20, 30, gpuimage.CV32FC1)
	defer f32.Close()
	closed, _ := tu.Random(t, r, gpuimage.CPU(), 4, 4, gpuimage.CV8UC1)
	closed.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	k3 := [][]float64{{1, 2, 1}, {0, 1, 0}, {1, 0, 3}}
	c := image.Pt(-1, -1)
	for _, tc := range []struct {
		name string
		err  error
		want string
		call func() error
	}{
		{"nil kernel", convolve.ErrBadKernel, "empty", func() error { return convolve.Filter2D(src, dst, -1, nil, c, 0, 4) }},
		{"ragged kernel", convolve.ErrBadKernel, "row 1", func() error { return convolve.Filter2D(src, dst, -1, [][]float64{{1, 2}, {1}}, c, 0, 4) }},
		{"NaN tap", convolve.ErrBadKernel, "non-finite", func() error {
			return convolve.SepFilter2D(src, dst, -1, []float64{1, nan()}, []float64{1}, c, 0, 4)
		}},
		{"anchor outside", convolve.ErrBadKernel, "anchor (3,0)", func() error { return convolve.Filter2D(src, dst, -1, k3, image.Pt(3, 0), 0, 4) }},
		{"even gaussian", convolve.ErrBadKernel, "odd", func() error { return convolve.GaussianBlur(src, dst, image.Pt(4, 5), 0, 0, 4) }},
		{"gaussian no size or sigma", convolve.ErrBadKernel, "odd", func() error { return convolve.GaussianBlur(src, dst, image.Pt(0, 0), 0, 0, 4) }},
		{"bad ddepth", convolve.ErrBadDepth, "ddepth 8U for 32F", func() error { return convolve.Filter2D(f32, dst, gpuimage.Depth8U, k3, c, 0, 4) }},
		{"unknown ddepth", convolve.ErrBadDepth, "ddepth 16F", func() error { return convolve.Filter2D(src, dst, 7, k3, c, 0, 4) }},
		{"bad border", convolve.ErrBadBorder, "BorderType(5)", func() error { return convolve.Filter2D(src, dst, -1, k3, c, 0, 5) }},
		{"sobel even ksize", convolve.ErrBadKernel, "ksize 4", func() error { return convolve.Sobel(src, dst, -1, 1, 0, 4, 1, 0, 4) }},
		{"sobel order 0", convolve.ErrBadKernel, "not both 0", func() error { return convolve.Sobel(src, dst, -1, 0, 0, 3, 1, 0, 4) }},
		{"sobel order too high", convolve.ErrBadKernel, "too high", func() error { return convolve.Sobel(src, dst, -1, 3, 0, 3, 1, 0, 4) }},
		{"scharr dx+dy", convolve.ErrBadKernel, "dx+dy == 1", func() error { return convolve.Scharr(src, dst, -1, 1, 1, 1, 0, 4) }},
		{"laplacian even", convolve.ErrBadKernel, "ksize 2", func() error { return convolve.Laplacian(src, dst, -1, 2, 1, 0, 4) }},
		{"gaussian huge sigma", convolve.ErrBadKernel, "MaxKernelSize", func() error { return convolve.GaussianBlur(src, dst, image.Pt(0, 0), 1e12, 0, 4) }},
		{"gaussian NaN sigma", convolve.ErrBadKernel, "finite", func() error { return convolve.GaussianBlur(src, dst, image.Pt(3, 3), nan(), 0, 4) }},
		{"box huge", convolve.ErrBadKernel, "MaxKernelSize", func() error { return convolve.BoxFilter(src, dst, -1, image.Pt(1<<40, 3), c, true, 4) }},
		{"box empty", convolve.ErrBadKernel, "positive", func() error { return convolve.BoxFilter(src, dst, -1, image.Pt(0, 3), c, true, 4) }},
		{"closed image", gpuimage.ErrClosed, "closed", func() error { return convolve.Blur(closed, dst, image.Pt(3, 3), c, 4) }},
		{"nil image", gpuimage.ErrNil, "nil", func() error { return convolve.Blur(nil, dst, image.Pt(3, 3), c, 4) }},
		{"nil output", gpuimage.ErrNil, "nil", func() error { return convolve.Blur(src, nil, image.Pt(3, 3), c, 4) }},
	} {
		err := tc.call()
		if err == nil || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %v mentioning %q", tc.name, err, tc.err, tc.want)
		}
	}
}

func nan() float64 { z := 0.0; return z / z }

// Kernel builders against OpenCV's documented values.
func TestDerivKernels(t *testing.T) {
	for _, c := range []struct {
		dx, dy, ksize int
		kx, ky        string
	}{
		{1, 0, 3, "[-1 0 1]", "[1 2 1]"},
		{1, 0, 1, "[-1 0 1]", "[1]"},
		{0, 2, 5, "[1 4 6 4 1]", "[1 0 -2 0 1]"},
		{1, 0, 5, "[-1 -2 0 2 1]", "[1 4 6 4 1]"},
		{0, 1, convolve.FilterScharr, "[3 10 3]", "[-1 0 1]"},
	} {
		kx, ky, err := convolve.DerivKernels(c.dx, c.dy, c.ksize)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(kx) != c.kx || fmt.Sprint(ky) != c.ky {
			t.Errorf("DerivKernels(%d,%d,%d) = %v %v, want %s %s", c.dx, c.dy, c.ksize, kx, ky, c.kx, c.ky)
		}
	}
}

func TestBorderTypeString(t *testing.T) {
	if s := (convolve.BorderReflect | convolve.BorderIsolated).String(); s != "BORDER_REFLECT|BORDER_ISOLATED" {
		t.Error(s)
	}
}

// In place on the CPU device: the result equals filtering into a new image.
func TestInPlace(t *testing.T) {
	r := tu.Rand(t)
	src, data := tu.Random(t, r, gpuimage.CPU(), 31, 17, gpuimage.CV16SC3)
	defer src.Close()
	want := &gpuimage.Image{}
	defer want.Close()
	if err := convolve.Sobel(src, want, -1, 1, 1, 3, 1, 0, convolve.BorderDefault); err != nil {
		t.Fatal(err)
	}
	if err := convolve.Sobel(src, src, -1, 1, 1, 3, 1, 0, convolve.BorderDefault); err != nil {
		t.Fatal(err)
	}
	_ = data
	tu.Check(t, "in place", gpuimage.Depth16S, tu.Bytes(t, src), tu.Bytes(t, want))
}
