package resample_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/resample"
)

// scipy runs testdata/scipy_ref.py on the cases (tu.SciPy).
func scipy(t *testing.T, cases []map[string]any) []json.RawMessage {
	t.Helper()
	return tu.SciPy(t, "testdata/scipy_ref.py", cases, len(cases))
}

// rmsErr is the largest difference between got and want relative to want's RMS
// (or 1 where want is all zeros), and false when their shapes differ.
func rmsErr(got, want [][]float64) (float64, bool) {
	if len(got) != len(want) {
		return math.Inf(1), false
	}
	var ss float64
	var n int
	for y := range want {
		if len(got[y]) != len(want[y]) {
			return math.Inf(1), false
		}
		for _, v := range want[y] {
			ss += v * v
			n++
		}
	}
	rms := math.Sqrt(ss / float64(max(n, 1)))
	if rms == 0 {
		rms = 1
	}
	var worst float64
	for y := range want {
		for i := range want[y] {
			worst = math.Max(worst, math.Abs(got[y][i]-want[y][i])/rms)
		}
	}
	return worst, true
}

// The ratios the issue names, and a few more.
var ratios = [][2]int{{1, 2}, {2, 1}, {3, 2}, {160, 147}, {147, 160}, {1, 7}, {4, 6}, {5, 1}, {1, 1}}

// Poly and UpFirDn on the CPU device against SciPy's resample_poly and upfirdn on
// fresh random signals: lengths 1 to 4097, batches, the default filter, other
// windows and caller's taps; within 1e-5 of the output's RMS. PolyFilter against
// SciPy's design.
func TestPolyMatchesSciPy(t *testing.T) {
	r := tu.Rand(t)
	type call struct {
		name string
		run  func(src, dst *gpuimage.Image) error
	}
	var cases []map[string]any
	var calls []call
	var srcs [][][]float32
	add := func(c map[string]any, name string, run func(src, dst *gpuimage.Image) error, vals [][]float32) {
		c["x"] = vals
		cases = append(cases, c)
		calls = append(calls, call{name, run})
		srcs = append(srcs, vals)
	}
	for _, n := range []int{1, 2, 7, 1023, 4097} {
		for _, ud := range ratios {
			up, down := ud[0], ud[1]
			nrows := 1 + r.Intn(3)
			vals := randVals(r, nrows, n)
			add(map[string]any{"fn": "resample_poly", "up": up, "down": down}, fmt.Sprintf("poly %d/%d %dx%d", up, down, nrows, n),
				func(src, dst *gpuimage.Image) error { return resample.Poly(src, dst, up, down, nil) }, vals)
		}
		for _, w := range []dsp.Window{dsp.Hamming, dsp.Kaiser(8.6)} {
			vals := randVals(r, 2, n)
			win := any(w.Name)
			if w.Name == "kaiser" {
				win = []any{"kaiser", w.Beta}
			}
			add(map[string]any{"fn": "resample_poly", "up": 3, "down": 5, "window": win}, fmt.Sprintf("poly 3/5 %v 2x%d", w, n),
				func(src, dst *gpuimage.Image) error {
					return resample.Poly(src, dst, 3, 5, &resample.PolyOptions{Window: w})
				}, vals)
		}
		for _, m := range []int{1, 4, 31} {
			taps := randTaps(r, m)
			vals := randVals(r, 1, n)
			add(map[string]any{"fn": "resample_poly", "up": 4, "down": 3, "taps": taps}, fmt.Sprintf("poly 4/3 taps=%d 1x%d", m, n),
				func(src, dst *gpuimage.Image) error {
					return resample.Poly(src, dst, 4, 3, &resample.PolyOptions{Taps: taps})
				}, vals)
		}
		for _, c := range []struct{ m, up, down int }{{1, 1, 1}, {5, 1, 1}, {7, 3, 1}, {64, 1, 3}, {9, 4, 3}, {200, 2, 7}} {
			h := randTaps(r, c.m)
			vals := randVals(r, 2, n)
			add(map[string]any{"fn": "upfirdn", "up": c.up, "down": c.down, "h": h}, fmt.Sprintf("upfirdn m=%d %d/%d 2x%d", c.m, c.up, c.down, n),
				func(src, dst *gpuimage.Image) error { return resample.UpFirDn(src, dst, h, c.up, c.down) }, vals)
		}
	}
	res := scipy(t, cases)
	var worst float64
	for i, c := range calls {
		var want [][]float64
		if err := json.Unmarshal(res[i], &want); err != nil {
			t.Fatalf("%s: SciPy: %s", c.name, res[i])
		}
		src := upload(t, gpuimage.CPU(), srcs[i])
		dst := &gpuimage.Image{}
		if err := c.run(src, dst); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		e, ok := rmsErr(tu.Rows(t, dst), want)
		worst = math.Max(worst, e)
		if !ok || e > 1e-5 {
			t.Errorf("%s: %dx%d off SciPy's %dx%d by %.3g of the RMS", c.name, dst.Cols(), dst.Rows(), len(want[0]), len(want), e)
		}
		src.Close()
		dst.Close()
	}
	t.Logf("%d cases, largest difference %.3g of the RMS", len(calls), worst)

	// The designed filter.
	var fc []map[string]any
	for _, ud := range ratios[:6] {
		fc = append(fc, map[string]any{"fn": "filter", "up": ud[0], "down": ud[1], "x": [][]float64{{0}}})
	}
	for i, f := range scipy(t, fc) {
		var want []float64
		if err := json.Unmarshal(f, &want); err != nil {
			t.Fatal(err)
		}
		got, err := resample.PolyFilter(ratios[i][0], ratios[i][1], dsp.Window{})
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := rmsErr([][]float64{got}, [][]float64{want}); !ok || e > 1e-9 {
			t.Errorf("PolyFilter(%d, %d): off SciPy's by %.3g (%d taps, want %d)", ratios[i][0], ratios[i][1], e, len(got), len(want))
		}
	}
}

func randVals(r *rand.Rand, rows, n int) [][]float32 {
	v := make([][]float32, rows)
	for y := range v {
		v[y] = make([]float32, n)
		for i := range v[y] {
			v[y][i] = float32(r.NormFloat64())
		}
	}
	return v
}

func randTaps(r *rand.Rand, m int) []float64 {
	h := make([]float64, m)
	for i := range h {
		h[i] = float64(float32(r.NormFloat64()))
	}
	return h
}

func upload(t testing.TB, dev *gpuimage.Device, vals [][]float32) *gpuimage.Image {
	return tu.UploadRows(t, dev, vals)
}

// Bad input: clear errors, nothing written.
func TestPolyBadInput(t *testing.T) {
	cpu := gpuimage.CPU()
	src := upload(t, cpu, randVals(tu.Rand(t), 2, 100))
	defer src.Close()
	u8, err := gpuimage.New(cpu, 2, 100, gpuimage.CV8UC1)
	if err != nil {
		t.Fatal(err)
	}
	defer u8.Close()
	dst := &gpuimage.Image{}
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"up 0", "up 0 and down 1", resample.Poly(src, dst, 0, 1, nil)},
		{"down -1", "up 2 and down -1", resample.Poly(src, dst, 2, -1, nil)},
		{"upfirdn up 0", "up 0 and down 3", resample.UpFirDn(src, dst, []float64{1}, 0, 3)},
		{"no taps", "no taps", resample.UpFirDn(src, dst, nil, 1, 2)},
		{"NaN tap", "tap 1 is NaN", resample.UpFirDn(src, dst, []float64{1, math.NaN()}, 1, 2)},
		{"Inf tap", "tap 0 is +Inf", resample.Poly(src, dst, 2, 3, &resample.PolyOptions{Taps: []float64{math.Inf(1)}})},
		{"8-bit", "32FC1", resample.Poly(u8, dst, 2, 3, nil)},
		{"nil dst", "dst", resample.Poly(src, nil, 2, 3, nil)},
		{"filter", "up 1 and down 0", func() error { _, err := resample.PolyFilter(1, 0, dsp.Window{}); return err }()},
		{"huge", "too many", resample.UpFirDn(src, dst, []float64{1}, 1<<30, 1)},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, c.err, c.want)
		}
	}
	if !dst.Empty() {
		t.Errorf("a failed call wrote dst (%dx%d)", dst.Cols(), dst.Rows())
	}
	if err := resample.Poly(src, nil, 2, 3, nil); !errors.Is(err, gpuimage.ErrNil) {
		t.Errorf("nil dst: %v, want ErrNil", err)
	}
}

// In place and into a view of the source: the result as into a new image.
func TestPolyInPlace(t *testing.T) {
	src := upload(t, gpuimage.CPU(), randVals(tu.Rand(t), 3, 500))
	defer src.Close()
	want := &gpuimage.Image{}
	defer want.Close()
	if err := resample.Poly(src, want, 3, 2, nil); err != nil {
		t.Fatal(err)
	}
	if err := resample.Poly(src, src, 3, 2, nil); err != nil {
		t.Fatal(err)
	}
	tu.Check(t, "in place", gpuimage.Depth32F, tu.Bytes(t, src), tu.Bytes(t, want))
}
