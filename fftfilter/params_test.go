package fftfilter

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirrors of the frequency-domain kernels' parameters against
// kernels/fft_params.h, compiled by cgo (every field in the same order at the same
// offset with the same size, and the structs' sizes), and the limits.
func TestParamsMatchKernels(t *testing.T) {
	c := kparams.Structs()
	for name, g := range map[string]any{"FftSide": fftSide{}, "FftPackParams": fftPackParams{},
		"FftMirrorParams": fftMirrorParams{}, "FftCcsParams": fftCcsParams{}, "FftScaleParams": fftScaleParams{},
		"FftUnpackParams": fftUnpackParams{}, "FftCopyParams": fftCopyParams{}, "FftMulParams": fftMulParams{},
		"FftPolarParams": fftPolarParams{}, "FftLoadParams": fftLoadParams{}, "FftStoreParams": fftStoreParams{},
		"FftMulMaskParams": fftMulMaskParams{}, "FftTapsParams": fftTapsParams{}, "FftMaskParams": fftMaskParams{},
		"FftLogMagParams": fftLogMagParams{}, "FftNormParams": fftNormParams{}} {
		if c[name] == nil {
			t.Errorf("%s: not in kparams.Structs", name)
			continue
		}
		if err := kparams.Compare(c[name], g); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if fftThreads != kparams.FftThreads || tapsChunk != kparams.FftTapsChunk || MaxNotches != kparams.FftMaxNotches {
		t.Errorf("limits: Go %d threads, %d taps, %d notches; kernels %d, %d, %d", fftThreads, tapsChunk, MaxNotches,
			kparams.FftThreads, kparams.FftTapsChunk, kparams.FftMaxNotches)
	}
}
