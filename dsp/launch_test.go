package dsp_test

import (
	"image"
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

// Which IIR passes take the warm-up kernel (gi_iir_warm), on the recorder: the
// forward filters, FiltFilt's and SOSFiltFilt's padded and reversed passes, and
// rows of views at any alignment all do (no scan kernel runs); GPUIMG_IIR_WARM=off
// (SetIIRWarm(false)) and a filter whose warm-up is too long keep the scans.
func TestIIRWarmTaken(t *testing.T) {
	sos, err := dsp.Butter(8, []float64{0.2}, dsp.Lowpass, 0)
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := dsp.Butter(8, []float64{0.002}, dsp.Lowpass, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, a := []float64{0.2, 0.3}, []float64{1, -0.5}
	for _, c := range []struct {
		name       string
		off        int  // the view's first column
		warm       bool // SetIIRWarm
		kernel     string
		warms, any int // launches of kernel; of any scan kernel (gi_iir_local)
		run        func(src, dst *gpuimage.Image) error
	}{
		{"sosfilt", 0, true, "gi_iir_warm_k4p2", 1, 0, func(s, d *gpuimage.Image) error { return dsp.SOSFilt(s, d, sos) }},
		{"sosfilt from column 1", 1, true, "gi_iir_warm_k4p2", 1, 0, func(s, d *gpuimage.Image) error { return dsp.SOSFilt(s, d, sos) }},
		{"sosfiltfilt", 0, true, "gi_iir_warm_k4p2", 2, 0, func(s, d *gpuimage.Image) error { return dsp.SOSFiltFilt(s, d, sos) }},
		{"sosfiltfilt from column 3", 3, true, "gi_iir_warm_k4p2", 2, 0, func(s, d *gpuimage.Image) error { return dsp.SOSFiltFilt(s, d, sos) }},
		{"filtfilt", 0, true, "gi_iir_warm_k1p1", 2, 0, func(s, d *gpuimage.Image) error { return dsp.FiltFilt(s, d, b, a) }},
		{"lfilter from column 2", 2, true, "gi_iir_warm_k1p1", 1, 0, func(s, d *gpuimage.Image) error { return dsp.LFilter(s, d, b, a) }},
		{"warm-up off", 0, false, "gi_iir_warm_k4p2", 0, 1, func(s, d *gpuimage.Image) error { return dsp.SOSFilt(s, d, sos) }},
		{"warm-up too long", 0, true, "gi_iir_warm_k4p2", 0, 1, func(s, d *gpuimage.Image) error { return dsp.SOSFilt(s, d, narrow) }},
	} {
		rec := tu.NewRecorder()
		full := rec.Image(t, 4, 100000+c.off, gpuimage.CV32FC1)
		src, err := full.Region(image.Rect(c.off, 0, c.off+100000, 4))
		if err != nil {
			t.Fatal(err)
		}
		prev := dsp.SetIIRWarm(c.warm)
		dst := &gpuimage.Image{}
		err = c.run(src, dst)
		dsp.SetIIRWarm(prev)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		scans := 0
		for _, k := range []string{"k1p1", "k1p2", "k2p2", "k4p2", "k1p4", "k1p8"} {
			scans += rec.Launched("gi_iir_local_" + k)
		}
		if w := rec.Launched(c.kernel); w != c.warms || scans != c.any {
			t.Errorf("%s: %s launched %d times, the scans %d, want %d and %d", c.name, c.kernel, w, scans, c.warms, c.any)
		}
		dst.Close()
		src.Close()
	}
}
