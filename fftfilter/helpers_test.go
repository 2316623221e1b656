package fftfilter_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// floats decodes 32F bytes.
func floats(b []byte) []float64 { return tu.Values(gpuimage.Depth32F, b) }

// encode encodes float32 values.
func encode(v []float64) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(f)))
	}
	return b
}

// closeEnough compares float results of transforms, whose rounding error scales with
// the largest value: |got-want| <= rel*|want| + floor*max|want|.
func closeEnough(t *testing.T, what string, got, want []byte, rel, floor float64) {
	t.Helper()
	mx := 0.0
	for _, v := range floats(want) {
		mx = math.Max(mx, math.Abs(v))
	}
	closeAbs(t, what, got, want, rel, floor*mx)
}

// closeAbs compares floats within rel*|want| + abs.
func closeAbs(t *testing.T, what string, got, want []byte, rel, abs float64) {
	t.Helper()
	g, w := floats(got), floats(want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d values, want %d", what, len(g), len(w))
	}
	mx := 0.0
	for _, v := range w {
		mx = math.Max(mx, math.Abs(v))
	}
	bad, worst, first := 0, 0.0, ""
	for i := range g {
		d := math.Abs(g[i] - w[i])
		if !(d <= rel*math.Abs(w[i])+abs) {
			if bad == 0 {
				first = fmt.Sprintf("element %d: got %v, want %v", i, g[i], w[i])
			}
			bad++
		}
		worst = math.Max(worst, d/math.Max(mx, 1e-30))
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values off (worst %.3g of the largest value %.4g); %s", what, bad, len(g), worst, mx, first)
	}
}

// sizes are the rows x cols the transform tests cover: single pixels, rows and
// columns of odd and even lengths, awkward and power-of-two sizes.
var sizes = [][2]int{{1, 1}, {1, 7}, {1, 8}, {7, 1}, {8, 1}, {5, 6}, {6, 5}, {2, 2}, {3, 3}, {300, 451}, {451, 300}, {1, 4097}, {4097, 1}, {32, 64}, {45, 61}}

func newImage(t *testing.T, dev *gpuimage.Device, rows, cols int, mt gpuimage.MatType, data []byte) *gpuimage.Image {
	t.Helper()
	im, err := gpuimage.NewFromBytes(dev, rows, cols, mt, data)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// dftCases are the flag combinations checked, by input channels.
var dftCases = []struct {
	cn    int
	flags fftfilter.Flags
}{
	{1, 0}, {1, fftfilter.DFTComplexOutput}, {1, fftfilter.DFTRows}, {1, fftfilter.DFTRows | fftfilter.DFTComplexOutput},
	{1, fftfilter.DFTScale}, {1, fftfilter.DFTInverse}, {1, fftfilter.DFTInverse | fftfilter.DFTScale},
	{1, fftfilter.DFTInverse | fftfilter.DFTRows},
	{2, 0}, {2, fftfilter.DFTInverse}, {2, fftfilter.DFTInverse | fftfilter.DFTScale}, {2, fftfilter.DFTRows},
	{2, fftfilter.DFTInverse | fftfilter.DFTRealOutput | fftfilter.DFTScale},
	{2, fftfilter.DFTInverse | fftfilter.DFTRealOutput | fftfilter.DFTRows},
}

var filters = []fftfilter.Filter{
	{Kind: fftfilter.LowPassKind, Shape: fftfilter.Ideal, Cutoff: 20.5},
	{Kind: fftfilter.LowPassKind, Shape: fftfilter.Butterworth, Cutoff: 12, Order: 2},
	{Kind: fftfilter.LowPassKind, Shape: fftfilter.Gaussian, Cutoff: 9},
	{Kind: fftfilter.HighPassKind, Shape: fftfilter.Gaussian, Cutoff: 15},
	{Kind: fftfilter.HighPassKind, Shape: fftfilter.Butterworth, Cutoff: 7.5, Order: 3},
	{Kind: fftfilter.BandPassKind, Shape: fftfilter.Ideal, Cutoff: 30.25, Width: 10},
	{Kind: fftfilter.BandRejectKind, Shape: fftfilter.Butterworth, Cutoff: 25, Width: 8, Order: 2},
	{Kind: fftfilter.BandRejectKind, Shape: fftfilter.Gaussian, Cutoff: 25, Width: 8},
	{Kind: fftfilter.NotchRejectKind, Shape: fftfilter.Gaussian, Notches: []fftfilter.Notch{{U: 20, V: 10, Radius: 3}, {U: -7, V: 30, Radius: 5}}},
	{Kind: fftfilter.NotchPassKind, Shape: fftfilter.Butterworth, Order: 2, Notches: []fftfilter.Notch{{U: 40, V: 0, Radius: 6}}},
}

// checkFiltered allows ±1 for integer depths (float32 transforms in both) and, for
// 32F, 1e-4 relative with a floor of 1e-5 of the largest value.
// checkConvolved is checkFiltered for a convolution whose terms reach scale (see
// termScale): float results within 1e-4 relative plus 2e-6 of scale, since an
// FFT's rounding follows the size of the terms, not of their sum (taps of both
// signs can cancel to a result far smaller than the terms).
func checkConvolved(t *testing.T, name string, d gpuimage.Depth, got, want []byte, scale float64) {
	t.Helper()
	if d == gpuimage.Depth32F {
		closeAbs(t, name, got, want, 1e-4, 2e-6*scale)
		return
	}
	tu.Check(t, name, d, got, want)
}

// termScale bounds a convolution's terms: the largest input magnitude times the
// sum of the taps' magnitudes times the scale factor.
func termScale(d gpuimage.Depth, data []byte, kern [][]float64, factor float64) float64 {
	mx := 0.0
	for _, v := range tu.Values(d, data) {
		mx = math.Max(mx, math.Abs(v))
	}
	sum := 0.0
	for _, row := range kern {
		for _, k := range row {
			sum += math.Abs(k)
		}
	}
	return mx * sum * math.Abs(factor)
}

func checkFiltered(t *testing.T, name string, d gpuimage.Depth, got, want []byte) {
	t.Helper()
	if d == gpuimage.Depth32F {
		closeEnough(t, name, got, want, 1e-4, 1e-5)
		return
	}
	tu.Check(t, name, d, got, want)
}
