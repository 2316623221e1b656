package fftfilter_test

import (
	"fmt"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// Smooth an image with a Gaussian low-pass filter in the frequency domain.
func ExampleLowPass() {
	dev := gpuimage.CPU() // or gpuimage.Default() for the GPU when there is one
	pix := make([]byte, 64*48)
	for i := range pix {
		pix[i] = byte(i % 7 * 40) // fine stripes around a mean of 120
	}
	src, err := gpuimage.NewFromBytes(dev, 48, 64, gpuimage.CV8UC1, pix)
	if err != nil {
		panic(err)
	}
	defer src.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	if err := fftfilter.LowPass(src, dst, fftfilter.Gaussian, 4, 0); err != nil {
		panic(err)
	}
	out := make([]byte, 64*48)
	if err := dst.Download(out); err != nil {
		panic(err)
	}
	fmt.Println(dst.Type(), out[:7])
	// Output:
	// CV_8UC1 [115 117 118 119 120 120 119]
}

// The spectrum of a real image, packed as OpenCV packs it, and back.
func ExampleDFT() {
	dev := gpuimage.CPU()
	src, _ := gpuimage.NewFromData(dev, 1, 4, gpuimage.CV32FC1, []float32{1, 2, 3, 4})
	defer src.Close()
	spec, back := &gpuimage.Image{}, &gpuimage.Image{}
	defer spec.Close()
	defer back.Close()
	if err := fftfilter.DFT(src, spec, fftfilter.DFTComplexOutput); err != nil {
		panic(err)
	}
	s := make([]float32, 8)
	_ = gpuimage.DownloadData(spec, s)
	fmt.Println(spec.Type(), s)
	if err := fftfilter.IDFT(spec, back, fftfilter.DFTScale|fftfilter.DFTRealOutput); err != nil {
		panic(err)
	}
	x := make([]float32, 4)
	_ = gpuimage.DownloadData(back, x)
	fmt.Println(back.Type(), x)
	// Output:
	// CV_32FC2 [10 0 -2 2 -2 0 -2 -2]
	// CV_32FC1 [1 2 3 4]
}
