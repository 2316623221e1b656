package codec

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// jpegYccParams against kernels/core_params.h's JpegYccParams, compiled by cgo.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Structs()["JpegYccParams"], jpegYccParams{}); err != nil {
		t.Error(err)
	}
}
