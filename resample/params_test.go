package resample

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirror of the resampling kernels' parameters and sizes against
// kernels/resample_params.h, compiled by cgo.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Structs()["ResamplePolyParams"], polyParams{}); err != nil {
		t.Errorf("ResamplePolyParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["PyrParams"], pyrParams{}); err != nil {
		t.Errorf("PyrParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["ResizeParams"], resizeParams{}); err != nil {
		t.Errorf("ResizeParams: %v", err)
	}
	for _, c := range []struct {
		name      string
		go_, cuda int
	}{
		{"GI_RESAMPLE_THREADS", polyThreads, kparams.ResampleThreads},
		{"GI_RESAMPLE_MAXK", polyMaxK, kparams.ResampleMaxK},
		{"GI_RESAMPLE_MAXT", polyMaxT, kparams.ResampleMaxT},
		{"GI_RESAMPLE_MAXT2", polyMaxT2, kparams.ResampleMaxT2},
		{"GI_RESIZE_RT", resizeRT, kparams.ResizeRT},
		{"GI_RESIZE_THMAX", resizeThMax, kparams.ResizeThMax},
		{"GI_RESIZE_VE8", resizeVE8, kparams.ResizeVE8},
		{"GI_RESIZE_VEF", resizeVEF, kparams.ResizeVEF},
		{"GI_RESIZE_TW", resizeTW, kparams.ResizeTW},
		{"GI_RESIZE_FT", resizeFT, kparams.ResizeFT},
	} {
		if c.go_ != c.cuda {
			t.Errorf("%s: Go %d, kernels %d", c.name, c.go_, c.cuda)
		}
	}
}
