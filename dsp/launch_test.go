package dsp_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every launch of Convolve, Correlate and the IIR filters on the recorder (the CUDA launch code
// without a GPU), short and long filters, every mode: each kernel launched must
// exist in the fatbin.
func TestLaunchedKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	src := rec.Image(t, 3, 5000, gpuimage.CV32FC1)
	for _, m := range []int{1, 512, 513, 3000} {
		for _, mode := range []dsp.Mode{dsp.Full, dsp.Same, dsp.Valid} {
			dst := &gpuimage.Image{}
			// The FFT method needs cuFFT, which the recorder has not: the GPU tests run it.
			if err := dsp.Convolve(src, dst, make([]float64, m), mode, dsp.Direct); err != nil {
				t.Fatal(err)
			}
			if err := dsp.Correlate(src, dst, make([]float64, m), mode, dsp.Direct); err != nil {
				t.Fatal(err)
			}
			dst.Close()
		}
	}
	// Every IIR kernel shape, one block a row and several.
	for _, n := range []int{100, 20000} {
		src := rec.Image(t, 3, n, gpuimage.CV32FC1)
		for order := 0; order <= dsp.MaxOrder; order++ {
			a := make([]float64, order+1)
			a[0] = 1
			dst := &gpuimage.Image{}
			if err := dsp.LFilter(src, dst, []float64{1}, a); err != nil {
				t.Fatal(err)
			}
			if order > 0 && order < 8 {
				if err := dsp.FiltFilt(src, dst, []float64{1}, a); err != nil {
					t.Fatal(err)
				}
			}
			dst.Close()
		}
		for secs := 1; secs <= 17; secs++ {
			sos := make(dsp.SOS, secs)
			for k := range sos {
				sos[k] = [6]float64{1, 0, 0, 1, 0, 0}
			}
			dst := &gpuimage.Image{}
			if err := dsp.SOSFilt(src, dst, sos); err != nil {
				t.Fatal(err)
			}
			if secs < 5 {
				if err := dsp.SOSFiltFilt(src, dst, sos); err != nil {
					t.Fatal(err)
				}
			}
			dst.Close()
		}
	}
	rec.CheckLaunched(t)
}

// The kernels the cuFFT paths launch (cuda_fft.go, cuda_upols.go, cuda_spectral.go:
// the recorder has no cuFFT, so the GPU tests run them) exist in the fatbin.
func TestCUFFTKernelsExist(t *testing.T) {
	tu.CheckKernelLiterals(t, "cuda_fft.go", "cuda_upols.go", "cuda_spectral.go")
}
