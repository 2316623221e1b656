package wavelet_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/wavelet"
)

// Every kernel the transforms and Denoise launch on the recorder (the CUDA launch
// code without a GPU), for every filter length the kernels are compiled for:
// each must exist in the fatbin.
func TestLaunchedKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	src := rec.Image(t, 40, 50, gpuimage.CV32FC1)
	for _, wn := range []string{"haar", "db2", "db4", "db5", "db10", "coif5"} {
		w := mustWavelet(t, wn)
		for _, axis := range []wavelet.Axis{wavelet.AlongRows, wavelet.AlongCols} {
			a, d, out := &gpuimage.Image{}, &gpuimage.Image{}, &gpuimage.Image{}
			if err := wavelet.DWT(src, a, d, w, wavelet.Symmetric, axis); err != nil {
				t.Fatal(err)
			}
			if err := wavelet.IDWT(a, d, out, w, wavelet.Symmetric, axis); err != nil {
				t.Fatal(err)
			}
			a.Close()
			d.Close()
			out.Close()
		}
		ims := []*gpuimage.Image{{}, {}, {}, {}}
		out := &gpuimage.Image{}
		if err := wavelet.DWT2(src, ims[0], ims[1], ims[2], ims[3], w, wavelet.Periodization); err != nil {
			t.Fatal(err)
		}
		if err := wavelet.IDWT2(ims[0], ims[1], ims[2], ims[3], out, w, wavelet.Periodization); err != nil {
			t.Fatal(err)
		}
		closeIms(append(ims, out))
	}
	// Denoise: its subbands' sums of squares and thresholds.
	pic := rec.Image(t, 64, 64, gpuimage.CV8UC1)
	for _, o := range []wavelet.DenoiseOptions{{}, {Hard: true}} {
		dst := &gpuimage.Image{}
		if err := wavelet.Denoise(pic, dst, &o); err != nil {
			t.Fatal(err)
		}
		dst.Close()
	}
	rec.CheckLaunched(t)
}

func closeIms(ims []*gpuimage.Image) {
	for _, im := range ims {
		im.Close()
	}
}
