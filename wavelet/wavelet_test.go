package wavelet_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/wavelet"
)

// pywt runs testdata/pywt_ref.py (Debian's python3-pywt) on the cases.
func pywt(t *testing.T, cases []map[string]any) []json.RawMessage {
	t.Helper()
	return tu.SciPy(t, "testdata/pywt_ref.py", cases, len(cases))
}

// testWavelets are the filter banks the reference tests run: every family, short
// and long filters, odd and even halves.
var testWavelets = []string{"haar", "db2", "db4", "db10", "sym5", "coif1", "coif5", "bior1.3", "bior2.2", "bior4.4", "bior6.8", "rbio3.1"}

var allModes = []wavelet.Mode{wavelet.Symmetric, wavelet.Periodization, wavelet.Zero, wavelet.Reflect,
	wavelet.Periodic, wavelet.Constant, wavelet.Smooth, wavelet.Antisymmetric}

// randRows is rows x cols random values in [-1, 1).
func randRows(r *rand.Rand, rows, cols int) [][]float32 {
	v := make([][]float32, rows)
	for i := range v {
		v[i] = make([]float32, cols)
		for j := range v[i] {
			v[i][j] = float32(r.Float64()*2 - 1)
		}
	}
	return v
}

// transpose is v's columns as rows.
func transpose(v [][]float32) [][]float32 {
	if len(v) == 0 {
		return v
	}
	o := make([][]float32, len(v[0]))
	for j := range o {
		o[j] = make([]float32, len(v))
		for i := range v {
			o[j][i] = v[i][j]
		}
	}
	return o
}

// checkClose compares got with want within 1e-5 of want's largest magnitude (and
// 1e-6 absolute).
func checkClose(t *testing.T, name string, got, want [][]float64) {
	t.Helper()
	if len(got) != len(want) || (len(want) > 0 && len(got[0]) != len(want[0])) {
		gc, wc := 0, 0
		if len(got) > 0 {
			gc = len(got[0])
		}
		if len(want) > 0 {
			wc = len(want[0])
		}
		t.Errorf("%s: %dx%d, want %dx%d", name, gc, len(got), wc, len(want))
		return
	}
	scale := 1e-1
	for _, r := range want {
		for _, v := range r {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	for i := range want {
		for j := range want[i] {
			if d := math.Abs(got[i][j] - want[i][j]); !(d <= 1e-5*scale) {
				t.Errorf("%s: [%d][%d] = %v, want %v (|diff| %.3g, scale %.3g)", name, i, j, got[i][j], want[i][j], d, scale)
				return
			}
		}
	}
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func mustWavelet(t testing.TB, name string) *wavelet.Wavelet {
	t.Helper()
	w, err := wavelet.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// pywtMode is m's name, skipping the lengths where PyWavelets loops forever
// (reflect of one sample).
func skipPywt(m wavelet.Mode, n int) bool { return m == wavelet.Reflect && n == 1 }

// DWT and IDWT along rows and columns on the CPU device against pywt.dwt and
// pywt.idwt: every mode, filters longer than the signal, lengths 1, 2, 7, 33.
func TestDWTMatchesPyWavelets(t *testing.T) {
	cpu := gpuimage.CPU()
	r := tu.Rand(t)
	type tcase struct {
		name string
		w    string
		m    wavelet.Mode
		axis wavelet.Axis
		x    [][]float32
		a, d [][]float32 // idwt's input
	}
	var cs []tcase
	var in []map[string]any
	for _, wn := range testWavelets {
		for _, m := range allModes {
			for _, n := range []int{1, 2, 7, 33} {
				if skipPywt(m, n) {
					continue
				}
				axis := wavelet.Axis(n % 2)
				x := randRows(r, 3, n)
				if axis == wavelet.AlongCols {
					x = randRows(r, n, 3)
				}
				cs = append(cs, tcase{name: fmt.Sprintf("dwt %s %v n=%d %v", wn, m, n, axis), w: wn, m: m, axis: axis, x: x})
				in = append(in, map[string]any{"fn": "dwt", "wavelet": wn, "mode": m.String(), "axis": int(axis), "x": x})
			}
			if m != wavelet.Symmetric && m != wavelet.Periodization {
				continue // the inverse uses the mode only to tell periodization
			}
			f := mustWavelet(t, wn).Len()
			for _, k := range []int{1, 2, 7, 16} {
				if m != wavelet.Periodization && 2*k-f+2 < 1 {
					continue
				}
				a, d := randRows(r, 2, k), randRows(r, 2, k)
				axis := wavelet.Axis(k % 2)
				if axis == wavelet.AlongCols {
					a, d = transpose(a), transpose(d)
				}
				cs = append(cs, tcase{name: fmt.Sprintf("idwt %s %v m=%d %v", wn, m, k, axis), w: wn, m: m, axis: axis, a: a, d: d})
				in = append(in, map[string]any{"fn": "idwt", "wavelet": wn, "mode": m.String(), "axis": int(axis), "a": a, "d": d})
			}
		}
	}
	res := pywt(t, in)
	for i, c := range cs {
		w := mustWavelet(t, c.w)
		if c.x != nil {
			want := decode[[2][][]float64](t, res[i])
			src := tu.UploadRows(t, cpu, c.x)
			a, d := &gpuimage.Image{}, &gpuimage.Image{}
			if err := wavelet.DWT(src, a, d, w, c.m, c.axis); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			checkClose(t, c.name+" cA", tu.Rows(t, a), want[0])
			checkClose(t, c.name+" cD", tu.Rows(t, d), want[1])
			src.Close()
			a.Close()
			d.Close()
			continue
		}
		want := decode[[][]float64](t, res[i])
		a, d := tu.UploadRows(t, cpu, c.a), tu.UploadRows(t, cpu, c.d)
		dst := &gpuimage.Image{}
		if err := wavelet.IDWT(a, d, dst, w, c.m, c.axis); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkClose(t, c.name, tu.Rows(t, dst), want)
		a.Close()
		d.Close()
		dst.Close()
	}
}

// DWT2 and IDWT2 on the CPU device against pywt.dwt2 and pywt.idwt2: every mode,
// odd sizes, 1xN.
func TestDWT2MatchesPyWavelets(t *testing.T) {
	cpu := gpuimage.CPU()
	r := tu.Rand(t)
	type tcase struct {
		name       string
		w          string
		m          wavelet.Mode
		x          [][]float32
		a, h, v, d [][]float32
	}
	var cs []tcase
	var in []map[string]any
	for i, wn := range testWavelets {
		for j, m := range allModes {
			sizes := [][2]int{{13, 17}, {1, 9}, {6, 1}}
			sz := sizes[(i+j)%len(sizes)]
			if !skipPywt(m, min(sz[0], sz[1])) {
				x := randRows(r, sz[0], sz[1])
				cs = append(cs, tcase{name: fmt.Sprintf("dwt2 %s %v %dx%d", wn, m, sz[1], sz[0]), w: wn, m: m, x: x})
				in = append(in, map[string]any{"fn": "dwt2", "wavelet": wn, "mode": m.String(), "x": x})
			}
			if m != wavelet.Symmetric && m != wavelet.Periodization {
				continue
			}
			k := mustWavelet(t, wn).Len()/2 + 2
			a, h, v, d := randRows(r, k, k+1), randRows(r, k, k+1), randRows(r, k, k+1), randRows(r, k, k+1)
			cs = append(cs, tcase{name: fmt.Sprintf("idwt2 %s %v", wn, m), w: wn, m: m, a: a, h: h, v: v, d: d})
			in = append(in, map[string]any{"fn": "idwt2", "wavelet": wn, "mode": m.String(), "a": a, "h": h, "v": v, "d": d})
		}
	}
	res := pywt(t, in)
	for i, c := range cs {
		w := mustWavelet(t, c.w)
		if c.x != nil {
			want := decode[[4][][]float64](t, res[i])
			src := tu.UploadRows(t, cpu, c.x)
			out := []*gpuimage.Image{{}, {}, {}, {}}
			if err := wavelet.DWT2(src, out[0], out[1], out[2], out[3], w, c.m); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for k, nm := range []string{"cA", "cH", "cV", "cD"} {
				checkClose(t, c.name+" "+nm, tu.Rows(t, out[k]), want[k])
				out[k].Close()
			}
			src.Close()
			continue
		}
		want := decode[[][]float64](t, res[i])
		ims := []*gpuimage.Image{tu.UploadRows(t, cpu, c.a), tu.UploadRows(t, cpu, c.h), tu.UploadRows(t, cpu, c.v), tu.UploadRows(t, cpu, c.d)}
		dst := &gpuimage.Image{}
		if err := wavelet.IDWT2(ims[0], ims[1], ims[2], ims[3], dst, w, c.m); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkClose(t, c.name, tu.Rows(t, dst), want)
		for _, im := range ims {
			im.Close()
		}
		dst.Close()
	}
}

// WaveDec and WaveDec2 on the CPU device against pywt.wavedec (a 4097-sample and
// a prime-length signal) and pywt.wavedec2 (451x300 and 37x41).
func TestWaveDecMatchesPyWavelets(t *testing.T) {
	cpu := gpuimage.CPU()
	r := tu.Rand(t)
	type tcase struct {
		w     string
		m     wavelet.Mode
		level int
		x     [][]float32
		two   bool
	}
	cs := []tcase{
		{"db4", wavelet.Symmetric, 0, randRows(r, 2, 4097), false},
		{"haar", wavelet.Periodization, 5, randRows(r, 1, 1009), false},
		{"bior4.4", wavelet.Reflect, 3, randRows(r, 3, 101), false},
		{"db2", wavelet.Symmetric, 3, randRows(r, 300, 451), true},
		{"sym4", wavelet.Periodization, 2, randRows(r, 37, 41), true},
		{"coif2", wavelet.Smooth, 0, randRows(r, 41, 37), true},
	}
	if testing.Short() {
		cs[3].x = randRows(r, 61, 45)
	}
	var in []map[string]any
	for _, c := range cs {
		fn := "wavedec"
		if c.two {
			fn = "wavedec2"
		}
		var lv any
		if c.level > 0 {
			lv = c.level
		}
		in = append(in, map[string]any{"fn": fn, "wavelet": c.w, "mode": c.m.String(), "level": lv, "x": c.x})
	}
	res := pywt(t, in)
	for i, c := range cs {
		name := fmt.Sprintf("%s %v level %d %dx%d", c.w, c.m, c.level, len(c.x[0]), len(c.x))
		w := mustWavelet(t, c.w)
		src := tu.UploadRows(t, cpu, c.x)
		if !c.two {
			want := decode[[][][]float64](t, res[i])
			got, err := wavelet.WaveDec(src, w, c.m, c.level, wavelet.AlongRows)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d arrays, want %d", name, len(got), len(want))
			}
			for k := range got {
				checkClose(t, fmt.Sprintf("%s [%d]", name, k), tu.Rows(t, got[k]), want[k])
				got[k].Close()
			}
			src.Close()
			continue
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(res[i], &raw); err != nil {
			t.Fatal(err)
		}
		got, err := wavelet.WaveDec2(src, w, c.m, c.level)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got.Details) != len(raw)-1 {
			t.Fatalf("%s: %d levels, want %d", name, len(got.Details), len(raw)-1)
		}
		checkClose(t, name+" A", tu.Rows(t, got.A), decode[[][]float64](t, raw[0]))
		for k, d := range got.Details {
			want := decode[[3][][]float64](t, raw[k+1])
			checkClose(t, fmt.Sprintf("%s level %d H", name, len(got.Details)-k), tu.Rows(t, d.H), want[0])
			checkClose(t, fmt.Sprintf("%s level %d V", name, len(got.Details)-k), tu.Rows(t, d.V), want[1])
			checkClose(t, fmt.Sprintf("%s level %d D", name, len(got.Details)-k), tu.Rows(t, d.D), want[2])
		}
		got.Close()
		src.Close()
	}
}

// checkRoundTrip runs WaveDec and WaveRec (or the 2-D pair) of x on dev and
// compares the result, cut to x's size, with x within 1e-5 of its range, or 1e-6
// of the largest coefficient where that is larger: the coefficients are float32,
// and Smooth's linear extension gives some wavelets (rbio3.1) coefficients a
// thousand times the signal's (PyWavelets in float32 is off by 1.4e-4 there).
func checkRoundTrip(t *testing.T, dev *gpuimage.Device, name string, x [][]float32, w *wavelet.Wavelet, m wavelet.Mode, two bool, axis wavelet.Axis) {
	t.Helper()
	src := tu.UploadRows(t, dev, x)
	defer src.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	cmax := 0.0
	if two {
		c, err := wavelet.WaveDec2(src, w, m, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cmax = maxAbs(t, c.A)
		for _, d := range c.Details {
			cmax = math.Max(cmax, math.Max(maxAbs(t, d.H), math.Max(maxAbs(t, d.V), maxAbs(t, d.D))))
		}
		err = wavelet.WaveRec2(c, dst, w, m)
		c.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	} else {
		c, err := wavelet.WaveDec(src, w, m, 0, axis)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, im := range c {
			cmax = math.Max(cmax, maxAbs(t, im))
		}
		err = wavelet.WaveRec(c, dst, w, m, axis)
		for _, im := range c {
			im.Close()
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	got := tu.Rows(t, dst)
	// Periodization of an odd length gives it back one longer (as pywt).
	if len(got) < len(x) || len(got[0]) < len(x[0]) || len(got) > len(x)+1 || len(got[0]) > len(x[0])+1 {
		t.Fatalf("%s: %dx%d back from %dx%d", name, len(got[0]), len(got), len(x[0]), len(x))
	}
	want := make([][]float64, len(x))
	for i := range x {
		want[i] = make([]float64, len(x[i]))
		for j := range x[i] {
			want[i][j] = float64(x[i][j])
		}
		got[i] = got[i][:len(x[i])]
	}
	if cmax > 10 {
		want = append(want, []float64{cmax / 10}) // checkClose's scale: 1e-6 of the largest coefficient
		got = append(got[:len(x)], []float64{cmax / 10})
	}
	checkClose(t, name, got[:len(want)], want)
}

// maxAbs is the largest magnitude in a 32FC1 image.
func maxAbs(t *testing.T, im *gpuimage.Image) float64 {
	m := 0.0
	for _, v := range tu.Float32s(t, im) {
		m = math.Max(m, math.Abs(float64(v)))
	}
	return m
}

// WaveRec(WaveDec(x)) is x for every wavelet and mode, 1-D along rows and columns
// and 2-D, at odd and prime lengths.
func TestPerfectReconstruction(t *testing.T) {
	cpu := gpuimage.CPU()
	r := tu.Rand(t)
	for i, wn := range wavelet.Names() {
		w := mustWavelet(t, wn)
		for j, m := range allModes {
			checkRoundTrip(t, cpu, fmt.Sprintf("%s %v 1-D", wn, m), randRows(r, 2, 257+i+j), w, m, false, wavelet.AlongRows)
			checkRoundTrip(t, cpu, fmt.Sprintf("%s %v cols", wn, m), randRows(r, 97+j, 2), w, m, false, wavelet.AlongCols)
			checkRoundTrip(t, cpu, fmt.Sprintf("%s %v 2-D", wn, m), randRows(r, 67, 61+2*j), w, m, true, 0)
		}
	}
}

// Bad input gets errors that name the problem.
func TestErrors(t *testing.T) {
	cpu := gpuimage.CPU()
	src := tu.UploadRows(t, cpu, randRows(rand.New(rand.NewSource(1)), 4, 8))
	defer src.Close()
	db4 := mustWavelet(t, "db4")
	a, d := &gpuimage.Image{}, &gpuimage.Image{}
	defer a.Close()
	defer d.Close()
	if _, err := wavelet.New("db42"); err == nil || !strings.Contains(err.Error(), "unknown wavelet") {
		t.Errorf("New(db42): %v", err)
	}
	if _, err := wavelet.ParseMode("mirror"); err == nil || !strings.Contains(err.Error(), "unknown mode") {
		t.Errorf("ParseMode(mirror): %v", err)
	}
	if _, err := wavelet.ParseMode("antireflect"); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("ParseMode(antireflect): %v", err)
	}
	if err := wavelet.DWT(src, a, d, db4, wavelet.Mode(42), wavelet.AlongRows); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("mode 42: %v", err)
	}
	if err := wavelet.DWT(src, a, d, nil, wavelet.Symmetric, wavelet.AlongRows); err == nil {
		t.Error("nil wavelet: no error")
	}
	if _, err := wavelet.WaveDec(src, db4, wavelet.Symmetric, 3, wavelet.AlongRows); err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Errorf("level 3 of 8 samples with db4: %v", err)
	}
	if _, err := wavelet.WaveDec2(src, db4, wavelet.Symmetric, 0); err == nil || !strings.Contains(err.Error(), "too few") {
		t.Errorf("WaveDec2 of 8x4 with db4: %v", err)
	}
	u8, _ := gpuimage.New(cpu, 4, 4, gpuimage.CV8UC1)
	defer u8.Close()
	if err := wavelet.DWT(u8, a, d, db4, wavelet.Symmetric, wavelet.AlongRows); !errors.Is(err, gpuimage.ErrBadType) {
		t.Errorf("8UC1: %v", err)
	}
	if err := wavelet.DWT(&gpuimage.Image{}, a, d, db4, wavelet.Symmetric, wavelet.AlongRows); !errors.Is(err, gpuimage.ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	one := tu.UploadRows(t, cpu, [][]float32{{1}})
	defer one.Close()
	if err := wavelet.IDWT(one, one, a, db4, wavelet.Symmetric, wavelet.AlongRows); err == nil || !strings.Contains(err.Error(), "too few") {
		t.Errorf("IDWT of 1 coefficient with db4: %v", err)
	}
	two := tu.UploadRows(t, cpu, [][]float32{{1, 2}})
	defer two.Close()
	if err := wavelet.IDWT(one, two, a, db4, wavelet.Periodization, wavelet.AlongRows); !errors.Is(err, gpuimage.ErrSizeMismatch) {
		t.Errorf("cA and cD of different sizes: %v", err)
	}
	// In place: the approximation written over its source.
	if err := wavelet.DWT(src, src, d, db4, wavelet.Periodization, wavelet.AlongRows); err != nil || src.Cols() != 4 {
		t.Errorf("DWT into its source: %v (%d columns)", err, src.Cols())
	}
}
