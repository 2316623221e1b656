package resample_test

import (
	"fmt"
	"image"
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

// A 4x4 gradient halved with InterArea (each output pixel the mean of a 2x2 block)
// and doubled back with InterLinear, on the CPU device.
func ExampleResize() {
	src, _ := gpuimage.NewFromBytes(gpuimage.CPU(), 4, 4, gpuimage.CV8UC1, []byte{
		0, 10, 20, 30,
		40, 50, 60, 70,
		80, 90, 100, 110,
		120, 130, 140, 150,
	})
	defer src.Close()
	var half, back gpuimage.Image
	defer half.Close()
	defer back.Close()
	if err := resample.Resize(src, &half, image.Point{}, 0.5, 0.5, resample.InterArea); err != nil {
		fmt.Println(err)
		return
	}
	resample.Resize(&half, &back, image.Pt(4, 4), 0, 0, resample.InterLinear)
	h := make([]byte, 4)
	half.Download(h)
	b := make([]byte, 16)
	back.Download(b)
	fmt.Println(h)
	fmt.Println(b[:4])
	// Output:
	// [25 45 105 125]
	// [25 30 40 45]
}

// One pyramid level down and back up.
func ExamplePyrDown() {
	src, _ := gpuimage.New(gpuimage.CPU(), 480, 640, gpuimage.CV8UC3)
	defer src.Close()
	var down, up gpuimage.Image
	defer down.Close()
	defer up.Close()
	resample.PyrDown(src, &down, image.Point{}, gpuimage.BorderDefault)
	resample.PyrUp(&down, &up, image.Point{}, gpuimage.BorderDefault)
	fmt.Println(down.Cols(), down.Rows(), up.Cols(), up.Rows())
	// Output: 320 240 640 480
}
