package fftfilter_test

import (
	"errors"
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

func TestRoundTrip(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range sizes {
		rows, cols := sz[0], sz[1]
		for _, flags := range []fftfilter.Flags{0, fftfilter.DFTRows, fftfilter.DFTComplexOutput} {
			x := make([]float64, rows*cols)
			for i := range x {
				x[i] = r.Float64()*10 - 5
			}
			in := newImage(t, gpuimage.CPU(), rows, cols, gpuimage.CV32FC1, encode(x))
			spec, back := &gpuimage.Image{}, &gpuimage.Image{}
			if err := fftfilter.DFT(in, spec, flags); err != nil {
				t.Fatal(err)
			}
			inv := fftfilter.DFTScale | flags&fftfilter.DFTRows
			if flags&fftfilter.DFTComplexOutput != 0 {
				inv |= fftfilter.DFTRealOutput
			}
			if err := fftfilter.IDFT(spec, back, inv); err != nil {
				t.Fatal(err)
			}
			closeEnough(t, fmt.Sprintf("IDFT(DFT(x)) %dx%d flags %d", rows, cols, flags), tu.Bytes(t, back), encode(x), 1e-5, 1e-6)
			in.Close()
			spec.Close()
			back.Close()
		}
	}
}

func TestResponse(t *testing.T) {
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	lp := fftfilter.Filter{Kind: fftfilter.LowPassKind, Shape: fftfilter.Butterworth, Cutoff: 5, Order: 2}
	near("Butterworth low-pass at D0", lp.Response(3, 4), 0.5)
	near("Butterworth low-pass at 0", lp.Response(0, 0), 1)
	near("Butterworth low-pass at 2 D0", lp.Response(10, 0), 1/(1+math.Pow(2, 4)))
	g := fftfilter.Filter{Kind: fftfilter.HighPassKind, Shape: fftfilter.Gaussian, Cutoff: 5}
	near("Gaussian high-pass at D0", g.Response(0, -5), 1-math.Exp(-0.5))
	id := fftfilter.Filter{Kind: fftfilter.LowPassKind, Shape: fftfilter.Ideal, Cutoff: 5}
	near("ideal low-pass inside", id.Response(3, 4), 1)
	near("ideal low-pass outside", id.Response(3, 4.01), 0)
	br := fftfilter.Filter{Kind: fftfilter.BandRejectKind, Shape: fftfilter.Gaussian, Cutoff: 10, Width: 4}
	near("Gaussian band-reject on the ring", br.Response(6, 8), 0)
	near("Gaussian band-reject at 0", br.Response(0, 0), 1)
	bp := fftfilter.Filter{Kind: fftfilter.BandPassKind, Shape: fftfilter.Ideal, Cutoff: 10, Width: 4}
	near("ideal band-pass at the ring's edge", bp.Response(12, 0), 1)
	near("ideal band-pass outside", bp.Response(12.5, 0), 0)
	bb := fftfilter.Filter{Kind: fftfilter.BandRejectKind, Shape: fftfilter.Butterworth, Cutoff: 10, Width: 4, Order: 1}
	near("Butterworth band-reject on the ring", bb.Response(0, 10), 0)
	nr := fftfilter.Filter{Kind: fftfilter.NotchRejectKind, Shape: fftfilter.Ideal, Notches: []fftfilter.Notch{{U: 20, V: -10, Radius: 2}}}
	near("notch at its centre", nr.Response(20, -10), 0)
	near("notch at its mirror", nr.Response(-20, 10), 0)
	near("notch elsewhere", nr.Response(20, 10), 1)
	np := nr
	np.Kind = fftfilter.NotchPassKind
	near("notch pass at its centre", np.Response(21, -10), 1)
}

func TestBadInput(t *testing.T) {
	cpu := gpuimage.CPU()
	f32, _ := gpuimage.New(cpu, 4, 6, gpuimage.CV32FC1)
	c2, _ := gpuimage.New(cpu, 4, 6, gpuimage.CV32FC2)
	u8, _ := gpuimage.New(cpu, 4, 6, gpuimage.CV8UC1)
	other, _ := gpuimage.New(cpu, 5, 6, gpuimage.CV32FC1)
	closed, _ := gpuimage.New(cpu, 4, 6, gpuimage.CV32FC1)
	closed.Close()
	mask3, _ := gpuimage.New(cpu, 4, 6, gpuimage.CV32FC3)
	defer func() {
		for _, im := range []*gpuimage.Image{f32, c2, u8, other, mask3} {
			im.Close()
		}
	}()
	out := &gpuimage.Image{}
	defer out.Close()
	lp := fftfilter.Filter{Kind: fftfilter.LowPassKind, Shape: fftfilter.Gaussian, Cutoff: 3}
	cases := []struct {
		name string
		err  error
		call func() error
	}{
		{"DFT of 8U", gpuimage.ErrBadType, func() error { return fftfilter.DFT(u8, out, 0) }},
		{"complex input flag on a real image", fftfilter.ErrBadFlags, func() error { return fftfilter.DFT(f32, out, fftfilter.DFTComplexInput) }},
		{"unknown flag", fftfilter.ErrBadFlags, func() error { return fftfilter.DFT(f32, out, 8) }},
		{"closed image", gpuimage.ErrClosed, func() error { return fftfilter.DFT(closed, out, 0) }},
		{"nil image", gpuimage.ErrNil, func() error { return fftfilter.DFT(nil, out, 0) }},
		{"empty image", gpuimage.ErrEmpty, func() error { return fftfilter.DFT(&gpuimage.Image{}, out, 0) }},
		{"mismatched spectra", gpuimage.ErrSizeMismatch, func() error { return fftfilter.MulSpectrums(f32, other, out, 0, false) }},
		{"CCS times complex", fftfilter.ErrBadSpectrum, func() error { return fftfilter.MulSpectrums(f32, c2, out, 0, false) }},
		{"8U spectrum", fftfilter.ErrBadSpectrum, func() error { return fftfilter.MulSpectrums(u8, u8, out, 0, false) }},
		{"magnitude size mismatch", gpuimage.ErrSizeMismatch, func() error { return fftfilter.Magnitude(f32, other, out) }},
		{"phase of 8U", gpuimage.ErrBadType, func() error { return fftfilter.Phase(u8, u8, out, false) }},
		{"empty mask", gpuimage.ErrEmpty, func() error { return fftfilter.ApplyMask(f32, out, &gpuimage.Image{}) }},
		{"nil mask", fftfilter.ErrBadMask, func() error { return fftfilter.ApplyMask(f32, out, nil) }},
		{"pad into nil", gpuimage.ErrNil, func() error { return fftfilter.PadToOptimal(f32, nil) }},
		{"nil output", gpuimage.ErrNil, func() error { return fftfilter.LowPass(f32, nil, fftfilter.Gaussian, 3, 0) }},
		{"spectrum of nil", gpuimage.ErrNil, func() error { return fftfilter.Spectrum(nil, out) }},
		{"mask of the wrong size", fftfilter.ErrBadMask, func() error { return fftfilter.ApplyMask(f32, out, other) }},
		{"mask of the wrong type", fftfilter.ErrBadMask, func() error { return fftfilter.ApplyMask(f32, out, mask3) }},
		{"zero cutoff", fftfilter.ErrBadMask, func() error { return fftfilter.LowPass(f32, out, fftfilter.Gaussian, 0, 0) }},
		{"NaN cutoff", fftfilter.ErrBadMask, func() error { return fftfilter.HighPass(f32, out, fftfilter.Ideal, math.NaN(), 0) }},
		{"Butterworth order 0", fftfilter.ErrBadMask, func() error { return fftfilter.LowPass(f32, out, fftfilter.Butterworth, 3, 0) }},
		{"band of no width", fftfilter.ErrBadMask, func() error { return fftfilter.BandPass(f32, out, fftfilter.Gaussian, 3, 0, 0) }},
		{"no notches", fftfilter.ErrBadMask, func() error { return fftfilter.NotchReject(f32, out, fftfilter.Gaussian, nil, 0) }},
		{"unknown shape", fftfilter.ErrBadMask, func() error { return fftfilter.Apply(f32, out, fftfilter.Filter{Shape: 7, Cutoff: 1}) }},
		{"filter a complex image", gpuimage.ErrBadType, func() error { return fftfilter.Apply(c2, out, lp) }},
		{"spectrum of a complex image", gpuimage.ErrBadType, func() error { return fftfilter.Spectrum(c2, out) }},
		{"nil kernel", fftfilter.ErrBadKernel, func() error {
			return fftfilter.Convolve(f32, out, -1, nil, image.Pt(-1, -1), 0, gpuimage.BorderDefault)
		}},
		{"ragged kernel", fftfilter.ErrBadKernel, func() error {
			return fftfilter.Convolve(f32, out, -1, [][]float64{{1, 2}, {3}}, image.Pt(-1, -1), 0, gpuimage.BorderDefault)
		}},
		{"anchor outside", fftfilter.ErrBadKernel, func() error {
			return fftfilter.Convolve(f32, out, -1, [][]float64{{1, 2}}, image.Pt(2, 0), 0, gpuimage.BorderDefault)
		}},
		{"bad ddepth", gpuimage.ErrBadType, func() error {
			return fftfilter.Convolve(f32, out, gpuimage.Depth8U, [][]float64{{1}}, image.Pt(-1, -1), 0, gpuimage.BorderDefault)
		}},
	}
	for _, c := range cases {
		err := c.call()
		if !errors.Is(err, c.err) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.err)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	if err := fftfilter.Convolve(f32, out, -1, [][]float64{{1}}, image.Pt(-1, -1), 0, 7); err == nil {
		t.Error("border 7: no error")
	}
}

// In place: every call may write over its input.
func TestInPlace(t *testing.T) {
	r := tu.Rand(t)
	img, data := tu.Random(t, r, gpuimage.CPU(), 30, 41, gpuimage.CV32FC1)
	defer img.Close()
	want := &gpuimage.Image{}
	defer want.Close()
	if err := fftfilter.LowPass(img, want, fftfilter.Gaussian, 5, 0); err != nil {
		t.Fatal(err)
	}
	if err := fftfilter.LowPass(img, img, fftfilter.Gaussian, 5, 0); err != nil {
		t.Fatal(err)
	}
	tu.Check(t, "LowPass in place", gpuimage.Depth32F, tu.Bytes(t, img), tu.Bytes(t, want))
	if err := img.Upload(data); err != nil {
		t.Fatal(err)
	}
	if err := fftfilter.DFT(img, want, 0); err != nil {
		t.Fatal(err)
	}
	if err := fftfilter.DFT(img, img, 0); err != nil {
		t.Fatal(err)
	}
	tu.Check(t, "DFT in place", gpuimage.Depth32F, tu.Bytes(t, img), tu.Bytes(t, want))
}

func TestPadToOptimal(t *testing.T) {
	src, err := gpuimage.NewFromData(gpuimage.CPU(), 2, 7, gpuimage.CV8UC1, []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	if err := fftfilter.PadToOptimal(src, dst); err != nil {
		t.Fatal(err)
	}
	got, _ := gpuimage.ToData[uint8](dst)
	want := []uint8{1, 2, 3, 4, 5, 6, 7, 0, 8, 9, 10, 11, 12, 13, 14, 0}
	if dst.Rows() != 2 || dst.Cols() != 8 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("padded to %dx%d: %v, want 2x8 %v", dst.Rows(), dst.Cols(), got, want)
	}
	if err := fftfilter.PadToOptimal(src, src); err == nil {
		t.Error("padding into src: no error")
	}
}
