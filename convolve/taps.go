package convolve

import (
	"fmt"
	"math"
)

// GaussianKernel returns OpenCV's getGaussianKernel(n, sigma): n odd coefficients
// that sum to 1. A sigma <= 0 is derived from n as 0.3*((n-1)*0.5-1)+0.8, and for
// n <= 9 with sigma <= 0 OpenCV's fixed tables are returned.
func GaussianKernel(n int, sigma float64) ([]float64, error) {
	if n <= 0 || n%2 == 0 {
		return nil, fmt.Errorf("convolve.GaussianKernel: size %d must be odd and positive", n)
	}
	small := [][]float64{
		{1},
		{0.25, 0.5, 0.25},
		{0.0625, 0.25, 0.375, 0.25, 0.0625},
		{0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125},
	}
	if n <= 7 && sigma <= 0 {
		return append([]float64(nil), small[n/2]...), nil
	}
	if n == 9 && sigma <= 0 {
		// OpenCV 4's bit-exact table for 9 taps (in 1/256ths), read off OpenCV 4.6.
		k := []float64{4, 13, 30, 51, 60, 51, 30, 13, 4}
		for i := range k {
			k[i] /= 256
		}
		return k, nil
	}
	if sigma <= 0 {
		sigma = ((float64(n)-1)*0.5-1)*0.3 + 0.8
	}
	scale2 := -0.5 / (sigma * sigma)
	k := make([]float64, n)
	sum := 0.0
	for i := range k {
		x := float64(i) - float64(n-1)*0.5
		k[i] = math.Exp(scale2 * x * x)
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	return k, nil
}

// DerivKernels returns OpenCV's getDerivKernels(dx, dy, ksize, normalize=false):
// the row (x) and column (y) kernels of Sobel's operator, or Scharr's when ksize
// is -1 (FILTER_SCHARR).
func DerivKernels(dx, dy, ksize int) (kx, ky []float64, err error) {
	if ksize == FilterScharr {
		if dx < 0 || dy < 0 || dx+dy != 1 {
			return nil, nil, fmt.Errorf("Scharr needs dx, dy >= 0 and dx+dy == 1 (got dx=%d dy=%d)", dx, dy)
		}
		return scharr(dx), scharr(dy), nil
	}
	if ksize <= 0 || ksize%2 == 0 || ksize > 31 {
		return nil, nil, fmt.Errorf("ksize %d must be -1 (Scharr) or odd, 1 to 31", ksize)
	}
	if dx < 0 || dy < 0 || dx+dy == 0 {
		return nil, nil, fmt.Errorf("dx=%d dy=%d: orders must be >= 0 and not both 0", dx, dy)
	}
	kszX, kszY := ksize, ksize
	if kszX == 1 && dx > 0 {
		kszX = 3
	}
	if kszY == 1 && dy > 0 {
		kszY = 3
	}
	if dx >= kszX || dy >= kszY {
		return nil, nil, fmt.Errorf("derivative order dx=%d dy=%d too high for ksize %d", dx, dy, ksize)
	}
	return sobel(kszX, dx), sobel(kszY, dy), nil
}

func scharr(order int) []float64 {
	if order == 0 {
		return []float64{3, 10, 3}
	}
	return []float64{-1, 0, 1}
}

// sobel is OpenCV's getSobelKernels for one direction: binomial smoothing of size
// n, differentiated order times.
func sobel(n, order int) []float64 {
	switch {
	case n == 1:
		return []float64{1}
	case n == 3 && order == 0:
		return []float64{1, 2, 1}
	case n == 3 && order == 1:
		return []float64{-1, 0, 1}
	case n == 3:
		return []float64{1, -2, 1}
	}
	k := make([]int, n+1)
	k[0] = 1
	for i := 0; i < n-order-1; i++ {
		old := k[0]
		for j := 1; j <= n; j++ {
			nv := k[j] + k[j-1]
			k[j-1] = old
			old = nv
		}
	}
	for i := 0; i < order; i++ {
		old := -k[0]
		for j := 1; j <= n; j++ {
			nv := k[j-1] - k[j]
			k[j-1] = old
			old = nv
		}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(k[i])
	}
	return out
}

// outer returns the kh x kw kernel ky * kx^T.
func outer(kx, ky []float64) [][]float64 {
	k := make([][]float64, len(ky))
	for i := range k {
		k[i] = make([]float64, len(kx))
		for j := range kx {
			k[i][j] = ky[i] * kx[j]
		}
	}
	return k
}

// separate returns kx, ky with kernel = ky*kx^T when the kernel has rank one (to
// within float rounding), so it can run as a row pass and a column pass.
func separate(k [][]float64) (kx, ky []float64, ok bool) {
	r0, c0, big := 0, 0, 0.0
	for i, row := range k {
		for j, v := range row {
			if math.Abs(v) > big {
				r0, c0, big = i, j, math.Abs(v)
			}
		}
	}
	if big == 0 {
		return nil, nil, false
	}
	kx = append([]float64(nil), k[r0]...)
	ky = make([]float64, len(k))
	for i := range k {
		ky[i] = k[i][c0] / k[r0][c0]
	}
	for i := range k {
		for j := range k[i] {
			if math.Abs(k[i][j]-ky[i]*kx[j]) > 1e-7*big {
				return nil, nil, false
			}
		}
	}
	return kx, ky, true
}

// fixedPoint8 quantizes a Gaussian kernel to multiples of 1/256 as OpenCV 4's
// bit-exact 8-bit GaussianBlur does (getGaussianKernelFixedPoint_ED): the outer taps
// are rounded with the rounding error carried inwards, and the centre tap takes
// what is left so that the taps sum to exactly 1.
func fixedPoint8(k []float64) []float64 {
	n := len(k)
	out := make([]float64, n)
	err, sum := 0.0, 0.0
	for i := 0; i < n/2; i++ {
		adj := k[i]*256 + err
		v := math.RoundToEven(adj)
		err = adj - v
		out[i], out[n-1-i] = v/256, v/256
		sum += 2 * v
	}
	out[n/2] = (256 - sum) / 256
	return out
}
