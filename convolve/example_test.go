package convolve_test

import (
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// Blur an image and take its horizontal gradient, keeping negative values in 16S.
func Example() {
	dev, err := gpuimage.Default() // CUDA device 0 in cuda builds, else the CPU
	if err != nil {
		panic(err)
	}
	src, err := gpuimage.NewFromBytes(dev, 3, 4, gpuimage.CV8UC1, []byte{
		0, 0, 100, 200,
		0, 0, 100, 200,
		0, 0, 100, 200,
	})
	if err != nil {
		panic(err)
	}
	defer src.Close()
	var blurred, dx gpuimage.Image
	defer blurred.Close()
	defer dx.Close()
	if err := convolve.GaussianBlur(src, &blurred, image.Pt(3, 3), 0, 0, convolve.BorderDefault); err != nil {
		panic(err)
	}
	if err := convolve.Sobel(src, &dx, gpuimage.Depth16S, 1, 0, 3, 1, 0, convolve.BorderReplicate); err != nil {
		panic(err)
	}
	row, _ := gpuimage.ToData[int16](&dx)
	fmt.Println(blurred.Type(), dx.Type(), row[:4])
	// Output: CV_8UC1 CV_16SC1 [0 400 800 400]
}
