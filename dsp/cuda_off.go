//go:build !cuda

package dsp

import (
	"errors"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Without the cuda tag there is no GPU device, so these are never reached.

func fftAvailable() bool { return false }

func fftConvCUDA(core.Stream, []*core.State, *core.State, [][]float32, int) error {
	return errors.New("dsp: FFT convolution on the GPU needs a build with the cuda tag")
}

func upolsStepCUDA(core.Stream, *partitioned, *core.State, []*core.State, int, int) error {
	return errors.New("dsp: partitioned convolution on the GPU needs a build with the cuda tag")
}

func spectralCUDA(core.Stream, *core.State, *core.State, *spectral, bool) error {
	return errors.New("dsp: spectra on the GPU need a build with the cuda tag")
}

func levelsCUDA(core.Stream, *core.State, *core.State, float32) error {
	return errors.New("dsp: spectrogram pictures on the GPU need a build with the cuda tag")
}

func istftCUDA(core.Stream, *core.State, *core.State, *spectral) error {
	return errors.New("dsp: ISTFT on the GPU needs a build with the cuda tag")
}
