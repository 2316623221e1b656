package dsp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"math/cmplx"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// randBA is a random stable filter of the given order as b, a (a[0] = 1): poles
// inside radius 0.95, zeros anywhere near the unit circle.
func randBA(r *rand.Rand, order int) ([]float64, []float64) { return randBAIn(r, order, 0.95) }

// randBAIn is randBA with poles inside radius rmax.
func randBAIn(r *rand.Rand, order int, rmax float64) ([]float64, []float64) {
	roots := func(rmax float64) []complex128 {
		var z []complex128
		for len(z)+1 < order {
			p := cmplx.Rect(rmax*(0.2+0.8*r.Float64()), math.Pi*r.Float64())
			z = append(z, p, cmplx.Conj(p))
		}
		if len(z) < order {
			z = append(z, complex(rmax*(2*r.Float64()-1), 0))
		}
		return z
	}
	poly := func(z []complex128) []float64 {
		c := []complex128{1}
		for _, x := range z {
			c = append(c, 0)
			for i := len(c) - 1; i > 0; i-- {
				c[i] -= x * c[i-1]
			}
		}
		out := make([]float64, len(c))
		for i, v := range c {
			out[i] = real(v)
		}
		return out
	}
	b, a := poly(roots(1.2)), poly(roots(rmax))
	g := 0.5 + r.Float64()
	for i := range b {
		b[i] *= g
	}
	return b, a
}

// randButter is a random Butterworth design of the given order.
func randButter(t testing.TB, r *rand.Rand, order int) dsp.SOS {
	band := dsp.BandType(r.Intn(4))
	wn := []float64{0.05 + 0.9*r.Float64()}
	if band >= dsp.Bandpass {
		wn = []float64{0.05 + 0.4*r.Float64(), 0.55 + 0.4*r.Float64()}
	}
	sos, err := dsp.Butter(order, wn, band, 0)
	if err != nil {
		t.Fatal(err)
	}
	return sos
}

// one is a 1 x len(v) image of v on dev (nil for no values).
func one(t testing.TB, dev *gpuimage.Device, rows, cols int, v []float64) *gpuimage.Image {
	if v == nil {
		return nil
	}
	im, err := gpuimage.New(dev, rows, cols, gpuimage.CV32FC1)
	if err != nil {
		t.Fatal(err)
	}
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = float32(x)
	}
	if err := im.Upload(tu.F32Bytes(f)); err != nil {
		t.Fatal(err)
	}
	return im
}

type iirCase struct {
	fn   string // lfilter, sosfilt, filtfilt, sosfiltfilt
	b, a []float64
	sos  dsp.SOS
	x    []float32
	zi   []float64 // lfilter: order values; sosfilt: 2 a section
}

// termScale bounds the terms an lfilter output of one or two samples sums (taps
// times samples, the initial state, over a[0]): such an output may cancel to far
// below them, and its rounding then follows the terms, not the output (1e-5 of a
// single output's RMS once failed by 2.1e-5 so). Other filters: their output's
// terms, section by section, bounded the same way.
func (c iirCase) termScale() float64 {
	xm, zm := 0.0, 0.0
	for _, v := range c.x {
		xm = math.Max(xm, math.Abs(float64(v)))
	}
	for _, v := range c.zi {
		zm = math.Max(zm, math.Abs(v))
	}
	sum := func(v []float64) float64 {
		t := 0.0
		for _, f := range v {
			t += math.Abs(f)
		}
		return t
	}
	if !strings.HasPrefix(c.fn, "sos") {
		return (sum(c.b)*xm + zm) / math.Abs(c.a[0])
	}
	m := xm
	for _, sec := range c.sos {
		m = (sum(sec[:3])*m + zm) / math.Abs(sec[3])
	}
	return m
}

// zfScale bounds the terms a final state of a one- or two-sample signal sums (the
// outputs' terms and the feedback taps times the outputs): like the outputs, it may
// cancel to far below them (lfilter of order 1 on 2 samples: a final state of
// 6.6e-4 off SciPy's by 2e-8, 3e-5 of itself, once failed so).
func (c iirCase) zfScale() float64 {
	a := 0.0
	if !strings.HasPrefix(c.fn, "sos") {
		for _, v := range c.a {
			a += math.Abs(v)
		}
		a /= math.Abs(c.a[0])
	} else {
		for _, sec := range c.sos {
			a = math.Max(a, (math.Abs(sec[3])+math.Abs(sec[4])+math.Abs(sec[5]))/math.Abs(sec[3]))
		}
	}
	return c.termScale() * (1 + a)
}

// roundingNoise is how far float64 rounding alone moves the case's recursion: the
// largest difference over the RMS between the plain recursion (forward and
// backward for filtfilt, without padding) run on x and on x one ulp off in each
// sample, after which the two runs' roundings no longer agree. A sharp filter of
// many poles amplifies its own rounding: SciPy and dsp, both in float64 but not in
// the same order of operations, differed by 6.2e-5 of the RMS on sosfiltfilt of an
// order-20 band-pass (40 poles; seed 3446021006696708894), whose noise this
// measures at 1.2e-5.
func (c iirCase) roundingNoise() float64 {
	type section struct{ b, a []float64 } // a[0] == 1
	var secs []section
	if strings.HasPrefix(c.fn, "sos") {
		for _, s := range c.sos {
			secs = append(secs, section{[]float64{s[0] / s[3], s[1] / s[3], s[2] / s[3]}, []float64{1, s[4] / s[3], s[5] / s[3]}})
		}
	} else {
		n := max(len(c.a), len(c.b))
		s := section{make([]float64, n), make([]float64, n)}
		for i := range n {
			if i < len(c.b) {
				s.b[i] = c.b[i] / c.a[0]
			}
			if i < len(c.a) {
				s.a[i] = c.a[i] / c.a[0]
			}
		}
		secs = []section{s}
	}
	run := func(x []float64) []float64 {
		y := slices.Clone(x)
		for pass := 0; pass < 1+btoi(strings.HasSuffix(c.fn, "filtfilt")); pass++ {
			for _, s := range secs {
				z := make([]float64, len(s.a))
				for i, v := range y {
					o := s.b[0]*v + z[0]
					for k := 1; k < len(z); k++ {
						z[k-1] = s.b[k]*v - s.a[k]*o + z[k]
					}
					y[i] = o
				}
			}
			slices.Reverse(y)
		}
		return y
	}
	x, nudged := make([]float64, len(c.x)), make([]float64, len(c.x))
	for i, v := range c.x {
		x[i] = float64(v)
		nudged[i] = math.Nextafter(x[i], math.Inf(1))
	}
	return rmsErr(run(nudged), run(x))
}

// maxDiff is the largest difference between got and want.
func maxDiff(got, want []float64) float64 {
	d := 0.0
	for i := range got {
		d = math.Max(d, math.Abs(got[i]-want[i]))
	}
	return d
}

func (c iirCase) String() string {
	if strings.HasPrefix(c.fn, "sos") {
		return fmt.Sprintf("%s %d sections n=%d zi=%v", c.fn, len(c.sos), len(c.x), c.zi != nil)
	}
	return fmt.Sprintf("%s order %d/%d n=%d zi=%v", c.fn, len(c.b)-1, len(c.a)-1, len(c.x), c.zi != nil)
}

// run runs the case on dev: the output and, with zi, the final state.
func (c iirCase) run(t testing.TB, dev *gpuimage.Device) ([]float64, []float64, error) {
	x := make([]float64, len(c.x))
	for i, v := range c.x {
		x[i] = float64(v)
	}
	src := one(t, dev, 1, len(x), x)
	defer src.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	var zi, zf *gpuimage.Image
	if c.zi != nil {
		if c.fn == "lfilter" {
			zi = one(t, dev, 1, len(c.zi), c.zi)
		} else {
			zi = one(t, dev, len(c.zi)/2, 2, c.zi)
		}
		defer zi.Close()
		zf = &gpuimage.Image{}
		defer zf.Close()
	}
	var err error
	switch c.fn {
	case "lfilter":
		err = dsp.LFilterState(src, dst, c.b, c.a, zi, zf)
	case "sosfilt":
		err = dsp.SOSFiltState(src, dst, c.sos, zi, zf)
	case "filtfilt":
		err = dsp.FiltFilt(src, dst, c.b, c.a)
	case "sosfiltfilt":
		err = dsp.SOSFiltFilt(src, dst, c.sos)
	}
	if err != nil {
		return nil, nil, err
	}
	var zfv []float64
	if zf != nil {
		zfv = f64(tu.Float32s(t, zf))
	}
	return f64(tu.Float32s(t, dst)), zfv, nil
}

func (c iirCase) scipy() map[string]any {
	m := map[string]any{"fn": c.fn, "x": c.x}
	if strings.HasPrefix(c.fn, "sos") {
		m["sos"] = c.sos
	} else {
		m["b"], m["a"] = c.b, c.a
	}
	if c.zi != nil {
		if c.fn == "lfilter" {
			m["zi"] = c.zi
		} else {
			var z [][2]float64
			for i := 0; i < len(c.zi); i += 2 {
				z = append(z, [2]float64{c.zi[i], c.zi[i+1]})
			}
			m["zi"] = z
		}
	}
	return m
}

func randSignal(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

func randZi(r *rand.Rand, n int) []float64 {
	z := make([]float64, n)
	for i := range z {
		z[i] = float64(float32(r.NormFloat64()))
	}
	return z
}

// iirCases are the filters both SciPy's comparison and the GPU's take, on signals
// of the given lengths.
func iirCases(t testing.TB, r *rand.Rand, lengths []int) []iirCase {
	var cs []iirCase
	for _, n := range lengths {
		for _, order := range []int{0, 1, 2, 3, 5, 8} {
			b, a := randBA(r, order)
			if order == 3 {
				for i := range a { // a[0] != 1: everything is divided by it
					a[i] *= 2.5
				}
			}
			cs = append(cs, iirCase{fn: "lfilter", b: b, a: a, x: randSignal(r, n)})
			if order > 0 {
				cs = append(cs, iirCase{fn: "lfilter", b: b, a: a, x: randSignal(r, n), zi: randZi(r, order)})
				cs = append(cs, iirCase{fn: "filtfilt", b: b, a: a, x: randSignal(r, n)})
			}
		}
		fir := randTaps(r, 40) // an FIR filter past MaxOrder: convolution
		cs = append(cs, iirCase{fn: "lfilter", b: fir, a: []float64{2}, x: randSignal(r, n)})
		for _, order := range []int{1, 2, 5, 8, 16, 20} {
			sos := randButter(t, r, order)
			cs = append(cs, iirCase{fn: "sosfilt", sos: sos, x: randSignal(r, n)},
				iirCase{fn: "sosfilt", sos: sos, x: randSignal(r, n), zi: randZi(r, 2*len(sos))},
				iirCase{fn: "sosfiltfilt", sos: sos, x: randSignal(r, n)})
		}
	}
	return cs
}

// LFilter, SOSFilt, FiltFilt and SOSFiltFilt on the CPU device against SciPy on
// fresh random filters and signals of awkward lengths (1 to 4097), with and without
// zi, one to twenty sections (one to five passes of the GPU's four): within 1e-5 of
// the output's RMS, or 20 times what float64 rounding alone moves a filter sharp
// enough to amplify it (roundingNoise), zf within 1e-5 of its largest value; where
// SciPy refuses (filtfilt of a signal no longer than its padding), so does dsp.
func TestIIRMatchesSciPy(t *testing.T) {
	r := tu.Rand(t)
	cs := iirCases(t, r, []int{1, 2, 7, 1023, 4097})
	var cases []map[string]any
	for _, c := range cs {
		cases = append(cases, c.scipy())
	}
	res := scipy(t, cases)
	for i, c := range cs {
		got, zf, err := c.run(t, gpuimage.CPU())
		if msg, bad := isError(res[i]); bad {
			if err == nil {
				t.Errorf("%v: no error; SciPy: %s", c, msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c, err)
			continue
		}
		var want []float64
		var wantZf []float64
		if c.fn == "lfilter" || c.fn == "sosfilt" {
			var w struct {
				Y  []float64
				Zf json.RawMessage
			}
			if err := json.Unmarshal(res[i], &w); err != nil {
				t.Fatalf("SciPy: %.200s", res[i])
			}
			want = w.Y
			if c.zi != nil {
				wantZf = flatten(t, w.Zf)
			}
		} else if err := json.Unmarshal(res[i], &want); err != nil {
			t.Fatalf("SciPy: %.200s", res[i])
		}
		if len(got) != len(want) {
			t.Errorf("%v: %d samples, SciPy %d", c, len(got), len(want))
		} else if e := rmsErr(got, want); e > 1e-5 && !(len(c.x) <= 2 && maxDiff(got, want) <= 1e-5*c.termScale()) {
			if noise := c.roundingNoise(); e > 20*noise {
				t.Errorf("%v: off SciPy by %.3g of the RMS (its float64 rounding moves it by %.3g)", c, e, noise)
			}
		}
		if c.zi != nil {
			if d, ok := closeTo(zf, wantZf, 1e-5); !ok && !(len(c.x) <= 2 && maxDiff(zf, wantZf) <= 1e-5*c.zfScale()) {
				t.Errorf("%v: zf %v, SciPy %v (off by %.3g)", c, zf, wantZf, d)
			}
		}
	}
}

// flatten reads a JSON array of numbers or of arrays of numbers.
func flatten(t *testing.T, m json.RawMessage) []float64 {
	var v []float64
	if json.Unmarshal(m, &v) == nil {
		return v
	}
	v = nil
	var vv [][]float64
	if err := json.Unmarshal(m, &vv); err != nil {
		t.Fatalf("SciPy: %.200s", m)
	}
	for _, x := range vv {
		v = append(v, x...)
	}
	return v
}

// LFilterZi and SOSFiltZi against SciPy's lfilter_zi and sosfilt_zi.
func TestFilterZiMatchesSciPy(t *testing.T) {
	r := tu.Rand(t)
	type zc struct {
		b, a []float64
		sos  dsp.SOS
	}
	var cs []zc
	var cases []map[string]any
	for order := 1; order <= 8; order++ {
		b, a := randBA(r, order)
		a = append(a[:0:0], a...)
		for i := range a {
			a[i] *= 1.5
		}
		sos := randButter(t, r, order)
		cs = append(cs, zc{b: b, a: a}, zc{sos: sos})
		cases = append(cases, map[string]any{"fn": "lfilter_zi", "b": b, "a": a}, map[string]any{"fn": "sosfilt_zi", "sos": sos})
	}
	res := scipy(t, cases)
	for i, c := range cs {
		var got []float64
		if c.sos == nil {
			z, err := dsp.LFilterZi(c.b, c.a)
			if err != nil {
				t.Fatal(err)
			}
			got = z
		} else {
			z, err := dsp.SOSFiltZi(c.sos)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range z {
				got = append(got, p[:]...)
			}
		}
		want := flatten(t, res[i])
		if d, ok := closeTo(got, want, 1e-9); !ok {
			t.Errorf("case %d: %v, SciPy %v (off by %.3g)", i, got, want, d)
		}
	}
}

// filterChunks runs a filter over a batch in chunks, the final state of each the
// initial state of the next, and returns the output.
func filterChunks(t testing.TB, dev *gpuimage.Device, src *gpuimage.Image, chunks []int, zi *gpuimage.Image,
	f func(src, dst, zi, zf *gpuimage.Image) error) []float32 {
	n := src.Cols()
	out := make([][]float32, src.Rows())
	state := zi
	for x0, k := 0, 0; x0 < n; k++ {
		w := min(chunks[k%len(chunks)], n-x0)
		part, err := src.Region(image.Rect(x0, 0, x0+w, src.Rows()))
		if err != nil {
			t.Fatal(err)
		}
		dst, zf := &gpuimage.Image{}, &gpuimage.Image{}
		if err := f(part, dst, state, zf); err != nil {
			t.Fatal(err)
		}
		v := tu.Float32s(t, dst)
		for y := range out {
			out[y] = append(out[y], v[y*w:(y+1)*w]...)
		}
		part.Close()
		dst.Close()
		if state != zi {
			state.Close()
		}
		state = zf
		x0 += w
	}
	state.Close()
	var flat []float32
	for _, o := range out {
		flat = append(flat, o...)
	}
	return flat
}

// Filtering in chunks of 1, 7, 1024 and 4097 samples, each chunk's zf the next
// one's zi (also with zi and zf the same image), gives one call's output within
// 1e-4 of its RMS (the state is rounded to float32 between chunks).
func TestIIRStateRoundTrips(t *testing.T) {
	r := tu.Rand(t)
	dev := gpuimage.CPU()
	testIIRStateRoundTrips(t, r, dev)
}

// testIIRStateRoundTrips runs on 3 and 8 rows: on the GPU, by the three kernels
// and by the single-pass one (iirOnePass).
func testIIRStateRoundTrips(t *testing.T, r *rand.Rand, dev *gpuimage.Device) {
	for _, rows := range []int{3, 8} {
		testIIRStateRows(t, r, dev, rows)
	}
}

func testIIRStateRows(t *testing.T, r *rand.Rand, dev *gpuimage.Device, rows int) {
	src, _ := signals(t, r, dev, rows, 9000)
	defer src.Close()
	b, a := randBA(r, 4)
	sos, err := dsp.Butter(12, []float64{0.1 + 0.3*r.Float64()}, dsp.Lowpass, 0) // two passes of sections on the GPU
	if err != nil {
		t.Fatal(err)
	}
	lf := func(src, dst, zi, zf *gpuimage.Image) error { return dsp.LFilterState(src, dst, b, a, zi, zf) }
	sf := func(src, dst, zi, zf *gpuimage.Image) error { return dsp.SOSFiltState(src, dst, sos, zi, zf) }
	for _, c := range []struct {
		name string
		f    func(src, dst, zi, zf *gpuimage.Image) error
		zi   *gpuimage.Image
	}{
		{"lfilter", lf, one(t, dev, rows, 4, randZi(r, 4*rows))},
		{"sosfilt", sf, one(t, dev, len(sos), 2*rows, randZi(r, 2*rows*len(sos)))},
	} {
		whole := &gpuimage.Image{}
		if err := c.f(src, whole, c.zi, nil); err != nil {
			t.Fatal(err)
		}
		want := tu.Float32s(t, whole)
		whole.Close()
		for _, chunks := range [][]int{{1, 7, 1024, 4097}, {4097}, {1024, 7}} {
			got := filterChunks(t, dev, src, chunks, c.zi, c.f)
			// The state passes through float32 between chunks: SOS within 1e-4.
			if e := rmsErr(f64(got), f64(want)); e > 1e-4 {
				t.Errorf("%d rows, %s in chunks of %v: off one call by %.3g of the RMS", rows, c.name, chunks, e)
			}
		}
		// zi and zf the same image: the state is replaced in place.
		st, err := c.zi.Clone()
		if err != nil {
			t.Fatal(err)
		}
		part, _ := src.Region(image.Rect(0, 0, 5000, rows))
		rest, _ := src.Region(image.Rect(5000, 0, 9000, rows))
		d1, d2 := &gpuimage.Image{}, &gpuimage.Image{}
		if err := c.f(part, d1, st, st); err != nil {
			t.Fatal(err)
		}
		if err := c.f(rest, d2, st, st); err != nil {
			t.Fatal(err)
		}
		v1, v2 := tu.Float32s(t, d1), tu.Float32s(t, d2)
		var got []float32
		for y := 0; y < rows; y++ {
			got = append(got, v1[y*5000:(y+1)*5000]...)
			got = append(got, v2[y*4000:(y+1)*4000]...)
		}
		if e := rmsErr(f64(got), f64(want)); e > 1e-4 {
			t.Errorf("%d rows, %s with zi = zf: off one call by %.3g of the RMS", rows, c.name, e)
		}
		for _, im := range []*gpuimage.Image{st, part, rest, d1, d2, c.zi} {
			im.Close()
		}
	}
}

// Bad filters and states get errors that name them, and leave dst alone.
func TestIIRErrors(t *testing.T) {
	dev := gpuimage.CPU()
	r := tu.Rand(t)
	src, _ := signals(t, r, dev, 2, 100)
	defer src.Close()
	u8, _ := gpuimage.New(dev, 2, 100, gpuimage.CV8UC1)
	defer u8.Close()
	short, _ := signals(t, r, dev, 2, 15)
	defer short.Close()
	zi3 := one(t, dev, 3, 2, make([]float64, 6))
	defer zi3.Close()
	good := dsp.SOS{{1, 2, 1, 1, -0.5, 0.25}}
	for _, c := range []struct {
		name, want string
		run        func(dst *gpuimage.Image) error
	}{
		{"a[0] = 0", "a[0] is 0", func(d *gpuimage.Image) error { return dsp.LFilter(src, d, []float64{1}, []float64{0, 1}) }},
		{"NaN", "b[1] is NaN", func(d *gpuimage.Image) error {
			return dsp.LFilter(src, d, []float64{1, math.NaN()}, []float64{1})
		}},
		{"empty b", "empty coefficients", func(d *gpuimage.Image) error { return dsp.LFilter(src, d, nil, []float64{1}) }},
		{"order 17", "order 17 is above 8", func(d *gpuimage.Image) error {
			a := make([]float64, 18)
			a[0], a[17] = 1, 0.1
			return dsp.LFilter(src, d, []float64{1}, a)
		}},
		{"unstable", "unstable", func(d *gpuimage.Image) error {
			return dsp.LFilter(src, d, []float64{1}, []float64{1, -1.5})
		}},
		{"unstable sos", "section 0 is unstable", func(d *gpuimage.Image) error {
			return dsp.SOSFilt(src, d, dsp.SOS{{1, 0, 0, 1, 0, 1.2}})
		}},
		{"a0 != 1", "a0 must be 1", func(d *gpuimage.Image) error { return dsp.SOSFilt(src, d, dsp.SOS{{1, 0, 0, 2, 0, 0}}) }},
		{"no sections", "no sections", func(d *gpuimage.Image) error { return dsp.SOSFilt(src, d, nil) }},
		{"wrong depth", "32FC1", func(d *gpuimage.Image) error { return dsp.SOSFilt(u8, d, good) }},
		{"zi rows", "zi", func(d *gpuimage.Image) error { return dsp.SOSFiltState(src, d, good, zi3, nil) }},
		{"short for filtfilt", "longer than the padding, 15", func(d *gpuimage.Image) error {
			b, a := randBA(r, 4)
			return dsp.FiltFilt(short, d, b, a)
		}},
	} {
		dst := &gpuimage.Image{}
		err := c.run(dst)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
		if !dst.Empty() {
			t.Errorf("%s: dst written", c.name)
		}
	}
	if err := dsp.SOSFilt(u8, &gpuimage.Image{}, good); !errors.Is(err, gpuimage.ErrBadType) {
		t.Errorf("8UC1 signals: %v, want ErrBadType", err)
	}
}

// The single-pass kernel's state responses and A^G (made on the host): the state
// after G samples from zero is the samples times their responses, and A^G carries
// a state over G samples of zeros, against running the sections in float64.
func TestIIRScanResponses(t *testing.T) {
	r := tu.Rand(t)
	for _, order := range []int{2, 5, 8} {
		sos := randButter(t, r, order)
		s, g, ag, run, err := dsp.ScanState(sos)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, dsp.ScanG)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		z := make([]float64, s)
		run(z, x)
		for k := 0; k < s; k++ {
			want := 0.0
			for i := range x {
				want += g[i*s+k] * x[i]
			}
			if math.Abs(want-z[k]) > 1e-9*(1+math.Abs(z[k])) {
				t.Errorf("order %d: state %d from the responses %g, by the sections %g", order, k, want, z[k])
			}
		}
		z0 := make([]float64, s)
		for k := range z0 {
			z0[k] = r.NormFloat64()
		}
		z = append([]float64(nil), z0...)
		run(z, make([]float64, dsp.ScanG))
		for k := 0; k < s; k++ {
			want := 0.0
			for c := 0; c < s; c++ {
				want += ag[k*s+c] * z0[c]
			}
			if math.Abs(want-z[k]) > 1e-9*(1+math.Abs(z[k])) {
				t.Errorf("order %d: A^G's state %d %g, by the sections %g", order, k, want, z[k])
			}
		}
	}
}
