package resample

import (
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/memo"
)

// PolyOptions are Poly's choices beyond up and down; nil means SciPy's defaults.
// Only SciPy's default padding (padtype 'constant', zeros) is implemented.
type PolyOptions struct {
	// Window is the window of the low-pass filter Poly designs (the zero value:
	// dsp.Kaiser(5), resample_poly's default ('kaiser', 5.0)).
	Window dsp.Window
	// Taps, when not empty, is the filter itself (resample_poly's window given as
	// an array): Poly scales it by up and centres each output on its middle tap,
	// (len(Taps)-1)/2, instead of designing one.
	Taps []float64
}

// Poly resamples each row of src (a batch of 32FC1 signals) by up/down into dst,
// as scipy.signal.resample_poly(x, up, down, axis=1): up and down are reduced by
// their greatest common divisor, each row is upsampled by up, filtered by a
// zero-phase low-pass FIR filter (PolyFilter's, or o.Taps scaled by up) and
// downsampled by down, and dst gets ceil(n*up/down) samples a row, aligned with
// the input (the filter's delay removed). Samples outside the signal are zeros.
// With up == down (after the reduction) dst is a copy of src.
func Poly(src, dst *gpuimage.Image, up, down int, o *PolyOptions, opts ...gpuimage.Option) error {
	const op = "resample.Poly"
	if up < 1 || down < 1 {
		return fmt.Errorf("%s: up %d and down %d: both must be at least 1", op, up, down)
	}
	if o == nil {
		o = &PolyOptions{}
	}
	g := gcd(up, down)
	up, down = up/g, down/g
	s, err := checkSignal(op, src, dst)
	if err != nil {
		return err
	}
	if up == 1 && down == 1 {
		return src.CopyTo(dst, opts...)
	}
	pl, m, err := polyPlan(up, down, o)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	n := int64(s.Cols)
	outn := (n*int64(up) + int64(down) - 1) / int64(down)
	pre, start := polyAlign(m, down)
	return run(op, s, dst, pl, start*int64(down)-pre, outn, opts)
}

// UpFirDn upsamples each row of src by up (up-1 zeros after each sample), filters
// it by the FIR taps h and downsamples it by down into dst, as
// scipy.signal.upfirdn(h, x, up, down, axis=1): dst gets ((n-1)*up+len(h)-1)/down+1
// samples a row, the full convolution's, with zeros outside the signal.
func UpFirDn(src, dst *gpuimage.Image, h []float64, up, down int, opts ...gpuimage.Option) error {
	const op = "resample.UpFirDn"
	if up < 1 || down < 1 {
		return fmt.Errorf("%s: up %d and down %d: both must be at least 1", op, up, down)
	}
	if len(h) == 0 {
		return fmt.Errorf("%s: no taps", op)
	}
	s, err := checkSignal(op, src, dst)
	if err != nil {
		return err
	}
	outn := ((int64(s.Cols)-1)*int64(up)+int64(len(h))-1)/int64(down) + 1
	if err := checkOut(op, s.Rows, outn); err != nil {
		return err
	}
	pl, err := newPlan(h, up, down)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return run(op, s, dst, pl, 0, outn, opts)
}

// PolyFilter returns the low-pass filter Poly designs for up and down (reduced by
// their greatest common divisor), as resample_poly does: FirWin with 20*max+1 taps
// (max the larger of up and down), a cutoff of 1/max of the Nyquist frequency and
// the window w (the zero value: dsp.Kaiser(5)), scaled by up as Poly applies it.
func PolyFilter(up, down int, w dsp.Window) ([]float64, error) {
	if up < 1 || down < 1 {
		return nil, fmt.Errorf("resample.PolyFilter: up %d and down %d: both must be at least 1", up, down)
	}
	g := gcd(up, down)
	h, err := designPoly(up/g, down/g, w)
	if err != nil {
		return nil, fmt.Errorf("resample.PolyFilter: %w", err)
	}
	return h, nil
}

// polyPlan is the plan of the filter Poly applies for reduced up and down: o.Taps
// scaled by up, or designPoly's (designed once for each up, down and window, then
// kept: designs), and the filter's length.
func polyPlan(up, down int, o *PolyOptions) (*plan, int, error) {
	if len(o.Taps) > 0 {
		h := make([]float64, len(o.Taps))
		for i, t := range o.Taps {
			h[i] = t * float64(up)
		}
		pl, err := newPlan(h, up, down)
		return pl, len(h), err
	}
	d, err := designs.Get(designKey{up, down, o.Window}, func() (design, error) {
		h, err := designPoly(up, down, o.Window)
		if err != nil {
			return design{}, err
		}
		pl, err := newPlan(h, up, down)
		return design{pl, len(h)}, err
	})
	return d.pl, d.m, err
}

// The designed filters' plans, by up, down and window: designing one (firwin of
// 20*max(up, down)+1 taps) takes longer than resampling a second of audio on the
// GPU. At most 64 are kept.
type designKey struct {
	up, down int
	w        dsp.Window
}

type design struct {
	pl *plan
	m  int
}

var designs = memo.Cache[designKey, design]{Max: 64}

// polyAlign is resample_poly's alignment of m taps: the filter is zero-padded in
// front by pre samples so that output 0 falls on its middle tap, (m-1)/2, and
// upfirdn's first start outputs are dropped.
func polyAlign(m, down int) (pre, start int64) {
	half := int64(m-1) / 2
	pre = int64(down) - half%int64(down)
	return pre, (half + pre) / int64(down)
}

// designPoly is PolyFilter for reduced up and down.
func designPoly(up, down int, w dsp.Window) ([]float64, error) {
	if w == (dsp.Window{}) {
		w = dsp.Kaiser(5)
	}
	m := max(up, down)
	if m > 1<<20 {
		return nil, fmt.Errorf("up %d or down %d too large for a designed filter (%d taps)", up, down, 20*m+1)
	}
	h, err := dsp.FirWin(20*m+1, []float64{1 / float64(m)}, dsp.Lowpass, &dsp.FirWinOptions{Window: w})
	if err != nil {
		return nil, err
	}
	for i := range h {
		h[i] *= float64(up)
	}
	return h, nil
}

// checkSignal checks a call's source (a valid 32FC1 image) and destination.
func checkSignal(op string, src, dst *gpuimage.Image) (*core.State, error) {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if s.Depth != core.Depth32F || s.Chans != 1 {
		return nil, fmt.Errorf("%s: %w: %v (signals are 32FC1, one a row)", op, gpuimage.ErrBadType, src.Type())
	}
	if dst == nil {
		return nil, fmt.Errorf("%s: %w: dst", op, gpuimage.ErrNil)
	}
	return s, nil
}

// maxOut bounds a row's outputs: an image's columns are int32 on the GPU.
const maxOut = math.MaxInt32 / 4

// run checks the output's size and computes outn samples a row of src's
// resampling by the plan (compute), output o centred on t = o*down + t0.
func run(op string, s *core.State, dst *gpuimage.Image, pl *plan, t0, outn int64, opts []gpuimage.Option) error {
	if err := checkOut(op, s.Rows, outn); err != nil {
		return err
	}
	return compute(op, s, dst, pl, t0, int(outn), opts)
}

// checkOut refuses outputs of rows x outn samples too large for one image.
func checkOut(op string, rows int, outn int64) error {
	if outn > maxOut || outn*int64(rows) > maxOut {
		return fmt.Errorf("%s: %d x %d output samples: too many for one image", op, rows, outn)
	}
	return nil
}

// compute makes dst (a new image first where it shares memory with src) and
// fills its outn samples a row on src's device.
func compute(op string, s *core.State, dst *gpuimage.Image, pl *plan, t0 int64, outn int, opts []gpuimage.Option) error {
	return into(op, s, dst, s.Rows, outn, core.Depth32F, 1, opts, func(str core.Stream, d *core.State) error {
		if s.Dev.IsCPU() {
			polyCPU(d, s, pl, t0)
			return nil
		}
		return polyCUDA(str, d, s, pl, t0)
	})
}

// plan is a resampling's polyphase filter (ResamplePolyParams): output o is the sum
// over q < qn of h[ph*qn+q] * x[i0-q], t = o*down + t0, ph = t mod up, i0 = t div up.
type plan struct {
	up, down, qn int
	h            []float32 // up branches of qn taps
}

// newPlan checks the taps and reorders them into polyphase branches.
func newPlan(taps []float64, up, down int) (*plan, error) {
	qn := (len(taps) + up - 1) / up
	if int64(qn)*int64(up) > 1<<26 {
		return nil, fmt.Errorf("%d taps at up %d: the polyphase filter is too large", len(taps), up)
	}
	pl := &plan{up: up, down: down, qn: qn, h: make([]float32, qn*up)}
	for k, t := range taps {
		if !(t >= -math.MaxFloat32 && t <= math.MaxFloat32) {
			return nil, fmt.Errorf("tap %d is %v (taps must be finite float32 values)", k, t)
		}
		pl.h[k%up*qn+k/up] = float32(t)
	}
	return pl, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
