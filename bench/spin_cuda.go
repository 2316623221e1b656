//go:build cuda

package main

import (
	"fmt"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cuda"
)

// spin queues gi_spin for ns nanoseconds on s.
func spin(dev core.Backend, s core.Stream, ns uint32) error {
	b, ok := dev.(*cuda.Backend)
	if !ok {
		return fmt.Errorf("bench: %s is not a CUDA device", dev.Name())
	}
	return b.LaunchPTX(spinPTX, s, "gi_spin", [3]int{1, 1, 1}, [3]int{1, 1, 1}, 0, ns)
}
