//go:build cuda

package apitest

import (
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

func devices(t *testing.T) []*gpuimage.Device { return []*gpuimage.Device{gpuimage.CPU(), tu.CUDA(t)} }
