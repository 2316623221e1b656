//go:build !noopencv

package main

import (
	"fmt"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
)

const ioName = "OpenCV " + "(gocv)"

// readImage reads any format OpenCV reads, keeping its depth and channels.
func readImage(dev *gpuimage.Device, path string) (*gpuimage.Image, error) {
	m := gocv.IMRead(path, gocv.IMReadUnchanged)
	defer m.Close()
	if m.Empty() {
		return nil, fmt.Errorf("cannot read the image (missing, unreadable or not an image)")
	}
	return gocvmat.Upload(dev, m)
}

// writeImage writes through a temporary file renamed into place.
func writeImage(im *gpuimage.Image, path string) error {
	m, err := gocvmat.Download(im)
	if err != nil {
		return err
	}
	defer m.Close()
	return atomicWrite(path, func(tmp string) error {
		if !gocv.IMWrite(tmp, m) {
			return fmt.Errorf("OpenCV could not write %v as this format", im.Type())
		}
		return nil
	})
}
