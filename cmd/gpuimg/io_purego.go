//go:build noopencv

package main

import (
	"fmt"
	"strings"

	"github.com/disintegration/imaging"

	"github.com/gpuimg/gpuimg/gpuimage"
)

const ioName = "pure Go (noopencv: PNG, JPEG, TIFF, BMP, GIF)"

func readImage(dev *gpuimage.Device, path string) (*gpuimage.Image, error) {
	img, err := imaging.Open(path)
	if err != nil {
		return nil, err
	}
	return gpuimage.FromImage(dev, img)
}

func writeImage(im *gpuimage.Image, path string) error {
	if _, err := imaging.FormatFromFilename(path); err != nil {
		return fmt.Errorf("%v (this build writes %s)", err, strings.TrimPrefix(ioName, "pure Go "))
	}
	img, err := im.ToImage()
	if err != nil {
		return err
	}
	return atomicWrite(path, func(tmp string) error {
		return imaging.Save(img, tmp, imaging.JPEGQuality(95))
	})
}
