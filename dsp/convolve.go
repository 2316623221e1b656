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
	// by the crossover measured on an H100 (FFT from 128 taps, and from 16 for
	// batches of 4M outputs or more), on the CPU device by the work each needs.
	Auto Method = iota
	// Direct sums the products: on the GPU with up to 512 taps in each launch's
	// constant memory (longer filters are split over launches), each thread eight
	// outputs from a register window.
	Direct
	// FFT convolves by overlap-save. On the GPU, for filters up to 8192 taps
	// (where the device's shared memory holds the frame: 16384 points need 143 KB),
	// by a fused kernel: a thread block transforms two frames of 1024 to 16384
	// points (one as the real, the other as the imaginary part) in shared memory,
	// multiplies by the filters' spectra and transforms back, reading the input
	// once and writing each output once; longer filters by cuFFT, batched over
	// every frame of every row. On the CPU device by gonum's FFT, frames at least
	// eight times the taps.
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
	return conv1d("dsp.Convolve", src, []*gpuimage.Image{dst}, [][]float64{taps}, mode, method, true, opts, 0)
}

// Correlate cross-correlates every row of src with taps, as
// scipy.signal.correlate(row, taps, mode, method) on each (for real signals,
// Convolve with the taps reversed); otherwise as Convolve.
func Correlate(src, dst *gpuimage.Image, taps []float64, mode Mode, method Method, opts ...gpuimage.Option) error {
	return conv1d("dsp.Correlate", src, []*gpuimage.Image{dst}, [][]float64{taps}, mode, method, false, opts, 0)
}

// ConvolveBank convolves every row of src with each filter of bank (filters of
// equal length, up to any number): dsts[k] becomes Convolve(src, bank[k], mode,
// method), as a crossover's bands. On the GPU the FFT method transforms each frame
// of the input once for all the filters (eight at a time), so K bands cost less
// than K calls of Convolve.
func ConvolveBank(src *gpuimage.Image, dsts []*gpuimage.Image, bank [][]float64, mode Mode, method Method, opts ...gpuimage.Option) error {
	const op = "dsp.ConvolveBank"
	if len(bank) == 0 {
		return fmt.Errorf("%s: no filters", op)
	}
	if len(dsts) != len(bank) {
		return fmt.Errorf("%s: %d outputs for %d filters", op, len(dsts), len(bank))
	}
	for k, t := range bank {
		if len(t) != len(bank[0]) {
			return fmt.Errorf("%s: filter %d has %d taps, filter 0 %d (they must be equally long)", op, k, len(t), len(bank[0]))
		}
	}
	return conv1d(op, src, dsts, bank, mode, method, true, opts, 0)
}

// conv1d checks the call and runs, for each filter k, dsts[k][o] = sum over q of
// g[q] * x[o + off + q], g the filter's taps (reversed for a convolution) and x zero
// outside the signal; limit, if not 0, keeps the first limit outputs only
// (LFilter's FIR filters). The filters are equally long.
func conv1d(op string, src *gpuimage.Image, dsts []*gpuimage.Image, bank [][]float64, mode Mode, method Method, reverse bool, opts []gpuimage.Option, limit int) error {
	s, err := checkSignal(op, src)
	if err != nil {
		return err
	}
	for k, dst := range dsts {
		if dst == nil {
			return fmt.Errorf("%s: %w: %s", op, gpuimage.ErrNil, outName(dsts, k))
		}
		for j := range k {
			if dsts[j] == dst {
				return fmt.Errorf("%s: outputs %d and %d are the same image", op, j, k)
			}
		}
	}
	// The taps as float32, each filter's reversed for a convolution, in one array:
	// checked and converted in one pass, hashed in one piece by the GPU's cache.
	m := len(bank[0])
	flat := make([]float32, len(bank)*m)
	gs := make([][]float32, len(bank))
	for k, taps := range bank {
		gs[k] = flat[k*m : (k+1)*m : (k+1)*m]
		if m == 0 || float32Taps(gs[k], taps, reverse) >= 0 {
			name := op
			if len(bank) > 1 {
				name = fmt.Sprintf("%s: filter %d", op, k)
			}
			return checkTaps(name, taps)
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
	// Outputs that share memory with the source are made in new images and copied.
	outs := make([]*gpuimage.Image, len(dsts))
	var copies []int
	for k, dst := range dsts {
		outs[k] = dst
		if d := core.StateOf(dst); src == dst || core.Overlaps(s, d) {
			outs[k] = &gpuimage.Image{}
			defer outs[k].Close()
			copies = append(copies, k)
		}
	}
	ds := make([]*core.State, len(outs))
	for k, o := range outs {
		ds[k] = core.StateOf(o)
		if err := ds[k].Create(s.Dev, s.Rows, outn, core.Depth32F, 1); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	off := k0 - (m - 1)
	useFFT := method == FFT || method == Auto && preferFFT(s.Dev, s.Rows, n, m, outn)
	err = core.Run(s.Dev, opts, append([]*core.State{s}, ds...), func(str core.Stream) error {
		if !s.Dev.IsCPU() && useFFT {
			return fftConvCUDA(str, ds, s, gs, off)
		}
		for k, d := range ds {
			var err error
			switch {
			case s.Dev.IsCPU() && useFFT:
				fftConvCPU(d, s, gs[k], off)
			case s.Dev.IsCPU():
				conv1dCPU(d, s, gs[k], off)
			default:
				err = conv1dCUDA(str, d, s, gs[k], off)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	for _, k := range copies {
		if err := outs[k].CopyTo(dsts[k], opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	return nil
}

// outName names output k of dsts in errors: "dst" when there is one.
func outName(dsts []*gpuimage.Image, k int) string {
	if len(dsts) == 1 {
		return "dst"
	}
	return fmt.Sprintf("output %d", k)
}

// preferFFT is Auto's choice for m taps, n samples and outn outputs a row. On the
// GPU, measured on an H100 (BenchmarkCUDAConvolve, bench/results/dsp-h100.txt):
// the fused overlap-save where its frame fits, from 128 taps, or from 16 for
// batches of 4M outputs or more (64 x 1e6 samples, 16 taps: 311 us against the
// direct kernel's 381; 1 x 1e6, 63 taps: 19.9 against 18.7); cuFFT's for
// filters longer than one direct launch carries (512 taps); direct otherwise.
func preferFFT(dev core.Backend, rows, n, m, outn int) bool {
	if dev.IsCPU() {
		// The direct sum costs m multiply-adds an output, overlap-save about
		// 6 log2(nfft) (two transforms and a product) over the share of a frame
		// that is kept.
		nfft, hop := fftSize(rows, m, outn, false)
		return float64(m) > 6*math.Log2(float64(nfft))*float64(nfft)/float64(hop)
	}
	if fusedFrame(m, outn, core.MaxSharedOptin(dev)) > 0 {
		return m >= 128 || m >= 16 && rows*outn >= 1<<22
	}
	return m > conv1dTaps && fftAvailable()
}

// fftSizeOverride, when set (by tests), is the frame fftSize picks, and the
// fused kernel's frame when it is one of its sizes (else cuFFT's path runs);
// fusedOff (tests) keeps the GPU's FFT method on cuFFT's path.
var (
	fftSizeOverride int
	fusedOff        bool
)

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
