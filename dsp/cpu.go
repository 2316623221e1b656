package dsp

import (
	"math"
	"math/cmplx"
	"slices"
	"unsafe"

	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// conv1dCPU is the CPU twin of gi_conv1d_*: each row of d gets
// y[o] = sum over q of g[q] * x[o + off + q], x zero outside its n samples, summed
// in float64.
func conv1dCPU(d, s *core.State, g []float32, off int) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	n, m := s.Cols, len(g)
	cpu.ParallelRows(s.Rows, d.Cols*m*4, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			x, out := cpu.Row[float32](sv, y), cpu.Row[float32](dv, y)
			for o := range out {
				// Only the taps that meet the signal: 0 <= o+off+q < n.
				q0, q1 := max(0, -(o+off)), min(m, n-(o+off))
				var acc float64
				for q := q0; q < q1; q++ {
					acc += float64(g[q]) * float64(x[o+off+q])
				}
				out[o] = float32(acc)
			}
		}
	})
}

// iirCPU is the CPU twin of gi_iir_*'s plain passes (LFilter and SOSFilt): the
// cascade over every row as the plain recursion in float64, from a zero state or
// zi, leaving zf.
func iirCPU(st *iirStep) {
	c, in, out := st.c, cpu.HostView(st.in), cpu.HostView(st.out)
	cpu.ParallelRows(st.in.Rows, st.length*c.k*c.p*8, func(y0, y1 int) {
		z := make([]float64, c.k*c.p)
		for y := y0; y < y1; y++ {
			x, d := cpu.Row[float32](in, y), cpu.Row[float32](out, y)
			clear(z)
			if st.ziMode == 1 {
				for s := 0; s < c.sreal; s++ {
					z[s] = float64(*stateAt(st.zi, y, s))
				}
			}
			for i, v := range x[:st.length] {
				d[i] = float32(c.step(z, float64(v)))
			}
			if st.zf.st != nil {
				for s := 0; s < c.sreal; s++ {
					*stateAt(st.zf, y, s) = float32(z[s])
				}
			}
		}
	})
}

// filtFiltCPU is FiltFilt and SOSFiltFilt on the CPU device, as
// scipy.signal.filtfilt: the cascade forward over each row of s extended by pad
// samples at each end (odd extension, pad < s.Cols), then backward over that, each
// pass from the steady state of its first sample, in float64 throughout (the GPU
// keeps the forward pass in float32, which a sharp filter of 40 poles amplified to
// 6e-5 of the RMS).
func filtFiltCPU(c *cascade, s, d *core.State, pad int) {
	in, out := cpu.HostView(s), cpu.HostView(d)
	n, l := s.Cols, s.Cols+2*pad
	cpu.ParallelRows(s.Rows, l*c.k*c.p*16, func(y0, y1 int) {
		z := make([]float64, c.k*c.p)
		w := make([]float64, l)
		// pass filters w in place, forward or backward, from the steady state of
		// its first sample.
		pass := func(i0, step int) {
			clear(z)
			for k, v := range c.zi {
				z[k] = v * w[i0]
			}
			for i := i0; i >= 0 && i < l; i += step {
				w[i] = c.step(z, w[i])
			}
		}
		for y := y0; y < y1; y++ {
			x := cpu.Row[float32](in, y)
			for i := range w {
				switch j := i - pad; {
				case j < 0:
					w[i] = 2*float64(x[0]) - float64(x[-j])
				case j >= n:
					w[i] = 2*float64(x[n-1]) - float64(x[2*(n-1)-j])
				default:
					w[i] = float64(x[j])
				}
			}
			pass(0, 1)
			pass(l-1, -1)
			for i, v := range w[pad : pad+n] {
				cpu.Row[float32](out, y)[i] = float32(v)
			}
		}
	})
}

// stateAt is state value s of signal y in r (stateRef), on the CPU device.
func stateAt(r stateRef, y, s int) *float32 {
	v := cpu.HostView(r.st)
	off := v.Off + r.off + y*r.row + s/2*r.pair + s%2*4
	return (*float32)(unsafe.Pointer(&v.Buf[off]))
}

// fftConvCPU is the CPU twin of the FFT method (cuda_fft.go): the outputs of
// conv1dCPU, y[o] = sum over q of g[q] * x[o + off + q], by overlap-save with
// gonum's FFT in float64. With h the taps reversed, y[o] is sample o + off + m - 1
// of the full convolution x * h.
func fftConvCPU(d, s *core.State, g []float32, off int) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	n, m, outn := s.Cols, len(g), d.Cols
	nfft, hop := fftSize(s.Rows, m, outn, false)
	f0 := off + m - 1
	h := make([]float64, nfft)
	for q, v := range g {
		h[m-1-q] = float64(v)
	}
	hs := fourier.NewFFT(nfft).Coefficients(nil, h)
	cpu.ParallelRows(s.Rows, nfft*16, func(y0, y1 int) {
		fft := fourier.NewFFT(nfft)
		frame, spec := make([]float64, nfft), make([]complex128, nfft/2+1)
		for y := y0; y < y1; y++ {
			x, out := cpu.Row[float32](sv, y), cpu.Row[float32](dv, y)
			for o0 := 0; o0 < outn; o0 += hop {
				base := f0 + o0 - (m - 1)
				for t := range frame {
					frame[t] = 0
					if i := base + t; i >= 0 && i < n {
						frame[t] = float64(x[i])
					}
				}
				fft.Coefficients(spec, frame)
				for k := range spec {
					spec[k] *= hs[k]
				}
				fft.Sequence(frame, spec)
				for u := 0; u < hop && o0+u < outn; u++ {
					out[o0+u] = float32(frame[m-1+u] / float64(nfft))
				}
			}
		}
	})
}

// spectralCPU is the CPU twin of the spectral kernels (dsp_spectral.cu around
// cuFFT): each segment of each row of s cut from the signal (with the plan's
// boundary zeros), detrended and windowed in float64, transformed (gonum), scaled
// into d by the plan's mode; or, for Welch, the segments' periodograms averaged.
func spectralCPU(d, s *core.State, sp *spectral, welch bool) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	cpu.ParallelRows(s.Rows, sp.nseg*sp.nfft*8, func(y0, y1 int) {
		frame := make([]float64, sp.nfft)
		cframe := make([]complex128, sp.nfft)
		var rfft *fourier.FFT
		var cfft *fourier.CmplxFFT
		if sp.twoSided {
			cfft = fourier.NewCmplxFFT(sp.nfft)
		} else {
			rfft = fourier.NewFFT(sp.nfft)
		}
		coef := make([]complex128, sp.nfreq)
		acc := make([]float64, sp.nfreq)
		var all [][]float64 // Welch's median: each frequency's periodogram values
		if welch && sp.median {
			all = make([][]float64, sp.nfreq)
			for k := range all {
				all[k] = make([]float64, sp.nseg)
			}
		}
		for r := y0; r < y1; r++ {
			x := cpu.Row[float32](sv, r)
			clear(acc)
			for j := 0; j < sp.nseg; j++ {
				sp.segment(frame, x, j)
				if sp.twoSided {
					for k, v := range frame {
						cframe[k] = complex(v, 0)
					}
					cfft.Coefficients(coef, cframe)
				} else {
					rfft.Coefficients(coef, frame)
				}
				for k, c := range coef {
					v := sp.value(c, k)
					if welch {
						acc[k] += real(v)
						if all != nil {
							all[k][j] = real(v)
						}
						continue
					}
					out := cpu.Row[float32](dv, r*sp.nfreq+k)
					if d.Chans == 2 {
						out[2*j], out[2*j+1] = float32(real(v)), float32(imag(v))
					} else {
						out[j] = float32(real(v))
					}
				}
			}
			if welch {
				out := cpu.Row[float32](dv, r)
				for k, v := range acc {
					if all != nil {
						out[k] = float32(median(all[k]) / medianBias(sp.nseg))
						continue
					}
					out[k] = float32(v / float64(sp.nseg))
				}
			}
		}
	})
}

// segment fills frame (nfft samples) with segment j of signal x: its samples
// (sample), detrended, windowed, then zeros.
func (sp *spectral) segment(frame []float64, x []float32, j int) {
	seg := frame[:sp.nperseg]
	for k := range seg {
		seg[k] = sp.sample(x, j*sp.step+k-sp.pad)
	}
	detrend(seg, sp.detrend)
	for k := range seg {
		seg[k] *= sp.win[k]
	}
	clear(frame[sp.nperseg:])
}

// sample is signal x's sample i, extended by sp.ext for sp.pad samples past each
// end (SciPy's even_ext, odd_ext, const_ext or zeros) and zero beyond (STFT's
// padding).
func (sp *spectral) sample(x []float32, i int) float64 {
	n := sp.n
	if i >= 0 && i < n {
		return float64(x[i])
	}
	if sp.ext == BoundaryZeros || i < -sp.pad || i >= n+sp.pad {
		return 0
	}
	e, m := float64(x[0]), -i // the end sample and the mirrored one's index
	if i >= n {
		e, m = float64(x[n-1]), 2*(n-1)-i
	}
	switch sp.ext {
	case BoundaryConstant:
		return e
	case BoundaryEven:
		return float64(x[m])
	}
	return 2*e - float64(x[m])
}

// detrend removes the mean (DetrendConstant) or the least-squares line
// (DetrendLinear) from seg.
func detrend(seg []float64, how Detrend) {
	n := float64(len(seg))
	switch how {
	case DetrendConstant:
		var m float64
		for _, v := range seg {
			m += v
		}
		m /= n
		for k := range seg {
			seg[k] -= m
		}
	case DetrendLinear:
		// y = a + b*(k - c), c the mean index: a the mean, b cov/var.
		c := (n - 1) / 2
		var sy, sky, skk float64
		for k, v := range seg {
			t := float64(k) - c
			sy, sky, skk = sy+v, sky+t*v, skk+t*t
		}
		a, b := sy/n, 0.0
		if skk > 0 {
			b = sky / skk
		}
		for k := range seg {
			seg[k] -= a + b*(float64(k)-c)
		}
	}
}

// value is bin k's result from its coefficient c: |c|² scaled (doubled where the
// one-sided PSD folds the negative frequencies in), |c| or c scaled.
func (sp *spectral) value(c complex128, k int) complex128 {
	if sp.stft {
		if sp.mode == ModeMagnitude {
			return complex(cmplx.Abs(c)*sp.scale, 0)
		}
		return c * complex(sp.scale, 0)
	}
	p := (real(c)*real(c) + imag(c)*imag(c)) * sp.scale
	if sp.double(k) {
		p *= 2
	}
	return complex(p, 0)
}

// levelsCPU is the CPU twin of gi_spec_max and gi_spec_db: d (8UC1) gets s's
// values in dB below their peak on 0..255 over rng dB, rows flipped.
func levelsCPU(d, s *core.State, rng float32) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	var peak float32
	for y := 0; y < s.Rows; y++ {
		for _, v := range cpu.Row[float32](sv, y) {
			peak = max(peak, v)
		}
	}
	db := func(v float32) float32 { return float32(10 * math.Log10(float64(max(v, 1e-30)))) }
	lo := db(peak) - rng
	for y := 0; y < s.Rows; y++ {
		out := cpu.Row[uint8](dv, s.Rows-1-y)
		for x, v := range cpu.Row[float32](sv, y) {
			out[x] = 0
			if peak > 0 {
				out[x] = cpu.Saturate[uint8]((db(v) - lo) * (255 / rng))
			}
		}
	}
}

// istftCPU is the CPU twin of ISTFT's kernels (gi_spec_unpost, cuFFT's inverse,
// gi_spec_ola): each segment's one-sided spectrum (imaginary parts of the DC and
// even Nyquist bins dropped, as irfft does) transformed back in float64, or its
// two-sided one by the complex inverse (a complex signal), scaled by sp.scale,
// windowed and overlap-added with the squared windows' sum divided out where above
// 1e-10.
func istftCPU(d, s *core.State, sp *spectral) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	cpu.ParallelRows(d.Rows, sp.nseg*sp.nfft*8, func(y0, y1 int) {
		fft := fourier.NewFFT(sp.nfft)
		cfft := fourier.NewCmplxFFT(sp.nfft)
		coef := make([]complex128, sp.nfreq)
		seq := make([]float64, sp.nfft)
		cseq := make([]complex128, sp.nfft)
		full := sp.nperseg + (sp.nseg-1)*sp.step
		x, norm := make([]complex128, full), make([]float64, full)
		for r := y0; r < y1; r++ {
			clear(x)
			clear(norm)
			for j := 0; j < sp.nseg; j++ {
				for k := range coef {
					z := cpu.Row[float32](sv, r*sp.nfreq+k)[2*j:]
					coef[k] = complex(float64(z[0]), float64(z[1]))
				}
				if sp.twoSided {
					cfft.Sequence(cseq, coef) // unnormalised
				} else {
					fft.Sequence(seq, coef)
					for k, v := range seq {
						cseq[k] = complex(v, 0)
					}
				}
				for k := 0; k < sp.nperseg; k++ {
					w := sp.win[k]
					x[j*sp.step+k] += cseq[k] * complex(sp.scale*w/float64(sp.nfft), 0)
					norm[j*sp.step+k] += w * w
				}
			}
			out := cpu.Row[float32](dv, r)
			for t := 0; t < sp.n; t++ {
				v, nv := x[t+sp.pad], norm[t+sp.pad]
				if nv > 1e-10 {
					v /= complex(nv, 0)
				}
				if sp.twoSided {
					out[2*t], out[2*t+1] = float32(real(v)), float32(imag(v))
				} else {
					out[t] = float32(real(v))
				}
			}
		}
	})
}

// median is v's median (the mean of the middle two for an even count); it
// reorders v.
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
