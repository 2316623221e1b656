package dsp

import (
	"math"
	"os"
	"sync/atomic"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/memo"
)

// The warm-up method (gi_iir_warm): a stable filter forgets the state it starts
// in, so a run of samples filtered from a zero state some samples before its start
// ends up in its true state, near enough. Each of the kernel's lanes filters its
// run that way, with no scan between the runs: the samples are read once (and the
// warm-ups' again), the outputs written once, and nothing waits for another run.
// How many samples are enough is the filter's: warmup finds, from the powers of its
// state matrix, the fewest after which the state, and so every output, is within
// iirWarmEps of the largest input of its true value; filters that need more than
// iirWarmMax (poles near the unit circle) run the scans instead. An order-8
// Butterworth low-pass at 0.2 of Nyquist needs 192 samples.
const (
	// iirWarmEps is how far, relative to the inputs' largest magnitude, the
	// warm-up's states and outputs may be from the exact recursion's: 2^-26, a
	// quarter of float32's rounding of that magnitude.
	iirWarmEps = 1.0 / (1 << 26)
	// iirWarmMax is the longest warm-up the method takes.
	iirWarmMax = 4096
	// iirWarmHorizon is how many samples past the last one still over iirWarmEps
	// warmup checks (every later one is taken to have decayed as those did).
	iirWarmHorizon = 2048
	// iirWarmRatio: a lane's run is at least this many times its warm-up (the
	// warm-ups' samples are read twice from memory), unless that would leave fewer
	// than iirWarmMinWarps warps an SM. On an H100 (sosfilt of the order-8
	// Butterworth, warm-up 192, 64 x 1e6 samples): 227.0 us at 4, 220-225 at 8,
	// 218.6 at 16 (capped by the warps: runs of 1,984); 24 x 1e6 86.8, 89.0, 87.2.
	iirWarmRatio    = 16
	iirWarmMinWarps = 8
)

// iirWarmOff keeps the GPU on the scans (GPUIMG_IIR_WARM=off, or SetIIRWarm in
// tests), for comparisons.
var iirWarmOff atomic.Bool

func init() { iirWarmOff.Store(os.Getenv("GPUIMG_IIR_WARM") == "off") }

// warmups holds warmup's answers by filter (the float32 coefficients' shape and
// values).
var warmups = memo.Cache[string, int]{Max: 256}

// warmup is the warm-up in samples (a multiple of iirWarmR) that gi_iir_warm
// needs for c, or -1 where it needs more than iirWarmMax: with inputs of magnitude
// at most 1, the state reached from zero after that many samples, and every
// state and output after it, is within iirWarmEps of the exact recursion's (from
// the state the inputs before it left; a given initial state zi adds its own
// effect, decayed as much).
func (c *cascade) warmup() int {
	key := string(core.HostBytes(c.coef)) + string(rune(c.k)) + string(rune(c.p))
	w, _ := warmups.Get(key, func() (int, error) { return c.findWarmup(), nil })
	return w
}

// findWarmup computes warmup's answer. With A the state's one-sample map (c.a,
// from the float32 coefficients), b the state one input of 1 makes from zero and
// o the output's weights of the state, the state inputs of magnitude at most 1
// can reach is bounded elementwise by G = sum over k of |A^k b|; a run started
// from zero n samples late has its state off by A^n times the true state at its
// start, so by at most |A^n| G elementwise, and its output by |o A^n| G. The
// warm-up is the first n (rounded up to iirWarmR) after which both stay within
// iirWarmEps for iirWarmHorizon samples, and within iirWarmEps of the cascade's
// own reach where that is below 1: the largest of G for the state, H = |d| + sum
// over k of |o A^k b| (d the input's direct weight) for the output. A cascade of
// small gain (Butter's first sections carry the filter's gain: 7e-14 for an
// order-24 low-pass at 0.2 of Nyquist, whose later cascades amplify by as much)
// has outputs far below its inputs, so an error of iirWarmEps of the input would
// be all of its output; relative to its reach the warm-up is what its poles need.
func (c *cascade) findWarmup() int {
	s := c.k * c.p
	f32 := c.asF32()
	a := c.a
	b := make([]float64, s)
	d := f32.step(b, 1)
	o := make([]float64, s)
	z := make([]float64, s)
	for j := range o {
		clear(z)
		z[j] = 1
		o[j] = f32.step(z, 0)
	}
	// G and H, until their terms are negligible.
	g := make([]float64, s)
	h := math.Abs(d)
	v := append([]float64(nil), b...)
	nv := make([]float64, s)
	converged, gmax := false, 0.0
	for k := 0; k < 1<<16; k++ {
		big, top := 0.0, 0.0
		var ov float64
		for i, x := range v {
			ov += o[i] * x
			g[i] += math.Abs(x)
			big = math.Max(big, math.Abs(x))
			top = math.Max(top, g[i])
		}
		h += math.Abs(ov)
		if big <= 1e-12*top || top == 0 {
			converged, gmax = true, top // top: the largest of G
			break
		}
		for i := range nv {
			var t float64
			for j := 0; j < s; j++ {
				t += a[i*s+j] * v[j]
			}
			nv[i] = t
		}
		v, nv = nv, v
	}
	if !converged {
		return -1
	}
	stateTol, outTol := iirWarmEps*math.Min(1, gmax), iirWarmEps*math.Min(1, h)
	// |A^n| G and |o A^n| G for n = 1, 2, ...: m is A^n.
	m := make([]float64, s*s)
	for i := 0; i < s; i++ {
		m[i*s+i] = 1
	}
	nm := make([]float64, s*s)
	last := 0 // the last n over the bound
	for n := 1; n <= last+iirWarmHorizon; n++ {
		if n > iirWarmMax+iirWarmHorizon {
			return -1
		}
		for i := 0; i < s; i++ {
			for j := 0; j < s; j++ {
				var t float64
				for k := 0; k < s; k++ {
					t += a[i*s+k] * m[k*s+j]
				}
				nm[i*s+j] = t
			}
		}
		m, nm = nm, m
		worst := 0.0
		for i := 0; i < s; i++ {
			var e float64
			for j := 0; j < s; j++ {
				e += math.Abs(m[i*s+j]) * g[j]
			}
			worst = math.Max(worst, e)
		}
		var out float64
		for j := 0; j < s; j++ {
			var t float64
			for i := 0; i < s; i++ {
				t += o[i] * m[i*s+j]
			}
			out += math.Abs(t) * g[j]
		}
		if worst > stateTol || out > outTol {
			last = n
		}
	}
	if last > iirWarmMax {
		return -1
	}
	return (last + iirWarmR - 1) / iirWarmR * iirWarmR
}

// iirWarmShape is gi_iir_warm's launch for st on a GPU of sms multiprocessors:
// the warm-up, each lane's run and the warps a row; ok false where the step is not
// the kernel's (a pass in place: a run's warm-up would read samples another warp
// may have written; a filter whose warm-up is too long; a forward pass over many
// short rows, below). Each lane's run is at
// least iirWarmRatio times the warm-up and a third of it, and no longer than one
// wave of the GPU's resident warps needs, unless the ratio needs it, but never so
// long that fewer than iirWarmMinWarps warps an SM are left.
func iirWarmShape(st *iirStep, sms int) (warm, run, nb int, ok bool) {
	if iirWarmOff.Load() || st.length == 0 || core.Overlaps(st.in, st.out) {
		return 0, 0, 0, false
	}
	warm = st.c.warmup()
	if warm < 0 {
		return 0, 0, 0, false
	}
	rows, n := st.in.Rows, st.length
	const R = iirWarmR
	runFor := func(warps int) int { // the run that gives a row about warps/rows warps
		perRow := max(1, warps/rows)
		r := (n + 32*perRow - 1) / (32 * perRow)
		return (r + R - 1) / R * R
	}
	fill := runFor(sms * iirWarmBlocks * iirWarmWarps)
	least := runFor(sms * iirWarmMinWarps)
	run = max(fill, min(iirWarmRatio*warm, least))
	run = max(run, (warm/3+R-1)/R*R, R)
	nb = (n + 32*run - 1) / (32 * run)
	// Many short rows, too few to fill the GPU with warps: each lane's chain of
	// samples is mostly warm-up (its run shorter than that), and the single-pass
	// scan, which reads each sample once, is faster for a forward pass. On an H100
	// (µs, the bench's filter, scans / warm-up): SOSFilt 64 x 16384 16.0 / 19.1,
	// LFilter 16.0 / 22.9. One row of 1e6 samples (28.1 / 19.1: the scans take
	// three kernels there) and FiltFilt's padded and reversed passes (SOSFiltFilt
	// 64 x 16384 66.4 / 44.1) keep the warm-up.
	if run < warm && rows*nb < sms*iirWarmMinWarps && !st.rev && st.pad == 0 && iirOnePassOn(rows, sms) {
		return 0, 0, 0, false
	}
	return warm, run, nb, true
}
