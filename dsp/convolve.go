package dsp

import (
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Mode is how much of a convolution Convolve and Correlate return, as NumPy's and
// SciPy's mode.
type Mode int

// The modes, for a signal of n samples and m taps.
const (
	Full  Mode = iota // every overlap: n+m-1 samples
	Same              // n samples, the middle of Full (it starts (m-1)/2 in)
	Valid             // where one lies wholly inside the other: max(n,m)-min(n,m)+1 samples
)

func (m Mode) String() string {
	switch m {
	case Full:
		return "full"
	case Same:
		return "same"
	case Valid:
		return "valid"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Method is how Convolve and Correlate compute, as SciPy's method.
type Method int

// The methods. Their results agree within float rounding.
const (
	// Auto picks the faster of the two for the taps and signal lengths: on the GPU
	// by the crossover measured on an H100 (FFT from 512 taps for batches of 4M
	// outputs or more, and past 512 taps for all), on the CPU device by the work
	// each needs.
	Auto Method = iota
	// Direct sums the products: on the GPU with up to 512 taps in each launch's
	// constant memory (longer filters are split over launches), each thread eight
	// outputs from a register window.
	Direct
	// FFT convolves by overlap-save: frames of a power-of-two length at least eight
	// times the taps (cuFFT on the GPU, batched over every frame of every row;
	// gonum's FFT on the CPU device).
	FFT
)

func (m Method) String() string {
	switch m {
	case Auto:
		return "auto"
	case Direct:
		return "direct"
	case FFT:
		return "fft"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Convolve convolves every row of src (32FC1, one signal a row) with taps, as
// scipy.signal.convolve(row, taps, mode, method) on each: dst becomes a 32FC1
// image of as many rows, each as long as the mode says. The taps are used as
// float32; the GPU computes in float32, the CPU device in float64. src and dst may
// overlap (dst is then written through a new image).
func Convolve(src, dst *gpuimage.Image, taps []float64, mode Mode, method Method, opts ...gpuimage.Option) error {
	return conv1d("dsp.Convolve", src, dst, taps, mode, method, true, opts, 0)
}

// Correlate cross-correlates every row of src with taps, as
// scipy.signal.correlate(row, taps, mode, method) on each (for real signals,
// Convolve with the taps reversed); otherwise as Convolve.
func Correlate(src, dst *gpuimage.Image, taps []float64, mode Mode, method Method, opts ...gpuimage.Option) error {
	return conv1d("dsp.Correlate", src, dst, taps, mode, method, false, opts, 0)
}

// conv1d checks the call and runs y[o] = sum over q of g[q] * x[o + off + q], g the
// taps (reversed for a convolution) and x zero outside the signal; limit, if not
// 0, keeps the first limit outputs only (LFilter's FIR filters).
func conv1d(op string, src, dst *gpuimage.Image, taps []float64, mode Mode, method Method, reverse bool, opts []gpuimage.Option, limit int) error {
	s, err := checkSignals(op, src, dst)
	if err != nil {
		return err
	}
	if err := checkTaps(op, taps); err != nil {
		return err
	}
	m := len(taps)
	g := make([]float32, m)
	for i, t := range taps {
		if reverse {
			g[m-1-i] = float32(t)
		} else {
			g[i] = float32(t)
		}
	}
	n := s.Cols
	var outn, k0 int
	switch mode {
	case Full:
		outn = n + m - 1
	case Same:
		outn, k0 = n, (m-1)/2
	case Valid:
		outn, k0 = max(n, m)-min(n, m)+1, min(n, m)-1
	default:
		return fmt.Errorf("%s: unknown mode %v (Full, Same or Valid)", op, mode)
	}
	if method < Auto || method > FFT {
		return fmt.Errorf("%s: unknown method %v (Auto, Direct or FFT)", op, method)
	}
	if limit > 0 {
		outn = min(outn, limit)
	}
	if d := core.StateOf(dst); src == dst || core.Overlaps(s, d) {
		tmp := &gpuimage.Image{}
		defer tmp.Close()
		if err := conv1d(op, src, tmp, taps, mode, method, reverse, opts, limit); err != nil {
			return err
		}
		if err := tmp.CopyTo(dst, opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		return nil
	}
	d := core.StateOf(dst)
	if err := d.Create(s.Dev, s.Rows, outn, core.Depth32F, 1); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	off := k0 - (m - 1)
	useFFT := method == FFT || method == Auto && preferFFT(s.Dev, s.Rows, n, m, outn)
	err = core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		switch {
		case s.Dev.IsCPU() && useFFT:
			fftConvCPU(d, s, g, off)
		case s.Dev.IsCPU():
			conv1dCPU(d, s, g, off)
		case useFFT:
			return fftConvCUDA(str, d, s, g, off)
		default:
			return conv1dCUDA(str, d, s, g, off)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// preferFFT is Auto's choice for m taps, n samples and outn outputs a row. On the
// GPU, measured on an H100 (bench/results/dsp-h100.txt): FFT for filters longer
// than one direct launch carries (512 taps), and from 512 taps for batches of 4M
// outputs or more; direct otherwise.
func preferFFT(dev core.Backend, rows, n, m, outn int) bool {
	if dev.IsCPU() {
		// The direct sum costs m multiply-adds an output, overlap-save about
		// 6 log2(nfft) (two transforms and a product) over the share of a frame
		// that is kept.
		nfft, hop := fftSize(rows, m, outn, false)
		return float64(m) > 6*math.Log2(float64(nfft))*float64(nfft)/float64(hop)
	}
	return (m > conv1dTaps || m >= 512 && rows*outn >= 1<<22) && fftAvailable()
}

// fftSizeOverride, when set (by tests), is the frame fftSize picks.
var fftSizeOverride int

// fftSize is the overlap-save frame for rows rows of m taps and outn outputs, and
// the outputs each frame keeps: a power of two no longer than one frame of the
// whole output needs. On the CPU: at least 8m (and 1024). On the GPU, from the
// H100's grid (BenchmarkCUDAFFTFrame, bench/results/dsp-h100.txt): the longest of
// 2m to 16m (at least 1024) that still makes 300 frames over the batch, else 2m:
// cuFFT's short transforms in large batches run near the memory's speed, and a
// long frame in a small batch leaves the GPU idle (two runs: 8192 taps, 1 x 1e6:
// 80-104 us at 2m, 104-204 at 8m; 512 taps, 64 x 1e6: 1,162-1,169 at 16m,
// 1,370-1,374 at 4m).
func fftSize(rows, m, outn int, gpu bool) (nfft, hop int) {
	if fftSizeOverride > 0 && fftSizeOverride >= m {
		return fftSizeOverride, fftSizeOverride - m + 1
	}
	nfft = 1024
	if gpu {
		for nfft < 2*m {
			nfft *= 2
		}
		for f := nfft * 8; f > nfft; f /= 2 {
			if hop := f - m + 1; rows*((outn+hop-1)/hop) >= 300 {
				nfft = f
				break
			}
		}
	} else {
		for nfft < 8*m {
			nfft *= 2
		}
	}
	for nfft > 16 && nfft/2 >= outn+m-1 && nfft/2 >= m {
		nfft /= 2
	}
	return nfft, nfft - m + 1
}
