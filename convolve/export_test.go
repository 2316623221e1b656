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

// Launches records the launches of the packed integer kernels (gi_ipack_*), the
// packed-row ones (gi_p2d_*), the integer separable ones (gi_isep3_*) and the
// tensor-core ones (gi_imma_*) until the returned function is called, which stops
// recording and returns the count of each kernel name.
func Launches() func() map[string]int {
	n := map[string]int{}
	onLaunch = func(name string) { n[name]++ }
	return func() map[string]int {
		onLaunch = nil
		return n
	}
}

// SetFFTOff turns the frequency-domain route off (as GPUIMG_CONV_FFT=off does),
// returning the old setting.
func SetFFTOff(off bool) bool {
	old := fftOff
	fftOff = off
	return old
}

// SetP2DSpread sets whether the packed-row kernels' grids take a block for each 4
// strips of rows where those make 1.5 waves or more (p2dSpread), returning the old
// setting: off, their blocks walk down the strips.
func SetP2DSpread(on bool) bool {
	old := p2dSpread
	p2dSpread = on
	return old
}
