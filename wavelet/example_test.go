package wavelet_test

import (
	"fmt"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/wavelet"
)

// One level of the Haar transform of a signal, as pywt.dwt([1, 2, 3, 4], 'haar').
func ExampleDWT() {
	dev, _ := gpuimage.Default() // the GPU in CUDA builds, else the CPU
	x, _ := gpuimage.NewFromData(dev, 1, 4, gpuimage.CV32FC1, []float32{1, 2, 3, 4})
	defer x.Close()
	haar, _ := wavelet.New("haar")
	cA, cD := &gpuimage.Image{}, &gpuimage.Image{}
	defer cA.Close()
	defer cD.Close()
	if err := wavelet.DWT(x, cA, cD, haar, wavelet.Symmetric, wavelet.AlongRows); err != nil {
		fmt.Println(err)
		return
	}
	a, _ := gpuimage.ToData[float32](cA)
	d, _ := gpuimage.ToData[float32](cD)
	fmt.Printf("cA %.4f\ncD %.4f\n", a, d)
	// Output:
	// cA [2.1213 4.9497]
	// cD [-0.7071 -0.7071]
}

// A three-level 2-D transform and its inverse: the coefficients in
// pywt.wavedec2's order, and the image back.
func ExampleWaveDec2() {
	dev, _ := gpuimage.Default()
	pix := make([]float32, 64*48)
	for i := range pix {
		pix[i] = float32(i % 7)
	}
	img, _ := gpuimage.NewFromData(dev, 48, 64, gpuimage.CV32FC1, pix)
	defer img.Close()
	db2, _ := wavelet.New("db2")
	c, err := wavelet.WaveDec2(img, db2, wavelet.Periodization, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	fmt.Printf("approximation %dx%d\n", c.A.Cols(), c.A.Rows())
	for _, d := range c.Details {
		fmt.Printf("details %dx%d\n", d.H.Cols(), d.H.Rows())
	}
	back := &gpuimage.Image{}
	defer back.Close()
	if err := wavelet.WaveRec2(c, back, db2, wavelet.Periodization); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := gpuimage.ToData[float32](back)
	fmt.Printf("back %dx%d, pixel 10 %.3f\n", back.Cols(), back.Rows(), v[10])
	// Output:
	// approximation 8x6
	// details 8x6
	// details 16x12
	// details 32x24
	// back 64x48, pixel 10 3.000
}
