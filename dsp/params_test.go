package dsp

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirror of the 1-D kernels' parameters and sizes against
// kernels/dsp_params.h, compiled by cgo.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Structs()["Conv1DParams"], conv1dParams{}); err != nil {
		t.Errorf("Conv1DParams: %v", err)
	}
	for _, c := range []struct {
		name      string
		go_, cuda int
	}{
		{"GI_CONV1D_TAPS", conv1dTaps, kparams.Conv1DTaps},
		{"GI_CONV1D_THREADS", conv1dThreads, kparams.Conv1DThreads},
		{"GI_CONV1D_R", conv1dR, kparams.Conv1DR},
	} {
		if c.go_ != c.cuda {
			t.Errorf("%s: Go %d, kernels %d", c.name, c.go_, c.cuda)
		}
	}
}
