//go:build !cuda

package fftfilter

import (
	"errors"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Without the cuda build tag there is no CUDA device, so these are never reached.
var errNoCUDA = errors.New("fftfilter: built without CUDA (the cuda build tag)")

func cudaDFT(core.Stream, *dftJob) error                                      { return errNoCUDA }
func cudaMul(core.Stream, *mulJob) error                                      { return errNoCUDA }
func cudaPolar(core.Stream, *core.State, *core.State, *core.State, int) error { return errNoCUDA }
func cudaFilter(core.Stream, *filterJob) error                                { return errNoCUDA }
func cudaSpectrum(core.Stream, *filterJob) error                              { return errNoCUDA }

// FreePlans frees every cached cuFFT plan (there are none without CUDA).
func FreePlans() error { return nil }

// CUFFTVersion reports that this build has no CUDA (so no cuFFT).
func CUFFTVersion() (lib string, version int, err error) { return "", 0, errNoCUDA }
