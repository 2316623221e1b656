//go:build !cuda

package apitest

import (
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
)

func devices(t *testing.T) []*gpuimage.Device { return []*gpuimage.Device{gpuimage.CPU()} }
