package convolve_test

import (
	"errors"
	"image"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every filter the CUDA device can be asked for, run on the recorder (the CUDA
// launch code without a GPU): each kernel it launches must exist in the fatbin.
// The sizes, depths, channels, kernel shapes and borders cover every entry of
// filterKinds and every kernel name they build (the frequency-domain route, which
// is fftfilter's, turned off; the streaming kernel on every size).
func TestLaunchedKernelsExist(t *testing.T) {
	defer convolve.SetFFTOff(convolve.SetFFTOff(true))
	defer convolve.SetRSepMinArea(convolve.SetRSepMinArea(0))
	rec := tu.NewRecorder()
	r := rand.New(rand.NewSource(1))
	depths := []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F}
	randKernel := func(h, w int) [][]float64 {
		k := make([][]float64, h)
		for i := range k {
			k[i] = make([]float64, w)
			for j := range k[i] {
				k[i][j] = r.Float64()
			}
		}
		return k
	}
	ints := func(v ...float64) []float64 { return v }
	run := func(what string, err error) {
		t.Helper()
		if err != nil && !errors.Is(err, gpuimage.ErrBadType) && !strings.Contains(err.Error(), "unsupported output depth") {
			t.Errorf("%s: %v", what, err)
		}
	}
	for _, size := range [][2]int{{64, 96}, {37, 53}} {
		for _, sd := range depths {
			for cn := 1; cn <= 4; cn++ {
				src := rec.Image(t, size[0], size[1], gpuimage.MakeType(sd, cn))
				for _, dd := range depths {
					for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15, 17, 19, 21, 25, 31, 33, 63, 64} {
						for _, b := range []convolve.BorderType{convolve.BorderReplicate, convolve.BorderConstant | convolve.BorderIsolated} {
							dst := &gpuimage.Image{}
							run("Filter2D", convolve.Filter2D(src, dst, dd, randKernel(k, k), image.Pt(-1, -1), 0, b))
							kx, ky := randKernel(1, k)[0], randKernel(1, k)[0]
							run("SepFilter2D", convolve.SepFilter2D(src, dst, dd, kx, ky, image.Pt(-1, -1), 0, b))
							if k%2 == 1 {
								run("BoxFilter", convolve.BoxFilter(src, dst, dd, image.Pt(k, k), image.Pt(-1, -1), true, b))
								if k < 33 {
									run("Filter2D 8U taps", convolve.Filter2D(src, dst, dd, [][]float64{ints(1, 2, 1), ints(0, 0, 0), ints(-1, -2, -1)}, image.Pt(-1, -1), 0, b))
								}
							}
							dst.Close()
						}
					}
				}
				for _, k := range []int{1, 3, 5, 7, 9, 15} {
					dst := &gpuimage.Image{}
					run("GaussianBlur", convolve.GaussianBlur(src, dst, image.Pt(k, k), 0, 0, convolve.BorderDefault))
					dst.Close()
				}
				for _, dd := range depths {
					for _, k := range []int{1, 3, 5, 7} {
						dst := &gpuimage.Image{}
						run("Sobel", convolve.Sobel(src, dst, dd, 1, 0, k, 1, 0, convolve.BorderDefault))
						run("Laplacian", convolve.Laplacian(src, dst, dd, k, 1, 0, convolve.BorderDefault))
						dst.Close()
					}
					dst := &gpuimage.Image{}
					run("Scharr", convolve.Scharr(src, dst, dd, 0, 1, 1, 0, convolve.BorderDefault))
					dst.Close()
				}
			}
		}
	}
	rec.CheckLaunched(t)
}
