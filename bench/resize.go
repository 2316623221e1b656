package main

import (
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
)

// resizeCase is one resize the bench times on an 8UC3 image of the sweep's size:
// by factors fx = fy, or to a fixed size. The NPP (bench/peers/npp_bench.cu) and
// OpenCV (bench/peers/opencv_bench.py) peers time the same cases by these names.
type resizeCase struct {
	name   string
	interp resample.Interpolation
	f      float64
	size   image.Point
}

// resizeCases: the cases (at 3840x2160, the halves give 1080p; at
// 7680x4320, 4K; at 1920x1080, the doublings give 4K), fractional factors, and the
// pyramid steps.
var resizeCases = []resizeCase{
	{"resize linear 1/2", resample.InterLinear, 0.5, image.Point{}},
	{"resize area 1/2", resample.InterArea, 0.5, image.Point{}},
	{"resize cubic 1/2", resample.InterCubic, 0.5, image.Point{}},
	{"resize lanczos4 1/2", resample.InterLanczos4, 0.5, image.Point{}},
	{"resize nearest 1/2", resample.InterNearest, 0.5, image.Point{}},
	{"resize linear x2", resample.InterLinear, 2, image.Point{}},
	{"resize cubic x2", resample.InterCubic, 2, image.Point{}},
	{"resize area ->224x224", resample.InterArea, 0, image.Pt(224, 224)},
	{"resize linear 2/3", resample.InterLinear, 2.0 / 3, image.Point{}},
	{"resize area 2/3", resample.InterArea, 2.0 / 3, image.Point{}},
	{"resize lanczos4 x2", resample.InterLanczos4, 2, image.Point{}},
	{"resize cubic 2/3", resample.InterCubic, 2.0 / 3, image.Point{}},
	{"resize linear x1.5", resample.InterLinear, 1.5, image.Point{}},
}

func init() {
	for _, c := range resizeCases {
		cases = append(cases, benchCase{c.name, resized(gpuimage.CV8UC3, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return resample.Resize(src, dst, c.size, c.f, c.f, c.interp, on)
		})})
	}
	// Scale (antialiased, Pillow's filters): 4K to 1080p, and a thumbnail.
	// Other factors and channel counts too (8UC3 unless the name says).
	for _, c := range []struct {
		name string
		f    resample.Filter
		mt   gpuimage.MatType
		k    float64 // the factor, or 0 for size
		size image.Point
	}{
		{"scale lanczos3 1/2", resample.Lanczos3, gpuimage.CV8UC3, 0.5, image.Point{}},
		{"scale bicubic 1/2", resample.Bicubic, gpuimage.CV8UC3, 0.5, image.Point{}},
		{"scale bilinear 1/2", resample.Bilinear, gpuimage.CV8UC3, 0.5, image.Point{}},
		{"scale lanczos3 ->256x144", resample.Lanczos3, gpuimage.CV8UC3, 0, image.Pt(256, 144)},
		{"scale lanczos3 2/3", resample.Lanczos3, gpuimage.CV8UC3, 2.0 / 3, image.Point{}},
		{"scale lanczos3 1/3", resample.Lanczos3, gpuimage.CV8UC3, 1.0 / 3, image.Point{}},
		{"scale lanczos3 1/2 8UC1", resample.Lanczos3, gpuimage.CV8UC1, 0.5, image.Point{}},
		{"scale lanczos3 1/2 8UC4", resample.Lanczos3, gpuimage.CV8UC4, 0.5, image.Point{}},
		{"scale lanczos3 x2", resample.Lanczos3, gpuimage.CV8UC3, 2, image.Point{}},
		{"scale bicubic x2", resample.Bicubic, gpuimage.CV8UC3, 2, image.Point{}},
		{"scale bicubic 1/2 8UC1", resample.Bicubic, gpuimage.CV8UC1, 0.5, image.Point{}},
	} {
		cases = append(cases, benchCase{c.name, resized(c.mt, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			sz := c.size
			if c.k != 0 {
				sz = image.Pt(int(float64(src.Cols())*c.k+0.5), int(float64(src.Rows())*c.k+0.5))
			}
			return resample.Scale(src, dst, sz, c.f, on)
		})})
	}
	// InterArea's fractional shrinks beyond the (the vertical-first
	// kernel, resample/areaf.go, takes those of 2.5 source rows an output row
	// or more): other factors, channel counts, and one axis steep, the other mild.
	for _, c := range []struct {
		name   string
		mt     gpuimage.MatType
		fx, fy float64
		size   image.Point
	}{
		{"resize area 0.3", gpuimage.CV8UC3, 0.3, 0.3, image.Point{}},
		{"resize area 0.4", gpuimage.CV8UC3, 0.4, 0.4, image.Point{}},
		{"resize area ->224x224 8UC1", gpuimage.CV8UC1, 0, 0, image.Pt(224, 224)},
		{"resize area ->224x224 8UC4", gpuimage.CV8UC4, 0, 0, image.Pt(224, 224)},
		{"resize area 2/3 8UC4", gpuimage.CV8UC4, 2.0 / 3, 2.0 / 3, image.Point{}},
		{"resize area fx 0.06 fy 2/3", gpuimage.CV8UC3, 0.06, 2.0 / 3, image.Point{}},
		{"resize area fx 2/3 fy 0.06", gpuimage.CV8UC3, 2.0 / 3, 0.06, image.Point{}},
		{"resize area fx 2/3 fy 0.3", gpuimage.CV8UC3, 2.0 / 3, 0.3, image.Point{}},
	} {
		cases = append(cases, benchCase{c.name, resized(c.mt, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return resample.Resize(src, dst, c.size, c.fx, c.fy, resample.InterArea, on)
		})})
	}
	cases = append(cases,
		benchCase{"pyrDown", resized(gpuimage.CV8UC3, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return resample.PyrDown(src, dst, image.Point{}, gpuimage.BorderDefault, on)
		})},
		benchCase{"pyrUp", resized(gpuimage.CV8UC3, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return resample.PyrUp(src, dst, image.Point{}, gpuimage.BorderDefault, on)
		})})
}
