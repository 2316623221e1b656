package colorconv_test

import (
	"math"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// 32F hues are any float: OpenCV reduces them into [0, 360) with fmod for HSV and
// with loops of ±360 for HLS, which never end for huge or infinite hues. gpuimg's
// reduction gives OpenCV's results wherever its loops end and ends everywhere.

// hueCodes are the codes that read a hue.
var hueCodes = []colorconv.Code{colorconv.ColorHSVToBGR, colorconv.ColorHSVToBGRFull,
	colorconv.ColorHLSToBGR, colorconv.ColorHLSToBGRFull}

// oddHues are hues OpenCV's loops reduce exactly, and (last) ones where they never end.
var oddHues = []float32{0, -725, -0.5, -1e-6, 359.9999, 360, 720.5, 1e6, -3e6,
	1e30, -1e30, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}

// finiteOddHues is how many of oddHues OpenCV reduces (the rest hang it).
const finiteOddHues = 9

// hueImage is a 32FC3 image on dev with each hue thrice, with (s, v) (or (l, s))
// pairs of a colour, a gray and a saturated dark colour.
func hueImage(t *testing.T, dev *gpuimage.Device, hues []float32) *gpuimage.Image {
	t.Helper()
	var px []float32
	for _, h := range hues {
		px = append(px, h, 0.5, 0.8, h, 0, 0.7, h, 1, 0.3)
	}
	return pixelRow(t, dev, px)
}

func TestHueOutOfRange(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		src := hueImage(t, gpuimage.CPU(), oddHues)
		defer src.Close()
		for _, code := range hueCodes {
			var dst gpuimage.Image
			if err := colorconv.CvtColor(src, &dst, code); err != nil {
				t.Errorf("%v: %v", code, err)
				continue
			}
			got := tu.Float32s(t, &dst)
			dst.Close()
			for i, v := range got {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Errorf("%v: hue %g gives %g", code, oddHues[i/9], v)
				}
			}
			// Hues in no sector (NaN, infinite, negative for HSV) convert as hue 0.
			for k := finiteOddHues; k < len(oddHues); k++ {
				h := oddHues[k]
				if math.IsInf(float64(h), 0) || math.IsNaN(float64(h)) {
					for j := range 9 {
						if got[9*k+j] != got[j] {
							t.Errorf("%v: hue %g gives %v, not hue 0's %v", code, h, got[9*k:9*k+9], got[:9])
							break
						}
					}
				}
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("HSV/HLS to BGR of huge, infinite or NaN hues did not end in 30 s")
	}
}

// NaN channels read as 0 in the 32F conversions that index tables with them (Lab and
// Luv, whose clip OpenCV leaves NaN in, to index out of its tables); infinities as
// their clip, 0 or 1.
func TestNaNChannelsInTables(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	odd := pixelRow(t, gpuimage.CPU(), []float32{nan, 0.5, 0.25, 0.3, nan, 0.9, inf, -inf, 0.5})
	defer odd.Close()
	same := pixelRow(t, gpuimage.CPU(), []float32{0, 0.5, 0.25, 0.3, 0, 0.9, 1, 0, 0.5})
	defer same.Close()
	for _, code := range []colorconv.Code{colorconv.ColorBGRToLab, colorconv.ColorRGBToLab, colorconv.ColorLBGRToLab,
		colorconv.ColorBGRToLuv, colorconv.ColorLRGBToLuv} {
		var got, want gpuimage.Image
		if err := colorconv.CvtColor(odd, &got, code); err != nil {
			t.Fatalf("%v: %v", code, err)
		}
		if err := colorconv.CvtColor(same, &want, code); err != nil {
			t.Fatalf("%v: %v", code, err)
		}
		tu.Check(t, code.String(), gpuimage.Depth32F, tu.Bytes(t, &got), tu.Bytes(t, &want))
		got.Close()
		want.Close()
	}
}

// pixelRow is a one-row 32FC3 image of px on dev.
func pixelRow(t *testing.T, dev *gpuimage.Device, px []float32) *gpuimage.Image {
	t.Helper()
	im, err := gpuimage.NewFromData(dev, 1, len(px)/3, gpuimage.CV32FC3, px)
	if err != nil {
		t.Fatal(err)
	}
	return im
}
