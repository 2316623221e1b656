package dsp

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// blockModel is the fused kernel's transform (kernels/fft_block.cuh) in Go, pass
// for pass: forward leaves x in the kernel's place order, inverse (unnormalised)
// takes it back.
func blockModel(x []complex128, inverse bool) {
	n := len(x)
	rs := fusedRadices(n)
	blocks := make([]int, len(rs))
	b := n
	for p, r := range rs {
		blocks[p] = b
		b /= r
	}
	pass := func(p int) {
		r, b := rs[p], blocks[p]
		m := b / r
		a := make([]complex128, r)
		for g := 0; g < n/r; g++ {
			o, base := g%m, g/m*b+g%m
			for j := range a {
				a[j] = x[base+j*m]
			}
			w := cmplx.Exp(complex(0, -2*math.Pi*float64(o)/float64(b)))
			if inverse {
				for k := range a {
					a[k] *= cmplx.Conj(cmplx.Pow(w, complex(float64(k), 0)))
				}
			}
			d := make([]complex128, r)
			for k := range d {
				for j := range a {
					e := -2 * math.Pi * float64(j*k) / float64(r)
					if inverse {
						e = -e
					}
					d[k] += a[j] * cmplx.Exp(complex(0, e))
				}
			}
			for k := range d {
				if !inverse {
					d[k] *= cmplx.Pow(w, complex(float64(k), 0))
				}
				x[base+k*m] = d[k]
			}
		}
	}
	if !inverse {
		for p := range rs {
			pass(p)
		}
	} else {
		for p := len(rs) - 1; p >= 0; p-- {
			pass(p)
		}
	}
}

// The host's spectra in the kernel's order make, through the kernel's transforms
// (modelled in Go), the correlation of two frames packed as one complex frame:
// every frame length, taps up to half a frame.
func TestFusedLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := fusedMin; n <= fusedMax; n *= 2 {
		m := []int{1, 7, 200, n / 2}[n/fusedMin%4]
		g := make([]float32, m)
		for i := range g {
			g[i] = float32(r.NormFloat64())
		}
		a, b := make([]float64, n), make([]float64, n)
		x := make([]complex128, n)
		for i := range x {
			a[i], b[i] = r.NormFloat64(), r.NormFloat64()
			x[i] = complex(a[i], b[i])
		}
		spec := fusedSpectra([][]float32{g}, n)
		blockModel(x, false)
		th, l := fusedThreads(n), fusedRadices(n)[len(fusedRadices(n))-1]
		for i := 0; i < n; i++ {
			rg, tt := i/th, i%th
			place := (tt+rg/l*th)*l + rg%l
			x[place] *= complex(float64(spec[2*i]), float64(spec[2*i+1]))
		}
		blockModel(x, true)
		worst, rms := 0.0, 0.0
		for o := 0; o+m <= n; o++ {
			var wa, wb float64
			for q, v := range g {
				wa += float64(v) * a[o+q]
				wb += float64(v) * b[o+q]
			}
			worst = math.Max(worst, math.Max(math.Abs(real(x[o])-wa), math.Abs(imag(x[o])-wb)))
			rms += wa*wa + wb*wb
		}
		if rms = math.Sqrt(rms / float64(2*(n-m+1))); worst > 1e-5*rms {
			t.Errorf("%d points, %d taps: off the correlation by %.3g of its RMS", n, m, worst/rms)
		}
	}
}

// fusedFrame's choices: at least twice the taps, 4096 for short filters over long
// signals, shorter for short signals, none past 16384 points or the shared memory.
func TestFusedFrame(t *testing.T) {
	for _, c := range []struct{ m, outn, smem, want int }{
		{512, 1000000, 227 << 10, 4096},
		{63, 1000000, 227 << 10, 1024},
		{2047, 1000000, 227 << 10, 4096},
		{4000, 1000000, 227 << 10, 8192},
		{8192, 1000000, 227 << 10, 16384},
		{8193, 1000000, 227 << 10, 0},
		{8192, 1000000, 99 << 10, 0},
		{4000, 1000000, 64 << 10, 0},
		{512, 600, 227 << 10, 2048},
		{512, 100, 227 << 10, 1024},
		{5, 7, 48 << 10, 1024},
	} {
		if got := fusedFrame(c.m, c.outn, c.smem); got != c.want {
			t.Errorf("fusedFrame(%d taps, %d outputs, %d bytes) = %d, want %d", c.m, c.outn, c.smem, got, c.want)
		}
	}
}
