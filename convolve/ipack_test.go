package convolve

import (
	"math/bits"
	"slices"
	"testing"
)

// The packed kernels divide each 16-bit sum s by D as umulhi(s, floor(2^32/D)+1)
// (kernels/filter_ipack.cu: ipk_word): exact for every s they can see, for each D they take.
func TestPackedQuotient(t *testing.T) {
	for _, den := range []int{9, 25} {
		magic := uint32((1<<32)/den + 1)
		for s := range uint32(1 << 16) {
			if q, _ := bits.Mul32(s, magic); int(q) != int(s)/den {
				t.Fatalf("D=%d: %d/D gives %d, want %d", den, s, q, int(s)/den)
			}
		}
	}
}

// intTaps finds the integer taps behind the box and Gaussian kernels the packed
// kernels take, and refuses others.
func TestIntTaps(t *testing.T) {
	g5, _ := GaussianKernel(5, 0)
	g3, _ := GaussianKernel(3, 0)
	for _, c := range []struct {
		v    []float64
		want []int
		den  int
	}{
		{g5, []int{1, 4, 6, 4, 1}, 16},
		{fixedPoint8(g5), []int{1, 4, 6, 4, 1}, 16},
		{g3, []int{1, 2, 1}, 4},
		{[]float64{1. / 25, 1. / 25, 1. / 25, 1. / 25, 1. / 25}, []int{1, 1, 1, 1, 1}, 25},
		{[]float64{1, 1, 1}, []int{1, 1, 1}, 1},
	} {
		got, den, ok := intTaps(c.v)
		if !ok || den != c.den || !slices.Equal(got, c.want) {
			t.Errorf("intTaps(%v) = %v/%d, %v; want %v/%d", c.v, got, den, ok, c.want, c.den)
		}
	}
	for _, v := range [][]float64{{-1, 0, 1}, {0.3, 0.4, 0.3001}} {
		if got, den, ok := intTaps(v); ok {
			t.Errorf("intTaps(%v) = %v/%d, want refused", v, got, den)
		}
	}
}

// The derivative taps the packed kernels compute are DerivKernels' for Sobel and
// Scharr (ksize 3, scale 1), and within their lanes' 16 bits: the smoothing's
// taps times 255 below the bias (1024 for Sobel, 4096 for Scharr).
func TestPackedDerivTaps(t *testing.T) {
	for _, c := range []struct {
		name        string
		dx, dy, ksz int
		bias        float64
	}{{"sobelx", 1, 0, 3, 1024}, {"sobely", 0, 1, 3, 1024}, {"scharrx", 1, 0, FilterScharr, 4096}, {"scharry", 0, 1, FilterScharr, 4096}} {
		kx, ky, err := DerivKernels(c.dx, c.dy, c.ksz)
		if err != nil {
			t.Fatal(err)
		}
		if got := derivName(&plan{kx: kx, ky: ky}); got != c.name {
			t.Errorf("DerivKernels(%d, %d, %d): %q, want %q", c.dx, c.dy, c.ksz, got, c.name)
		}
		smooth := ky
		if c.dy == 1 {
			smooth = kx
		}
		sum := 0.0
		for _, v := range smooth {
			sum += v
		}
		if 255*sum >= c.bias || 2*c.bias+255*sum > 1<<16 {
			t.Errorf("%s: smoothing sum %g does not fit the bias %g", c.name, sum, c.bias)
		}
	}
}
