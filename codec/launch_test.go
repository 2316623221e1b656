package codec_test

import (
	"testing"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The kernel codec's nvJPEG path launches (cuda.go, behind the cuda tag) exists in
// the fatbin.
func TestLaunchedKernelsExist(t *testing.T) { tu.CheckKernelLiterals(t, "cuda.go") }
