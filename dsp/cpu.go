package dsp

import (
	"gonum.org/v1/gonum/dsp/fourier"

	"unsafe"

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

// iirCPU is the CPU twin of gi_iir_*: one pass of a cascade over every row, as the
// plain recursion (in float64), with the same virtual sequence, output mapping and
// states (IIRParams).
func iirCPU(st *iirStep) {
	c, in, out := st.c, cpu.HostView(st.in), cpu.HostView(st.out)
	n, l := st.in.Cols, st.length
	cpu.ParallelRows(st.in.Rows, l*c.k*c.p*8, func(y0, y1 int) {
		z := make([]float64, c.k*c.p)
		for y := y0; y < y1; y++ {
			x, d := cpu.Row[float32](in, y), cpu.Row[float32](out, y)
			vin := func(i int) float64 {
				j := i - st.pad
				if st.rev {
					j = l - 1 - i - st.pad
				}
				switch {
				case j < 0:
					return 2*float64(x[0]) - float64(x[-j])
				case j >= n:
					return 2*float64(x[n-1]) - float64(x[2*(n-1)-j])
				}
				return float64(x[j])
			}
			clear(z)
			switch st.ziMode {
			case 1:
				for s := 0; s < st.c.sreal; s++ {
					z[s] = float64(*stateAt(st.zi, y, s))
				}
			case 2:
				var x0 float64
				if st.x0in != nil {
					x0 = float64(cpu.Row[float32](cpu.HostView(st.x0in), 0)[y])
				} else {
					x0 = vin(0)
				}
				if st.x0out != nil {
					cpu.Row[float32](cpu.HostView(st.x0out), 0)[y] = float32(x0)
				}
				for s, v := range c.zi {
					z[s] = v * x0
				}
			}
			for i := 0; i < l; i++ {
				v := c.step(z, vin(i))
				o := i - st.opad
				if st.rev {
					o = l - 1 - i - st.opad
				}
				if o >= 0 && o < st.outn {
					d[o] = float32(v)
				}
			}
			if st.zf.st != nil {
				for s := 0; s < c.sreal; s++ {
					*stateAt(st.zf, y, s) = float32(z[s])
				}
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
