package codec_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// Decode a batch of JPEG files in one call; a bad file fails alone.
func ExampleDecodeJPEGs() {
	m := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range m.Pix {
		m.Pix[i] = uint8(i)
	}
	m.Set(0, 0, color.White)
	var b bytes.Buffer
	jpeg.Encode(&b, m, &jpeg.Options{Quality: 90})
	files := [][]byte{b.Bytes(), []byte("not a jpeg"), b.Bytes()}

	dev := gpuimage.CPU() // or a CUDA device
	imgs := []*gpuimage.Image{{}, {}, {}}
	defer func() {
		for _, im := range imgs {
			im.Close()
		}
	}()
	err := codec.DecodeJPEGs(dev, files, imgs)
	var be *codec.BatchError
	if errors.As(err, &be) {
		for i, e := range be.Errs {
			if e != nil {
				fmt.Println("file", i, "failed")
			}
		}
	}
	fmt.Println(imgs[0].Cols(), imgs[0].Rows(), imgs[0].Type(), imgs[2].Empty())
	// Output:
	// file 1 failed
	// 64 48 CV_8UC3 false
}
