package dsp_test

import (
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// scipy runs testdata/scipy_ref.py on the cases (tu.SciPy).
func scipy(t *testing.T, cases []map[string]any) []json.RawMessage {
	t.Helper()
	return tu.SciPy(t, "testdata/scipy_ref.py", cases, len(cases))
}

// isError says whether a SciPy result is an error, and gives its message.
func isError(r json.RawMessage) (string, bool) {
	var e struct {
		Error *string `json:"error"`
	}
	if json.Unmarshal(r, &e) == nil && e.Error != nil {
		return *e.Error, true
	}
	return "", false
}

// closeTo compares with a tolerance relative to the largest magnitude.
func closeTo(got, want []float64, tol float64) (float64, bool) {
	if len(got) != len(want) {
		return math.Inf(1), false
	}
	scale, worst := 0.0, 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	scale = math.Max(scale, 1e-300)
	for i := range got {
		worst = math.Max(worst, math.Abs(got[i]-want[i])/scale)
	}
	return worst, worst <= tol
}

type windowCase struct {
	w        dsp.Window
	n        int
	periodic bool
}

func scipyWindow(w dsp.Window) any {
	switch w.Name {
	case "kaiser":
		return []any{"kaiser", w.Beta}
	case "tukey":
		return []any{"tukey", w.Alpha}
	}
	return w.Name
}

// GetWindow against scipy.signal.get_window: every window, both kinds, odd and even
// lengths (1 included), within 1e-12.
func TestGetWindow(t *testing.T) {
	var cs []windowCase
	var cases []map[string]any
	for _, w := range []dsp.Window{dsp.Boxcar, dsp.Hann, dsp.Hamming, dsp.Blackman, dsp.Kaiser(0), dsp.Kaiser(5), dsp.Kaiser(14.5),
		dsp.Tukey(0), dsp.Tukey(0.25), dsp.Tukey(0.5), dsp.Tukey(1)} {
		for _, n := range []int{1, 2, 3, 7, 64, 1023, 4096} {
			for _, per := range []bool{false, true} {
				cs = append(cs, windowCase{w, n, per})
				cases = append(cases, map[string]any{"fn": "get_window", "window": scipyWindow(w), "n": n, "fftbins": per})
			}
		}
	}
	res := scipy(t, cases)
	for i, c := range cs {
		var want []float64
		if err := json.Unmarshal(res[i], &want); err != nil {
			t.Fatalf("%v: SciPy: %s", c, res[i])
		}
		got, err := dsp.GetWindow(c.w, c.n, c.periodic)
		if err != nil {
			t.Fatalf("%v n=%d: %v", c.w, c.n, err)
		}
		if d, ok := closeTo(got, want, 1e-12); !ok {
			t.Errorf("%v n=%d periodic=%v: off SciPy's by %.3g", c.w, c.n, c.periodic, d)
		}
	}
	for _, bad := range []struct {
		w dsp.Window
		n int
	}{{dsp.Hann, 0}, {dsp.Hann, 1 << 40}, {dsp.Hann, 1<<30 + 1}, {dsp.Window{Name: "bogus"}, 8}, {dsp.Window{Name: "bogus"}, 1}, {dsp.Kaiser(math.NaN()), 8}, {dsp.Tukey(1.5), 8}, {dsp.Tukey(math.NaN()), 8}} {
		if _, err := dsp.GetWindow(bad.w, bad.n, false); err == nil {
			t.Errorf("GetWindow(%v, %d) accepted", bad.w, bad.n)
		}
	}
	if _, err := dsp.FirWin(1<<40+1, []float64{0.5}, dsp.Lowpass, nil); err == nil || !strings.Contains(err.Error(), "taps") {
		t.Errorf("FirWin of 2^40+1 taps: %v, want an error (not an allocation that aborts the process)", err)
	}
}

// KaiserBeta, KaiserAtten and KaiserOrd against SciPy's, within 1e-12.
func TestKaiser(t *testing.T) {
	var cases []map[string]any
	as := []float64{0, 10, 21, 21.5, 35, 50, 50.5, 60, 120}
	for _, a := range as {
		cases = append(cases, map[string]any{"fn": "kaiser_beta", "a": a})
	}
	for _, n := range []int{1, 7, 101} {
		cases = append(cases, map[string]any{"fn": "kaiser_atten", "numtaps": n, "width": 0.05})
	}
	ords := [][2]float64{{8, 0.1}, {40, 0.05}, {65, 0.01}, {120, 0.001}, {7.9, 0.1}}
	for _, o := range ords {
		cases = append(cases, map[string]any{"fn": "kaiserord", "ripple": o[0], "width": o[1]})
	}
	res := scipy(t, cases)
	num := func(r json.RawMessage) float64 {
		var v float64
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatalf("SciPy: %s", r)
		}
		return v
	}
	k := 0
	for _, a := range as {
		if got, want := dsp.KaiserBeta(a), num(res[k]); math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("KaiserBeta(%g) = %v, SciPy %v", a, got, want)
		}
		k++
	}
	for _, n := range []int{1, 7, 101} {
		if got, want := dsp.KaiserAtten(n, 0.05), num(res[k]); math.Abs(got-want) > 1e-12*want {
			t.Errorf("KaiserAtten(%d) = %v, SciPy %v", n, got, want)
		}
		k++
	}
	for _, o := range ords {
		n, beta, err := dsp.KaiserOrd(o[0], o[1])
		if msg, bad := isError(res[k]); bad {
			if err == nil {
				t.Errorf("KaiserOrd(%v) = %d, %v; SciPy: %s", o, n, beta, msg)
			}
		} else {
			var want []float64
			json.Unmarshal(res[k], &want)
			if err != nil || float64(n) != want[0] || math.Abs(beta-want[1]) > 1e-12*math.Max(1, want[1]) {
				t.Errorf("KaiserOrd(%v) = %d, %v, %v; SciPy %v", o, n, beta, err, want)
			}
		}
		k++
	}
}

type firCase struct {
	numtaps int
	cutoff  []float64
	band    dsp.BandType
	o       dsp.FirWinOptions
}

// FirWin against scipy.signal.firwin on random cutoffs of every band type, window,
// width, scaling and sampling frequency, and on cases both must refuse: the taps
// within 1e-9 of the largest.
func TestFirWin(t *testing.T) {
	r := rand.New(rand.NewSource(int64(os.Getpid())))
	var cs []firCase
	windows := []dsp.Window{dsp.Hamming, dsp.Hann, dsp.Blackman, dsp.Boxcar, dsp.Kaiser(8.6)}
	for i := 0; i < 120; i++ {
		band := dsp.BandType(i % 4)
		nc := 1
		if band >= dsp.Bandpass {
			nc = 2 + r.Intn(3)
		}
		fs := []float64{0, 2, 48000, 1}[r.Intn(4)]
		eff := fs
		if eff == 0 {
			eff = 2
		}
		c := make([]float64, nc)
		for k := range c {
			c[k] = eff / 2 * (float64(k) + 0.05 + 0.9*r.Float64()) / float64(nc)
		}
		numtaps := []int{1, 2, 7, 8, 63, 64, 255, 513, 1024, 8191}[r.Intn(10)]
		o := dsp.FirWinOptions{Window: windows[r.Intn(len(windows))], NoScale: r.Intn(4) == 0, Fs: fs}
		if r.Intn(5) == 0 {
			o.Width = eff / 2 * 0.02 * (1 + r.Float64())
		}
		cs = append(cs, firCase{numtaps, c, band, o})
	}
	// Cases both refuse.
	cs = append(cs, firCase{8, []float64{0.5}, dsp.Highpass, dsp.FirWinOptions{}}, firCase{11, []float64{0}, dsp.Lowpass, dsp.FirWinOptions{}},
		firCase{11, []float64{1}, dsp.Lowpass, dsp.FirWinOptions{}}, firCase{11, []float64{0.5, 0.3}, dsp.Bandpass, dsp.FirWinOptions{}},
		firCase{11, []float64{0.3}, dsp.Bandpass, dsp.FirWinOptions{}}, firCase{11, []float64{0.3, 0.5}, dsp.Lowpass, dsp.FirWinOptions{}},
		firCase{11, nil, dsp.Lowpass, dsp.FirWinOptions{}}, firCase{2, []float64{0.5}, dsp.Lowpass, dsp.FirWinOptions{Window: dsp.Hann}})
	var cases []map[string]any
	for _, c := range cs {
		fs := c.o.Fs
		if fs == 0 {
			fs = 2
		}
		w := c.o.Window
		if w.Name == "" {
			w = dsp.Hamming
		}
		m := map[string]any{"fn": "firwin", "numtaps": c.numtaps, "cutoff": c.cutoff, "window": scipyWindow(w),
			"pass_zero": c.band.String(), "scale": !c.o.NoScale, "fs": fs}
		if c.o.Width > 0 {
			m["width"] = c.o.Width
		}
		if c.cutoff == nil {
			m["cutoff"] = []float64{}
		}
		cases = append(cases, m)
	}
	res := scipy(t, cases)
	for i, c := range cs {
		got, err := dsp.FirWin(c.numtaps, c.cutoff, c.band, &c.o)
		if msg, bad := isError(res[i]); bad {
			if err == nil {
				t.Errorf("FirWin(%d, %v, %v, %+v) accepted what SciPy refuses: %s", c.numtaps, c.cutoff, c.band, c.o, msg)
			}
			continue
		}
		var want []float64
		if e := json.Unmarshal(res[i], &want); e != nil {
			t.Fatalf("SciPy: %s", res[i])
		}
		if err != nil {
			t.Errorf("FirWin(%d, %v, %v, %+v): %v (SciPy designs it)", c.numtaps, c.cutoff, c.band, c.o, err)
			continue
		}
		if d, ok := closeTo(got, want, 1e-9); !ok {
			t.Errorf("FirWin(%d, %v, %v, %+v): off SciPy's taps by %.3g", c.numtaps, c.cutoff, c.band, c.o, d)
		}
	}
}

type butterCase struct {
	order int
	wn    []float64
	band  dsp.BandType
	fs    float64
}

// Butter against scipy.signal.butter(output='sos') for orders 1-12 of every band
// type at random frequencies, and cases both refuse: the same sections in the same
// order, within 1e-9 of each section's largest coefficient.
func TestButter(t *testing.T) {
	r := rand.New(rand.NewSource(int64(os.Getpid()) + 1))
	var cs []butterCase
	for i := 0; i < 96; i++ {
		band := dsp.BandType(i % 4)
		fs := []float64{0, 2, 44100}[r.Intn(3)]
		eff := fs
		if eff == 0 {
			eff = 2
		}
		wn := []float64{eff / 2 * (0.02 + 0.96*r.Float64())}
		if band >= dsp.Bandpass {
			a, b := 0.02+0.46*r.Float64(), 0.52+0.46*r.Float64()
			wn = []float64{eff / 2 * a, eff / 2 * b}
		}
		cs = append(cs, butterCase{1 + i%12, wn, band, fs})
	}
	cs = append(cs, butterCase{4, []float64{1}, dsp.Lowpass, 2}, butterCase{4, []float64{0}, dsp.Highpass, 2},
		butterCase{4, []float64{0.2}, dsp.Bandpass, 2}, butterCase{4, []float64{0.6, 0.2}, dsp.Bandstop, 2},
		butterCase{0, []float64{0.2}, dsp.Lowpass, 2})
	var cases []map[string]any
	for _, c := range cs {
		fs := c.fs
		if fs == 0 {
			fs = 2
		}
		cases = append(cases, map[string]any{"fn": "butter", "N": c.order, "Wn": c.wn, "btype": c.band.String(), "fs": fs})
	}
	res := scipy(t, cases)
	for i, c := range cs {
		got, err := dsp.Butter(c.order, c.wn, c.band, c.fs)
		if msg, bad := isError(res[i]); bad || c.order == 0 {
			if err == nil {
				t.Errorf("Butter(%+v) accepted what SciPy refuses: %s", c, msg)
			}
			continue
		}
		var want [][]float64
		if e := json.Unmarshal(res[i], &want); e != nil {
			t.Fatalf("SciPy: %s", res[i])
		}
		if err != nil || len(got) != len(want) {
			t.Errorf("Butter(%+v): %d sections, %v; SciPy %d", c, len(got), err, len(want))
			continue
		}
		for s := range want {
			if d, ok := closeTo(got[s][:], want[s], 1e-9); !ok {
				t.Errorf("Butter(%+v) section %d: %v, SciPy %v (off by %.3g)", c, s, got[s], want[s], d)
				break
			}
		}
	}
}

// Crossover's bands: each is the difference of FirWin's low-passes (SciPy's taps,
// checked by TestFirWin), their sum is a centred impulse (within 1e-12), and bad
// designs are refused.
func TestCrossover(t *testing.T) {
	bands, err := dsp.Crossover(48000, []float64{250, 2000, 8000}, 8191, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(bands) != 4 {
		t.Fatalf("%d bands, want 4", len(bands))
	}
	lp, _ := dsp.FirWin(8191, []float64{2000}, dsp.Lowpass, &dsp.FirWinOptions{Fs: 48000})
	lp0, _ := dsp.FirWin(8191, []float64{250}, dsp.Lowpass, &dsp.FirWinOptions{Fs: 48000})
	for i := range lp {
		if d := bands[1][i] - (lp[i] - lp0[i]); math.Abs(d) > 1e-15 {
			t.Fatalf("band 1 tap %d: %g, want %g", i, bands[1][i], lp[i]-lp0[i])
		}
	}
	for i := 0; i < 8191; i++ {
		var sum float64
		for _, b := range bands {
			sum += b[i]
		}
		want := 0.0
		if i == 4095 {
			want = 1
		}
		if math.Abs(sum-want) > 1e-12 {
			t.Fatalf("tap %d: the bands sum to %g, want %g", i, sum, want)
		}
	}
	// Applied to a signal (on the CPU device, by FFT), the bands sum to the input
	// delayed by 4095 samples, within 1e-4 of its RMS.
	r := tu.Rand(t)
	src, vals := signals(t, r, gpuimage.CPU(), 1, 20000)
	defer src.Close()
	sum := make([]float64, 20000+8190)
	for _, b := range bands {
		out := &gpuimage.Image{}
		if err := dsp.Convolve(src, out, b, dsp.Full, dsp.FFT); err != nil {
			t.Fatal(err)
		}
		for i, v := range tu.Float32s(t, out) {
			sum[i] += float64(v)
		}
		out.Close()
	}
	want := make([]float64, len(sum))
	for i, v := range vals[0] {
		want[i+4095] = float64(v)
	}
	if e := rmsErr(sum, want); e > 1e-4 {
		t.Errorf("the bands' outputs sum to the delayed input within %.3g of the RMS, want 1e-4", e)
	}
	for _, bad := range []struct {
		edges []float64
		taps  int
	}{{[]float64{250}, 8192}, {[]float64{250}, 1<<40 + 1}, {nil, 101}, {[]float64{2000, 250}, 101}, {[]float64{30000}, 101}} {
		if _, err := dsp.Crossover(48000, bad.edges, bad.taps, nil); err == nil {
			t.Errorf("Crossover(%v, %d) accepted", bad.edges, bad.taps)
		}
	}
}
