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
	"github.com/gpuimg/gpuimg/internal/gocvtest"
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
// value, except that for 8U Lab and Luv a rare few values (0.1% of all compared
// for a code and type, at least 3) may differ by up to cap. Comparisons over all
// 2^24 8-bit colours bound those: 8U BGR2Lab 0.017% of values at 2-3, LBGR2Lab
// 0.0002% at 2. Integer results: ±1. OpenCV's 8U Lab/Luv use fixed-point
// lookup tables that differ from the float formula by 2 or 3 on ~0.02% of values;
// 8U Lab- and Luv-to-RGB run OpenCV's own integer algorithms, so they must be exact.
// 32F: 1e-5 relative; 32F Lab and Luv 1e-4 absolute, as the issue asks (they run
// OpenCV's tables and splines, lab32.go, and measure exact), except in each row's
// last cols%8 pixels (tailTolerance).
func tolerance(code colorconv.Code, d gpuimage.Depth) (abs, rel, cap float64) {
	name := code.String()
	labLuv := strings.Contains(name, "Lab") || strings.Contains(name, "Luv")
	switch {
	case d != gpuimage.Depth32F && (strings.HasPrefix(name, "Luv2") || strings.Contains(name, "Lab")):
		return 0, 0, 0 // OpenCV's fixed point, run as OpenCV runs it (fixed8.go, lab8.go)
	case d != gpuimage.Depth32F && labLuv:
		return 1, 0, 3
	case d != gpuimage.Depth32F:
		return 1, 0, 0
	case labLuv:
		return 1e-4, 0, 0
	case strings.Contains(name, "HSV") || strings.Contains(name, "HLS"):
		return 1e-4, 1e-5, 0
	}
	return 1e-6, 1e-5, 0
}

// tailTolerance is the bound for the last cols%8 pixels of each row where OpenCV
// converts them differently from the rest (0: no difference). Its SSE loop takes 8
// pixels at a time and a scalar loop the rest. For 32F Luv the scalar loop sums
// in another order: up to 1.5e-4 measured over 140,000 such pixels, so 5e-4 here;
// for 32F linear Lab it
// takes the cube root from cv::cubeRoot, not the spline, whose error just above
// the curve's kink at 0.008856 is up to 3.48e-5 (computed from OpenCV's
// splineBuild), so a = 500*(fX-fY) may differ by up to 0.035.
func tailTolerance(code colorconv.Code, d gpuimage.Depth) (abs, rel float64) {
	name := code.String()
	switch {
	case d != gpuimage.Depth32F:
		return 0, 0
	case strings.HasSuffix(name, "2Luv"):
		return 5e-4, 0
	case strings.HasPrefix(name, "L") && strings.HasSuffix(name, "2Lab"):
		return 0.036, 0
	}
	return 0, 0
}

// compareRows is tu.Compare of rows x cols images, with the last cols%8 pixels of
// each row held to tailTolerance where it applies.
func compareRows(code colorconv.Code, d gpuimage.Depth, got, want []byte, rows, cols int) tu.Diff {
	abs, rel, _ := tolerance(code, d)
	tabs, trel := tailTolerance(code, d)
	if tabs == 0 || cols%8 == 0 || len(got) != len(want) || rows*cols == 0 {
		return tu.Compare(d, got, want, abs, rel)
	}
	rb := len(want) / rows
	split := rb / cols * (cols - cols%8)
	var body, tail [2][]byte
	for y := range rows {
		for i, b := range [][]byte{got, want} {
			body[i] = append(body[i], b[y*rb:y*rb+split]...)
			tail[i] = append(tail[i], b[y*rb+split:(y+1)*rb]...)
		}
	}
	r := tu.Compare(d, body[0], body[1], abs, rel)
	rt := tu.Compare(d, tail[0], tail[1], tabs, trel)
	if r.Bad == 0 {
		r.First = rt.First
	}
	r.N, r.Bad, r.Exact, r.MaxAbs = r.N+rt.N, r.Bad+rt.Bad, r.Exact+rt.Exact, max(r.MaxAbs, rt.MaxAbs)
	return r
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
						_, _, cap := tolerance(code, d)
						res := compareRows(code, d, gocvtest.Bytes(t, got), gocvtest.Bytes(t, want), sz[0], sz[1])
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

// OpenCV converts 8U Lab and Luv to RGB, and 8U RGB to Lab, in fixed point; gpuimg
// runs the same integer algorithms, so every one of the 2^24 values must give
// OpenCV's bytes. The
// values fill rows of a prime width, so that OpenCV's vector loop and its scalar
// row tails both see all kinds of values.
func TestFixed8BitExactWithOpenCV(t *testing.T) {
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

// Hues of 360 and more that OpenCV reduces give OpenCV's results. Negative ones are
// left out: for HLS, OpenCV 4.6's vector path takes them to another sector than its
// scalar loop (gpuimg follows the loop: -725 is 355), and a tiny negative HLS hue
// lands its loop on 6, past its sector table.
func TestHueOutOfRangeMatchesOpenCV(t *testing.T) {
	var hues []float32
	for _, h := range oddHues[:finiteOddHues] {
		if h >= 0 {
			hues = append(hues, h)
		}
	}
	src := hueImage(t, gpuimage.CPU(), hues)
	defer src.Close()
	m, err := gocvmat.Download(src)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, code := range hueCodes {
		want := gocv.NewMat()
		gocv.CvtColor(m, &want, gocv.ColorConversionCode(code))
		var dst gpuimage.Image
		if err := colorconv.CvtColor(src, &dst, code); err != nil {
			t.Fatal(err)
		}
		got, _ := gocvmat.Download(&dst)
		tu.Check(t, code.String(), gpuimage.Depth32F, gocvtest.Bytes(t, got), gocvtest.Bytes(t, want))
		got.Close()
		dst.Close()
		want.Close()
	}
}
