// Package codec reads and writes image files into and out of gpuimage images:
// JPEG through NVIDIA's nvJPEG on CUDA devices (loaded at run time, like cuFFT) and
// in pure Go on the CPU device (and wherever nvJPEG is missing or declines a file).
//
// Decoding follows OpenCV's imread with IMREAD_UNCHANGED: a gray JPEG gives an 8UC1
// image, a colour or CMYK one an 8UC3 BGR image; the EXIF orientation is not
// applied. Encoding takes 8UC1 (a gray JPEG) or 8UC3 BGR images (4:2:0 chroma, as
// libjpeg's default).
package codec

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// MaxPixels and MaxSide are the largest image the decoders allocate for, as
// OpenCV's imread limits (OPENCV_IO_MAX_IMAGE_PIXELS, _WIDTH, _HEIGHT): a file
// whose header claims more is refused before anything is allocated.
const (
	MaxPixels = 1 << 30
	MaxSide   = 1 << 20
)

// checkSize refuses claimed sizes past MaxPixels and MaxSide.
func checkSize(format string, w, h int) error {
	if w <= 0 || h <= 0 || w > MaxSide || h > MaxSide || int64(w)*int64(h) > MaxPixels {
		return fmt.Errorf("the %s header claims %dx%d pixels (at most %d a side, %d in all)", format, w, h, MaxSide, MaxPixels)
	}
	return nil
}

// DecodeJPEG decodes a JPEG file's bytes into dst on dev, which is (re)allocated
// as the image's size and type (8UC1 or 8UC3) unless it already is. Truncated and
// malformed files are refused before anything is decoded.
func DecodeJPEG(dev *gpuimage.Device, data []byte, dst *gpuimage.Image, opts ...gpuimage.Option) error {
	info, err := ParseJPEG(data)
	if err == nil {
		err = checkSize("JPEG", info.Width, info.Height)
	}
	if err != nil {
		return fmt.Errorf("codec.DecodeJPEG: %w", err)
	}
	if dst == nil || dev == nil {
		return fmt.Errorf("codec.DecodeJPEG: %w", gpuimage.ErrNil)
	}
	if core.StateOf(dst).Closed {
		return fmt.Errorf("codec.DecodeJPEG: %w", gpuimage.ErrClosed)
	}
	if dev.IsCUDA() {
		done, err := cudaDecodeJPEG(dev, data, info, dst, opts)
		if done || err != nil {
			return wrap("codec.DecodeJPEG", err)
		}
	}
	pix, cn, err := DecodeJPEGPixels(data)
	if err != nil {
		return fmt.Errorf("codec.DecodeJPEG: %w", err)
	}
	if err := ensure(dev, dst, info.Height, info.Width, gpuimage.MakeType(gpuimage.Depth8U, cn)); err != nil {
		return fmt.Errorf("codec.DecodeJPEG: %w", err)
	}
	return wrap("codec.DecodeJPEG", dst.Upload(pix, opts...))
}

// DecodeJPEGs decodes a batch of JPEG files, datas[i] into dsts[i] (distinct
// images, allocated or reallocated as DecodeJPEG does), with the pixels DecodeJPEG
// gives each, and returns when all are ready. It is faster than DecodeJPEG file by
// file: on a CUDA device the GPU's JPEG decode engines (A100, H100, ...) take the
// baseline colour files in batched calls while every CPU decodes the others with
// nvJPEG (all of them on GPUs without engines); on the CPU device every CPU
// decodes files at once. A bad file does not stop the others: the error is then a
// *BatchError with each file's error, which names the file's index.
func DecodeJPEGs(dev *gpuimage.Device, datas [][]byte, dsts []*gpuimage.Image) error {
	if dev == nil {
		return fmt.Errorf("codec.DecodeJPEGs: %w", gpuimage.ErrNil)
	}
	if len(datas) != len(dsts) {
		return fmt.Errorf("codec.DecodeJPEGs: %d files for %d images", len(datas), len(dsts))
	}
	n := len(datas)
	infos := make([]JPEGInfo, n)
	errs := make([]error, n)
	forEach(n, func(i int) {
		info, err := ParseJPEG(datas[i])
		if err == nil {
			err = checkSize("JPEG", info.Width, info.Height)
		}
		if err == nil && dsts[i] == nil {
			err = gpuimage.ErrNil
		}
		if err == nil && core.StateOf(dsts[i]).Closed {
			err = gpuimage.ErrClosed
		}
		infos[i], errs[i] = info, err
	})
	done := make([]bool, n) // decoded, or refused with errs[i]
	for i := range done {
		done[i] = errs[i] != nil
	}
	if dev.IsCUDA() {
		var at []int
		for i := range datas {
			if !done[i] {
				at = append(at, i)
			}
		}
		bd, be := cudaDecodeJPEGs(dev, pick(datas, at), pick(infos, at), pick(dsts, at))
		for k, i := range at {
			done[i], errs[i] = bd[k] || be[k] != nil, be[k]
		}
	}
	// What nvJPEG declines (or everything, on the CPU device) is decoded in Go.
	forEach(n, func(i int) {
		if done[i] {
			return
		}
		if err := DecodeJPEG(dev, datas[i], dsts[i]); err != nil {
			errs[i] = err
			if inner := errors.Unwrap(err); inner != nil {
				errs[i] = inner // without DecodeJPEG's prefix
			}
		}
	})
	failed := false
	for i, err := range errs {
		if err != nil {
			errs[i], failed = fmt.Errorf("codec.DecodeJPEGs: file %d: %w", i, err), true
		}
	}
	if failed {
		return &BatchError{Errs: errs}
	}
	return nil
}

// BatchError is the error of a batch call in which some files failed: Errs[i] is
// file i's error (nil for the files that succeeded).
type BatchError struct {
	Errs []error
}

// Error lists the failed files' errors, one a line.
func (e *BatchError) Error() string {
	var lines []string
	for _, err := range e.Errs {
		if err != nil {
			lines = append(lines, err.Error())
		}
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the failed files' errors (for errors.Is and errors.As).
func (e *BatchError) Unwrap() []error {
	var errs []error
	for _, err := range e.Errs {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// pick returns s[at[0]], s[at[1]], ...
func pick[T any](s []T, at []int) []T {
	out := make([]T, len(at))
	for k, i := range at {
		out[k] = s[i]
	}
	return out
}

// forEach calls fn(0) ... fn(n-1) on GOMAXPROCS goroutines.
func forEach(n int, fn func(i int)) {
	spread(n, func(take func() (int, bool)) {
		for i, ok := take(); ok; i, ok = take() {
			fn(i)
		}
	})
}

// spread runs worker on min(n, GOMAXPROCS) goroutines and waits for them; take
// hands out 0 ... n-1 from one queue, each index once, then false.
func spread(n int, worker func(take func() (int, bool))) {
	var next atomic.Int64
	take := func() (int, bool) {
		i := int(next.Add(1) - 1)
		return i, i < n
	}
	var wg sync.WaitGroup
	for w := min(n, runtime.GOMAXPROCS(0)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(take)
		}()
	}
	wg.Wait()
}

// WarmJPEG readies dev for n goroutines decoding and encoding JPEGs like sample
// at once: on a CUDA device it starts nvJPEG and sizes n decoder and n encoder
// states by decoding and encoding sample with each, one after another (the first
// call in a state allocates its buffers, which many states doing at once take far
// longer than in turn). Later calls then take a ready state. It does nothing on the
// CPU device, and nothing when nvJPEG is missing or declines sample.
func WarmJPEG(dev *gpuimage.Device, n int, sample []byte) error {
	if dev == nil {
		return fmt.Errorf("codec.WarmJPEG: %w", gpuimage.ErrNil)
	}
	info, err := ParseJPEG(sample)
	if err == nil {
		err = checkSize("JPEG", info.Width, info.Height)
	}
	if err != nil {
		return fmt.Errorf("codec.WarmJPEG: %w", err)
	}
	if !dev.IsCUDA() || n <= 0 {
		return nil
	}
	return wrap("codec.WarmJPEG", cudaWarmJPEG(dev, n, sample, info))
}

// ensure (re)allocates dst on dev as rows x cols of type t unless it already is.
func ensure(dev *gpuimage.Device, dst *gpuimage.Image, rows, cols int, t gpuimage.MatType) error {
	if !dst.Empty() && dst.Device() == dev && dst.Rows() == rows && dst.Cols() == cols && dst.Type() == t {
		return nil
	}
	im, err := gpuimage.New(dev, rows, cols, t)
	if err != nil {
		return err
	}
	dst.Close()
	*dst = *im // the new image's memory now belongs to dst
	return nil
}

// DecodeJPEGPixels decodes a JPEG in Go into packed rows: gray (1 channel), or BGR
// (3) converted as libjpeg-turbo converts colour (YCbCrToBGR, CMYKToBGR).
func DecodeJPEGPixels(data []byte) (pix []byte, channels int, err error) {
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(data)); err == nil {
		if err := checkSize("JPEG", cfg.Width, cfg.Height); err != nil {
			return nil, 0, err
		}
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, fmt.Errorf("corrupt JPEG file: %v", err)
	}
	b := img.Bounds()
	switch m := img.(type) {
	case *image.Gray:
		out := make([]byte, b.Dx()*b.Dy())
		for y := 0; y < b.Dy(); y++ {
			copy(out[y*b.Dx():], m.Pix[y*m.Stride:y*m.Stride+b.Dx()])
		}
		return out, 1, nil
	case *image.YCbCr:
		return YCbCrToBGR(m), 3, nil
	case *image.CMYK:
		return CMYKToBGR(m), 3, nil
	}
	return nil, 0, fmt.Errorf("JPEG decoded as %T, which has no BGR conversion here", img)
}

// EncodeJPEG encodes an 8UC1 or 8UC3 (BGR) image as a JPEG file's bytes at quality
// 1-100.
func EncodeJPEG(src *gpuimage.Image, quality int, opts ...gpuimage.Option) ([]byte, error) {
	if quality < 1 || quality > 100 {
		return nil, fmt.Errorf("codec.EncodeJPEG: quality %d (want 1 to 100)", quality)
	}
	if src == nil || src.Empty() {
		return nil, fmt.Errorf("codec.EncodeJPEG: %w", gpuimage.ErrEmpty)
	}
	if t := src.Type(); t != gpuimage.CV8UC1 && t != gpuimage.CV8UC3 {
		return nil, fmt.Errorf("codec.EncodeJPEG: %w: %v (JPEG holds 8UC1 or 8UC3)", gpuimage.ErrBadType, t)
	}
	if src.Device().IsCUDA() {
		out, done, err := cudaEncodeJPEG(src, quality, opts)
		if done || err != nil {
			return out, wrap("codec.EncodeJPEG", err)
		}
	}
	pix := make([]byte, src.Rows()*src.Cols()*src.ElemSize())
	if err := src.Download(pix, opts...); err != nil {
		return nil, fmt.Errorf("codec.EncodeJPEG: %w", err)
	}
	return EncodeJPEGPixels(pix, src.Rows(), src.Cols(), src.Channels(), quality)
}

// maxJPEGSide is the most pixels a JPEG holds on a side (its header has 16 bits for each).
const maxJPEGSide = 65535

// EncodeJPEGPixels encodes packed gray or BGR rows in Go.
func EncodeJPEGPixels(pix []byte, rows, cols, channels, quality int) ([]byte, error) {
	var b bytes.Buffer
	if err := writeJPEGPixels("codec.EncodeJPEGPixels", &b, pix, rows, cols, channels, quality); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJPEGPixels is EncodeJPEGPixels writing to w. BGR rows become an opaque
// *image.RGBA, the one colour type the standard library's encoder converts without
// a call per pixel (1.5x faster than an *image.NRGBA, the same bytes).
func WriteJPEGPixels(w io.Writer, pix []byte, rows, cols, channels, quality int) error {
	return writeJPEGPixels("codec.WriteJPEGPixels", w, pix, rows, cols, channels, quality)
}

func writeJPEGPixels(op string, w io.Writer, pix []byte, rows, cols, channels, quality int) error {
	switch {
	case w == nil:
		return fmt.Errorf("%s: %w: writer", op, gpuimage.ErrNil)
	case rows <= 0 || cols <= 0 || rows > maxJPEGSide || cols > maxJPEGSide:
		return fmt.Errorf("%s: %dx%d pixels: JPEG holds 1 to %d a side", op, cols, rows, maxJPEGSide)
	case channels != 1 && channels != 3:
		return fmt.Errorf("%s: %d channels: JPEG holds 1 (gray) or 3 (BGR)", op, channels)
	case len(pix) < rows*cols*channels:
		return fmt.Errorf("%s: %d bytes of pixels for %dx%dx%d", op, len(pix), cols, rows, channels)
	}
	r := image.Rect(0, 0, cols, rows)
	var img image.Image
	if channels == 1 {
		img = &image.Gray{Pix: pix, Stride: cols, Rect: r}
	} else {
		m := image.NewRGBA(r)
		for i := 0; i < rows*cols; i++ {
			m.Pix[4*i], m.Pix[4*i+1], m.Pix[4*i+2], m.Pix[4*i+3] = pix[3*i+2], pix[3*i+1], pix[3*i], 255
		}
		img = m
	}
	return jpeg.Encode(w, img, &jpeg.Options{Quality: quality})
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}
