package interp

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirror of the interpolation kernels' parameters and sizes against
// kernels/interp_params.h, compiled by cgo.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Structs()["ShepardParams"], shepardParams{}); err != nil {
		t.Errorf("ShepardParams: %v", err)
	}
	for _, c := range []struct {
		name      string
		go_, cuda int
	}{
		{"GI_SHEPARD_BX", shepardBX, kparams.ShepardBX},
		{"GI_SHEPARD_BY", shepardBY, kparams.ShepardBY},
		{"GI_SHEPARD_PX", shepardPX, kparams.ShepardPX},
		{"GI_SHEPARD_TILE", shepardTile, kparams.ShepardTile},
		{"GI_SHEPARD_MAXK", shepardMaxK, kparams.ShepardMaxK},
		{"GI_SHEPARD_T", shepardT, kparams.ShepardT},
		{"GI_SHEPARD_TT", shepardTT, kparams.ShepardTT},
		{"GI_SHEPARD_Q", shepardQ, kparams.ShepardQ},
	} {
		if c.go_ != c.cuda {
			t.Errorf("%s: Go %d, kernels %d", c.name, c.go_, c.cuda)
		}
	}
	if shepardEps != kparams.ShepardEps() {
		t.Errorf("GI_SHEPARD_EPS: Go %v, kernels %v", shepardEps, kparams.ShepardEps())
	}
}
