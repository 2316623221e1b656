//go:build !noopencv

package gpuimage_test

import (
	"fmt"
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
	"github.com/gpuimg/gpuimg/internal/gocvtest"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CPU device against OpenCV (through gocv), on random inputs of odd sizes.

// roi is the region the ROI tests use inside a (rows+3)x(cols+5) parent.
func roi(rows, cols int) image.Rectangle { return image.Rect(2, 1, 2+cols, 1+rows) }

// pair returns an image on the CPU and the same pixels as a gocv Mat; with view, both
// are regions of larger random parents. The returned func closes everything.
func pair(t *testing.T, r *rand.Rand, rows, cols int, mt gpuimage.MatType, view bool) (*gpuimage.Image, gocv.Mat, func()) {
	t.Helper()
	if !view {
		im, data := tu.Random(t, r, gpuimage.CPU(), rows, cols, mt)
		m := gocvtest.Mat(t, rows, cols, mt, data)
		return im, m, func() { im.Close(); m.Close() }
	}
	pim, pdata := tu.Random(t, r, gpuimage.CPU(), rows+3, cols+5, mt)
	pm := gocvtest.Mat(t, rows+3, cols+5, mt, pdata)
	im, err := pim.Region(roi(rows, cols))
	if err != nil {
		t.Fatal(err)
	}
	m := pm.Region(roi(rows, cols))
	return im, m, func() { im.Close(); pim.Close(); m.Close(); pm.Close() }
}

func forCases(t *testing.T, fn func(t *testing.T, r *rand.Rand, rows, cols int, mt gpuimage.MatType, view bool)) {
	for _, sz := range tu.Sizes {
		for _, mt := range tu.Types {
			for _, view := range []bool{false, true} {
				name := fmt.Sprintf("%dx%d/%v/view=%v", sz[0], sz[1], mt, view)
				t.Run(name, func(t *testing.T) { fn(t, tu.Rand(t), sz[0], sz[1], mt, view) })
			}
		}
	}
}

func TestConvertToMatchesOpenCV(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, rows, cols int, mt gpuimage.MatType, view bool) {
		im, m, done := pair(t, r, rows, cols, mt, view)
		defer done()
		for _, d := range tu.Depths {
			alpha, beta := r.Float64()*4-2, r.Float64()*200-100
			if r.Intn(3) == 0 {
				alpha, beta = 1, 0
			}
			var dst gpuimage.Image
			if err := im.ConvertTo(&dst, d, alpha, beta); err != nil {
				t.Fatal(err)
			}
			want := gocv.NewMat()
			m.ConvertToWithParams(&want, gocv.MatType(d), float32(alpha), float32(beta))
			if dst.Type() != gpuimage.MakeType(d, mt.Channels()) {
				t.Fatalf("ConvertTo gave %v", dst.Type())
			}
			tu.Check(t, fmt.Sprintf("to %v alpha %g beta %g", d, alpha, beta), d, tu.Bytes(t, &dst), gocvtest.Bytes(t, want))
			want.Close()
			dst.Close()
		}
	})
}

func TestSetToMatchesOpenCV(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, rows, cols int, mt gpuimage.MatType, view bool) {
		im, m, done := pair(t, r, rows, cols, mt, view)
		defer done()
		v := [4]float64{}
		for i := range v {
			v[i] = r.Float64()*80000 - 20000
			if r.Intn(2) == 0 {
				v[i] = float64(r.Intn(300)) + 0.5 // ties: round half to even
			}
		}
		if err := im.SetTo(gpuimage.NewScalar(v[0], v[1], v[2], v[3])); err != nil {
			t.Fatal(err)
		}
		m.SetTo(gocv.NewScalar(v[0], v[1], v[2], v[3]))
		tu.Check(t, "SetTo", mt.Depth(), tu.Bytes(t, im), gocvtest.Bytes(t, m))
	})
}

func TestSplitMergeMatchOpenCV(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, rows, cols int, mt gpuimage.MatType, view bool) {
		im, m, done := pair(t, r, rows, cols, mt, view)
		defer done()
		planes, err := gpuimage.Split(im)
		if err != nil {
			t.Fatal(err)
		}
		mplanes := gocv.Split(m)
		if len(planes) != len(mplanes) {
			t.Fatalf("%d planes, OpenCV %d", len(planes), len(mplanes))
		}
		for i := range planes {
			tu.Check(t, fmt.Sprintf("plane %d", i), mt.Depth(), tu.Bytes(t, planes[i]), gocvtest.Bytes(t, mplanes[i]))
		}
		var merged gpuimage.Image
		if err := gpuimage.Merge(planes, &merged); err != nil {
			t.Fatal(err)
		}
		want := gocv.NewMat()
		gocv.Merge(mplanes, &want)
		tu.Check(t, "Merge", mt.Depth(), tu.Bytes(t, &merged), gocvtest.Bytes(t, want))
		merged.Close()
		want.Close()
		for i := range planes {
			planes[i].Close()
			mplanes[i].Close()
		}
	})
}

func TestCopyToAndRegionsMatchOpenCV(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, rows, cols int, mt gpuimage.MatType, view bool) {
		im, m, done := pair(t, r, rows, cols, mt, view)
		defer done()
		// Copy into a region of another image, as m.CopyTo(other.Region(...)).
		dst, ddata := tu.Random(t, r, gpuimage.CPU(), rows+3, cols+5, mt)
		defer dst.Close()
		dm := gocvtest.Mat(t, rows+3, cols+5, mt, ddata)
		defer dm.Close()
		dv, err := dst.Region(roi(rows, cols))
		if err != nil {
			t.Fatal(err)
		}
		defer dv.Close()
		if err := im.CopyTo(dv); err != nil {
			t.Fatal(err)
		}
		dmv := dm.Region(roi(rows, cols))
		defer dmv.Close()
		m.CopyTo(&dmv)
		tu.Check(t, "CopyTo region", mt.Depth(), tu.Bytes(t, dst), gocvtest.Bytes(t, dm))
	})
}

func TestAlphaMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range tu.Sizes {
		for _, d := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth32F} {
			im, m, done := pair(t, r, sz[0], sz[1], gpuimage.MakeType(d, 3), true)
			var bgra gpuimage.Image
			if err := im.AddAlpha(&bgra); err != nil {
				t.Fatal(err)
			}
			want := gocv.NewMat()
			gocv.CvtColor(m, &want, gocv.ColorBGRToBGRA)
			tu.Check(t, "AddAlpha", d, tu.Bytes(t, &bgra), gocvtest.Bytes(t, want))
			var bgr gpuimage.Image
			if err := bgra.RemoveAlpha(&bgr); err != nil {
				t.Fatal(err)
			}
			back := gocv.NewMat()
			gocv.CvtColor(want, &back, gocv.ColorBGRAToBGR)
			tu.Check(t, "RemoveAlpha", d, tu.Bytes(t, &bgr), gocvtest.Bytes(t, back))
			for _, c := range []interface{ Close() error }{&bgra, &bgr, &want, &back} {
				c.Close()
			}
			done()
		}
	}
}

func TestGocvMatRoundTrip(t *testing.T) {
	r := tu.Rand(t)
	for _, mt := range tu.Types {
		_, data := tu.Random(t, r, gpuimage.CPU(), 7, 9, mt)
		m := gocvtest.Mat(t, 7, 9, mt, data)
		roiM := m.Region(image.Rect(1, 2, 6, 7)) // not continuous
		im, err := gocvmat.Upload(gpuimage.CPU(), roiM)
		if err != nil {
			t.Fatal(err)
		}
		back, err := gocvmat.Download(im)
		if err != nil {
			t.Fatal(err)
		}
		tu.Check(t, fmt.Sprintf("gocvmat %v", mt), mt.Depth(), gocvtest.Bytes(t, back), gocvtest.Bytes(t, roiM))
		if back.Type() != gocv.MatType(mt) {
			t.Errorf("type %v, want %v", back.Type(), mt)
		}
		back.Close()
		im.Close()
		roiM.Close()
		m.Close()
	}
}
