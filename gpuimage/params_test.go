package gpuimage

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirrors of the element-wise kernels' parameters against
// kernels/core_params.h, compiled by cgo: every field in the same order at the same
// offset with the same size, and the structs' sizes.
func TestParamsMatchKernels(t *testing.T) {
	c := kparams.Structs()
	for name, g := range map[string]any{"ConvertParams": convertParams{}, "SetToParams": setToParams{},
		"ShuffleParams": shuffleParams{}, "MergeParams": mergeParams{}} {
		if err := kparams.Compare(c[name], g); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
