package dsp_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every launch of Convolve and Correlate on the recorder (the CUDA launch code
// without a GPU), short and long filters, every mode: each kernel launched must
// exist in the fatbin.
func TestLaunchedKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	src := rec.Image(t, 3, 5000, gpuimage.CV32FC1)
	for _, m := range []int{1, 960, 961, 3000} {
		for _, mode := range []dsp.Mode{dsp.Full, dsp.Same, dsp.Valid} {
			dst := &gpuimage.Image{}
			if err := dsp.Convolve(src, dst, make([]float64, m), mode); err != nil {
				t.Fatal(err)
			}
			if err := dsp.Correlate(src, dst, make([]float64, m), mode); err != nil {
				t.Fatal(err)
			}
			dst.Close()
		}
	}
	rec.CheckLaunched(t)
}
