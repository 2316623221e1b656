//go:build !noopencv

package main

import (
	"fmt"
	"os"
	"strconv"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
)

const ioName = "OpenCV " + "(gocv)"

// writable are the extensions this build writes: OpenCV's imwrite's, and GIF
// through Go.
var writable = []string{".png", ".jpg", ".jpeg", ".jpe", ".bmp", ".dib", ".tif", ".tiff", ".gif", ".webp", ".pbm", ".pgm",
	".ppm", ".pnm", ".exr", ".hdr", ".pic", ".sr", ".ras", ".jp2"}

var imreadFlags = map[readMode]gocv.IMReadFlag{
	readUnchanged: gocv.IMReadUnchanged,
	readColor:     gocv.IMReadColor,
	readGray:      gocv.IMReadGrayScale,
}

// decode reads a file with OpenCV's imread and the -read mode. The header is
// checked first, in Go: sizes over the limits (which OpenCV answers with an
// exception that ends the process) and truncated JPEGs (which it decodes with the
// missing part grey) are refused; GIF, which OpenCV 4.6 does not read, and TIFF,
// which both builds write with the same Go code, take the pure-Go decoder where it
// reads them.
func decode(path string, ro readOpts) (pixels, error) {
	data, h, err := readChecked(path, ro)
	if err != nil {
		return pixels{}, err
	}
	return decodeBytes(data, h, ro, nil)
}

// decodeBytes decodes a file's bytes whose header readChecked checked, into a
// buffer from get.
func decodeBytes(data []byte, h header, ro readOpts, get alloc) (pixels, error) {
	if h.format == "gif" {
		return decodeGoInto(data, h, ro.mode, get)
	}
	if h.format == "png" {
		data = dropPNGChunks(data, "iCCP") // libpng warns on stderr about common bad profiles; colour is not managed
	}
	m, err := gocv.IMDecode(data, imreadFlags[ro.mode])
	if err != nil || m.Empty() {
		if err == nil {
			m.Close()
		}
		return pixels{}, fmt.Errorf("cannot read the image (corrupt, truncated or not an image OpenCV reads)")
	}
	defer m.Close()
	b, err := bytesInto(m, get)
	return pixels{rows: m.Rows(), cols: m.Cols(), typ: gpuimage.MatType(m.Type()), data: b}, err
}

// bytesInto copies m's pixels into a buffer from get (gocvmat.Bytes where get is
// nil or m is not continuous).
func bytesInto(m gocv.Mat, get alloc) ([]byte, error) {
	if get == nil || !m.IsContinuous() {
		return gocvmat.Bytes(m)
	}
	v, err := m.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	b := get.get(len(v))
	copy(b, v)
	return b, nil
}

// encode writes p by the write rule with OpenCV's imwrite (PNG, TIFF and GIF in
// Go, the same code as the pure-Go build's),
// through a temporary folder, its file renamed into place.
func encode(path string, p pixels, wo writeOpts) error {
	if err := checkEncodable(path, p.typ); err != nil {
		return err
	}
	if r := formatRules[extOf(path)]; r.name == "TIFF" || r.name == "GIF" || r.name == "PNG" {
		return encodeGo(path, p, wo)
	}
	m, err := gocv.NewMatFromBytes(p.rows, p.cols, gocv.MatType(p.typ), p.data)
	if err != nil {
		return err
	}
	defer m.Close()
	return atomicWrite(path, func(tmp string) error {
		if !gocv.IMWriteWithParams(tmp, m, []int{gocv.IMWriteJpegQuality, wo.quality}) {
			return fmt.Errorf("OpenCV cannot write %v images as %s", p.typ, extOf(path))
		}
		return nil
	})
}

// setReadLimit tells OpenCV the pixel limit (it reads the variable on its first
// imread), so that it never refuses by exception what the Go check let through.
func setReadLimit(n int64) {
	os.Setenv("OPENCV_IO_MAX_IMAGE_PIXELS", strconv.FormatInt(max(n, defaultMaxPixels), 10))
}
