//go:build !noopencv

package resample_test

import (
	"fmt"
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/gocvtest"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/resample"
)

// The CPU device's Resize against OpenCV 4.6 (gocv): every interpolation, depth
// and channel count, up and down, integer and fractional factors, by size and by
// fx/fy, 1x1, 1xN and Nx1 images, whole and as views inside a larger image.
// 8-bit results must be OpenCV's exactly, except cubic and Lanczos4 (±1: OpenCV
// rounds their vector and scalar parts differently); 16-bit ±1; 32F 1e-5 relative
// with an absolute floor of 1e-6 of the inputs' range (OpenCV's vector code sums
// cubic and Lanczos4 taps in another order, and near zero the sums cancel).

// resizeTolerance is how far gpuimg may be from OpenCV.
func resizeTolerance(d gpuimage.Depth, in resample.Interpolation) (abs, rel float64) {
	switch d {
	case gpuimage.Depth8U:
		if in == resample.InterCubic || in == resample.InterLanczos4 {
			return 1, 0
		}
		return 0, 0
	case gpuimage.Depth32F:
		return 1e-6 * tu.InputMax(d), 1e-5
	}
	return 1, 0
}

func TestResizeMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	types := []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC2, gpuimage.CV8UC3, gpuimage.CV8UC4,
		gpuimage.CV16UC1, gpuimage.CV16SC3, gpuimage.CV32FC1, gpuimage.CV32FC4}
	sizes := [][2]int{{1, 1}, {1, 37}, {37, 1}, {45, 61}, {64, 96}}
	for _, mt := range types {
		for _, sz := range sizes {
			for _, k := range resizeCases(sz[1], sz[0]) {
				for _, in := range allInterps {
					roi := r.Intn(2) == 0 && sz[0] > 1
					name := fmt.Sprintf("%v/%dx%d/%v/size=%v,fx=%.3g,fy=%.3g/roi=%v", mt, sz[1], sz[0], in, k.size, k.fx, k.fy, roi)
					compareResize(t, r, name, mt, sz[0], sz[1], roi, k, in)
				}
			}
		}
	}
}

// Larger images: the vector and scalar parts of OpenCV's row loops, and the
// bench's shapes scaled down.
func TestResizeLargeMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC3, gpuimage.CV8UC1, gpuimage.CV16UC1, gpuimage.CV32FC3} {
		for _, k := range []resizeCase{{size: image.Pt(480, 270)}, {size: image.Pt(1600, 900)}, {size: image.Pt(224, 224)},
			{fx: 0.5, fy: 0.5}, {size: image.Pt(451, 300)}} {
			for _, in := range allInterps {
				name := fmt.Sprintf("%v/960x540/%v/size=%v,fx=%.3g", mt, in, k.size, k.fx)
				compareResize(t, r, name, mt, 540, 960, false, k, in)
			}
		}
	}
}

func compareResize(t *testing.T, r *rand.Rand, name string, mt gpuimage.MatType, rows, cols int, roi bool, k resizeCase, in resample.Interpolation) {
	t.Helper()
	prow, pcol, ox, oy := rows, cols, 0, 0
	if roi {
		prow, pcol, ox, oy = rows+5, cols+7, 3, 2
	}
	data := tu.RandomBytes(r, mt.Depth(), prow*pcol*mt.Channels())
	parent := gocvtest.Mat(t, prow, pcol, mt, data)
	defer parent.Close()
	rect := image.Rect(ox, oy, ox+cols, oy+rows)
	cvSrc := parent.Region(rect)
	defer cvSrc.Close()
	want := gocv.NewMat()
	defer want.Close()
	gocv.Resize(cvSrc, &want, k.size, k.fx, k.fy, gocv.InterpolationFlags(in))

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
	if err := resample.Resize(src, got, k.size, k.fx, k.fy, in); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got.Cols() != want.Cols() || got.Rows() != want.Rows() {
		t.Fatalf("%s: %dx%d, OpenCV %dx%d", name, got.Cols(), got.Rows(), want.Cols(), want.Rows())
	}
	abs, rel := resizeTolerance(mt.Depth(), in)
	d := tu.Compare(mt.Depth(), tu.Bytes(t, got), gocvtest.Bytes(t, want), abs, rel)
	if d.Bad != 0 {
		t.Errorf("%s: %d of %d elements differ (max %g); %s", name, d.Bad, d.N, d.MaxAbs, d.First)
	}
}

// PyrDown and PyrUp against OpenCV: every depth and channel count, odd and even
// sizes, the default and explicit sizes OpenCV allows, PyrDown's border rules,
// views. Integer depths exact; 32F within 1e-5.
func TestPyrMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	types := []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4, gpuimage.CV16UC1,
		gpuimage.CV16SC3, gpuimage.CV32FC1, gpuimage.CV32FC4}
	sizes := [][2]int{{1, 1}, {1, 37}, {37, 1}, {2, 2}, {45, 61}, {64, 96}, {3, 5}}
	for _, mt := range types {
		for _, sz := range sizes {
			rows, cols := sz[0], sz[1]
			roi := r.Intn(2) == 0 && rows > 1
			prow, pcol, ox, oy := rows, cols, 0, 0
			if roi {
				prow, pcol, ox, oy = rows+5, cols+7, 3, 2
			}
			data := tu.RandomBytes(r, mt.Depth(), prow*pcol*mt.Channels())
			parent := gocvtest.Mat(t, prow, pcol, mt, data)
			rect := image.Rect(ox, oy, ox+cols, oy+rows)
			cvSrc := parent.Region(rect)
			full, err := gpuimage.NewFromBytes(gpuimage.CPU(), prow, pcol, mt, data)
			if err != nil {
				t.Fatal(err)
			}
			src, err := full.Region(rect)
			if err != nil {
				t.Fatal(err)
			}
			abs, rel := 0.0, 0.0
			if mt.Depth() == gpuimage.Depth32F {
				abs, rel = 1e-6*tu.InputMax(mt.Depth()), 1e-5
			}
			check := func(name string, want gocv.Mat, got *gpuimage.Image) {
				t.Helper()
				if got.Cols() != want.Cols() || got.Rows() != want.Rows() {
					t.Fatalf("%s: %dx%d, OpenCV %dx%d", name, got.Cols(), got.Rows(), want.Cols(), want.Rows())
				}
				if d := tu.Compare(mt.Depth(), tu.Bytes(t, got), gocvtest.Bytes(t, want), abs, rel); d.Bad != 0 {
					t.Errorf("%s: %d of %d elements differ (max %g); %s", name, d.Bad, d.N, d.MaxAbs, d.First)
				}
			}
			downs := []image.Point{{}, {cols / 2, rows / 2}, {cols/2 + 1, rows/2 + 1}}
			for _, b := range []gpuimage.BorderType{gpuimage.BorderDefault, gpuimage.BorderReplicate, gpuimage.BorderReflect, gpuimage.BorderWrap} {
				for _, ds := range downs {
					if ds != (image.Point{}) && (ds.X < 1 || ds.Y < 1) {
						continue
					}
					name := fmt.Sprintf("PyrDown %v %dx%d roi=%v %v size %v", mt, cols, rows, roi, b, ds)
					want := gocv.NewMat()
					gocv.PyrDown(cvSrc, &want, image.Pt(ds.Y, ds.X), gocv.BorderType(b)) // gocv swaps the sides
					got := &gpuimage.Image{}
					if err := resample.PyrDown(src, got, ds, b); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					check(name, want, got)
					want.Close()
					got.Close()
				}
			}
			// (OpenCV 4.6 leaves the extra row and column of an odd larger size
			// unwritten; PyrUp repeats the row and column before, as later OpenCV.)
			// A height of 2h-1 only for 32F: OpenCV 4.6's integer vector code writes
			// its last row with the odd rows' formula (its scalar code does not).
			for _, us := range []image.Point{{}, {cols*2 - 1, rows * 2}, {cols * 2, rows*2 - 1}} {
				if us.Y < rows*2 && mt.Depth() != gpuimage.Depth32F {
					continue
				}
				name := fmt.Sprintf("PyrUp %v %dx%d roi=%v size %v", mt, cols, rows, roi, us)
				want := gocv.NewMat()
				gocv.PyrUp(cvSrc, &want, image.Pt(us.Y, us.X), gocv.BorderType(gpuimage.BorderDefault))
				got := &gpuimage.Image{}
				if err := resample.PyrUp(src, got, us, gpuimage.BorderDefault); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				check(name, want, got)
				want.Close()
				got.Close()
			}
			cvSrc.Close()
			parent.Close()
			src.Close()
			full.Close()
		}
	}
}
