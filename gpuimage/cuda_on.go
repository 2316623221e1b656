//go:build cuda

package gpuimage

import (
	"sync"

	"github.com/gpuimg/gpuimg/internal/core"

	"github.com/gpuimg/gpuimg/internal/cuda"
)

// CUDAEnabled reports whether this build has CUDA support (the cuda build tag).
const CUDAEnabled = true

// CUDACount returns the number of CUDA devices.
func CUDACount() (int, error) { return cuda.Count() }

var (
	cudaMu      sync.Mutex
	cudaDevices = map[int]*Device{}
)

// openCUDA opens device i (cuda.Open starts different GPUs at the same time;
// the lock here is held only around the map).
func openCUDA(i int) (*Device, error) {
	b, err := cuda.Open(i)
	if err != nil {
		return nil, err
	}
	cudaMu.Lock()
	defer cudaMu.Unlock()
	if d, ok := cudaDevices[i]; ok {
		return d, nil
	}
	d := &Device{b: b}
	cudaDevices[i] = d
	return d, nil
}

func openCUDAByBackend(b core.Backend) (*Device, error) {
	cudaMu.Lock()
	defer cudaMu.Unlock()
	for _, d := range cudaDevices {
		if d.b == b {
			return d, nil
		}
	}
	return &Device{b: b}, nil
}
