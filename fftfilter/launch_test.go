package fftfilter_test

import (
	"testing"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every kernel fftfilter's launch code names (whole literals: cuda.go runs around
// cuFFT, which the recorder cannot stand in for) exists in the fatbin.
func TestLaunchedKernelsExist(t *testing.T) { tu.CheckKernelLiterals(t, "cuda.go") }
