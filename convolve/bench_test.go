package convolve_test

import (
	"image"
	"math/rand"
	"testing"

	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Benchmarks at 1920x1080 on each device (go test -bench . ./convolve): wall-clock
// time of the whole call. The bench tool times kernels with device events.

func benchFilter(b *testing.B, mt gpuimage.MatType, bytesPerPixel int, op func(src, dst *gpuimage.Image) error) {
	tu.Bench(b, mt, 1080, 1920, bytesPerPixel, op)
}

func BenchmarkGaussianBlur5x5_8UC1(b *testing.B) {
	benchFilter(b, gpuimage.CV8UC1, 2, func(src, dst *gpuimage.Image) error {
		return convolve.GaussianBlur(src, dst, image.Pt(5, 5), 0, 0, convolve.BorderDefault)
	})
}

func BenchmarkSobel3x3_8UTo16S(b *testing.B) {
	benchFilter(b, gpuimage.CV8UC1, 3, func(src, dst *gpuimage.Image) error {
		return convolve.Sobel(src, dst, gpuimage.Depth16S, 1, 0, 3, 1, 0, convolve.BorderDefault)
	})
}

func BenchmarkFilter2D7x7_32FC1(b *testing.B) {
	k := randKernel(rand.New(rand.NewSource(7)), 7, 7)
	benchFilter(b, gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image) error {
		return convolve.Filter2D(src, dst, convolve.SameDepth, k, image.Pt(-1, -1), 0, convolve.BorderDefault)
	})
}
