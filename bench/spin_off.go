//go:build !cuda

package main

import (
	"errors"

	"github.com/gpuimg/gpuimg/internal/core"
)

// spin is never reached without the cuda tag: only CUDA timers hold the device.
func spin(core.Backend, core.Stream, uint32) error {
	return errors.New("bench: this build has no CUDA")
}
