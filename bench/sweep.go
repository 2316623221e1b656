package main

import (
	"fmt"
	"image"
	"math/rand"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
)

// sweepCases are the filters, conversions and resizes that NPP also has, over
// their neighbours of the headline cases (kernel sizes, depths, channels, both
// directions of a conversion, factors), filters with BORDER_REPLICATE: `bench -sweep` runs them
// instead of the image cases, and bench/peers/npp_bench.cu (NPP_SWEEP=1) times
// NPP's equivalents under the same names, for the report's "vs NPP" matrix.
var sweepCases []benchCase

// sweepKernel is a random n x n filter2D kernel (not separable) whose taps sum to
// about 1.
func sweepKernel(n int) [][]float64 {
	r := rand.New(rand.NewSource(int64(100 + n)))
	k := make([][]float64, n)
	for i := range k {
		k[i] = make([]float64, n)
		for j := range k[i] {
			k[i][j] = 2 * r.Float64() / float64(n*n)
		}
	}
	return k
}

func init() {
	b := convolve.BorderReplicate
	c := image.Pt(-1, -1)
	add := func(op string, mt gpuimage.MatType, bytes int, f func(src, dst *gpuimage.Image, on gpuimage.Option) error) {
		sweepCases = append(sweepCases, benchCase{op, unary(mt, bytes, f)})
	}
	size := func(mt gpuimage.MatType) int { return mt.Channels() * mt.Depth().Size() }
	for _, n := range []int{3, 5, 7, 9, 15, 31} {
		k := sweepKernel(n)
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV16UC1, gpuimage.CV32FC1} {
			add(fmt.Sprintf("filter2D %dx%d", n, n), mt, 2*size(mt), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.Filter2D(src, dst, convolve.SameDepth, k, c, 0, b, on)
			})
		}
	}
	for _, ks := range []int{1, 3, 5} {
		for _, d := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16S} {
			add(fmt.Sprintf("laplacian ksize %d 8U->%v", ks, d), gpuimage.CV8UC1, 1+d.Size(), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.Laplacian(src, dst, d, ks, 1, 0, b, on)
			})
		}
	}
	for _, d := range []gpuimage.Depth{gpuimage.Depth16S, gpuimage.Depth8U} {
		add(fmt.Sprintf("sobel 3x3 dx 8U->%v", d), gpuimage.CV8UC1, 1+d.Size(), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Sobel(src, dst, d, 1, 0, 3, 1, 0, b, on)
		})
		add(fmt.Sprintf("scharr dx 8U->%v", d), gpuimage.CV8UC1, 1+d.Size(), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Scharr(src, dst, d, 1, 0, 1, 0, b, on)
		})
		add(fmt.Sprintf("sobel 3x3 dy 8U->%v", d), gpuimage.CV8UC1, 1+d.Size(), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Sobel(src, dst, d, 0, 1, 3, 1, 0, b, on)
		})
		add(fmt.Sprintf("scharr dy 8U->%v", d), gpuimage.CV8UC1, 1+d.Size(), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Scharr(src, dst, d, 0, 1, 1, 0, b, on)
		})
		// Three channels (NPP has no such Sobel: gpuimg's time alone).
		add(fmt.Sprintf("sobel 3x3 dx 8U->%v", d), gpuimage.CV8UC3, 3*(1+d.Size()), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Sobel(src, dst, d, 1, 0, 3, 1, 0, b, on)
		})
	}
	for _, n := range []int{3, 5, 11} {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3} {
			add(fmt.Sprintf("box %dx%d", n, n), mt, 2*size(mt), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.BoxFilter(src, dst, convolve.SameDepth, image.Pt(n, n), c, true, b, on)
			})
		}
	}
	for _, n := range []int{3, 5, 9} {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV16UC1} {
			add(fmt.Sprintf("gaussian %dx%d", n, n), mt, 2*size(mt), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.GaussianBlur(src, dst, image.Pt(n, n), 0, 0, b, on)
			})
		}
	}
	for _, cv := range []struct {
		code  colorconv.Code
		mt    gpuimage.MatType
		bytes int
	}{
		{colorconv.ColorBGRToGray, gpuimage.CV8UC3, 4},
		{colorconv.ColorRGBToGray, gpuimage.CV8UC3, 4},
		{colorconv.ColorGrayToBGR, gpuimage.CV8UC1, 4},
		{colorconv.ColorBGRToYCrCb, gpuimage.CV8UC3, 6},
		{colorconv.ColorYCrCbToBGR, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToHSV, gpuimage.CV8UC3, 6},
		{colorconv.ColorHSVToBGR, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToHLS, gpuimage.CV8UC3, 6},
		{colorconv.ColorHLSToBGR, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToLab, gpuimage.CV8UC3, 6},
		{colorconv.ColorLabToBGR, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToXYZ, gpuimage.CV8UC3, 6},
		{colorconv.ColorXYZToBGR, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToYUV, gpuimage.CV8UC3, 6},
		{colorconv.ColorYUVToBGR, gpuimage.CV8UC3, 6},
	} {
		code := cv.code
		add("cvtColor "+code.String(), cv.mt, cv.bytes, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return colorconv.CvtColor(src, dst, code, on)
		})
	}
	// Resizes over depths and channels, where NPP's nppiResize has them (its
	// super-sampling, InterArea's peer, shrinks only; npp_bench.cu skips area x2).
	for _, in := range []resample.Interpolation{resample.InterNearest, resample.InterLinear, resample.InterCubic, resample.InterArea, resample.InterLanczos4} {
		for _, f := range []struct {
			name string
			f    float64
		}{{"1/2", 0.5}, {"x2", 2}, {"2/3", 2.0 / 3}} {
			for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC4, gpuimage.CV16UC1, gpuimage.CV16UC3, gpuimage.CV32FC1, gpuimage.CV32FC3} {
				in, fx := in, f.f
				sweepCases = append(sweepCases, benchCase{fmt.Sprintf("rsweep %v %s", in, f.name), resized(mt, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
					return resample.Resize(src, dst, image.Point{}, fx, fx, in, on)
				})})
			}
		}
	}
}
