package fftfilter_test

import (
	"image"
	"testing"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Benchmarks at 1920x1080 on each device (go test -bench . ./fftfilter).

func BenchmarkDFT_32FC1(b *testing.B) {
	tu.Bench(b, gpuimage.CV32FC1, 1080, 1920, 8, func(src, dst *gpuimage.Image) error {
		return fftfilter.DFT(src, dst, 0)
	})
}

func BenchmarkLowPassGaussian_32FC1(b *testing.B) {
	tu.Bench(b, gpuimage.CV32FC1, 1080, 1920, 8, func(src, dst *gpuimage.Image) error {
		return fftfilter.LowPass(src, dst, fftfilter.Gaussian, 60, 0)
	})
}

func BenchmarkConvolve41x41_32FC1(b *testing.B) {
	k := make([][]float64, 41)
	for i := range k {
		k[i] = make([]float64, 41)
		for j := range k[i] {
			k[i][j] = 1.0 / (41 * 41)
		}
	}
	tu.Bench(b, gpuimage.CV32FC1, 1080, 1920, 8, func(src, dst *gpuimage.Image) error {
		return fftfilter.Convolve(src, dst, -1, k, image.Pt(-1, -1), 0, gpuimage.BorderDefault)
	})
}
