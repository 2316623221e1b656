package gpuimage

import (
	"fmt"
	"unsafe"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Upload copies packed rows (Cols*ElemSize bytes each, no padding) from host memory
// into the image, which may be a region view. src must hold exactly Rows rows.
//
// Memory from a HostBuffer is page-locked and transfers at full bus speed; any other
// slice goes through the driver's staging buffers. With OnStream the copy is queued
// and src must stay untouched until the stream is synchronized.
func (im *Image) Upload(src []byte, opts ...Option) error {
	s := im.state()
	if err := s.Check(); err != nil {
		return opError("Upload", err)
	}
	if n := s.Rows * s.RowBytes(); len(src) != n {
		return opError("Upload", fmt.Errorf("%w: %dx%d %v needs %d bytes, got %d", ErrSizeMismatch, s.Rows, s.Cols, im.Type(), n, len(src)))
	}
	err := core.Run(s.Dev, opts, []*core.State{s}, func(st core.Stream) error {
		return s.Dev.Copy2D(core.Copy{Dst: s.Buf, DstOff: s.Off, DstPitch: s.Pitch,
			SrcHost: src, SrcPitch: s.RowBytes(), Width: s.RowBytes(), Rows: s.Rows}, st)
	})
	return opError("Upload", err)
}

// Download copies the image's pixels into dst as packed rows; dst must hold exactly
// Rows*Cols*ElemSize bytes. With OnStream, dst is valid once the stream is synchronized.
func (im *Image) Download(dst []byte, opts ...Option) error {
	s := im.state()
	if err := s.Check(); err != nil {
		return opError("Download", err)
	}
	if n := s.Rows * s.RowBytes(); len(dst) != n {
		return opError("Download", fmt.Errorf("%w: %dx%d %v needs %d bytes, got %d", ErrSizeMismatch, s.Rows, s.Cols, im.Type(), n, len(dst)))
	}
	err := core.Run(s.Dev, opts, []*core.State{s}, func(st core.Stream) error {
		return s.Dev.Copy2D(core.Copy{DstHost: dst, DstPitch: s.RowBytes(),
			Src: s.Buf, SrcOff: s.Off, SrcPitch: s.Pitch, Width: s.RowBytes(), Rows: s.Rows}, st)
	})
	return opError("Download", err)
}

// Elem is the Go type of one element of a depth: uint8 (8U), uint16 (16U), int16
// (16S) or float32 (32F).
type Elem interface {
	uint8 | uint16 | int16 | float32
}

// DepthOf returns the depth whose elements have Go type T.
func DepthOf[T Elem]() Depth {
	var z T
	switch any(z).(type) {
	case uint8:
		return Depth8U
	case uint16:
		return Depth16U
	case int16:
		return Depth16S
	}
	return Depth32F
}

func asBytes[T Elem](s []T) []byte {
	if len(s) == 0 {
		return []byte{}
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// UploadData copies elements (Rows*Cols*Channels of them, row after row) into im,
// whose depth must match T.
func UploadData[T Elem](im *Image, src []T, opts ...Option) error {
	if err := checkElem[T](im, "UploadData"); err != nil {
		return err
	}
	return im.Upload(asBytes(src), opts...)
}

// DownloadData copies the image's elements into dst (Rows*Cols*Channels of them).
func DownloadData[T Elem](im *Image, dst []T, opts ...Option) error {
	if err := checkElem[T](im, "DownloadData"); err != nil {
		return err
	}
	return im.Download(asBytes(dst), opts...)
}

func checkElem[T Elem](im *Image, op string) error {
	if err := im.state().Check(); err != nil {
		return opError(op, err)
	}
	if d := DepthOf[T](); d != im.Depth() {
		return opError(op, fmt.Errorf("%w: %T elements for a %v image", ErrTypeMismatch, *new(T), im.Type()))
	}
	return nil
}

// NewFromBytes returns a rows x cols image of type t on dev holding data (packed
// rows of pixels, little-endian elements), as gocv's NewMatFromBytes.
func NewFromBytes(dev *Device, rows, cols int, t MatType, data []byte) (*Image, error) {
	im, err := New(dev, rows, cols, t)
	if err != nil {
		return nil, err
	}
	if err := im.Upload(data); err != nil {
		im.Close()
		return nil, err
	}
	return im, nil
}

// NewFromData is NewFromBytes for elements of t's depth.
func NewFromData[T Elem](dev *Device, rows, cols int, t MatType, data []T) (*Image, error) {
	if DepthOf[T]() != t.Depth() {
		return nil, opError("NewFromData", fmt.Errorf("%w: %T elements for %v", ErrTypeMismatch, *new(T), t))
	}
	return NewFromBytes(dev, rows, cols, t, asBytes(data))
}

// ToData returns the image's elements, row after row, as a new slice.
func ToData[T Elem](im *Image) ([]T, error) {
	if err := checkElem[T](im, "ToData"); err != nil {
		return nil, err
	}
	out := make([]T, im.Rows()*im.Cols()*im.Channels())
	return out, im.Download(asBytes(out))
}

// HostBuffer is host memory that transfers to and from its device at full bus
// speed: page-locked (pinned) memory on CUDA, ordinary memory on the CPU device.
// Upload and Download use it directly when given a slice of it.
type HostBuffer struct {
	b    []byte
	free func() error
}

// NewHostBuffer allocates size bytes of page-locked host memory for the device.
func (d *Device) NewHostBuffer(size int) (*HostBuffer, error) {
	b, free, err := d.b.AllocHost(size)
	if err != nil {
		return nil, opError("NewHostBuffer", err)
	}
	return &HostBuffer{b: b, free: free}, nil
}

// Bytes returns the buffer's memory; it is invalid after Close.
func (h *HostBuffer) Bytes() []byte { return h.b }

// Len is the buffer's size in bytes.
func (h *HostBuffer) Len() int { return len(h.b) }

// Close frees the memory; closing twice does nothing.
func (h *HostBuffer) Close() error {
	if h.b == nil {
		return nil
	}
	h.b = nil
	return h.free()
}
