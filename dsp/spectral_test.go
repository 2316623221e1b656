package dsp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// spectralCase is one call: the function, its options and the SciPy arguments
// they stand for.
type spectralCase struct {
	fn string // spectrogram, stft or welch
	o  dsp.SpectralOptions
	n  int // samples a signal
}

// scipyArgs are c's options as SciPy's keyword arguments (defaults resolved as
// SciPy resolves them).
func (c spectralCase) scipyArgs(x []float64) map[string]any {
	o := c.o
	nperseg := o.NPerSeg
	if nperseg == 0 {
		nperseg = 256
	}
	noverlap := o.NOverlap
	switch {
	case noverlap == dsp.NoOverlap:
		noverlap = 0
	case noverlap == 0 && c.fn == "spectrogram":
		noverlap = nperseg / 8
	case noverlap == 0:
		noverlap = nperseg / 2
	}
	w := any("hann")
	if o.Window.Name != "" {
		w = scipyWindow(o.Window)
	} else if c.fn == "spectrogram" {
		w = []any{"tukey", 0.25}
	}
	detrend := map[dsp.Detrend]any{dsp.DetrendNone: false, dsp.DetrendConstant: "constant", dsp.DetrendLinear: "linear"}[o.Detrend]
	if o.Detrend == dsp.DetrendDefault {
		detrend = "constant"
		if c.fn == "stft" {
			detrend = false
		}
	}
	scaling := map[dsp.Scaling]string{dsp.ScalingDensity: "density", dsp.ScalingSpectrum: "spectrum"}[o.Scaling]
	if o.Scaling == dsp.ScalingDefault {
		scaling = "density"
		if c.fn == "stft" {
			scaling = "spectrum"
		}
	}
	if c.fn == "stft" && scaling == "density" {
		scaling = "psd" // stft's name for it
	}
	fs := o.Fs
	if fs == 0 {
		fs = 1
	}
	var nfft any
	if o.NFFT > 0 {
		nfft = o.NFFT
	}
	var boundary any = o.Boundary.String()
	if o.Boundary == dsp.BoundaryNone {
		boundary = nil
	}
	return map[string]any{"fn": c.fn, "x": x, "fs": fs, "window": w, "nperseg": nperseg, "noverlap": noverlap, "nfft": nfft,
		"detrend": detrend, "onesided": !o.TwoSided, "scaling": scaling, "mode": []string{"psd", "magnitude", "complex"}[o.Mode],
		"average": []string{"mean", "median"}[o.Average], "boundary": boundary, "padded": !o.NoPadding}
}

var spectralCases = []spectralCase{
	{"spectrogram", dsp.SpectralOptions{NPerSeg: 64}, 1000},
	{"spectrogram", dsp.SpectralOptions{NPerSeg: 7, NOverlap: 3, Fs: 8000, Detrend: dsp.DetrendLinear}, 301},
	{"spectrogram", dsp.SpectralOptions{NPerSeg: 100, NFFT: 128, Window: dsp.Hann, Scaling: dsp.ScalingSpectrum, Mode: dsp.ModeMagnitude}, 4097},
	{"spectrogram", dsp.SpectralOptions{NPerSeg: 33, NOverlap: dsp.NoOverlap, TwoSided: true, Mode: dsp.ModeComplex, Detrend: dsp.DetrendNone}, 500},
	{"spectrogram", dsp.SpectralOptions{NPerSeg: 16, TwoSided: true, Window: dsp.Kaiser(6)}, 257},
	{"spectrogram", dsp.SpectralOptions{NPerSeg: 1, NOverlap: dsp.NoOverlap}, 7},
	{"spectrogram", dsp.SpectralOptions{NPerSeg: 7}, 7},
	{"stft", dsp.SpectralOptions{NPerSeg: 64}, 1000},
	{"stft", dsp.SpectralOptions{NPerSeg: 31, NOverlap: 20, NFFT: 40, Scaling: dsp.ScalingDensity, Fs: 100}, 401},
	{"stft", dsp.SpectralOptions{NPerSeg: 8, TwoSided: true, Window: dsp.Boxcar, Detrend: dsp.DetrendConstant}, 61},
	{"stft", dsp.SpectralOptions{NPerSeg: 1, NOverlap: dsp.NoOverlap}, 1},
	{"stft", dsp.SpectralOptions{NPerSeg: 64, Boundary: dsp.BoundaryEven}, 1000},
	{"stft", dsp.SpectralOptions{NPerSeg: 31, NOverlap: 20, NFFT: 40, Boundary: dsp.BoundaryOdd, NoPadding: true}, 401},
	{"stft", dsp.SpectralOptions{NPerSeg: 8, TwoSided: true, Boundary: dsp.BoundaryConstant, Detrend: dsp.DetrendLinear}, 61},
	{"stft", dsp.SpectralOptions{NPerSeg: 16, NOverlap: 5, Boundary: dsp.BoundaryNone, NoPadding: true}, 100},
	{"stft", dsp.SpectralOptions{NPerSeg: 16, Boundary: dsp.BoundaryNone}, 101},
	{"stft", dsp.SpectralOptions{NPerSeg: 2, Boundary: dsp.BoundaryOdd}, 2},
	{"stft", dsp.SpectralOptions{NPerSeg: 5, NOverlap: 1, Boundary: dsp.BoundaryZeros, NoPadding: true}, 23},
	{"welch", dsp.SpectralOptions{NPerSeg: 128}, 4097},
	{"welch", dsp.SpectralOptions{NPerSeg: 50, NOverlap: 10, Detrend: dsp.DetrendLinear, Scaling: dsp.ScalingSpectrum, Fs: 44100}, 999},
	{"welch", dsp.SpectralOptions{NPerSeg: 9, TwoSided: true, Window: dsp.Tukey(0.5)}, 20},
	{"welch", dsp.SpectralOptions{NPerSeg: 64, Average: dsp.AverageMedian}, 1001},
	{"welch", dsp.SpectralOptions{NPerSeg: 33, NOverlap: 20, Average: dsp.AverageMedian, Scaling: dsp.ScalingSpectrum}, 500},
	{"welch", dsp.SpectralOptions{NPerSeg: 16, Average: dsp.AverageMedian, TwoSided: true}, 16},
}

// spectralRun calls c's function on src.
func spectralRun(c spectralCase, src, dst *gpuimage.Image) (dsp.Axes, error) {
	o := c.o
	switch c.fn {
	case "spectrogram":
		return dsp.Spectrogram(src, dst, &o)
	case "stft":
		return dsp.STFT(src, dst, &o)
	}
	f, err := dsp.Welch(src, dst, &o)
	return dsp.Axes{Freqs: f}, err
}

// Spectrogram, STFT and Welch on the CPU device against SciPy's (float64), two
// random signals a batch, awkward lengths and every option: within 1e-5 of each
// result's largest magnitude; the axes within 1e-12.
func TestSpectralMatchesSciPy(t *testing.T) {
	r := tu.Rand(t)
	var reqs []map[string]any
	var sigs [][][]float32
	for _, c := range spectralCases {
		rows := randRows(r, 2, c.n)
		sigs = append(sigs, rows)
		for _, x := range rows {
			reqs = append(reqs, c.scipyArgs(f64(x)))
		}
	}
	res := scipy(t, reqs)
	for i, c := range spectralCases {
		src := tu.UploadRows(t, gpuimage.CPU(), sigs[i])
		dst := &gpuimage.Image{}
		a, err := spectralRun(c, src, dst)
		if err != nil {
			t.Fatalf("%s %+v: %v", c.fn, c.o, err)
		}
		got := tu.Float32s(t, dst)
		for row := range sigs[i] {
			var want struct{ F, T, Re, Im []float64 }
			raw := res[2*i+row]
			if msg, bad := isError(raw); bad {
				t.Fatalf("%s %+v: SciPy: %s", c.fn, c.o, msg)
			}
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s n=%d %+v row %d", c.fn, c.n, c.o, row)
			if d, ok := closeTo(a.Freqs, want.F, 1e-12); !ok {
				t.Errorf("%s: frequencies off by %.3g", name, d)
			}
			if c.fn != "welch" {
				if d, ok := closeTo(a.Times, want.T, 1e-12); !ok {
					t.Errorf("%s: times off by %.3g", name, d)
				}
			}
			complexOut := dst.Channels() == 2
			per := len(want.Re) // values a signal
			var g, w []float64
			for k := 0; k < per; k++ {
				at := row*per + k
				if complexOut {
					g = append(g, float64(got[2*at]), float64(got[2*at+1]))
					w = append(w, want.Re[k], want.Im[k])
				} else {
					g = append(g, float64(got[at]))
					w = append(w, want.Re[k])
				}
			}
			if d, ok := closeTo(g, w, 1e-5); !ok {
				t.Errorf("%s: off SciPy's by %.3g of the largest", name, d)
			}
		}
		src.Close()
		dst.Close()
	}
}

func randRows(r *rand.Rand, rows, n int) [][]float32 {
	out := make([][]float32, rows)
	for i := range out {
		out[i] = make([]float32, n)
		for k := range out[i] {
			out[i][k] = float32(r.NormFloat64() + 0.3 + 1e-3*float64(k)) // an offset and a trend to detrend
		}
	}
	return out
}

// Bad options get errors naming them.
func TestSpectralErrors(t *testing.T) {
	src := tu.UploadRows(t, gpuimage.CPU(), [][]float32{make([]float32, 100)})
	defer src.Close()
	for _, c := range []struct {
		fn   string
		o    dsp.SpectralOptions
		want string
	}{
		{"spectrogram", dsp.SpectralOptions{}, "nperseg 256 is longer"},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 101}, "nperseg 101"},
		{"stft", dsp.SpectralOptions{NPerSeg: 10, NOverlap: 10}, "noverlap 10"},
		{"welch", dsp.SpectralOptions{NPerSeg: 10, NOverlap: -5}, "noverlap -5"},
		{"welch", dsp.SpectralOptions{NPerSeg: 10, NFFT: 9}, "nfft 9"},
		{"welch", dsp.SpectralOptions{NPerSeg: 10, Fs: -1}, "fs -1"},
		{"stft", dsp.SpectralOptions{NPerSeg: 10, Mode: dsp.ModeMagnitude}, "mode"},
		{"welch", dsp.SpectralOptions{NPerSeg: 10, Detrend: 9}, "detrend 9"},
		{"welch", dsp.SpectralOptions{NPerSeg: 10, Scaling: 7}, "scaling 7"},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 10, Window: dsp.Window{Name: "nope"}}, "nope"},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: -3}, "nperseg -3"},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 10, Boundary: dsp.BoundaryEven}, "STFT's options"},
		{"welch", dsp.SpectralOptions{NPerSeg: 10, NoPadding: true}, "STFT's options"},
		{"stft", dsp.SpectralOptions{NPerSeg: 10, Boundary: 9}, "boundary 9"},
	} {
		dst := &gpuimage.Image{}
		_, err := spectralRun(spectralCase{fn: c.fn, o: c.o}, src, dst)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: error %v, want one naming %q", c.fn, c.o, err, c.want)
		}
		dst.Close()
	}
	// More signals than the GPU's grid covers: refused on every device.
	many, _ := gpuimage.New(gpuimage.CPU(), 65536, 4, gpuimage.CV32FC1)
	defer many.Close()
	if _, err := dsp.Welch(many, &gpuimage.Image{}, &dsp.SpectralOptions{NPerSeg: 2}); err == nil || !strings.Contains(err.Error(), "too many") {
		t.Errorf("65536 signals: %v", err)
	}
	var f32c1 gpuimage.Image
	if _, err := dsp.Spectrogram(src, nil, nil); err == nil {
		t.Error("nil dst accepted")
	}
	u8, _ := gpuimage.New(gpuimage.CPU(), 1, 300, gpuimage.CV8UC1)
	defer u8.Close()
	if _, err := dsp.Welch(u8, &f32c1, nil); err == nil || !strings.Contains(err.Error(), "32FC1") {
		t.Errorf("8UC1 signal: %v", err)
	}
}

// SpectrogramImage draws a tone as one bright row at its frequency, counted up
// from the bottom; gray levels then colours (ApplyColorMap's of the levels); bad
// input gets errors.
func TestSpectrogramImage(t *testing.T) {
	const fs, f0, n = 8000.0, 1000.0, 8000
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(math.Sin(2*math.Pi*f0*float64(i)/fs)) + 1e-3*float32(i%7)
	}
	src := tu.UploadRows(t, gpuimage.CPU(), [][]float32{x})
	defer src.Close()
	o := &dsp.SpectralOptions{Fs: fs, NPerSeg: 256, Window: dsp.Hann}
	g := &gpuimage.Image{}
	defer g.Close()
	a, err := dsp.SpectrogramImage(src, g, o, &dsp.SpectrogramImageOptions{Colormap: "gray", DynamicRange: 60})
	if err != nil {
		t.Fatal(err)
	}
	if g.Type() != gpuimage.CV8UC1 || g.Rows() != len(a.Freqs) || g.Cols() != len(a.Times) {
		t.Fatalf("picture %v %dx%d for %d frequencies and %d segments", g.Type(), g.Cols(), g.Rows(), len(a.Freqs), len(a.Times))
	}
	px := tu.Bytes(t, g)
	bin := int(f0 / fs * 256) // 32: the tone's row, from the bottom
	for _, j := range []int{0, g.Cols() / 2, g.Cols() - 1} {
		if v := px[(g.Rows()-1-bin)*g.Cols()+j]; v < 250 {
			t.Errorf("segment %d: the tone's pixel is %d, want about 255", j, v)
		}
		if v := px[(g.Rows()-1-3*bin)*g.Cols()+j]; v > 100 {
			t.Errorf("segment %d: 3 kHz is %d, want dark", j, v)
		}
	}
	c := &gpuimage.Image{}
	defer c.Close()
	if _, err := dsp.SpectrogramImage(src, c, o, &dsp.SpectrogramImageOptions{Colormap: "viridis", DynamicRange: 60}); err != nil {
		t.Fatal(err)
	}
	want := &gpuimage.Image{}
	defer want.Close()
	if err := colorconv.ApplyColorMap(g, want, colorconv.ColormapViridis); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tu.Bytes(t, c), tu.Bytes(t, want)) {
		t.Error("viridis picture differs from ApplyColorMap of the gray one")
	}
	two := tu.UploadRows(t, gpuimage.CPU(), [][]float32{x, x})
	defer two.Close()
	for _, bad := range []struct {
		src  *gpuimage.Image
		o    *dsp.SpectralOptions
		io   *dsp.SpectrogramImageOptions
		want string
	}{
		{two, o, nil, "2 signals"},
		{src, o, &dsp.SpectrogramImageOptions{DynamicRange: -3}, "dynamic range"},
		{src, o, &dsp.SpectrogramImageOptions{Colormap: "sepia"}, "sepia"},
		{src, &dsp.SpectralOptions{NPerSeg: 64, Mode: dsp.ModeComplex}, nil, "mode"},
		{src, &dsp.SpectralOptions{NPerSeg: 64, NFFT: 1 << 18}, nil, "tall"},
	} {
		d := &gpuimage.Image{}
		if _, err := dsp.SpectrogramImage(bad.src, d, bad.o, bad.io); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v", bad.want, err)
		}
		d.Close()
	}
}

// ISTFT of STFT's output against SciPy's istft of its stft (float64), and the
// round trip against the signal itself (Hann at 50% overlap and the others meet
// SciPy's NOLA condition): within 1e-5 of the largest sample.
func TestISTFTMatchesSciPy(t *testing.T) {
	r := tu.Rand(t)
	cases := []spectralCase{
		{"stft", dsp.SpectralOptions{NPerSeg: 64}, 1000},
		{"stft", dsp.SpectralOptions{NPerSeg: 31, NOverlap: 20, NFFT: 40, Scaling: dsp.ScalingDensity, Fs: 100}, 401},
		{"stft", dsp.SpectralOptions{NPerSeg: 16, NOverlap: 12, Window: dsp.Kaiser(5)}, 17},
		// (nperseg 1 is left out: SciPy's x[0:-0] drops every sample.)
		{"stft", dsp.SpectralOptions{NPerSeg: 2, NOverlap: dsp.NoOverlap, Window: dsp.Boxcar}, 5},
		// Other boundaries: istft's boundary=True drops the same nperseg/2 samples;
		// boundary=None (istft's boundary=False) drops none.
		{"stft", dsp.SpectralOptions{NPerSeg: 32, Boundary: dsp.BoundaryOdd, NoPadding: true}, 999},
		{"stft", dsp.SpectralOptions{NPerSeg: 64, Boundary: dsp.BoundaryNone}, 1000},
		{"stft", dsp.SpectralOptions{NPerSeg: 10, NOverlap: 6, Boundary: dsp.BoundaryNone, NoPadding: true}, 97},
		// Two-sided spectra: a complex signal (of a real one here: imaginary
		// parts at rounding's level).
		{"stft", dsp.SpectralOptions{NPerSeg: 64, TwoSided: true}, 1000},
		{"stft", dsp.SpectralOptions{NPerSeg: 31, NOverlap: 20, NFFT: 41, TwoSided: true, Boundary: dsp.BoundaryEven}, 400},
	}
	var reqs []map[string]any
	var sigs [][][]float32
	for _, c := range cases {
		rows := randRows(r, 2, c.n)
		sigs = append(sigs, rows)
		for _, x := range rows {
			q := c.scipyArgs(f64(x))
			q["inverse"] = true
			reqs = append(reqs, q)
		}
	}
	res := scipy(t, reqs)
	for i, c := range cases {
		src := tu.UploadRows(t, gpuimage.CPU(), sigs[i])
		z, y := &gpuimage.Image{}, &gpuimage.Image{}
		o := c.o
		if _, err := dsp.STFT(src, z, &o); err != nil {
			t.Fatal(err)
		}
		if err := dsp.ISTFT(z, y, &o); err != nil {
			t.Fatalf("%+v: %v", c.o, err)
		}
		got := tu.Float32s(t, y)
		ch := y.Channels() // 2: complex, from two-sided spectra
		for row, x := range sigs[i] {
			var want struct{ Re, Im []float64 }
			if msg, bad := isError(res[2*i+row]); bad {
				t.Fatalf("%+v: SciPy: %s", c.o, msg)
			}
			if err := json.Unmarshal(res[2*i+row], &want); err != nil {
				t.Fatal(err)
			}
			if y.Cols() != len(want.Re) {
				t.Fatalf("%+v: %d samples, SciPy %d", c.o, y.Cols(), len(want.Re))
			}
			g, gi := make([]float64, y.Cols()), make([]float64, y.Cols())
			for k := range g {
				g[k] = float64(got[(row*y.Cols()+k)*ch])
				if ch == 2 {
					gi[k] = float64(got[(row*y.Cols()+k)*ch+1])
				}
			}
			if d, ok := closeTo(g, want.Re, 1e-5); !ok {
				t.Errorf("%+v row %d: off SciPy's istft by %.3g", c.o, row, d)
			}
			// The imaginary parts against the largest of the complex signal.
			if ch == 2 {
				if d, ok := closeTo(append(g, gi...), append(append([]float64(nil), want.Re...), want.Im...), 1e-5); !ok {
					t.Errorf("%+v row %d: the imaginary parts are off SciPy's istft by %.3g", c.o, row, d)
				}
			}
			if ch != 1+btoi(c.o.TwoSided) {
				t.Errorf("%+v: %d channels", c.o, ch)
			}
			// Without a boundary the window's zero ends leave the first sample
			// (and the last) unrecovered; without padding the tail may be cut.
			if n := min(len(g), len(x)); c.o.Boundary != dsp.BoundaryNone {
				if d, ok := closeTo(g[:n], f64(x[:n]), 1e-5); !ok {
					t.Errorf("%+v row %d: the round trip is off the signal by %.3g", c.o, row, d)
				}
			}
		}
		for _, im := range []*gpuimage.Image{src, z, y} {
			im.Close()
		}
	}
	bad := &gpuimage.Image{}
	defer bad.Close()
	u := tu.UploadRows(t, gpuimage.CPU(), [][]float32{make([]float32, 10)})
	defer u.Close()
	if err := dsp.ISTFT(u, bad, nil); err == nil || !strings.Contains(err.Error(), "32FC2") {
		t.Errorf("32FC1 input: %v", err)
	}
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ISTFT of random two-sided spectra (not a real signal's: the inverse is truly
// complex) against SciPy's istft with input_onesided=False: within 1e-5 of the
// largest magnitude.
func TestISTFTComplexMatchesSciPy(t *testing.T) {
	r := tu.Rand(t)
	cases := []struct {
		o          dsp.SpectralOptions
		nfft, nseg int
	}{
		{dsp.SpectralOptions{NPerSeg: 16, TwoSided: true}, 16, 9},
		{dsp.SpectralOptions{NPerSeg: 31, NOverlap: 20, NFFT: 41, TwoSided: true, Scaling: dsp.ScalingDensity, Fs: 8}, 41, 12},
		{dsp.SpectralOptions{NPerSeg: 8, TwoSided: true, Boundary: dsp.BoundaryNone, Window: dsp.Hamming}, 8, 5},
	}
	var reqs []map[string]any
	var zs [][]float32
	for _, c := range cases {
		z := make([]float32, 2*c.nfft*c.nseg)
		re, im := make([][]float64, c.nfft), make([][]float64, c.nfft)
		for k := range re {
			re[k], im[k] = make([]float64, c.nseg), make([]float64, c.nseg)
			for j := range re[k] {
				a, b := float32(r.NormFloat64()), float32(r.NormFloat64())
				z[2*(k*c.nseg+j)], z[2*(k*c.nseg+j)+1] = a, b
				re[k][j], im[k][j] = float64(a), float64(b)
			}
		}
		zs = append(zs, z)
		q := spectralCase{fn: "stft", o: c.o}.scipyArgs(nil)
		q["fn"], q["re"], q["im"] = "istft", re, im
		q["boundary"] = c.o.Boundary != dsp.BoundaryNone
		reqs = append(reqs, q)
	}
	res := scipy(t, reqs)
	for i, c := range cases {
		src, err := gpuimage.NewFromData(gpuimage.CPU(), c.nfft, c.nseg, gpuimage.CV32FC2, zs[i])
		if err != nil {
			t.Fatal(err)
		}
		y := &gpuimage.Image{}
		o := c.o
		if err := dsp.ISTFT(src, y, &o); err != nil {
			t.Fatalf("%+v: %v", c.o, err)
		}
		var want struct{ Re, Im []float64 }
		if msg, bad := isError(res[i]); bad {
			t.Fatalf("%+v: SciPy: %s", c.o, msg)
		}
		if err := json.Unmarshal(res[i], &want); err != nil {
			t.Fatal(err)
		}
		if y.Type() != gpuimage.CV32FC2 || y.Cols() != len(want.Re) {
			t.Fatalf("%+v: %v of %d samples, SciPy %d complex ones", c.o, y.Type(), y.Cols(), len(want.Re))
		}
		got := tu.Float32s(t, y)
		g, w := make([]float64, len(got)), make([]float64, 0, len(got))
		for k := range got {
			g[k] = float64(got[k])
		}
		for k := range want.Re {
			w = append(w, want.Re[k], want.Im[k])
		}
		if d, ok := closeTo(g, w, 1e-5); !ok {
			t.Errorf("%+v: off SciPy's istft by %.3g of the largest", c.o, d)
		}
		src.Close()
		y.Close()
	}
}
