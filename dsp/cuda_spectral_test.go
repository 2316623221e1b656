//go:build cuda

package dsp_test

import (
	"fmt"
	"image"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Spectrogram, STFT and Welch on the GPU against the CPU device: the SciPy test's
// cases and longer ones (1024-sample segments, hop 256, 1e5 samples), batches of
// three signals, a view of a larger image, into poisoned outputs; within 1e-5 of
// each result's largest magnitude (float32 on the GPU, float64 on the CPU).
func TestCUDASpectralMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	cases := append([]spectralCase{
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1024, NOverlap: 768, Window: dsp.Hann}, 100000},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1000, NOverlap: 500, Mode: dsp.ModeComplex, Detrend: dsp.DetrendLinear}, 20011},
		{"welch", dsp.SpectralOptions{NPerSeg: 4096}, 100000},
		{"welch", dsp.SpectralOptions{NPerSeg: 256, Average: dsp.AverageMedian}, 100000},
		{"welch", dsp.SpectralOptions{NPerSeg: 1000, NOverlap: 100, Average: dsp.AverageMedian, TwoSided: true}, 30001},
		{"stft", dsp.SpectralOptions{NPerSeg: 512, TwoSided: true}, 9999},
		// Enough segments for the fused kernels (nfft 1024, 2048, 4096).
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1024, NOverlap: 960, Window: dsp.Hann}, 100000},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1500, NFFT: 2048, NOverlap: 1400, Detrend: dsp.DetrendLinear, Fs: 44100}, 150001},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 4096, NOverlap: 4000, Detrend: dsp.DetrendNone, Scaling: dsp.ScalingSpectrum}, 200000},
		// The fused kernels' constant detrend (the signals' trend takes the
		// segments' means from 0.3 to 200), other windows and scalings.
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1500, NFFT: 2048, NOverlap: 1400, Fs: 44100}, 150001},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 4096, NOverlap: 4000, Window: dsp.Hann}, 200000},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1024, NOverlap: 1000, Window: dsp.Blackman, Scaling: dsp.ScalingSpectrum}, 100003},
		// nfft 1024's warp kernel: zero-padded segments with the line detrended, and
		// no detrend.
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1000, NFFT: 1024, NOverlap: 980, Detrend: dsp.DetrendLinear, Window: dsp.Hamming}, 100001},
		{"spectrogram", dsp.SpectralOptions{NPerSeg: 1024, NOverlap: 1001, Detrend: dsp.DetrendNone, Fs: 8000}, 99999},
	}, spectralCases...)
	for _, c := range cases {
		rows := randRows(r, 3, c.n+9)
		cb, gb := tu.UploadRows(t, gpuimage.CPU(), rows), tu.UploadRows(t, gpu, rows)
		for _, view := range []bool{false, true} {
			cs, gs := cb, gb
			if view { // columns 4 .. n+3 of rows 1 and 2
				cs, _ = cb.Region(image.Rect(4, 1, 4+c.n, 3))
				gs, _ = gb.Region(image.Rect(4, 1, 4+c.n, 3))
			} else {
				cs, _ = cb.Region(image.Rect(0, 0, c.n, 3))
				gs, _ = gb.Region(image.Rect(0, 0, c.n, 3))
			}
			want := &gpuimage.Image{}
			if _, err := spectralRun(c, cs, want); err != nil {
				t.Fatalf("%s %+v: CPU: %v", c.fn, c.o, err)
			}
			got := tu.Poisoned(t, gpu, want.Rows(), want.Cols(), want.Type())
			if _, err := spectralRun(c, gs, got); err != nil {
				t.Fatalf("%s %+v: GPU: %v", c.fn, c.o, err)
			}
			g, w := tu.Float32s(t, got), tu.Float32s(t, want)
			gf, wf := make([]float64, len(g)), make([]float64, len(w))
			for i := range g {
				gf[i], wf[i] = float64(g[i]), float64(w[i])
			}
			name := fmt.Sprintf("%s n=%d %+v view=%v", c.fn, c.n, c.o, view)
			if d, ok := closeTo(gf, wf, 1e-5); !ok {
				t.Errorf("%s: GPU off the CPU's by %.3g of the largest", name, d)
			}
			for _, im := range []*gpuimage.Image{cs, gs, want, got} {
				im.Close()
			}
		}
		cb.Close()
		gb.Close()
	}
}

// SpectrogramImage's levels on the GPU against the CPU device's: within 1 (log10 in
// float32 on the GPU, float64 on the CPU), with the rows flipped the same way.
func TestCUDASpectrogramImage(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, n := range []int{64, 4097, 100000} {
		x := randRows(r, 1, n)
		cs, gs := tu.UploadRows(t, gpuimage.CPU(), x), tu.UploadRows(t, gpu, x)
		o := &dsp.SpectralOptions{NPerSeg: 64, NOverlap: 16}
		io := &dsp.SpectrogramImageOptions{Colormap: "gray", DynamicRange: 50}
		want := &gpuimage.Image{}
		if _, err := dsp.SpectrogramImage(cs, want, o, io); err != nil {
			t.Fatal(err)
		}
		got := tu.Poisoned(t, gpu, want.Rows(), want.Cols(), gpuimage.CV8UC1)
		if _, err := dsp.SpectrogramImage(gs, got, o, io); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, fmt.Sprintf("n=%d", n), gpuimage.Depth8U, tu.Bytes(t, got), tu.Bytes(t, want))
		for _, im := range []*gpuimage.Image{cs, gs, want, got} {
			im.Close()
		}
	}
}

// ISTFT on the GPU against the CPU device, of GPU STFTs (each device inverting its
// own) and of the same spectrum: within 1e-5 of the largest sample; the round trip
// returns the signal.
func TestCUDAISTFTMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, c := range []spectralCase{
		{"stft", dsp.SpectralOptions{NPerSeg: 1024, NOverlap: 768}, 100000},
		{"stft", dsp.SpectralOptions{NPerSeg: 31, NOverlap: 20, NFFT: 40, Scaling: dsp.ScalingDensity, Fs: 100}, 401},
		{"stft", dsp.SpectralOptions{NPerSeg: 4}, 7},
		{"stft", dsp.SpectralOptions{NPerSeg: 2, NOverlap: dsp.NoOverlap, Window: dsp.Boxcar}, 5},
		{"stft", dsp.SpectralOptions{NPerSeg: 32, Boundary: dsp.BoundaryEven, NoPadding: true}, 999},
		// Hamming: no boundary leaves the first and last samples to the window's
		// ends alone, and Hann's (squares near 1e-5 and 0) would magnify float32's
		// rounding there past 1e-5.
		{"stft", dsp.SpectralOptions{NPerSeg: 64, NOverlap: 60, Window: dsp.Hamming, Boundary: dsp.BoundaryNone}, 1000},
		// Two-sided: the complex inverse (cuFFT's C2C), a complex signal.
		{"stft", dsp.SpectralOptions{NPerSeg: 1024, NOverlap: 768, TwoSided: true}, 100000},
		{"stft", dsp.SpectralOptions{NPerSeg: 31, NOverlap: 20, NFFT: 41, TwoSided: true, Boundary: dsp.BoundaryOdd}, 400},
	} {
		x := randRows(r, 3, c.n)
		cs, gs := tu.UploadRows(t, gpuimage.CPU(), x), tu.UploadRows(t, gpu, x)
		o := c.o
		cz, gz := &gpuimage.Image{}, &gpuimage.Image{}
		if _, err := dsp.STFT(cs, cz, &o); err != nil {
			t.Fatal(err)
		}
		if _, err := dsp.STFT(gs, gz, &o); err != nil {
			t.Fatal(err)
		}
		cy := &gpuimage.Image{}
		if err := dsp.ISTFT(cz, cy, &o); err != nil {
			t.Fatal(err)
		}
		gy := tu.Poisoned(t, gpu, cy.Rows(), cy.Cols(), cy.Type())
		if err := dsp.ISTFT(gz, gy, &o); err != nil {
			t.Fatal(err)
		}
		g, w := tu.Float32s(t, gy), tu.Float32s(t, cy)
		gf, wf, xf := make([]float64, len(g)), make([]float64, len(w)), make([]float64, 0, len(w))
		for i := range g {
			gf[i], wf[i] = float64(g[i]), float64(w[i])
		}
		ch := cy.Channels()
		for row := range x {
			for k := 0; k < cy.Cols(); k++ {
				// The signal, then STFT's padding: zeros past the zero boundary,
				// the extension's samples past the others (taken as the CPU has them).
				v := 0.0
				if k < c.n {
					v = float64(x[row][k])
				} else if c.o.Boundary != dsp.BoundaryZeros && c.o.Boundary != dsp.BoundaryNone {
					v = wf[(row*cy.Cols()+k)*ch]
				}
				xf = append(xf, v)
				if ch == 2 {
					xf = append(xf, 0) // a real signal's imaginary part
				}
			}
		}
		if d, ok := closeTo(gf, wf, 1e-5); !ok {
			t.Errorf("%+v n=%d: GPU off the CPU's by %.3g", c.o, c.n, d)
		}
		if d, ok := closeTo(gf, xf, 1e-5); !ok {
			t.Errorf("%+v n=%d: the GPU's round trip is off the signal by %.3g", c.o, c.n, d)
		}
		for _, im := range []*gpuimage.Image{cs, gs, cz, gz, cy, gy} {
			im.Close()
		}
	}
}

// ISTFT of random two-sided spectra (a truly complex inverse) on the GPU against
// the CPU device, into poisoned outputs: within 1e-5 of the largest magnitude.
func TestCUDAISTFTComplexMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, c := range []struct {
		o                dsp.SpectralOptions
		sigs, nfft, nseg int
	}{
		{dsp.SpectralOptions{NPerSeg: 16, TwoSided: true}, 1, 16, 9},
		{dsp.SpectralOptions{NPerSeg: 1000, NOverlap: 750, NFFT: 1024, TwoSided: true, Window: dsp.Hamming}, 3, 1024, 301},
		{dsp.SpectralOptions{NPerSeg: 7, NOverlap: 2, TwoSided: true, Boundary: dsp.BoundaryNone, Window: dsp.Hamming}, 2, 7, 40},
	} {
		z := make([]float32, 2*c.sigs*c.nfft*c.nseg)
		for i := range z {
			z[i] = float32(r.NormFloat64())
		}
		var ys [2][]float32
		for d, dev := range []*gpuimage.Device{gpuimage.CPU(), gpu} {
			src, err := gpuimage.NewFromData(dev, c.sigs*c.nfft, c.nseg, gpuimage.CV32FC2, z)
			if err != nil {
				t.Fatal(err)
			}
			o := c.o
			want := &gpuimage.Image{}
			if err := dsp.ISTFT(src, want, &o); err != nil {
				t.Fatal(err)
			}
			y := tu.Poisoned(t, dev, want.Rows(), want.Cols(), want.Type())
			if err := dsp.ISTFT(src, y, &o); err != nil {
				t.Fatal(err)
			}
			ys[d] = tu.Float32s(t, y)
			for _, im := range []*gpuimage.Image{src, want, y} {
				im.Close()
			}
		}
		g, w := make([]float64, len(ys[1])), make([]float64, len(ys[0]))
		for i := range g {
			g[i], w[i] = float64(ys[1][i]), float64(ys[0][i])
		}
		if d, ok := closeTo(g, w, 1e-5); !ok {
			t.Errorf("%+v: GPU off the CPU's by %.3g", c.o, d)
		}
	}
}
