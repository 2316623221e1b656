//go:build !noopencv

package main

import (
	"fmt"
	"os"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
)

const ioName = "OpenCV " + "(gocv)"

// writable are the extensions OpenCV's imwrite knows.
var writable = []string{".png", ".jpg", ".jpeg", ".jpe", ".bmp", ".dib", ".tif", ".tiff", ".webp", ".pbm", ".pgm",
	".ppm", ".pxm", ".pnm", ".exr", ".hdr", ".pic", ".sr", ".ras", ".jp2"}

// decode reads any format OpenCV reads, keeping its depth and channels (8- and
// 16-bit, float TIFF and EXR), as packed rows.
func decode(path string) (pixels, error) {
	if _, err := os.Stat(path); err != nil { // before OpenCV, which would log a warning
		return pixels{}, err
	}
	m := gocv.IMRead(path, gocv.IMReadUnchanged)
	defer m.Close()
	if m.Empty() {
		return pixels{}, fmt.Errorf("cannot read the image (missing, unreadable, truncated or not an image)")
	}
	b, err := gocvmat.Bytes(m)
	return pixels{rows: m.Rows(), cols: m.Cols(), typ: gpuimage.MatType(m.Type()), data: b}, err
}

// encode writes through a temporary file renamed into place.
func encode(path string, p pixels) error {
	m, err := gocv.NewMatFromBytes(p.rows, p.cols, gocv.MatType(p.typ), p.data)
	if err != nil {
		return err
	}
	defer m.Close()
	return atomicWrite(path, func(tmp string) error {
		if !gocv.IMWrite(tmp, m) {
			return fmt.Errorf("OpenCV cannot write %v images as %s", p.typ, extOf(path))
		}
		return nil
	})
}
