//go:build !noopencv

package colorconv_test

import (
	"errors"
	"fmt"
	"image"
	"math/rand"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat/gocvtest"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CPU device against OpenCV 4.6 (gocv), for every code, depth and source
// channel count, on random images of odd sizes and on region views.

// inverse maps each code that converts out of BGR to a code producing its input.
var inverseOf = map[colorconv.Code]colorconv.Code{
	colorconv.ColorXYZToBGR: colorconv.ColorBGRToXYZ, colorconv.ColorXYZToRGB: colorconv.ColorBGRToXYZ,
	colorconv.ColorYCrCbToBGR: colorconv.ColorBGRToYCrCb, colorconv.ColorYCrCbToRGB: colorconv.ColorBGRToYCrCb,
	colorconv.ColorYUVToBGR: colorconv.ColorBGRToYUV, colorconv.ColorYUVToRGB: colorconv.ColorBGRToYUV,
	colorconv.ColorHSVToBGR: colorconv.ColorBGRToHSV, colorconv.ColorHSVToRGB: colorconv.ColorBGRToHSV,
	colorconv.ColorHSVToBGRFull: colorconv.ColorBGRToHSVFull, colorconv.ColorHSVToRGBFull: colorconv.ColorBGRToHSVFull,
	colorconv.ColorHLSToBGR: colorconv.ColorBGRToHLS, colorconv.ColorHLSToRGB: colorconv.ColorBGRToHLS,
	colorconv.ColorHLSToBGRFull: colorconv.ColorBGRToHLSFull, colorconv.ColorHLSToRGBFull: colorconv.ColorBGRToHLSFull,
	colorconv.ColorLabToBGR: colorconv.ColorBGRToLab, colorconv.ColorLabToRGB: colorconv.ColorBGRToLab,
	colorconv.ColorLabToLBGR: colorconv.ColorLBGRToLab, colorconv.ColorLabToLRGB: colorconv.ColorLBGRToLab,
	colorconv.ColorLuvToBGR: colorconv.ColorBGRToLuv, colorconv.ColorLuvToRGB: colorconv.ColorBGRToLuv,
	colorconv.ColorLuvToLBGR: colorconv.ColorLBGRToLuv, colorconv.ColorLuvToLRGB: colorconv.ColorLBGRToLuv,
}

// Inputs returns, for a code, the source types to test and a random source of
// that type as bytes: BGR-side inputs are random (32F in 0..1), colour-space
// inputs are OpenCV's conversion of a random BGR image.
func input(t *testing.T, r *rand.Rand, code colorconv.Code, rows, cols int, mt gpuimage.MatType) gocv.Mat {
	t.Helper()
	d := mt.Depth()
	if src, ok := inverseOf[code]; ok {
		bgr := input(t, r, colorconv.ColorBGRToRGB, rows, cols, gpuimage.MakeType(d, 3))
		defer bgr.Close()
		out := gocv.NewMat()
		gocv.CvtColor(bgr, &out, gocv.ColorConversionCode(src))
		return out
	}
	data := tu.RandomBytes(r, d, rows*cols*mt.Channels())
	if d == gpuimage.Depth32F {
		for i, v := range tu.Values(d, data) {
			_ = v
			f := float32(r.Float64())
			putF32(data[4*i:], f)
		}
	}
	return gocvtest.Mat(t, rows, cols, mt, data)
}

// tolerance is the allowed difference from OpenCV 4.6: abs + rel*|want| for every
// value, except that for Lab and Luv a rare few values (0.1% of all compared for a
// code and type, at least 3) may differ by up to cap. Comparisons over all 2^24
// 8-bit colours bound those: 8U BGR2Lab 0.017% of values at 2-3, LBGR2Lab
// 0.0002% at 2. Integer results: ±1. OpenCV's 8U Lab/Luv use fixed-point
// lookup tables that differ from the float formula by 2 or 3 on ~0.02% of values;
// 8U Lab- and Luv-to-RGB run OpenCV's own integer algorithms, so they must be exact.
// 32F: 1e-5 relative. OpenCV's 32F sRGB Lab interpolates a 33x33x33 table (up to
// ~0.7 from the CIE formula, which we compute exactly), so it gets a flat bound of
// 1. Its other 32F Lab and Luv take the cube root from a cubic spline of 1024
// pieces, which is off by up to 3.48e-5 just above the curve's kink at 0.008856
// (computed from OpenCV's splineBuild): a = 500*(fX-fY) may then differ by up to
// 0.035, and Luv's u by about 0.024.
func tolerance(code colorconv.Code, d gpuimage.Depth) (abs, rel, cap float64) {
	name := code.String()
	labLuv := strings.Contains(name, "Lab") || strings.Contains(name, "Luv")
	switch {
	case d != gpuimage.Depth32F && (strings.HasPrefix(name, "Luv2") || strings.HasPrefix(name, "Lab2")):
		return 0, 0, 0 // OpenCV's fixed point, run as OpenCV runs it (fixed8.go)
	case d != gpuimage.Depth32F && labLuv:
		return 1, 0, 3
	case d != gpuimage.Depth32F:
		return 1, 0, 0
	case strings.HasSuffix(name, "2Lab") && !strings.HasPrefix(name, "L"):
		return 1, 0, 0
	case strings.HasSuffix(name, "2Lab"): // LBGR2Lab, LRGB2Lab
		return 0.036, 0, 0.036
	case labLuv:
		return 0.03, 0, 0.03
	case strings.Contains(name, "HSV") || strings.Contains(name, "HLS"):
		return 1e-4, 1e-5, 0
	}
	return 1e-6, 1e-5, 0
}

func TestCvtColorMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	var report []string
	for _, code := range colorconv.Codes() {
		for _, d := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth32F} {
			for _, cn := range []int{1, 3, 4} {
				mt := gpuimage.MakeType(d, cn)
				// OpenCV aborts on combinations it does not support, so ask gpuimg
				// (whose table follows OpenCV's) and test only what it accepts.
				probe, _ := gpuimage.New(gpuimage.CPU(), 1, 1, mt)
				var pd gpuimage.Image
				perr := colorconv.CvtColor(probe, &pd, code)
				probe.Close()
				pd.Close()
				if perr != nil {
					if !errors.Is(perr, gpuimage.ErrBadType) {
						t.Errorf("%v %v: %v", code, mt, perr)
					}
					continue
				}
				var total, exact, rareBad int
				var maxDiff float64
				ok := true
				for i, sz := range tu.Sizes {
					view := i%2 == 1
					m := input(t, r, code, sz[0]+3, sz[1]+5, mt)
					roi := image.Rect(2, 1, 2+sz[1], 1+sz[0])
					mv := m.Region(roi)
					want := gocv.NewMat()
					gocv.CvtColor(mv, &want, gocv.ColorConversionCode(code))
					src, err := gocvmat.Upload(gpuimage.CPU(), m)
					if err != nil {
						t.Fatal(err)
					}
					in := src
					if view {
						in, _ = src.Region(roi)
					} else {
						mv.Close()
						mv = m.Clone()
						want.Close()
						want = gocv.NewMat()
						gocv.CvtColor(mv, &want, gocv.ColorConversionCode(code))
					}
					var dst gpuimage.Image
					err = colorconv.CvtColor(in, &dst, code)
					if err != nil {
						t.Fatalf("%v %v: %v", code, mt, err)
					}
					{
						got, _ := gocvmat.Download(&dst)
						abs, rel, cap := tolerance(code, d)
						res := tu.Compare(d, gocvtest.Bytes(t, got), gocvtest.Bytes(t, want), abs, rel)
						total, exact = total+res.N, exact+res.Exact
						maxDiff = max(maxDiff, res.MaxAbs)
						// The rare values are counted over all sizes of this code and
						// type (a 37-pixel image may hold two of them by chance).
						rare := cap > 0 && res.MaxAbs <= cap
						if rare {
							rareBad += res.Bad
						}
						if res.Bad != 0 && !rare && ok {
							t.Errorf("%v %v %dx%d view=%v: %d of %d out of tolerance (max diff %g); %s",
								code, mt, sz[0], sz[1], view, res.Bad, res.N, res.MaxAbs, res.First)
							ok = false
						}
						got.Close()
					}
					dst.Close()
					in.Close()
					src.Close()
					want.Close()
					mv.Close()
					m.Close()
				}
				if ok && rareBad > max(3, total/1000) {
					abs, _, _ := tolerance(code, d)
					t.Errorf("%v %v: %d of %d values beyond ±%g of OpenCV (more than 0.1%%)", code, mt, rareBad, total, abs)
				}
				if total > 0 {
					report = append(report, fmt.Sprintf("%-13v %-8v exact %6.2f%%  max diff %g", code, mt, 100*float64(exact)/float64(total), maxDiff))
				}
			}
		}
	}
	t.Log("agreement with OpenCV 4.6:\n" + strings.Join(report, "\n"))
}

// OpenCV converts 8U Lab and Luv to RGB in fixed point; gpuimg runs the same
// integer algorithms, so every one of the 2^24 values must give OpenCV's bytes. The
// values fill rows of a prime width, so that OpenCV's vector loop and its scalar
// row tails both see all kinds of values.
func TestLabLuv8ToRGBBitExactWithOpenCV(t *testing.T) {
	const cols = 4093
	rows := (1<<24 + cols - 1) / cols
	data := make([]byte, rows*cols*3)
	for i := 0; i < 1<<24; i++ {
		data[3*i], data[3*i+1], data[3*i+2] = byte(i>>16), byte(i>>8), byte(i)
	}
	m := gocvtest.Mat(t, rows, cols, gpuimage.CV8UC3, data)
	defer m.Close()
	src, err := gocvmat.Upload(gpuimage.CPU(), m)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, code := range fixed8Codes {
		want := gocv.NewMat()
		gocv.CvtColor(m, &want, gocv.ColorConversionCode(code))
		var dst gpuimage.Image
		if err := colorconv.CvtColor(src, &dst, code); err != nil {
			t.Fatal(err)
		}
		got := tu.Bytes(t, &dst)
		res := tu.Compare(gpuimage.Depth8U, got, gocvtest.Bytes(t, want), 0, 0)
		if res.Bad != 0 {
			t.Errorf("%v: %d of %d values differ from OpenCV (max diff %g); %s", code, res.Bad, res.N, res.MaxAbs, res.First)
		}
		want.Close()
		dst.Close()
	}
}
