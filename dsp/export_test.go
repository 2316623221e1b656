package dsp

// SetFFTSize makes the FFT method use frames of n samples (0: its own choice), for
// the benchmark that measures the choice.
func SetFFTSize(n int) { fftSizeOverride = n }

// SetFused turns the GPU's fused overlap-save on (the default) or off (cuFFT's
// path for every FFT convolution), for tests.
func SetFused(on bool) { fusedOff = !on }

// SetIIRWarm lets the GPU's IIR filters take the warm-up kernel (the default) or
// keeps them on the scans, for tests; it returns the setting before.
func SetIIRWarm(on bool) bool { return !iirWarmOff.Swap(!on) }

// IIRWarmup is the warm-up gi_iir_warm takes for sos's first cascade (up to four
// sections), -1 for none.
func IIRWarmup(sos SOS) (int, error) {
	cs, err := sosCascades("test", sos)
	if err != nil {
		return 0, err
	}
	return cs[0].warmup(), nil
}

// ScanState is what the single-pass IIR kernel takes of sos's first cascade (up
// to four sections): its state size, the state responses of iirScanG samples and
// A^iirScanG; and Run, which filters x through it in float64 from state z with
// the float32 coefficients the kernels use, leaving the state in z.
func ScanState(sos SOS) (s int, g, ag []float64, run func(z []float64, x []float64), err error) {
	cs, err := sosCascades("test", sos)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	c := cs[0].asF32()
	return c.k * c.p, c.g, c.ag, func(z []float64, x []float64) {
		for _, v := range x {
			c.step(z, v)
		}
	}, nil
}

// ScanG is GI_IIR_SCAN_G.
const ScanG = iirScanG
