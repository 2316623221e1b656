//go:build !cuda

package gpuimage

import (
	"errors"

	"github.com/gpuimg/gpuimg/internal/core"
)

// CUDAEnabled reports whether this build has CUDA support (the cuda build tag).
const CUDAEnabled = false

// ErrNoCUDA is returned for CUDA devices by builds without the cuda tag.
var ErrNoCUDA = errors.New("gpuimage: built without CUDA support: rebuild with -tags cuda")

// CUDACount returns the number of CUDA devices: none in this build.
func CUDACount() (int, error) { return 0, nil }

func openCUDA(int) (*Device, error) { return nil, ErrNoCUDA }

func openCUDAByBackend(b core.Backend) (*Device, error) { return &Device{b: b}, nil }
