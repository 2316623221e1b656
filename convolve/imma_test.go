package convolve

import (
	"math"
	"math/rand"
	"testing"
)

// immaSum is what the tensor-core kernel computes for one output: each digit
// plane's sum of products in int32, the top two planes combined in int32, times
// 1/2^shift (and the lowest plane's of three, times 1/2^shift, first), plus delta,
// in float32.
func immaSum(t *testing.T, q immaQuant, px [][]uint8, delta float32) float32 {
	var planes [3]int64
	for i, row := range q.w {
		for j := range row {
			for k := range q.digits {
				planes[k] += int64(q.digit(i, j, k)) * int64(px[i][j])
			}
		}
	}
	top := planes[q.digits-1]*256 + planes[q.digits-2]
	if top != int64(int32(top)) {
		t.Fatalf("the top planes' sum %d overflows int32", top)
	}
	scale := float32(math.Ldexp(1, -q.shift))
	if q.digits == 2 {
		return fma32(float32(top), scale, delta)
	}
	return fma32(float32(top), 256*scale, fma32(float32(planes[0]), scale, delta))
}

// fma32 is fmaf: x*y + z rounded once to float32.
func fma32(x, y, z float32) float32 { return float32(math.FMA(float64(x), float64(y), float64(z))) }

func TestImmaQuantize(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	soft := func(n int) [][]float64 { // the bench's 7x7 kernel
		rr := rand.New(rand.NewSource(int64(n)))
		k := make([][]float64, n)
		for i := range k {
			k[i] = make([]float64, n)
			for j := range k[i] {
				k[i][j] = rr.Float64()/float64(n*n) + 0.001*float64(i*j%7)
			}
		}
		return k
	}
	wide := [][]float64{{3, -1e-3, 0.5}, {1, 2, 3}, {-7, 0.25, 1e-4}}
	cases := []struct {
		name   string
		k      [][]float64
		digits int // 0: refused
	}{
		{"soft 7x7", soft(7), 2},
		{"integers", [][]float64{{0, -1, 0}, {-1, 5, -1}, {0, -1, 0}}, 2},
		{"zeros", [][]float64{{0, 0}, {0, 0}}, 2},
		{"wide range", wide, 3},
		{"huge", [][]float64{{1e6, 0.3}}, 0},
		{"NaN", [][]float64{{1, math.NaN()}}, 0},
		{"random 7x7 in [-1, 1]", randTaps(r, 7, 7), 3},
		{"7x25 of -1", constTaps(7, 25, -1), 2},
	}
	for _, c := range cases {
		q, ok := immaQuantize(c.k, 0.5)
		if !ok {
			if c.digits != 0 {
				t.Errorf("%s: refused", c.name)
			}
			continue
		}
		if q.digits != c.digits {
			t.Errorf("%s: %d digits, want %d", c.name, q.digits, c.digits)
		}
		if q.err > immaMaxErr {
			t.Errorf("%s: error bound %g over %g", c.name, q.err, immaMaxErr)
		}
		for i, row := range q.w {
			for j, w := range row {
				back := int64(0)
				for k := q.digits - 1; k >= 0; k-- {
					back = back*256 + int64(q.digit(i, j, k))
				}
				if back != w {
					t.Errorf("%s: tap (%d,%d) = %d, digits give %d", c.name, i, j, w, back)
				}
			}
		}
		// On random pixels (and all 255), the kernel's sums are within the bound (and
		// float32 rounding) of the exact ones.
		for trial := range 200 {
			px := make([][]uint8, len(c.k))
			exact := 0.5
			for i, row := range c.k {
				px[i] = make([]uint8, len(row))
				for j, v := range row {
					px[i][j] = uint8(r.Intn(256))
					if trial == 0 {
						px[i][j] = 255
					}
					exact += float64(float32(v)) * float64(px[i][j])
				}
			}
			got := float64(immaSum(t, q, px, 0.5))
			if d := math.Abs(got - exact); d > q.err+1e-6*math.Abs(exact)+1e-6 {
				t.Fatalf("%s: sum %g, exact %g (bound %g)", c.name, got, exact, q.err)
			}
		}
	}
}

func randTaps(r *rand.Rand, kh, kw int) [][]float64 {
	k := constTaps(kh, kw, 0)
	for _, row := range k {
		for j := range row {
			row[j] = r.Float64()*2 - 1
		}
	}
	return k
}

func constTaps(kh, kw int, v float64) [][]float64 {
	k := make([][]float64, kh)
	for i := range k {
		k[i] = make([]float64, kw)
		for j := range k[i] {
			k[i][j] = v
		}
	}
	return k
}
