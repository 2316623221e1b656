package colorconv

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirror of the colour kernels' parameters against kernels/color_params.h,
// compiled by cgo (every field in the same order at the same offset with the same
// size, and the struct's size), and the run kernels' sizes against its limits.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Structs()["CvtParams"], cvtParams{}); err != nil {
		t.Errorf("CvtParams: %v", err)
	}
	for _, c := range []struct {
		name      string
		go_, cuda int
	}{
		{"GI_LABREP_BYTES", labRepBytes, kparams.LabRepBytes},
		{"GI_LABREP_STAGE", labRepStage, kparams.LabRepStage},
		{"GI_LABREP_THREADS", labRepThreads, kparams.LabRepThreads},
		{"GI_LABREP_RUN", labRepRun, kparams.LabRepRun},
		{"GI_LABGRID_BYTES", labGridBytes, kparams.LabGridBytes},
		{"GI_LABGRID_THREADS", labGridThreads, kparams.LabGridThreads},
		{"GI_LABGRID_RUN", labGridRun, kparams.LabGridRun},
	} {
		if c.go_ != c.cuda {
			t.Errorf("%s: Go %d, kernels %d", c.name, c.go_, c.cuda)
		}
	}
}
