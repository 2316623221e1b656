package dsp

// SetFFTSize makes the FFT method use frames of n samples (0: its own choice), for
// the benchmark that measures the choice.
func SetFFTSize(n int) { fftSizeOverride = n }
