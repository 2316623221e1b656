//go:build cuda

package wavelet_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/wavelet"
)

// runOn runs fn's transform of the inputs (rows, uploaded to dev) into poisoned
// outputs of the sizes the CPU run gave (nil: fresh ones) and returns the outputs.
func runOn(t *testing.T, dev *gpuimage.Device, in [][][]float32, nout int, like []*gpuimage.Image,
	fn func(in, out []*gpuimage.Image) error) []*gpuimage.Image {
	t.Helper()
	ims := make([]*gpuimage.Image, len(in))
	for i, v := range in {
		ims[i] = tu.UploadRows(t, dev, v)
	}
	defer closeIms(ims)
	outs := make([]*gpuimage.Image, nout)
	for i := range outs {
		outs[i] = &gpuimage.Image{}
		if like != nil {
			outs[i] = tu.Poisoned(t, dev, like[i].Rows(), like[i].Cols(), gpuimage.CV32FC1)
		}
	}
	if err := fn(ims, outs); err != nil {
		t.Fatal(err)
	}
	return outs
}

// compareRuns runs fn on the CPU device and on the GPU (into poisoned outputs) and
// compares them within 1e-5 of the CPU's magnitudes, or of the inputs' times
// amp: Smooth extends a signal by lines that reach amp = f times its samples,
// and the GPU's float32 sums lose that much more to cancellation.
func compareRuns(t *testing.T, name string, gpu *gpuimage.Device, in [][][]float32, nout int, amp float64, fn func(in, out []*gpuimage.Image) error) {
	t.Helper()
	want := runOn(t, gpuimage.CPU(), in, nout, nil, fn)
	defer closeIms(want)
	got := runOn(t, gpu, in, nout, want, fn)
	defer closeIms(got)
	for i := range want {
		g, w := tu.Rows(t, got[i]), tu.Rows(t, want[i])
		if amp > 1 {
			w = append(w, []float64{amp}) // checkClose's scale (the inputs are within ±1)
			g = append(g, []float64{amp})
		}
		checkClose(t, fmt.Sprintf("%s out %d", name, i), g, w)
	}
}

// The wavelet kernels against the CPU device: every kernel size (haar, db4,
// db10, coif5 and lengths between), every mode, odd sizes (1x1, 1xN, Nx1,
// 451x300, 4097x3), forward and inverse, along rows and columns and 2-D.
func TestCUDAMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	sizes := [][2]int{{1, 1}, {1, 9}, {7, 1}, {300, 451}, {3, 4097}, {37, 70}, {64, 96}, {6, 8}} // the last two: haar2's vectorised kernels
	for _, wn := range []string{"haar", "db2", "db4", "sym6", "db10", "coif4", "coif5", "bior4.4"} {
		w := mustWavelet(t, wn)
		for mi, m := range allModes {
			for si, sz := range sizes {
				if testing.Short() && (si+mi)%3 != 0 && si < 6 {
					continue
				}
				x := [][][]float32{randRows(r, sz[0], sz[1])}
				name := fmt.Sprintf("%s %v %dx%d", wn, m, sz[1], sz[0])
				amp := 1.0
				if m == wavelet.Smooth {
					amp = float64(w.Len())
				}
				for _, axis := range []wavelet.Axis{wavelet.AlongRows, wavelet.AlongCols} {
					compareRuns(t, name+" DWT "+axis.String(), gpu, x, 2, amp, func(in, out []*gpuimage.Image) error {
						return wavelet.DWT(in[0], out[0], out[1], w, m, axis)
					})
					n := sz[1]
					if axis == wavelet.AlongCols {
						n = sz[0]
					}
					k := wavelet.CoeffLen(n, w.Len(), m)
					if m == wavelet.Periodization || 2*k-w.Len()+2 >= 1 {
						cr, cc := sz[0], k
						if axis == wavelet.AlongCols {
							cr, cc = k, sz[1]
						}
						c := [][][]float32{randRows(r, cr, cc), randRows(r, cr, cc)}
						compareRuns(t, name+" IDWT "+axis.String(), gpu, c, 1, 1, func(in, out []*gpuimage.Image) error {
							return wavelet.IDWT(in[0], in[1], out[0], w, m, axis)
						})
					}
				}
				compareRuns(t, name+" DWT2", gpu, x, 4, amp*amp, func(in, out []*gpuimage.Image) error {
					return wavelet.DWT2(in[0], out[0], out[1], out[2], out[3], w, m)
				})
				kr, kc := wavelet.CoeffLen(sz[0], w.Len(), m), wavelet.CoeffLen(sz[1], w.Len(), m)
				if m == wavelet.Periodization || (2*kr-w.Len()+2 >= 1 && 2*kc-w.Len()+2 >= 1) {
					c := [][][]float32{randRows(r, kr, kc), randRows(r, kr, kc), randRows(r, kr, kc), randRows(r, kr, kc)}
					compareRuns(t, name+" IDWT2", gpu, c, 1, 1, func(in, out []*gpuimage.Image) error {
						return wavelet.IDWT2(in[0], in[1], in[2], in[3], out[0], w, m)
					})
				}
			}
		}
	}
}

// Views: a transform of a region of a larger image into regions of larger
// outputs, on the GPU against the CPU device (db3, and haar on aligned and
// misaligned regions: its vectorised kernels and the fallback).
func TestCUDAViews(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	x := randRows(r, 80, 90)
	for _, c := range []struct {
		w    string
		rect image.Rectangle
	}{
		{"db3", image.Rect(3, 5, 80, 66)},
		{"haar", image.Rect(4, 6, 68, 70)},
		{"haar", image.Rect(1, 6, 65, 70)},
	} {
		w := mustWavelet(t, c.w)
		run := func(dev *gpuimage.Device) [][]float64 {
			big := tu.UploadRows(t, dev, x)
			defer big.Close()
			src, err := big.Region(c.rect)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			outs := make([]*gpuimage.Image, 4)
			k := wavelet.CoeffLen(c.rect.Dy(), w.Len(), wavelet.Symmetric)
			kc := wavelet.CoeffLen(c.rect.Dx(), w.Len(), wavelet.Symmetric)
			for i := range outs {
				p := tu.Poisoned(t, dev, k+3, kc+5, gpuimage.CV32FC1)
				defer p.Close()
				if outs[i], err = p.Region(image.Rect(2, 1, 2+kc, 1+k)); err != nil {
					t.Fatal(err)
				}
				defer outs[i].Close()
			}
			if err := wavelet.DWT2(src, outs[0], outs[1], outs[2], outs[3], w, wavelet.Symmetric); err != nil {
				t.Fatal(err)
			}
			rec := &gpuimage.Image{}
			defer rec.Close()
			if err := wavelet.IDWT2(outs[0], outs[1], outs[2], outs[3], rec, w, wavelet.Symmetric); err != nil {
				t.Fatal(err)
			}
			var all [][]float64
			for _, o := range outs {
				all = append(all, tu.Rows(t, o)...)
			}
			return append(all, tu.Rows(t, rec)...)
		}
		want := run(gpuimage.CPU())
		got := run(gpu)
		for i := range want {
			checkClose(t, fmt.Sprintf("%s %v views row %d", c.w, c.rect, i), [][]float64{got[i]}, [][]float64{want[i]})
		}
	}
}

// Multi-level round trips and Denoise on the GPU: WaveRec(WaveDec(x)) is x for
// every wavelet family and mode, and Denoise gives the CPU device's pictures
// within 1 level.
func TestCUDAMultiLevelAndDenoise(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, wn := range []string{"haar", "db4", "sym8", "coif5", "bior2.2", "rbio6.8"} {
		w := mustWavelet(t, wn)
		for j, m := range allModes {
			checkRoundTrip(t, gpu, fmt.Sprintf("%s %v 1-D", wn, m), randRows(r, 3, 1001+j), w, m, false, wavelet.AlongRows)
			checkRoundTrip(t, gpu, fmt.Sprintf("%s %v 2-D", wn, m), randRows(r, 129, 211+2*j), w, m, true, 0)
		}
	}
	// Denoise, with a flat band (details of exactly zero, which the estimate of
	// sigma leaves out): 8-bit pictures (soft thresholding; within 1, but for at
	// most 1 in 2000 bytes, where BayesShrink's threshold, sigma² / sqrt(mean(d²) -
	// sigma²), divides by a near-cancelling difference) and float ones (hard
	// thresholding too, within 1e-3, but for at most 1 in 2000 values: a
	// coefficient within rounding of the threshold, kept on one device and dropped
	// on the other). Haar on 8-bit pictures is given sigma: on quantised pixels
	// some details are zero in exact arithmetic, and which of them float64 and
	// float32 leave at exactly 0 differs (see madSigma).
	for _, c := range []struct {
		o   wavelet.DenoiseOptions
		f32 bool
	}{
		{wavelet.DenoiseOptions{Sigma: []float64{20, 20, 20}}, false},
		{wavelet.DenoiseOptions{YCbCr: true, Wavelet: mustWavelet(t, "db4")}, false},
		{wavelet.DenoiseOptions{Method: wavelet.VisuShrink, Hard: true}, true},
		{wavelet.DenoiseOptions{Wavelet: mustWavelet(t, "sym4")}, true},
	} {
		o := c.o
		for _, cn := range []int{1, 3} {
			if o.YCbCr && cn != 3 {
				continue
			}
			if o.Sigma != nil {
				o.Sigma = o.Sigma[:cn]
			}
			pic := noisyPicture(r, 300, 451, cn)
			f := make([]float32, len(pic))
			for i, v := range pic {
				f[i] = float32(v)/255 + float32(r.Float64()*1e-3) // not quantised
			}
			for i := 0; i < len(pic)/3; i++ { // a flat band: details of exactly zero
				pic[i], f[i] = 90, 0.35
			}
			mt := gpuimage.MakeType(gpuimage.Depth8U, cn)
			if c.f32 {
				mt = gpuimage.MakeType(gpuimage.Depth32F, cn)
			}
			var outs [][]float64
			for _, dev := range []*gpuimage.Device{gpuimage.CPU(), gpu} {
				src, err := gpuimage.New(dev, 300, 451, mt)
				if err != nil {
					t.Fatal(err)
				}
				if c.f32 {
					err = src.Upload(tu.F32Bytes(f))
				} else {
					err = src.Upload(pic)
				}
				if err != nil {
					t.Fatal(err)
				}
				dst := tu.Poisoned(t, dev, 300, 451, mt)
				if err := wavelet.Denoise(src, dst, &o); err != nil {
					t.Fatal(err)
				}
				outs = append(outs, tu.Values(mt.Depth(), tu.Bytes(t, dst)))
				src.Close()
				dst.Close()
			}
			tol := 1.0
			if c.f32 {
				tol = 1e-3
			}
			off := 0
			for i := range outs[0] {
				if d := math.Abs(outs[0][i] - outs[1][i]); !(d <= tol) {
					off++
					if off > len(outs[0])/2000 {
						t.Errorf("Denoise %+v cn=%d f32=%v: value %d is %v on the GPU, %v on the CPU (%d off by more than %g)", o, cn, c.f32, i, outs[1][i], outs[0][i], off, tol)
						break
					}
				}
			}
		}
	}
}
