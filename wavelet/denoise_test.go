package wavelet_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/wavelet"
)

// noisyPicture is a rows x cols picture of cn channels (smooth shapes and an
// edge, Gaussian noise of sigma 20 levels) as 8-bit values, row after row,
// channels interleaved.
func noisyPicture(r *rand.Rand, rows, cols, cn int) []uint8 {
	b := make([]uint8, rows*cols*cn)
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			for c := 0; c < cn; c++ {
				v := 128 + 60*math.Sin(float64(x)/9+float64(c)) + 40*math.Cos(float64(y)/13)
				if x > cols/2 {
					v -= 50
				}
				v += r.NormFloat64() * 20
				b[(y*cols+x)*cn+c] = uint8(math.Max(0, math.Min(255, math.Round(v))))
			}
		}
	}
	return b
}

// Denoise on the CPU device against skimage.restoration.denoise_wavelet: gray and
// colour 8-bit pictures (±1), float ones (1e-5 of their range), both methods,
// soft and hard, flat regions (details exactly zero), YCbCr.
//
// The 8-bit cases give sigma: estimated, it is the median of the details'
// magnitudes that are not exactly zero, and on quantised pixels which
// mathematically-zero details come out as exact zeros and which as 1e-17
// residues depends on the order of float64 operations and on the pixels being
// k/255 in float64 (pywt) or in float32 (gpuimg's 32F images); the median then
// falls a quantisation step apart, and BayesShrink's threshold, sigma² /
// sqrt(mean(d²) - sigma²), magnifies that on the finest (noise only) subbands.
// The float cases, not quantised, estimate it.
func TestDenoiseMatchesScikitImage(t *testing.T) {
	cpu := gpuimage.CPU()
	r := tu.Rand(t)
	type tcase struct {
		rows, cols, cn int
		f32            bool
		o              wavelet.DenoiseOptions
		wname          string
		flat           bool // the left half one level: details exactly zero there
	}
	cs := []tcase{
		{67, 93, 1, false, wavelet.DenoiseOptions{Sigma: []float64{20}}, "db1", false},
		{67, 93, 1, false, wavelet.DenoiseOptions{Method: wavelet.VisuShrink, Sigma: []float64{18}}, "db1", false},
		{64, 64, 1, false, wavelet.DenoiseOptions{Hard: true, Levels: 2, Sigma: []float64{22}}, "db4", false},
		{45, 50, 1, false, wavelet.DenoiseOptions{Sigma: []float64{15}}, "sym4", false},
		{40, 57, 3, false, wavelet.DenoiseOptions{Sigma: []float64{20, 20, 20}}, "db2", false},
		{64, 80, 1, false, wavelet.DenoiseOptions{Hard: true, Sigma: []float64{20}}, "haar", true},
		{33, 47, 1, true, wavelet.DenoiseOptions{Method: wavelet.VisuShrink, Levels: 1}, "coif1", false},
		{67, 93, 1, true, wavelet.DenoiseOptions{}, "db1", false},
		{64, 64, 1, true, wavelet.DenoiseOptions{Hard: true, Levels: 2}, "db4", false},
		{40, 57, 3, true, wavelet.DenoiseOptions{}, "db2", false},
		{40, 57, 3, true, wavelet.DenoiseOptions{YCbCr: true}, "db1", false},
		{50, 64, 3, true, wavelet.DenoiseOptions{}, "haar", true},
	}
	var in []map[string]any
	vals := make([][]float64, len(cs)) // the pictures' values, row after row, channels interleaved
	for i, c := range cs {
		pic := noisyPicture(r, c.rows, c.cols, c.cn)
		vals[i] = make([]float64, len(pic))
		for k, v := range pic {
			vals[i][k] = float64(v)
			if c.f32 { // not quantised
				vals[i][k] = (float64(v)+r.Float64())/255*2 - 1
			}
		}
		if c.flat {
			for y := 0; y < c.rows; y++ {
				for k := 0; k < c.cols/2*c.cn; k++ {
					vals[i][y*c.cols*c.cn+k] = 77
					if c.f32 {
						vals[i][y*c.cols*c.cn+k] = 0.3
					}
				}
			}
		}
		x := make([]any, c.rows)
		for y := range x {
			row := make([]any, c.cols)
			for k := range row {
				at := (y*c.cols + k) * c.cn
				if c.cn == 1 {
					row[k] = vals[i][at]
					continue
				}
				px := make([]float64, 3)
				for ch := 0; ch < 3; ch++ {
					px[2-ch] = vals[i][at+ch] // BGR -> RGB
				}
				row[k] = px
			}
			x[y] = row
		}
		method := map[wavelet.ShrinkMethod]string{wavelet.BayesShrink: "BayesShrink", wavelet.VisuShrink: "VisuShrink"}[c.o.Method]
		thresh := "soft"
		if c.o.Hard {
			thresh = "hard"
		}
		m := map[string]any{"fn": "denoise", "wavelet": c.wname, "thresh": thresh, "method": method, "x": x, "u8": !c.f32, "ycbcr": c.o.YCbCr}
		if c.o.Levels > 0 {
			m["levels"] = c.o.Levels
		}
		if c.o.Sigma != nil {
			m["sigma"] = c.o.Sigma
		}
		in = append(in, m)
	}
	res := pywt(t, in)
	for i, c := range cs {
		name := fmt.Sprintf("%dx%d cn=%d f32=%v %s %+v", c.cols, c.rows, c.cn, c.f32, c.wname, c.o)
		o := c.o
		o.Wavelet = mustWavelet(t, c.wname)
		var src *gpuimage.Image
		var err error
		if c.f32 {
			f := make([]float32, len(vals[i]))
			for k, v := range vals[i] {
				f[k] = float32(v)
			}
			src, err = gpuimage.NewFromData(cpu, c.rows, c.cols, gpuimage.MakeType(gpuimage.Depth32F, c.cn), f)
		} else {
			b := make([]uint8, len(vals[i]))
			for k, v := range vals[i] {
				b[k] = uint8(v)
			}
			src, err = gpuimage.NewFromData(cpu, c.rows, c.cols, gpuimage.MakeType(gpuimage.Depth8U, c.cn), b)
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := &gpuimage.Image{}
		if err := wavelet.Denoise(src, dst, &o); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := tu.Values(dst.Depth(), tu.Bytes(t, dst))
		var want []float64
		if c.cn == 1 {
			for _, row := range decode[[][]float64](t, res[i]) {
				want = append(want, row...)
			}
		} else {
			for _, row := range decode[[][][]float64](t, res[i]) {
				for _, px := range row {
					want = append(want, px[2], px[1], px[0]) // RGB -> BGR
				}
			}
		}
		worst, scale := 0.0, 1.0
		if !c.f32 {
			scale = 255 // scikit-image's floats in [0, 1]
		}
		for k := range want {
			worst = math.Max(worst, math.Abs(got[k]-want[k]*scale))
		}
		// 8-bit: within 1 of the rounding of scikit-image's floats; float: 1e-5 of
		// the range (±1), and the YCbCr case within OpenCV's and scikit-image's
		// chroma coefficients (0.564 and 0.5643 of B-Y).
		lim := 1.5
		if c.f32 {
			lim = 2e-5
			if c.o.YCbCr {
				lim = 2e-3
			}
		}
		if !(worst <= lim) {
			t.Errorf("%s: off by %.3g (at most %g)", name, worst, lim)
		}
		src.Close()
		dst.Close()
	}
}
