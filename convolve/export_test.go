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

// CountPacked counts the launches of the packed integer kernel (gi_ipack_*) until
// the returned function is called, which stops counting and returns the count.
func CountPacked() func() int {
	n := 0
	onPacked = func(string) { n++ }
	return func() int {
		onPacked = nil
		return n
	}
}
