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

// Convolve convolves every row of src (32FC1, one signal a row) with taps, as
// scipy.signal.convolve(row, taps, mode, method='direct') on each: dst becomes a
// 32FC1 image of as many rows, each as long as the mode says. The taps are used as
// float32, the sums are float32 on the GPU (float64 on the CPU device); the GPU
// carries up to 960 taps in each launch's constant memory and splits longer filters
// over launches. src and dst may overlap (dst is then written through a new image).
func Convolve(src, dst *gpuimage.Image, taps []float64, mode Mode, opts ...gpuimage.Option) error {
	return conv1d("dsp.Convolve", src, dst, taps, mode, true, opts)
}

// Correlate cross-correlates every row of src with taps, as
// scipy.signal.correlate(row, taps, mode, method='direct') on each (for real
// signals, Convolve with the taps reversed); otherwise as Convolve.
func Correlate(src, dst *gpuimage.Image, taps []float64, mode Mode, opts ...gpuimage.Option) error {
	return conv1d("dsp.Correlate", src, dst, taps, mode, false, opts)
}

// conv1d checks the call and runs y[o] = sum over q of g[q] * x[o + off + q], g the
// taps (reversed for a convolution) and x zero outside the signal.
func conv1d(op string, src, dst *gpuimage.Image, taps []float64, mode Mode, reverse bool, opts []gpuimage.Option) error {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if s.Depth != core.Depth32F || s.Chans != 1 {
		return fmt.Errorf("%s: %w: %v (signals are 32FC1, one a row)", op, gpuimage.ErrBadType, src.Type())
	}
	if dst == nil {
		return fmt.Errorf("%s: %w: dst", op, gpuimage.ErrNil)
	}
	m := len(taps)
	if m == 0 {
		return fmt.Errorf("%s: no taps", op)
	}
	g := make([]float32, m)
	for i, t := range taps {
		if math.IsNaN(t) || math.IsInf(t, 0) || math.Abs(t) > math.MaxFloat32 {
			return fmt.Errorf("%s: tap %d is %v (taps must be finite float32 values)", op, i, t)
		}
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
	if d := core.StateOf(dst); src == dst || core.Overlaps(s, d) {
		tmp := &gpuimage.Image{}
		defer tmp.Close()
		if err := conv1d(op, src, tmp, taps, mode, reverse, opts); err != nil {
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
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			conv1dCPU(d, s, g, off)
			return nil
		}
		return conv1dCUDA(str, d, s, g, off)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
