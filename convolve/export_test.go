package convolve

// FFTMinArea exposes the frequency-domain crossover to the tests.
func FFTMinArea() int { return fftMinArea }

// SetRSepMinArea sets the image area from which the streaming separable kernel
// runs, returning the old one (the tests run it on every size).
func SetRSepMinArea(n int) int {
	old := rsepMinArea
	rsepMinArea = n
	return old
}
