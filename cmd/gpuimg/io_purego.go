//go:build noopencv

package main

import (
	"errors"
	"fmt"
	"image"
	"os"

	"github.com/disintegration/imaging"

	"github.com/gpuimg/gpuimg/gpuimage"
)

const ioName = "pure Go (noopencv: PNG, JPEG, TIFF, BMP, GIF)"

// writable are the extensions the pure-Go encoders write.
var writable = []string{".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif"}

// decode reads PNG, JPEG, TIFF, BMP or GIF as 8-bit BGR(A) or gray, or 16-bit for
// 16-bit PNG and TIFF (gpuimage.FromImage's rules).
func decode(path string) (pixels, error) {
	if extOf(path) == ".bmp" {
		if p, ok, err := readBMP(path); ok || err != nil {
			return p, err
		}
	}
	img, err := imaging.Open(path)
	if errors.Is(err, image.ErrFormat) {
		return pixels{}, fmt.Errorf("not an image this build reads (PNG, JPEG, TIFF, BMP, GIF; a truncated file reads as none)")
	}
	if err != nil {
		return pixels{}, err
	}
	im, err := gpuimage.FromImage(gpuimage.CPU(), img)
	if err != nil {
		return pixels{}, err
	}
	defer im.Close()
	b := make([]byte, im.Rows()*im.Cols()*im.ElemSize())
	err = im.Download(b)
	return pixels{rows: im.Rows(), cols: im.Cols(), typ: im.Type(), data: b}, err
}

// encode writes 8- and 16-bit images with 1, 3 or 4 channels (gpuimage's ToImage)
// through a temporary file renamed into place.
func encode(path string, p pixels) error {
	if cn := p.typ.Channels(); extOf(path) == ".bmp" && p.typ.Depth() == gpuimage.Depth8U && (cn == 3 || cn == 4) {
		return atomicWrite(path, func(tmp string) error {
			f, err := os.Create(tmp)
			if err != nil {
				return err
			}
			if err := writeBMP(f, p); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		})
	}
	im, err := gpuimage.NewFromBytes(gpuimage.CPU(), p.rows, p.cols, p.typ, p.data)
	if err != nil {
		return err
	}
	defer im.Close()
	img, err := im.ToImage()
	if err != nil {
		return fmt.Errorf("cannot write %v images as %s in this build: %v", p.typ, extOf(path), err)
	}
	return atomicWrite(path, func(tmp string) error {
		return imaging.Save(img, tmp, imaging.JPEGQuality(95))
	})
}
