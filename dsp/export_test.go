package dsp

// SetFFTSize makes the FFT method use frames of n samples (0: its own choice), for
// the benchmark that measures the choice.
func SetFFTSize(n int) { fftSizeOverride = n }

// SetFused turns the GPU's fused overlap-save on (the default) or off (cuFFT's
// path for every FFT convolution), for tests.
func SetFused(on bool) { fusedOff = !on }
