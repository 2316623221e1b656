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

// Which kernel the CUDA launch code picks for the small filters (on the recorder):
// the packed-row kernel for centred 3x3 and 5x5 kernels on 8U, 16U and 16S sources
// whose rows are aligned for its loads (with the zero taps of Laplacian, Sobel and
// Scharr skipped) but the packed integer one for 3x3 Sobel and Scharr derivatives
// to 8U and 16S with scale 1 and no delta, the integer one for other small-integer
// separable kernels to 8U and 16S, and none of them for a view whose rows are not
// aligned.
func TestFilterKernelChoice(t *testing.T) {
	rec := tu.NewRecorder()
	r := rand.New(rand.NewSource(2))
	k := func(n int) [][]float64 {
		m := make([][]float64, n)
		for i := range m {
			m[i] = make([]float64, n)
			for j := range m[i] {
				m[i][j] = r.Float64() / float64(n*n)
			}
		}
		return m
	}
	b := convolve.BorderReplicate
	for _, c := range []struct {
		name string
		mt   gpuimage.MatType
		view bool // a view one column in (rows not aligned for 8U)
		call func(src, dst *gpuimage.Image) error
		want string
	}{
		{"filter2D 3x3 8UC1", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Filter2D(s, d, convolve.SameDepth, k(3), image.Pt(-1, -1), 0, b)
		}, "gi_p2d_k3_c1_u8_u8"},
		{"filter2D 3x3 8UC3", gpuimage.CV8UC3, false, func(s, d *gpuimage.Image) error {
			return convolve.Filter2D(s, d, convolve.SameDepth, k(3), image.Pt(-1, -1), 0, b)
		}, "gi_p2d_k3_c3_u8_u8"},
		{"filter2D 5x5 16UC1", gpuimage.CV16UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Filter2D(s, d, convolve.SameDepth, k(5), image.Pt(-1, -1), 0, b)
		}, "gi_p2d_k5_c1_u16_u16"},
		{"filter2D 5x5 16SC4 to 32F", gpuimage.CV16SC4, false, func(s, d *gpuimage.Image) error {
			return convolve.Filter2D(s, d, gpuimage.Depth32F, k(5), image.Pt(-1, -1), 0, b)
		}, "gi_p2d_k5_c4_s16_f32"},
		{"laplacian ksize 1 8U to 16S", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Laplacian(s, d, gpuimage.Depth16S, 1, 1, 0, b)
		}, "gi_p2d_k3_c1_u8_s16_m0ba"}, // its zero taps skipped
		{"laplacian ksize 3 8U to 8U", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Laplacian(s, d, gpuimage.Depth8U, 3, 1, 0, b)
		}, "gi_p2d_k3_c1_u8_u8_m155"},
		{"sobel 8U to 32F", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Sobel(s, d, gpuimage.Depth32F, 1, 0, 3, 1, 0, b)
		}, "gi_p2d_k3_c1_u8_f32_m16d"},
		{"sobel 8U to 8U", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Sobel(s, d, gpuimage.Depth8U, 1, 0, 3, 1, 0, b)
		}, "gi_ipack_sobelx_k3_c1_u8"},
		{"sobel dy 8U to 16S", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Sobel(s, d, gpuimage.Depth16S, 0, 1, 3, 1, 0, b)
		}, "gi_ipack_sobely_k3_c1_s16"},
		{"sobel 8U to 8U scale 2", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Sobel(s, d, gpuimage.Depth8U, 1, 0, 3, 2, 0, b)
		}, "gi_p2d_k3_c1_u8_u8_m16d"}, // scaled taps: the packed-row kernel
		{"scharr dy 8U to 16S", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Scharr(s, d, gpuimage.Depth16S, 0, 1, 1, 0, b)
		}, "gi_ipack_scharry_k3_c1_s16"},
		{"scharr dx 8U to 16S delta", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.Scharr(s, d, gpuimage.Depth16S, 1, 0, 1, 3, b)
		}, "gi_p2d_k3_c1_u8_s16_m16d"}, // a delta: the packed-row kernel
		{"sobel 8UC3 to 16S", gpuimage.CV8UC3, false, func(s, d *gpuimage.Image) error {
			return convolve.Sobel(s, d, gpuimage.Depth16S, 1, 0, 3, 1, 0, b)
		}, "gi_ipack_sobelx_k3_c3_s16"},
		{"scharr dy 8UC4 to 8U", gpuimage.CV8UC4, false, func(s, d *gpuimage.Image) error {
			return convolve.Scharr(s, d, gpuimage.Depth8U, 0, 1, 1, 0, b)
		}, "gi_ipack_scharry_k3_c4_u8"},
		{"sobel 8UC3 to 32F", gpuimage.CV8UC3, false, func(s, d *gpuimage.Image) error {
			return convolve.Sobel(s, d, gpuimage.Depth32F, 1, 0, 3, 1, 0, b)
		}, "gi_p2d_k3_c3_u8_f32"},
		{"integer separable 3x3 8U to 8U", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.SepFilter2D(s, d, gpuimage.Depth8U, []float64{1, 2, 1}, []float64{1, -2, 1}, image.Pt(-1, -1), 0, b)
		}, "gi_isep3_u8_u8"},
		{"integer separable 3x3 8U to 16S", gpuimage.CV8UC1, false, func(s, d *gpuimage.Image) error {
			return convolve.SepFilter2D(s, d, gpuimage.Depth16S, []float64{1, 2, 1}, []float64{1, -2, 1}, image.Pt(-1, -1), 0, b)
		}, "gi_isep3_u8_s16"},
		{"filter2D 3x3 8UC1 unaligned view", gpuimage.CV8UC1, true, func(s, d *gpuimage.Image) error {
			return convolve.Filter2D(s, d, convolve.SameDepth, k(3), image.Pt(-1, -1), 0, b)
		}, ""},
		{"sobel 8U to 8U unaligned view", gpuimage.CV8UC1, true, func(s, d *gpuimage.Image) error {
			return convolve.Sobel(s, d, gpuimage.Depth8U, 1, 0, 3, 1, 0, b)
		}, ""},
	} {
		src := rec.Image(t, 1080, 1921, c.mt)
		if c.view {
			v, err := src.Region(image.Rect(1, 0, 1921, 1080))
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			src = v
		}
		dst := &gpuimage.Image{}
		stop := convolve.Launches()
		err := c.call(src, dst)
		got := stop()
		dst.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p2dOrISep := 0
		for n, cnt := range got {
			if strings.HasPrefix(n, "gi_p2d_") || strings.HasPrefix(n, "gi_isep3_") || strings.HasPrefix(n, "gi_ipack_") {
				p2dOrISep += cnt
			}
		}
		if c.want == "" && p2dOrISep != 0 || c.want != "" && (got[c.want] != 1 || len(got) != 1) {
			t.Errorf("%s: launched %v, want %q", c.name, got, c.want)
		}
	}
	rec.CheckLaunched(t)
}
