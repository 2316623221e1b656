package resample_test

import (
	"fmt"
	"image"
	"math/rand"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/resample"
)

// streamed feeds vals to a Stream on dev in chunks of random sizes from sizes and
// returns the outputs, Flush's included, joined a row.
func streamed(t testing.TB, r *rand.Rand, dev *gpuimage.Device, vals [][]float32, up, down int, sizes []int) ([][]float64, int) {
	t.Helper()
	st, err := resample.NewStream(dev, up, down, len(vals), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src := upload(t, dev, vals)
	defer src.Close()
	got := make([][]float64, len(vals))
	take := func(out *gpuimage.Image, k int) {
		if k == 0 {
			return
		}
		if out.Cols() != k || out.Rows() != len(vals) {
			t.Fatalf("%d x %d output for %d samples of %d channels", out.Cols(), out.Rows(), k, len(vals))
		}
		for y, row := range tu.Rows(t, out) {
			got[y] = append(got[y], row...)
		}
	}
	n := len(vals[0])
	for i := 0; i < n; {
		c := min(sizes[r.Intn(len(sizes))], n-i)
		chunk, err := src.Region(image.Rect(i, 0, i+c, len(vals)))
		if err != nil {
			t.Fatal(err)
		}
		out := tu.Poisoned(t, dev, len(vals), 1, gpuimage.CV32FC1)
		k, err := st.Process(chunk, out)
		if err != nil {
			t.Fatal(err)
		}
		take(out, k)
		out.Close()
		chunk.Close()
		i += c
	}
	out := &gpuimage.Image{}
	k, err := st.Flush(out)
	if err != nil {
		t.Fatal(err)
	}
	take(out, k)
	out.Close()
	return got, st.Delay()
}

// Streaming in chunks of 1, 7, 1024 and 4097 samples gives Poly's output, Delay
// samples later, for every ratio of the SciPy test, on the CPU device.
func TestStreamMatchesPoly(t *testing.T) {
	r := tu.Rand(t)
	for _, ud := range ratios {
		for _, n := range []int{1, 5000} {
			vals := randVals(r, 2, n)
			got, delay := streamed(t, r, gpuimage.CPU(), vals, ud[0], ud[1], []int{1, 7, 1024, 4097})
			src := upload(t, gpuimage.CPU(), vals)
			want := &gpuimage.Image{}
			if err := resample.Poly(src, want, ud[0], ud[1], nil); err != nil {
				t.Fatal(err)
			}
			w := tu.Rows(t, want)
			name := fmt.Sprintf("%d/%d 2x%d", ud[0], ud[1], n)
			if len(got[0]) != delay+len(w[0]) {
				t.Errorf("%s: %d samples streamed, want Delay %d + Poly's %d", name, len(got[0]), delay, len(w[0]))
			} else {
				for y := range got {
					got[y] = got[y][delay:]
				}
				if e, ok := rmsErr(got, w); !ok || e > 1e-6 {
					t.Errorf("%s: off Poly by %.3g of the RMS", name, e)
				}
			}
			src.Close()
			want.Close()
		}
	}
}

// Bad input to a stream: clear errors.
func TestStreamBadInput(t *testing.T) {
	cpu := gpuimage.CPU()
	if _, err := resample.NewStream(cpu, 0, 1, 1, nil); err == nil {
		t.Error("up 0: no error")
	}
	if _, err := resample.NewStream(cpu, 2, 1, 0, nil); err == nil {
		t.Error("0 channels: no error")
	}
	st, err := resample.NewStream(cpu, 3, 2, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src := upload(t, cpu, randVals(tu.Rand(t), 3, 10))
	defer src.Close()
	out := &gpuimage.Image{}
	if _, err := st.Process(src, out); err == nil {
		t.Error("3 channels into a stream of 2: no error")
	}
	if _, err := st.Process(src, nil); err == nil {
		t.Error("nil out: no error")
	}
	if _, err := st.Flush(nil); err == nil {
		t.Error("Flush into nil: no error")
	}
}
