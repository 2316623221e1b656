package resample_test

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
)

// A 1 kHz tone of 10 ms at 44.1 kHz (441 samples), resampled to 48 kHz on the CPU
// device (gpuimage.CUDA(0) for the GPU): 480 samples, the tone where it was.
func ExamplePoly() {
	x := make([]float32, 441)
	for i := range x {
		x[i] = float32(math.Sin(2 * math.Pi * 1000 * float64(i) / 44100))
	}
	src, _ := gpuimage.New(gpuimage.CPU(), 1, len(x), gpuimage.CV32FC1)
	defer src.Close()
	src.Upload(unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x)))
	var dst gpuimage.Image
	defer dst.Close()
	if err := resample.Poly(src, &dst, 160, 147, nil); err != nil {
		fmt.Println(err)
		return
	}
	y := make([]float32, dst.Cols())
	dst.Download(unsafe.Slice((*byte)(unsafe.Pointer(&y[0])), 4*len(y)))
	// 1.25 ms in: sample 60 at 48 kHz, a crest of the tone.
	fmt.Printf("%d samples, y[60] = %.2f\n", len(y), y[60])
	// Output: 480 samples, y[60] = 1.00
}
