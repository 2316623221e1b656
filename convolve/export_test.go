package convolve

// FFTMinArea exposes the frequency-domain crossover to the tests.
func FFTMinArea() int { return fftMinArea }
