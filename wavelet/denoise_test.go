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
// colour 8-bit pictures (±1), a float one (1e-5 of its range), both methods, soft
// and hard, given sigmas, YCbCr.
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
		{67, 93, 1, false, wavelet.DenoiseOptions{}, "db1", false},
		{67, 93, 1, false, wavelet.DenoiseOptions{Method: wavelet.VisuShrink}, "db1", false},
		{64, 64, 1, false, wavelet.DenoiseOptions{Hard: true, Levels: 2}, "db4", false},
		{45, 50, 1, false, wavelet.DenoiseOptions{Sigma: []float64{15}}, "sym4", false},
		{40, 57, 3, false, wavelet.DenoiseOptions{}, "db2", false},
		{40, 57, 3, false, wavelet.DenoiseOptions{YCbCr: true}, "db1", false},
		{33, 47, 1, true, wavelet.DenoiseOptions{Method: wavelet.VisuShrink, Levels: 1}, "coif1", false},
		{64, 80, 1, false, wavelet.DenoiseOptions{Hard: true}, "haar", true},
		{50, 64, 3, false, wavelet.DenoiseOptions{}, "haar", true},
	}
	var in []map[string]any
	pics := make([][]uint8, len(cs))
	for i, c := range cs {
		pics[i] = noisyPicture(r, c.rows, c.cols, c.cn)
		if c.flat {
			for y := 0; y < c.rows; y++ {
				for k := 0; k < c.cols/2*c.cn; k++ {
					pics[i][y*c.cols*c.cn+k] = 77
				}
			}
		}
		x := make([]any, c.rows)
		for y := range x {
			row := make([]any, c.cols)
			for k := range row {
				if c.cn == 1 {
					row[k] = int(pics[i][y*c.cols+k])
					if c.f32 {
						row[k] = float64(pics[i][y*c.cols+k])/255*2 - 1
					}
					continue
				}
				px := make([]int, 3)
				for ch := 0; ch < 3; ch++ {
					px[2-ch] = int(pics[i][(y*c.cols+k)*3+ch]) // BGR -> RGB
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
			m["sigma"] = c.o.Sigma[0]
		}
		in = append(in, m)
	}
	res := pywt(t, in)
	for i, c := range cs {
		name := fmt.Sprintf("%dx%d cn=%d f32=%v %s %+v", c.cols, c.rows, c.cn, c.f32, c.wname, c.o)
		o := c.o
		o.Wavelet = mustWavelet(t, c.wname)
		mt := gpuimage.MakeType(gpuimage.Depth8U, c.cn)
		var src *gpuimage.Image
		if c.f32 {
			v := make([][]float32, c.rows)
			for y := range v {
				v[y] = make([]float32, c.cols)
				for k := range v[y] {
					v[y][k] = float32(float64(pics[i][y*c.cols+k])/255*2 - 1)
				}
			}
			src = tu.UploadRows(t, cpu, v)
		} else {
			var err error
			if src, err = gpuimage.New(cpu, c.rows, c.cols, mt); err != nil {
				t.Fatal(err)
			}
			if err := src.Upload(pics[i]); err != nil {
				t.Fatal(err)
			}
		}
		dst := &gpuimage.Image{}
		if err := wavelet.Denoise(src, dst, &o); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.f32 {
			checkClose(t, name, rowsOf(t, dst), decode[[][]float64](t, res[i]))
		} else {
			got := tu.Bytes(t, dst)
			worst := 0.0
			if c.cn == 1 {
				want := decode[[][]float64](t, res[i])
				for y := range want {
					for k, v := range want[y] {
						worst = math.Max(worst, math.Abs(float64(got[y*c.cols+k])-v*255))
					}
				}
			} else {
				want := decode[[][][]float64](t, res[i])
				for y := range want {
					for k, px := range want[y] {
						for ch := 0; ch < 3; ch++ {
							worst = math.Max(worst, math.Abs(float64(got[(y*c.cols+k)*3+ch])-px[2-ch]*255))
						}
					}
				}
			}
			if worst > 1.5 { // within 1 of the 8-bit rounding of scikit-image's floats
				t.Errorf("%s: off by %.2f levels", name, worst)
			}
		}
		src.Close()
		dst.Close()
	}
}
