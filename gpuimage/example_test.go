package gpuimage_test

import (
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// Upload bytes, convert to float on the device, and read a region back.
func Example() {
	dev, err := gpuimage.Default() // CUDA device 0 in cuda builds, else the CPU
	if err != nil {
		panic(err)
	}
	src, err := gpuimage.NewFromData(dev, 2, 3, gpuimage.CV8UC1, []uint8{0, 64, 128, 192, 255, 10})
	if err != nil {
		panic(err)
	}
	defer src.Close()

	var f gpuimage.Image // empty: allocated by ConvertTo on src's device
	defer f.Close()
	if err := src.ConvertTo(&f, gpuimage.Depth32F, 1.0/255, 0); err != nil {
		panic(err)
	}
	row, _ := f.Region(image.Rect(0, 1, 3, 2))
	defer row.Close()
	vals, _ := gpuimage.ToData[float32](row)
	fmt.Printf("%v %.3f\n", f.Type(), vals)
	// Output: CV_32FC1 [0.753 1.000 0.039]
}

// Queue an upload, a conversion and a download on a stream, with page-locked memory.
func ExampleStream() {
	dev := gpuimage.CPU()
	s, _ := dev.NewStream()
	defer s.Close()
	host, _ := dev.NewHostBuffer(4 * 4 * 3)
	defer host.Close()
	for i := range host.Bytes() {
		host.Bytes()[i] = byte(i)
	}
	img, _ := gpuimage.New(dev, 4, 4, gpuimage.CV8UC3)
	defer img.Close()
	var out gpuimage.Image
	defer out.Close()
	on := gpuimage.OnStream(s)
	img.Upload(host.Bytes(), on)
	img.ConvertTo(&out, gpuimage.Depth16U, 256, 0, on)
	res := make([]uint16, 4*4*3)
	gpuimage.DownloadData(&out, res, on)
	s.Synchronize()
	fmt.Println(res[:4])
	// Output: [0 256 512 768]
}
