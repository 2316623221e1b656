//go:build !noopencv

package gocvmat

import (
	"fmt"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// Upload copies a gocv Mat (continuous or not, of a supported type) to a new image on dev.
func Upload(dev *gpuimage.Device, m gocv.Mat) (*gpuimage.Image, error) {
	if m.Empty() {
		return nil, fmt.Errorf("gocvmat.Upload: %w", gpuimage.ErrEmpty)
	}
	data, err := Bytes(m)
	if err != nil {
		return nil, fmt.Errorf("gocvmat.Upload: %w", err)
	}
	return gpuimage.NewFromBytes(dev, m.Rows(), m.Cols(), gpuimage.MatType(m.Type()), data)
}

// Bytes returns a copy of the Mat's pixels, row after row with no padding (a view,
// which is not continuous, is copied row by row).
func Bytes(m gocv.Mat) ([]byte, error) {
	if !m.IsContinuous() {
		c := m.Clone()
		defer c.Close()
		m = c
	}
	b, err := m.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), b...), nil
}

// Download copies an image into a new gocv Mat of the same size and type.
func Download(im *gpuimage.Image) (gocv.Mat, error) {
	if im.Empty() {
		return gocv.NewMat(), fmt.Errorf("gocvmat.Download: %w", gpuimage.ErrEmpty)
	}
	m := gocv.NewMatWithSize(im.Rows(), im.Cols(), gocv.MatType(im.Type()))
	data, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		return gocv.NewMat(), fmt.Errorf("gocvmat.Download: %w", err)
	}
	if err := im.Download(data); err != nil {
		m.Close()
		return gocv.NewMat(), fmt.Errorf("gocvmat.Download: %w", err)
	}
	return m, nil
}
