package dsp_test

import (
	"encoding/json"
	"image"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// signals returns rows random signals of n samples as a 32FC1 image on dev, and
// their values.
func signals(t testing.TB, r *rand.Rand, dev *gpuimage.Device, rows, n int) (*gpuimage.Image, [][]float32) {
	vals := make([][]float32, rows)
	buf := make([]float32, 0, rows*n)
	for y := range vals {
		vals[y] = make([]float32, n)
		for i := range vals[y] {
			vals[y][i] = float32(r.NormFloat64())
		}
		buf = append(buf, vals[y]...)
	}
	im, err := gpuimage.New(dev, rows, n, gpuimage.CV32FC1)
	if err != nil {
		t.Fatal(err)
	}
	if err := im.Upload(tu.F32Bytes(buf)); err != nil {
		t.Fatal(err)
	}
	return im, vals
}

func randTaps(r *rand.Rand, m int) []float64 {
	h := make([]float64, m)
	for i := range h {
		h[i] = float64(float32(r.NormFloat64() / math.Sqrt(float64(m))))
	}
	return h
}

// rmsErr is the largest difference between got and want over want's RMS.
func rmsErr(got, want []float64) float64 {
	var ss float64
	for _, w := range want {
		ss += w * w
	}
	rms := math.Max(math.Sqrt(ss/float64(max(1, len(want)))), 1e-30)
	worst := 0.0
	for i := range got {
		worst = math.Max(worst, math.Abs(got[i]-want[i]))
	}
	return worst / rms
}

// termErr is the largest difference between got and want over the larger of
// want's RMS and the RMS a filter of taps h gives white noise of x's RMS: a
// transform's rounding follows the signal's energy through the filter, not the
// values of an output whose products cancel (a signal of one sample).
func termErr(got, want []float64, x []float32, h []float64) float64 {
	var sx, sh, sw float64
	for _, v := range x {
		sx += float64(v) * float64(v)
	}
	for _, v := range h {
		sh += v * v
	}
	for _, v := range want {
		sw += v * v
	}
	scale := math.Max(math.Sqrt(sw/float64(max(1, len(want)))), math.Sqrt(sx/float64(max(1, len(x)))*sh))
	worst := 0.0
	for i := range got {
		worst = math.Max(worst, math.Abs(got[i]-want[i]))
	}
	return worst / math.Max(scale, 1e-30)
}

type convCase struct {
	n, m  int
	mode  dsp.Mode
	corr  bool
	x     []float32
	h     []float64
	label string
}

// Convolve and Correlate on the CPU device, every method, against scipy.signal's
// (method 'direct', float64) on fresh random signals of awkward lengths, every mode, short
// and long filters (taps longer than the signal too): within 1e-5 of the output's RMS.
func TestConvolveMatchesSciPy(t *testing.T) {
	r := tu.Rand(t)
	var cs []convCase
	var cases []map[string]any
	for _, n := range []int{1, 2, 7, 1023, 4097} {
		for _, m := range []int{1, 2, 8, 63, 512, 1500} {
			for _, mode := range []dsp.Mode{dsp.Full, dsp.Same, dsp.Valid} {
				for _, corr := range []bool{false, true} {
					if n*m > 4097*512 && mode != dsp.Valid {
						continue
					}
					c := convCase{n: n, m: m, mode: mode, corr: corr, h: randTaps(r, m)}
					c.x = make([]float32, n)
					for i := range c.x {
						c.x[i] = float32(r.NormFloat64())
					}
					fn := "convolve"
					if corr {
						fn = "correlate"
					}
					cs = append(cs, c)
					cases = append(cases, map[string]any{"fn": fn, "x": c.x, "h": c.h, "mode": mode.String()})
				}
			}
		}
	}
	res := scipy(t, cases)
	for i, c := range cs {
		var want []float64
		if err := json.Unmarshal(res[i], &want); err != nil {
			t.Fatalf("SciPy: %.200s", res[i])
		}
		src, err := gpuimage.New(gpuimage.CPU(), 1, c.n, gpuimage.CV32FC1)
		if err != nil {
			t.Fatal(err)
		}
		src.Upload(tu.F32Bytes(c.x))
		f := dsp.Convolve
		if c.corr {
			f = dsp.Correlate
		}
		for _, meth := range []dsp.Method{dsp.Direct, dsp.FFT, dsp.Auto} {
			dst := &gpuimage.Image{}
			if err := f(src, dst, c.h, c.mode, meth); err != nil {
				t.Fatalf("n=%d m=%d %v %v corr=%v: %v", c.n, c.m, c.mode, meth, c.corr, err)
			}
			got := tu.Float32s(t, dst)
			if dst.Rows() != 1 || len(got) != len(want) {
				t.Errorf("n=%d m=%d %v %v corr=%v: %dx%d, SciPy %d samples", c.n, c.m, c.mode, meth, c.corr, dst.Rows(), dst.Cols(), len(want))
			} else if e := rmsErr(f64(got), want); e > 1e-5 {
				t.Errorf("n=%d m=%d %v %v corr=%v: off SciPy by %.3g of the RMS", c.n, c.m, c.mode, meth, c.corr, e)
			}
			dst.Close()
		}
		src.Close()
	}
}

func f64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// Batches: each row is its own signal; an ROI view reads only its window; an
// output that overlaps the input is written through a new image; bad input gets
// errors that name it.
func TestConvolveRowsViewsAndErrors(t *testing.T) {
	r := tu.Rand(t)
	cpuDev := gpuimage.CPU()
	src, vals := signals(t, r, cpuDev, 5, 300)
	defer src.Close()
	h := randTaps(r, 17)
	all := &gpuimage.Image{}
	defer all.Close()
	if err := dsp.Convolve(src, all, h, dsp.Same, dsp.Auto); err != nil {
		t.Fatal(err)
	}
	for y := range vals {
		one, _ := gpuimage.New(cpuDev, 1, 300, gpuimage.CV32FC1)
		one.Upload(tu.F32Bytes(vals[y]))
		out := &gpuimage.Image{}
		dsp.Convolve(one, out, h, dsp.Same, dsp.Auto)
		row, _ := all.Region(image.Rect(0, y, 300, y+1))
		if a, b := tu.Float32s(t, row), tu.Float32s(t, out); !equalF32(a, b) {
			t.Errorf("row %d of the batch differs from the row alone", y)
		}
		one.Close()
		out.Close()
	}
	// A view: rows 1-3, samples 50-249, against the same samples copied out.
	view, err := src.Region(image.Rect(50, 1, 250, 4))
	if err != nil {
		t.Fatal(err)
	}
	copied := &gpuimage.Image{}
	defer copied.Close()
	view.CopyTo(copied)
	a, b := &gpuimage.Image{}, &gpuimage.Image{}
	defer a.Close()
	defer b.Close()
	dsp.Correlate(view, a, h, dsp.Full, dsp.Auto)
	dsp.Correlate(copied, b, h, dsp.Full, dsp.Auto)
	if !equalF32(tu.Float32s(t, a), tu.Float32s(t, b)) || a.Cols() != 200+17-1 || a.Rows() != 3 {
		t.Errorf("a view's correlation differs from its copy's (%dx%d)", a.Cols(), a.Rows())
	}
	// In place.
	in := &gpuimage.Image{}
	defer in.Close()
	src.CopyTo(in)
	if err := dsp.Convolve(in, in, h, dsp.Same, dsp.Auto); err != nil || !equalF32(tu.Float32s(t, in), tu.Float32s(t, all)) {
		t.Errorf("in place: %v", err)
	}
	u8, _ := gpuimage.New(cpuDev, 2, 8, gpuimage.CV8UC1)
	defer u8.Close()
	c2, _ := gpuimage.New(cpuDev, 2, 8, gpuimage.CV32FC2)
	defer c2.Close()
	out := &gpuimage.Image{}
	defer out.Close()
	for _, bad := range []struct {
		name string
		err  error
		want string
	}{
		{"8-bit", dsp.Convolve(u8, out, h, dsp.Full, dsp.Auto), "32FC1"},
		{"complex", dsp.Convolve(c2, out, h, dsp.Full, dsp.Auto), "32FC1"},
		{"no taps", dsp.Convolve(src, out, nil, dsp.Full, dsp.Auto), "no taps"},
		{"NaN tap", dsp.Convolve(src, out, []float64{1, math.NaN()}, dsp.Full, dsp.Auto), "tap 1"},
		{"huge tap", dsp.Correlate(src, out, []float64{1e300}, dsp.Full, dsp.Auto), "tap 0"},
		{"mode", dsp.Convolve(src, out, h, dsp.Mode(7), dsp.Auto), "mode"},
		{"method", dsp.Convolve(src, out, h, dsp.Full, dsp.Method(9)), "method"},
		{"nil src", dsp.Convolve(nil, out, h, dsp.Full, dsp.Auto), "dsp.Convolve"},
		{"nil dst", dsp.Convolve(src, nil, h, dsp.Full, dsp.Auto), "dst"},
	} {
		if bad.err == nil || !strings.Contains(bad.err.Error(), bad.want) {
			t.Errorf("%s: %v (want an error about %q)", bad.name, bad.err, bad.want)
		}
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// randTapsSeeded is randTaps from its own seeded source (for goroutines).
func randTapsSeeded(seed int64, m int) []float64 { return randTaps(rand.New(rand.NewSource(seed)), m) }

// ConvolveBank is Convolve with each filter (exactly, on the CPU device), for
// either method, an output that is the input included; bad banks get errors.
func TestConvolveBank(t *testing.T) {
	r := tu.Rand(t)
	cpuDev := gpuimage.CPU()
	src, _ := signals(t, r, cpuDev, 3, 500)
	defer src.Close()
	bank := [][]float64{randTaps(r, 33), randTaps(r, 33), randTaps(r, 33)}
	for _, meth := range []dsp.Method{dsp.Direct, dsp.FFT} {
		for _, mode := range []dsp.Mode{dsp.Full, dsp.Same, dsp.Valid} {
			outs := []*gpuimage.Image{{}, {}, {}}
			if err := dsp.ConvolveBank(src, outs, bank, mode, meth); err != nil {
				t.Fatal(err)
			}
			for k, h := range bank {
				want := &gpuimage.Image{}
				dsp.Convolve(src, want, h, mode, meth)
				if !equalF32(tu.Float32s(t, outs[k]), tu.Float32s(t, want)) {
					t.Errorf("%v %v: band %d differs from Convolve's", meth, mode, k)
				}
				want.Close()
				outs[k].Close()
			}
		}
	}
	// The input as one of the outputs.
	in := &gpuimage.Image{}
	defer in.Close()
	src.CopyTo(in)
	other := &gpuimage.Image{}
	defer other.Close()
	if err := dsp.ConvolveBank(in, []*gpuimage.Image{other, in}, bank[:2], dsp.Same, dsp.Auto); err != nil {
		t.Fatal(err)
	}
	want := &gpuimage.Image{}
	defer want.Close()
	dsp.Convolve(src, want, bank[1], dsp.Same, dsp.Auto)
	if !equalF32(tu.Float32s(t, in), tu.Float32s(t, want)) {
		t.Errorf("in place: band 1 differs from Convolve's")
	}
	out := &gpuimage.Image{}
	defer out.Close()
	for _, bad := range []struct {
		name string
		err  error
		want string
	}{
		{"no filters", dsp.ConvolveBank(src, nil, nil, dsp.Same, dsp.Auto), "no filters"},
		{"count", dsp.ConvolveBank(src, []*gpuimage.Image{out}, bank, dsp.Same, dsp.Auto), "1 outputs for 3 filters"},
		{"lengths", dsp.ConvolveBank(src, []*gpuimage.Image{out, {}}, [][]float64{{1, 2}, {1}}, dsp.Same, dsp.Auto), "equally long"},
		{"nil", dsp.ConvolveBank(src, []*gpuimage.Image{out, nil}, bank[:2], dsp.Same, dsp.Auto), "output 1"},
		{"twice", dsp.ConvolveBank(src, []*gpuimage.Image{out, out}, bank[:2], dsp.Same, dsp.Auto), "same image"},
		{"NaN", dsp.ConvolveBank(src, []*gpuimage.Image{out, {}}, [][]float64{{1}, {math.NaN()}}, dsp.Same, dsp.Auto), "filter 1: tap 0"},
	} {
		if bad.err == nil || !strings.Contains(bad.err.Error(), bad.want) {
			t.Errorf("%s: %v (want an error about %q)", bad.name, bad.err, bad.want)
		}
	}
}
