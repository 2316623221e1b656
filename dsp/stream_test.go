package dsp_test

import (
	"errors"
	"image"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// upload is vals (rows of equal length) as an image on dev.
func upload(t testing.TB, dev *gpuimage.Device, vals [][]float32) *gpuimage.Image {
	return tu.UploadRows(t, dev, vals)
}

// chunked feeds src to process in chunks of the given sizes (cycled) and returns
// the outputs joined, one slice a row.
func chunked(t testing.TB, src *gpuimage.Image, sizes []int, process func(in, out *gpuimage.Image) error) [][]float32 {
	out := make([][]float32, src.Rows())
	n := src.Cols()
	for x0, k := 0, 0; x0 < n; k++ {
		w := min(sizes[k%len(sizes)], n-x0)
		part, err := src.Region(image.Rect(x0, 0, x0+w, src.Rows()))
		if err != nil {
			t.Fatal(err)
		}
		dst := &gpuimage.Image{}
		if err := process(part, dst); err != nil {
			t.Fatal(err)
		}
		if dst.Cols() != w || dst.Rows() != src.Rows() {
			t.Fatalf("a chunk of %dx%d gave %dx%d", w, src.Rows(), dst.Cols(), dst.Rows())
		}
		v := tu.Float32s(t, dst)
		for y := range out {
			out[y] = append(out[y], v[y*w:(y+1)*w]...)
		}
		part.Close()
		dst.Close()
		x0 += w
	}
	return out
}

func flat(rows [][]float32) []float64 {
	var v []float64
	for _, r := range rows {
		v = append(v, f64(r)...)
	}
	return v
}

// testStreams checks NewFIR, NewSOS and NewFilterBank on dev against one call on
// the whole signal on the CPU device, in chunks of 1, 7, 1024 and 4097 samples
// (and other orders of them): FIR within 1e-5 of the RMS, SOS within 1e-4 (the
// state is float32 between chunks); the crossover's bands sum to the delayed input
// within 1e-4.
func testStreams(t *testing.T, dev *gpuimage.Device) {
	r := tu.Rand(t)
	cpuSrc, vals := signals(t, r, gpuimage.CPU(), 3, 12000)
	defer cpuSrc.Close()
	src := cpuSrc
	if dev != gpuimage.CPU() {
		src = upload(t, dev, vals)
		defer src.Close()
	}
	chunkings := [][]int{{1, 7, 1024, 4097}, {4097, 1024}, {7}}
	for _, m := range []int{1, 63, 600, 2049} {
		h := randTaps(r, m)
		whole := &gpuimage.Image{}
		if err := dsp.LFilter(cpuSrc, whole, h, []float64{1}); err != nil {
			t.Fatal(err)
		}
		want := f64(tu.Float32s(t, whole))
		whole.Close()
		for _, sizes := range chunkings {
			f, err := dsp.NewFIR(dev, h, 3)
			if err != nil {
				t.Fatal(err)
			}
			got := flat(chunked(t, src, sizes, func(in, out *gpuimage.Image) error { return f.Process(in, out) }))
			if e := rmsErr(got, want); e > 1e-5 {
				t.Errorf("FIR of %d taps in chunks of %v: off one call by %.3g of the RMS", m, sizes, e)
			}
			f.Close()
		}
	}
	sos, _ := dsp.Butter(8, []float64{0.1, 0.4}, dsp.Bandpass, 0)
	whole := &gpuimage.Image{}
	if err := dsp.SOSFilt(cpuSrc, whole, sos); err != nil {
		t.Fatal(err)
	}
	want := f64(tu.Float32s(t, whole))
	whole.Close()
	for _, sizes := range chunkings {
		f, err := dsp.NewSOS(dev, sos, 3)
		if err != nil {
			t.Fatal(err)
		}
		got := flat(chunked(t, src, sizes, func(in, out *gpuimage.Image) error { return f.Process(in, out) }))
		if e := rmsErr(got, want); e > 1e-4 {
			t.Errorf("SOS in chunks of %v: off one call by %.3g of the RMS", sizes, e)
		}
		f.Close()
	}
	bands, err := dsp.Crossover(48000, []float64{250, 2000, 8000}, 1023, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := dsp.NewFilterBank(dev, bands, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sum := make([][]float64, 3)
	for y := range sum {
		sum[y] = make([]float64, 12000)
	}
	for x0, k := 0, 0; x0 < 12000; k++ {
		w := min([]int{1, 7, 1024, 4097}[k%4], 12000-x0)
		part, _ := src.Region(image.Rect(x0, 0, x0+w, 3))
		outs := []*gpuimage.Image{{}, {}, {}, {}}
		if err := b.Process(part, outs); err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			v := tu.Float32s(t, o)
			for y := 0; y < 3; y++ {
				for i := 0; i < w; i++ {
					sum[y][x0+i] += float64(v[y*w+i])
				}
			}
			o.Close()
		}
		part.Close()
		x0 += w
	}
	var got, delayed []float64
	for y := 0; y < 3; y++ {
		got = append(got, sum[y]...)
		d := make([]float64, 12000)
		for i := 511; i < 12000; i++ {
			d[i] = float64(vals[y][i-511])
		}
		delayed = append(delayed, d...)
	}
	if e := rmsErr(got, delayed); e > 1e-4 {
		t.Errorf("the crossover's bands, streamed, sum to the delayed input within %.3g of the RMS, want 1e-4", e)
	}
	// Each filter of a bank against one LFilter call on the CPU: long and short
	// filters, more filters than one GPU launch runs (8), first chunks that set
	// the GPU's block length (1024, a length of no 2^a 3^b 5^c 7^d, one sample),
	// and a Reset in the middle.
	for _, c := range []struct {
		m, k  int
		sizes []int
	}{
		{8191, 4, []int{1024}}, {8191, 4, []int{1000, 1024, 7, 4097}}, {300, 9, []int{1031, 1, 2048}},
		{1, 2, []int{7, 1024}}, {2049, 3, []int{1, 4097, 7}},
	} {
		bank := make([][]float64, c.k)
		wants := make([][]float64, c.k)
		for i := range bank {
			bank[i] = randTaps(r, c.m)
			whole := &gpuimage.Image{}
			if err := dsp.LFilter(cpuSrc, whole, bank[i], []float64{1}); err != nil {
				t.Fatal(err)
			}
			wants[i] = f64(tu.Float32s(t, whole))
			whole.Close()
		}
		b, err := dsp.NewFilterBank(dev, bank, 3)
		if err != nil {
			t.Fatal(err)
		}
		for pass := 0; pass < 2; pass++ { // the second after a Reset
			outs := make([][][]float32, c.k)
			for x0, j := 0, 0; x0 < 12000; j++ {
				w := min(c.sizes[j%len(c.sizes)], 12000-x0)
				part, _ := src.Region(image.Rect(x0, 0, x0+w, 3))
				ims := make([]*gpuimage.Image, c.k)
				for i := range ims {
					ims[i] = &gpuimage.Image{}
				}
				if err := b.Process(part, ims); err != nil {
					t.Fatal(err)
				}
				for i, o := range ims {
					v := tu.Float32s(t, o)
					if outs[i] == nil {
						outs[i] = make([][]float32, 3)
					}
					for y := 0; y < 3; y++ {
						outs[i][y] = append(outs[i][y], v[y*w:(y+1)*w]...)
					}
					o.Close()
				}
				part.Close()
				x0 += w
			}
			for i := range bank {
				if e := rmsErr(flat(outs[i]), wants[i]); e > 1e-5 {
					t.Errorf("bank of %d x %d taps in chunks of %v (pass %d): filter %d off one call by %.3g of the RMS", c.k, c.m, c.sizes, pass, i, e)
				}
			}
			if err := b.Reset(); err != nil {
				t.Fatal(err)
			}
		}
		nilOut := make([]*gpuimage.Image, c.k)
		if err := b.Process(src, nilOut); !errors.Is(err, gpuimage.ErrNil) {
			t.Errorf("bank with nil outputs: %v, want ErrNil", err)
		}
		b.Close()
		outs := make([]*gpuimage.Image, c.k)
		for i := range outs {
			outs[i] = &gpuimage.Image{}
		}
		if err := b.Process(src, outs); !errors.Is(err, gpuimage.ErrClosed) {
			t.Errorf("closed bank: %v, want ErrClosed", err)
		}
	}
}

func TestStreams(t *testing.T) { testStreams(t, gpuimage.CPU()) }

// Streaming filters refuse bad set-ups and chunks with errors that name them.
func TestStreamErrors(t *testing.T) {
	dev := gpuimage.CPU()
	r := rand.New(rand.NewSource(1))
	two, _ := signals(t, r, dev, 2, 100)
	defer two.Close()
	u8, _ := gpuimage.New(dev, 3, 100, gpuimage.CV8UC1)
	defer u8.Close()
	f, _ := dsp.NewFIR(dev, []float64{1, 2, 3}, 3)
	defer f.Close()
	s, _ := dsp.NewSOS(dev, dsp.SOS{{1, 0, 0, 1, 0.5, 0}}, 3)
	defer s.Close()
	_, errTaps := dsp.NewFIR(dev, nil, 3)
	_, errCh := dsp.NewSOS(dev, dsp.SOS{{1, 0, 0, 1, 0, 0}}, 0)
	_, errBank := dsp.NewFilterBank(dev, [][]float64{{1, 2}, {1}}, 3)
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"no taps", "no taps", errTaps},
		{"no channels", "0 channels", errCh},
		{"unequal bank", "equally long", errBank},
		{"2 rows for 3 channels", "2 channels for a filter of 3", f.Process(two, &gpuimage.Image{})},
		{"8-bit chunk", "32FC1", s.Process(u8, &gpuimage.Image{})},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, c.err, c.want)
		}
	}
}
