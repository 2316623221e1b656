package wavelet

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirror of the wavelet kernels' parameters and sizes against
// kernels/wavelet_params.h, compiled by cgo.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Structs()["WtParams"], wtParams{}); err != nil {
		t.Errorf("WtParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["WtBandParams"], wtBandParams{}); err != nil {
		t.Errorf("WtBandParams: %v", err)
	}
	for _, c := range []struct {
		name      string
		go_, cuda int
	}{
		{"GI_WT_MAXF", wtMaxF, kparams.WtMaxF},
		{"GI_WT_TAPS", wtTaps, kparams.WtTaps},
		{"GI_WT_RT", wtRT, kparams.WtRT},
		{"GI_WT_BX", wtBX, kparams.WtBX},
		{"GI_WT_BY", wtBY, kparams.WtBY},
		{"GI_WT_CT", wtCT, kparams.WtCT},
		{"GI_WT_FX", wtFX, kparams.WtFX},
		{"GI_WT_FY", wtFY, kparams.WtFY},
	} {
		if c.go_ != c.cuda {
			t.Errorf("%s: Go %d, kernels %d", c.name, c.go_, c.cuda)
		}
	}
	if MaxLen != wtMaxF {
		t.Errorf("MaxLen %d, GI_WT_MAXF %d", MaxLen, wtMaxF)
	}
}
