//go:build !noopencv

package convolve_test

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/gocvtest"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CPU device against OpenCV 4.6 (gocv): every call, depth, channel count and
// border type, on random odd-sized images, whole and as views inside a larger image
// (whose pixels around the view OpenCV reads unless BORDER_ISOLATED).

func matOf(t *testing.T, k [][]float64) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSize(len(k), len(k[0]), gocv.MatTypeCV64F)
	for i, row := range k {
		for j, v := range row {
			m.SetDoubleAt(i, j, v)
		}
	}
	return m
}

func vecOf(t *testing.T, v []float64) gocv.Mat { return matOf(t, [][]float64{v}) }

func ddepthCV(d gpuimage.Depth) gocv.MatType {
	if d < 0 {
		return -1
	}
	return gocv.MatType(d)
}

// cvRun runs the case through OpenCV.
func cvRun(t *testing.T, c filterCase, src gocv.Mat, dst *gocv.Mat, b convolve.BorderType) {
	bt := gocv.BorderType(b)
	switch c.kind {
	case "filter2D":
		k := matOf(t, c.k)
		defer k.Close()
		gocv.Filter2D(src, dst, ddepthCV(c.ddepth), k, c.anchor, c.delta, bt)
	case "sep":
		kx, ky := vecOf(t, c.kx), vecOf(t, c.ky)
		defer kx.Close()
		defer ky.Close()
		gocv.SepFilter2D(src, dst, ddepthCV(c.ddepth), kx, ky, c.anchor, c.delta, bt)
	case "gauss":
		gocv.GaussianBlur(src, dst, c.ksize, c.sx, c.sy, bt)
	case "box":
		// gocv's BoxFilter has no anchor, normalize or border: a Filter2D with the box
		// kernel is the same filter.
		k := make([][]float64, c.ksize.Y)
		for i := range k {
			k[i] = make([]float64, c.ksize.X)
			for j := range k[i] {
				k[i][j] = 1
				if c.norm {
					k[i][j] = 1 / float64(c.ksize.X*c.ksize.Y)
				}
			}
		}
		km := matOf(t, k)
		defer km.Close()
		gocv.Filter2D(src, dst, ddepthCV(c.ddepth), km, c.anchor, 0, bt)
	case "sobel":
		if c.ksz == convolve.FilterScharr {
			gocv.Scharr(src, dst, ddepthCV(c.ddepth), c.dx, c.dy, c.scale, c.delta, bt)
		} else {
			gocv.Sobel(src, dst, ddepthCV(c.ddepth), c.dx, c.dy, c.ksz, c.scale, c.delta, bt)
		}
	case "laplacian":
		gocv.Laplacian(src, dst, ddepthCV(c.ddepth), c.ksz, c.scale, c.delta, bt)
	default:
		t.Fatalf("unknown case %s", c.kind)
	}
}

func TestFiltersMatchOpenCV(t *testing.T) {
	r := tu.Rand(t)
	types := []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4, gpuimage.CV16UC1,
		gpuimage.CV16SC3, gpuimage.CV32FC1, gpuimage.CV32FC4}
	sizes := [][2]int{{1, 37}, {37, 1}, {45, 61}}
	for _, mt := range types {
		for _, c := range cases(r, mt.Depth()) {
			for _, sz := range sizes {
				for _, roi := range []bool{false, true} {
					if roi && sz[0] == 1 {
						continue
					}
					for _, b := range borders {
						if b == convolve.BorderWrap {
							continue // OpenCV's filters reject it: TestWrapMatchesPaddedOpenCV
						}
						name := fmt.Sprintf("%v/%s/%dx%d/roi=%v/%v", mt, c.name, sz[0], sz[1], roi, b)
						compareWithOpenCV(t, r, name, c, mt, sz[0], sz[1], roi, b)
					}
				}
			}
		}
	}
}

func compareWithOpenCV(t *testing.T, r *rand.Rand, name string, c filterCase, mt gpuimage.MatType, rows, cols int, roi bool, b convolve.BorderType) {
	t.Helper()
	if c.kind == "box" && c.ddepth < 0 && mt.Depth() != gpuimage.Depth32F && !c.norm {
		return
	}
	// The image filtered is a view at (3,2) of a larger image when roi is set.
	prow, pcol, ox, oy := rows, cols, 0, 0
	if roi {
		prow, pcol, ox, oy = rows+5, cols+7, 3, 2
	}
	data := tu.RandomBytes(r, mt.Depth(), prow*pcol*mt.Channels())
	parent, err := gocv.NewMatFromBytes(prow, pcol, gocv.MatType(mt), data)
	if err != nil {
		t.Fatal(err)
	}
	defer parent.Close()
	rect := image.Rect(ox, oy, ox+cols, oy+rows)
	cvSrc := parent.Region(rect)
	defer cvSrc.Close()
	want := gocv.NewMat()
	defer want.Close()
	cvRun(t, c, cvSrc, &want, b)

	full, err := gpuimage.NewFromBytes(gpuimage.CPU(), prow, pcol, mt, data)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	src, err := full.Region(rect)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got := &gpuimage.Image{}
	defer got.Close()
	if err := c.run(src, got, b); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got.Type() != gpuimage.MatType(want.Type()) {
		t.Fatalf("%s: type %v, OpenCV %v", name, got.Type(), gpuimage.MatType(want.Type()))
	}
	dd := got.Type().Depth()
	abs, rel := tolerance(c, dd, tu.InputMax(mt.Depth()))
	d := tu.Compare(dd, tu.Bytes(t, got), gocvtest.Bytes(t, want), abs, rel)
	if d.Bad != 0 {
		t.Errorf("%s: %d of %d elements differ (max %g); %s", name, d.Bad, d.N, d.MaxAbs, d.First)
	}
}

// BORDER_CONSTANT with a value: OpenCV's filters always use 0, so the reference is
// the image padded by copyMakeBorder with the value and filtered with any border.
func TestBorderValueMatchesPaddedOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC3, gpuimage.CV32FC1} {
		rows, cols := 23, 31
		data := tu.RandomBytes(r, mt.Depth(), rows*cols*mt.Channels())
		m, err := gocv.NewMatFromBytes(rows, cols, gocv.MatType(mt), data)
		if err != nil {
			t.Fatal(err)
		}
		padded := gocv.NewMat()
		gocv.CopyMakeBorder(m, &padded, 2, 2, 3, 3, gocv.BorderConstant, color.RGBA{B: 200, G: 17, R: 90})
		k := randKernel(r, 5, 7)
		km := matOf(t, k)
		full := gocv.NewMat()
		gocv.Filter2D(padded, &full, -1, km, image.Pt(-1, -1), 0, gocv.BorderReplicate)
		want := full.Region(image.Rect(3, 2, 3+cols, 2+rows))

		src, err := gpuimage.NewFromBytes(gpuimage.CPU(), rows, cols, mt, data)
		if err != nil {
			t.Fatal(err)
		}
		got := &gpuimage.Image{}
		// gocv's CopyMakeBorder makes the scalar (B, G, R, A) of its color.RGBA.
		err = convolve.Filter2D(src, got, convolve.SameDepth, k, image.Pt(-1, -1), 0, convolve.BorderConstant,
			gpuimage.BorderValue(gpuimage.NewScalar(200, 17, 90, 0)))
		if err != nil {
			t.Fatal(err)
		}
		abs, rel := tolerance(filterCase{sumAbs: tu.SumAbs(k)}, mt.Depth(), tu.InputMax(mt.Depth()))
		if d := tu.Compare(mt.Depth(), tu.Bytes(t, got), gocvtest.Bytes(t, want), abs, rel); d.Bad != 0 {
			t.Errorf("%v: %d of %d differ (max %g); %s", mt, d.Bad, d.N, d.MaxAbs, d.First)
		}
		for _, x := range []interface{ Close() error }{&m, &padded, &km, &full, &want} {
			x.Close()
		}
		src.Close()
		got.Close()
	}
}

// BORDER_WRAP: OpenCV's filters assert it away, but copyMakeBorder has it; the
// reference is the wrap-padded image filtered and cropped.
func TestWrapMatchesPaddedOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV16SC3, gpuimage.CV32FC4} {
		for _, sz := range [][2]int{{1, 37}, {37, 1}, {45, 61}} {
			rows, cols := sz[0], sz[1]
			data := tu.RandomBytes(r, mt.Depth(), rows*cols*mt.Channels())
			m, err := gocv.NewMatFromBytes(rows, cols, gocv.MatType(mt), data)
			if err != nil {
				t.Fatal(err)
			}
			k := randKernel(r, 5, 7)
			padded := gocv.NewMat()
			// Anchor (1,3) of a 7-wide, 5-high kernel: 3 rows above, 1 below, 1 column
			// left, 5 right.
			gocv.CopyMakeBorder(m, &padded, 3, 1, 1, 5, gocv.BorderWrap, color.RGBA{})
			km := matOf(t, k)
			full := gocv.NewMat()
			gocv.Filter2D(padded, &full, gocv.MatTypeCV32F, km, image.Pt(1, 3), 0, gocv.BorderReplicate)
			want := full.Region(image.Rect(1, 3, 1+cols, 3+rows))

			src, err := gpuimage.NewFromBytes(gpuimage.CPU(), rows, cols, mt, data)
			if err != nil {
				t.Fatal(err)
			}
			got := &gpuimage.Image{}
			if err := convolve.Filter2D(src, got, gpuimage.Depth32F, k, image.Pt(1, 3), 0, convolve.BorderWrap); err != nil {
				t.Fatal(err)
			}
			abs, rel := tolerance(filterCase{sumAbs: tu.SumAbs(k)}, gpuimage.Depth32F, tu.InputMax(mt.Depth()))
			if d := tu.Compare(gpuimage.Depth32F, tu.Bytes(t, got), gocvtest.Bytes(t, want), abs, rel); d.Bad != 0 {
				t.Errorf("%v %dx%d: %d of %d differ (max %g); %s", mt, rows, cols, d.Bad, d.N, d.MaxAbs, d.First)
			}
			for _, x := range []interface{ Close() error }{&m, &padded, &km, &full, &want} {
				x.Close()
			}
			src.Close()
			got.Close()
		}
	}
}

func TestGaussianKernelMatchesOpenCV(t *testing.T) {
	for _, c := range []struct {
		n     int
		sigma float64
	}{{1, 0}, {3, 0}, {5, 0}, {7, 0}, {9, 0}, {5, 1.1}, {31, 4}} {
		got, err := convolve.GaussianKernel(c.n, c.sigma)
		if err != nil {
			t.Fatal(err)
		}
		m := gocv.GetGaussianKernel(c.n, c.sigma)
		for i, v := range got {
			if w := m.GetDoubleAt(i, 0); math.Abs(v-w) > 1e-15 {
				t.Errorf("n=%d sigma=%g: tap %d = %v, OpenCV %v", c.n, c.sigma, i, v, w)
			}
		}
		m.Close()
	}
}

// Kernels larger than the image, as thumbnails and tiles meet them: 1x1, 1xN, Nx1,
// 2x2, 3x2 and 7x5 images (width x height) with kernels up to 41x41, every border
// OpenCV's filters take, whole images and views.
func TestSmallImagesMatchOpenCV(t *testing.T) {
	r := tu.Rand(t)
	cs := smallCases(r)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV32FC1} {
		for _, c := range cs {
			for _, sz := range smallSizes {
				for _, roi := range []bool{false, true} {
					for _, b := range borders {
						if b == convolve.BorderWrap {
							continue
						}
						name := fmt.Sprintf("%v/%s/%dx%d/roi=%v/%v", mt, c.name, sz[1], sz[0], roi, b)
						compareWithOpenCV(t, r, name, c, mt, sz[0], sz[1], roi, b)
					}
				}
			}
		}
	}
}
