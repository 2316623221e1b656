package gpuimage_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// Benchmarks on 3840x2160 8UC3 on each device (go test -bench .). The bench tool
// times kernels with device events; these are wall-clock figures of the whole call.

func benchDevices(b *testing.B) []*gpuimage.Device {
	devs := []*gpuimage.Device{gpuimage.CPU()}
	if gpuimage.CUDAEnabled {
		d, err := gpuimage.CUDA(0)
		if err != nil {
			b.Fatal(err)
		}
		devs = append(devs, d)
	}
	return devs
}

const benchRows, benchCols = 2160, 3840

// benchTransfer times xfer between a 4K 8UC3 image and page-locked host memory.
func benchTransfer(b *testing.B, xfer func(im *gpuimage.Image, host []byte) error) {
	for _, dev := range benchDevices(b) {
		b.Run(dev.Name(), func(b *testing.B) {
			im, _ := gpuimage.New(dev, benchRows, benchCols, gpuimage.CV8UC3)
			defer im.Close()
			h, _ := dev.NewHostBuffer(benchRows * benchCols * 3)
			defer h.Close()
			b.SetBytes(int64(h.Len()))
			for i := 0; i < b.N; i++ {
				if err := xfer(im, h.Bytes()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUploadPinned(b *testing.B) {
	benchTransfer(b, func(im *gpuimage.Image, h []byte) error { return im.Upload(h) })
}

func BenchmarkDownloadPinned(b *testing.B) {
	benchTransfer(b, func(im *gpuimage.Image, h []byte) error { return im.Download(h) })
}

func BenchmarkConvertTo8UC3To32F(b *testing.B) {
	for _, dev := range benchDevices(b) {
		b.Run(dev.Name(), func(b *testing.B) {
			im, _ := gpuimage.New(dev, benchRows, benchCols, gpuimage.CV8UC3)
			defer im.Close()
			im.SetTo(gpuimage.NewScalar(1, 2, 3, 0))
			var f gpuimage.Image
			defer f.Close()
			b.SetBytes(int64(benchRows * benchCols * 3 * 5)) // read 1 byte, write 4 per element
			for i := 0; i < b.N; i++ {
				if err := im.ConvertTo(&f, gpuimage.Depth32F, 1.0/255, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
