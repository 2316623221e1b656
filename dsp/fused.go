package dsp

import (
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
)

// The fused overlap-save of the GPU (kernels/dsp_fftconv.cu's gi_fftconv_fN): a
// thread block transforms two frames of fusedN samples at once in its shared
// memory (kernels/fft_block.cuh), multiplies by each filter's spectrum and
// transforms back, so the input is read once and the outputs written once. The
// host makes the spectra, in the order the block's transform leaves its points.

// The fused frames: fusedMin to fusedMax points, a power of two.
const (
	fusedMin = 1024
	fusedMax = 16384
)

// fusedThreads is the block of the fused kernel for frames of n points (16 points
// a thread; 512 threads and 32 points for 16384).
func fusedThreads(n int) int { return min(n/16, 512) }

// fusedSmem is the fused kernel's shared memory for frames of n points: the points
// (real and imaginary arrays, one float of padding every 32) and n/16 twiddles.
func fusedSmem(n int) int { return 2*(n+n/32)*4 + n/16*8 }

// fusedFrame is the fused frame for m taps and outn outputs a row, 0 when none
// fits in maxSmem bytes of shared memory: at least 2m points (half a frame is
// kept), and up to 4096 for short filters (measured on an H100: 512 taps over
// 1 x 1e6 and 64 x 1e6 samples, 4096 points 15.9 and 300 us, 1024 points 17.1 and
// 569, 8192 19.9 and 373; 2047 taps 16.0 at 4096, 18.0 at 8192); no longer than the
// whole output needs.
func fusedFrame(m, outn, maxSmem int) int {
	n := fusedMin
	for n < 2*m {
		n *= 2
	}
	for n < 4096 && n < 8*m {
		n *= 2
	}
	for n > fusedMin && n/2 >= 2*m && n/2 >= outn+m-1 {
		n /= 2
	}
	if n > fusedMax || fusedSmem(n) > maxSmem {
		return 0
	}
	return n
}

// fusedRadices is the passes of the block's n-point transform: radix 16, then the
// remaining power of two.
func fusedRadices(n int) []int {
	var rs []int
	for ; n >= 16; n /= 16 {
		rs = append(rs, 16)
	}
	if n > 1 {
		rs = append(rs, n)
	}
	return rs
}

// fusedOrder is the frequency whose factor the kernel reads at each index of a
// filter's n spectrum values. The forward transform leaves frequency f at place
// pos(f) (digit reversal over the radices); the last pass's thread t keeps, in
// register g*L + j, place (t + g*T)*L + j (L the last radix, T the block), and
// reads the factor of register r at index r*T + t, so a warp's loads are
// contiguous.
func fusedOrder(n int) []int {
	rs := fusedRadices(n)
	t, l := fusedThreads(n), rs[len(rs)-1]
	order := make([]int, n)
	for f := range n {
		p, size, q := 0, n, f
		for _, r := range rs {
			size /= r
			p += (q % r) * size
			q /= r
		}
		tp, j := p/l, p%l
		order[(tp/t*l+j)*t+tp%t] = f
	}
	return order
}

// fusedSpectra lays out the spectra of filters gs (each the taps of a correlation,
// y[o] = sum g[q] x[o+q+off]) for frames of n points as the kernel reads them: the
// conjugate of the zero-padded taps' DFT over n (the kernel's inverse transform is
// not normalised), in fusedOrder, as float32 pairs, filter after filter.
func fusedSpectra(gs [][]float32, n int) []float32 {
	fft := fourier.NewFFT(n)
	order := fusedOrder(n)
	out := make([]float32, 0, 2*n*len(gs))
	pad := make([]float64, n)
	for _, g := range gs {
		clear(pad)
		for i, v := range g {
			pad[i] = float64(v)
		}
		half := fft.Coefficients(nil, pad)
		for _, f := range order {
			var c complex128
			if f <= n/2 {
				c = cmplx.Conj(half[f])
			} else {
				c = half[n-f]
			}
			c /= complex(float64(n), 0)
			out = append(out, float32(real(c)), float32(imag(c)))
		}
	}
	return out
}

// fusedGrid is the fused kernel's grid for pairs frame pairs on sms SMs: one wave
// (the kernel's blocks stride over the pairs; an H100 holds 8192/n blocks an SM).
func fusedGrid(n, pairs, sms int) int {
	return max(1, min(pairs, sms*max(1, 8192/n)))
}
