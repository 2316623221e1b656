package dsp

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gpuimg/gpuimg/internal/core"
)

// The warm-up's bound holds: for Butterworth low-passes from wide to narrow,
// filtering (in float64, with the float32 coefficients) from a zero state warmup
// samples before a run's start gives every output of the run, and the state at
// its end, within iirWarmEps of the largest input of the exact recursion's; and
// a filter whose poles lie too near the unit circle gets none.
func TestIIRWarmupBound(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, c := range []struct {
		wn   float64
		want int // -1: no warm-up within iirWarmMax; 0: any
	}{{0.9, 0}, {0.5, 0}, {0.2, 192}, {0.05, 0}, {0.01, 0}, {0.002, -1}} {
		cs := butterCascades(t, 8, c.wn, 1)
		w := cs[0].warmup()
		if c.want != 0 && w != c.want {
			t.Errorf("wn %g: warm-up %d, want %d", c.wn, w, c.want)
		}
		if w == -1 {
			continue
		}
		if w%iirWarmR != 0 {
			t.Errorf("wn %g: warm-up %d: want a multiple of %d", c.wn, w, iirWarmR)
		}
		t.Logf("wn %g: warm-up %d", c.wn, w)
		const pre, n = 5000, 6000
		x := randomInput(r, pre+n)
		x[pre/2] = 1 // the largest input, so that the bound is iirWarmEps itself
		out, state, _ := fromZero(cs[0].asF32(), x, pre, w)
		if worst := math.Max(out, state); worst > iirWarmEps {
			t.Errorf("wn %g: warm-up %d: off the exact recursion by %.3g, over %.3g", c.wn, w, worst, iirWarmEps)
		}
	}
}

// iirWarmShape's runs: long enough for their warm-up to cost at most a
// sixteenth more reads where the GPU has warps to spare, shorter where that would leave
// too few warps, never shorter than a third of the warm-up; passes in place
// not taken; padded, reversed and unaligned ones (FiltFilt's, views) are; forward
// passes over many short rows go to the single-pass scan.
func TestIIRWarmShape(t *testing.T) {
	cs, ncs := butterCascades(t, 8, 0.2, 1), butterCascades(t, 8, 0.002, 1)
	narrow := ncs[0]
	img := func(rows, cols int) *core.State {
		s := &core.State{}
		s.Rows, s.Cols, s.Pitch, s.Depth, s.Chans = rows, cols, (cols*4+255)/256*256, core.Depth32F, 1
		s.Buf = &core.Buffer{Ptr: 1 << 20, Size: rows * s.Pitch}
		return s
	}
	for _, c := range []struct {
		rows, n            int
		warm, run, nb, sms int
		ok                 bool
		mutate             func(st *iirStep)
		name               string
	}{
		{64, 1000000, 192, 1984, 16, 132, true, nil, "64 x 1e6: 8 warps an SM"},
		{1, 10000000, 192, 320, 977, 132, true, nil, "1 x 1e7: 8 warps an SM"},
		{1, 1000, 192, 64, 1, 132, true, nil, "short: runs of a third of the warm-up"},
		{5000, 4096, 192, 128, 1, 132, true, nil, "many rows: one warp a row"},
		{64, 16384, 0, 0, 0, 132, false, nil, "64 short rows: the single-pass scan"},
		{64, 16384, 192, 64, 8, 132, true, func(st *iirStep) { st.rev = true }, "64 short rows reversed"},
		{64, 16384, 192, 64, 8, 132, true, func(st *iirStep) { st.pad = 10 }, "64 short rows padded"},
		{1, 16384, 192, 64, 8, 132, true, nil, "one short row: no single pass"},
		{6, 16384, 192, 64, 8, 132, true, nil, "six short rows: no single pass"},
		{4, 100000, 192, 64, 49, 132, true, func(st *iirStep) { st.pad = 10 }, "padded"},
		{4, 100000, 192, 64, 49, 132, true, func(st *iirStep) { st.rev = true }, "reversed"},
		{4, 100000, 192, 64, 49, 132, true, func(st *iirStep) { st.ziMode = 2 }, "filtfilt's state"},
		{4, 100000, 0, 0, 0, 132, false, func(st *iirStep) { st.out = st.in }, "in place"},
		{4, 100000, 0, 0, 0, 132, false, func(st *iirStep) { st.c = narrow }, "a warm-up too long"},
		{4, 100000, 192, 64, 49, 132, true, func(st *iirStep) { st.in.Pitch += 4 }, "rows 4 bytes off"},
	} {
		in, out := img(c.rows, c.n), img(c.rows, c.n)
		out.Buf = &core.Buffer{Ptr: 1 << 40, Size: in.Buf.Size}
		st := &iirStep{c: cs[0], in: in, out: out, length: c.n, outn: c.n}
		if c.mutate != nil {
			c.mutate(st)
		}
		warm, run, nb, ok := iirWarmShape(st, c.sms)
		if ok != c.ok || ok && (warm != c.warm || run != c.run || nb != c.nb) {
			t.Errorf("%s: warm %d run %d warps a row %d ok %v, want %d %d %d %v", c.name, warm, run, nb, ok, c.warm, c.run, c.nb, c.ok)
		}
	}
}

// The warm-up is relative to the cascade's own reach where that is below 1: a
// cascade that carries a filter's small gain (Butter puts it in the first
// section: 1e-13 for an order-24 low-pass) needs the warm-up its poles need, the
// same for any gain below 1e-3, not none (it did once: an error of 2^-26 of the
// input was all of such a cascade's output, and the cascades after it amplified
// that by 1e13). Filtering the order-24 filter's first cascade from zero that
// many samples late gives outputs within 1e-6 of the exact recursion's largest.
func TestIIRWarmupScale(t *testing.T) {
	for _, c := range []struct {
		wn   float64
		want int
	}{{0.9, 352}, {0.5, 96}, {0.2, 192}, {0.05, 704}, {0.01, 3744}} {
		for _, gain := range []float64{1e-3, 1e-6, 1e-12} {
			if w := butterCascades(t, 8, c.wn, gain)[0].findWarmup(); w != c.want {
				t.Errorf("wn %g, gain %g: warm-up %d, want %d", c.wn, gain, w, c.want)
			}
		}
	}
	cs := butterCascades(t, 24, 0.2, 1)
	for g, c := range cs {
		w := c.findWarmup()
		t.Logf("order 24: cascade %d: warm-up %d", g, w)
		if w == 0 {
			t.Errorf("order 24: cascade %d: no warm-up", g)
		}
	}
	cas := cs[0].asF32()
	w := cas.findWarmup()
	const pre, n = 3000, 3000
	worst, _, top := fromZero(cas, randomInput(rand.New(rand.NewSource(2)), pre+n), pre, w)
	if worst > 1e-6*top {
		t.Errorf("order 24: first cascade from zero %d samples late: off by %.3g, its outputs up to %.3g", w, worst, top)
	}
}

// butterCascades is the cascades of Butter's order-order low-pass at wn, its
// first section's numerator scaled by gain.
func butterCascades(t *testing.T, order int, wn, gain float64) []*cascade {
	t.Helper()
	sos, err := Butter(order, []float64{wn}, Lowpass, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		sos[0][i] *= gain
	}
	cs, err := sosCascades("test", sos)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// randomInput is n samples uniform in [-1, 1).
func randomInput(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*r.Float64() - 1
	}
	return x
}

// fromZero runs c (in float64) over x exactly and, from a zero state, over x from
// pre - w on: the largest difference of their outputs from pre on, of their
// states at the end, and the largest exact output from pre on.
func fromZero(c cascade, x []float64, pre, w int) (out, state, top float64) {
	s := c.k * c.p
	exact, z := make([]float64, s), make([]float64, s)
	for i, v := range x {
		y := c.step(exact, v)
		if i < pre-w {
			continue
		}
		if yz := c.step(z, v); i >= pre {
			out, top = math.Max(out, math.Abs(yz-y)), math.Max(top, math.Abs(y))
		}
	}
	for i := range z {
		state = math.Max(state, math.Abs(z[i]-exact[i]))
	}
	return out, state, top
}
