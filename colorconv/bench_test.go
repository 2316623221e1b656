package colorconv_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Benchmarks at 1920x1080 on each device (go test -bench . ./colorconv).

func benchCvt(b *testing.B, mt gpuimage.MatType, code colorconv.Code, bytesPerPixel int) {
	tu.Bench(b, mt, 1080, 1920, bytesPerPixel, func(src, dst *gpuimage.Image) error {
		return colorconv.CvtColor(src, dst, code)
	})
}

func BenchmarkBGRToGray_8U(b *testing.B)  { benchCvt(b, gpuimage.CV8UC3, colorconv.ColorBGRToGray, 4) }
func BenchmarkBGRToLab_8U(b *testing.B)   { benchCvt(b, gpuimage.CV8UC3, colorconv.ColorBGRToLab, 6) }
func BenchmarkBGRToHSV_8U(b *testing.B)   { benchCvt(b, gpuimage.CV8UC3, colorconv.ColorBGRToHSV, 6) }
func BenchmarkBGRToLab_32F(b *testing.B)  { benchCvt(b, gpuimage.CV32FC3, colorconv.ColorBGRToLab, 24) }
func BenchmarkBGRToYCrCb_8U(b *testing.B) { benchCvt(b, gpuimage.CV8UC3, colorconv.ColorBGRToYCrCb, 6) }
