package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// What both builds do before decoding a file: name its format from its first
// bytes, read the size its header claims and refuse sizes over the limits before
// anything is allocated, and find truncated JPEGs (which OpenCV would decode with
// their missing part grey).

// readMode is the -read flag: OpenCV's IMREAD_UNCHANGED, IMREAD_COLOR or
// IMREAD_GRAYSCALE.
type readMode int

const (
	readUnchanged readMode = iota // what the file holds: depth, channels, alpha
	readColor                     // 8-bit BGR, EXIF orientation applied
	readGray                      // 8-bit gray, EXIF orientation applied
)

var readModes = map[string]readMode{"unchanged": readUnchanged, "color": readColor, "gray": readGray}

func (m *readMode) String() string {
	for k, v := range readModes {
		if v == *m {
			return k
		}
	}
	return "unchanged"
}

func (m *readMode) Set(s string) error {
	v, ok := readModes[strings.ToLower(s)]
	if !ok {
		return fmt.Errorf("want unchanged, color or gray")
	}
	*m = v
	return nil
}

// Size limits, as OpenCV's imread applies them (OPENCV_IO_MAX_IMAGE_PIXELS,
// _WIDTH and _HEIGHT): a file whose header claims more is refused before any pixel
// memory is allocated.
const (
	defaultMaxPixels = 1 << 30
	maxSide          = 1 << 20
)

// maxPixelsEnv changes the default pixel limit; the -max-pixels flag overrides it.
const maxPixelsEnv = "GPUIMG_MAX_IMAGE_PIXELS"

// readOpts are the flags that govern decoding.
type readOpts struct {
	mode      readMode
	maxPixels int64
}

// defaultMaxPixelsFromEnv is the limit when -max-pixels is not given.
func defaultMaxPixelsFromEnv() (int64, error) {
	v := os.Getenv(maxPixelsEnv)
	if v == "" {
		return defaultMaxPixels, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q is not a positive number of pixels", maxPixelsEnv, v)
	}
	return n, nil
}

// ErrTooLarge marks files refused for their claimed size.
var errTooLarge = errors.New("image too large")

// checkSize refuses dimensions that are not positive or over the limits.
func checkSize(format string, w, h int64, maxPixels int64) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("%s header claims a %dx%d image", format, w, h)
	}
	if w > maxSide || h > maxSide {
		return fmt.Errorf("%w: the %s header claims %dx%d pixels; a side may be at most %d", errTooLarge, format, w, h, maxSide)
	}
	if w*h > maxPixels {
		return fmt.Errorf("%w: the %s header claims %dx%d = %d pixels, over the limit of %d (-max-pixels or %s)",
			errTooLarge, format, w, h, w*h, maxPixels, maxPixelsEnv)
	}
	return nil
}

// header is what a file's first bytes say.
type header struct {
	format string // png, jpeg, gif, bmp, tiff, webp, pnm, or "" when not known
	w, h   int64
	// typ is the type OpenCV's IMREAD_UNCHANGED gives, where the header tells it
	// (0 with known false otherwise).
	typ   gpuimage.MatType
	known bool

	trns bool // PNG: a tRNS chunk (palette or colour-key transparency)
	// JPEG
	progressive bool
	components  int // 1 gray, 3 YCbCr, 4 CMYK
	orientation int // EXIF orientation, 1-8 (0: none)
}

// sniff reads the header of an image file held in data.
func sniff(data []byte) (header, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return sniffPNG(data)
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		return sniffJPEG(data)
	case bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a")):
		if len(data) < 10 {
			return header{}, errTruncated("GIF")
		}
		return header{format: "gif", w: int64(binary.LittleEndian.Uint16(data[6:])), h: int64(binary.LittleEndian.Uint16(data[8:]))}, nil
	case bytes.HasPrefix(data, []byte("BM")):
		return sniffBMP(data)
	case bytes.HasPrefix(data, []byte("II*\x00")) || bytes.HasPrefix(data, []byte("MM\x00*")):
		t, err := parseTIFF(data, false)
		if err != nil {
			return header{}, err
		}
		return header{format: "tiff", w: int64(t.w), h: int64(t.h), typ: t.matType(), known: t.supported() == nil}, nil
	case len(data) >= 30 && bytes.HasPrefix(data, []byte("RIFF")) && string(data[8:12]) == "WEBP":
		return sniffWebP(data)
	case len(data) >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6':
		return sniffPNM(data)
	}
	return header{}, nil
}

func errTruncated(format string) error {
	return fmt.Errorf("truncated %s file: it ends inside its header", format)
}

func sniffPNG(data []byte) (header, error) {
	if len(data) < 33 || string(data[12:16]) != "IHDR" {
		return header{}, errTruncated("PNG")
	}
	be := binary.BigEndian
	h := header{format: "png", w: int64(be.Uint32(data[16:])), h: int64(be.Uint32(data[20:]))}
	depth, ctype := data[24], data[25]
	for off := 33; off+8 <= len(data); {
		n, typ := int64(be.Uint32(data[off:])), string(data[off+4:off+8])
		if typ == "IDAT" || typ == "IEND" {
			break
		}
		if typ == "tRNS" {
			h.trns = true
		}
		if n > int64(len(data)) {
			break
		}
		off += 12 + int(n)
	}
	cn := 1
	switch ctype {
	case 2, 3: // RGB, palette
		cn = 3
		if h.trns {
			cn = 4
		}
	case 4, 6: // gray+alpha, RGBA
		cn = 4
	}
	d := gpuimage.Depth8U
	if depth == 16 {
		d = gpuimage.Depth16U
	}
	h.typ, h.known = gpuimage.MakeType(d, cn), true
	return h, nil
}

func sniffBMP(data []byte) (header, error) {
	if len(data) < 26 {
		return header{}, errTruncated("BMP")
	}
	le := binary.LittleEndian
	hdr := le.Uint32(data[14:])
	var w, h int64
	if hdr == 12 { // OS/2 core header: 16-bit sizes
		w, h = int64(le.Uint16(data[18:])), int64(le.Uint16(data[20:]))
	} else {
		w, h = int64(int32(le.Uint32(data[18:]))), int64(int32(le.Uint32(data[22:])))
	}
	if h < 0 { // top-down rows
		h = -h
	}
	return header{format: "bmp", w: w, h: h}, nil
}

func sniffWebP(data []byte) (header, error) {
	le := binary.LittleEndian
	switch string(data[12:16]) {
	case "VP8 ":
		return header{format: "webp", w: int64(le.Uint16(data[26:]) & 0x3fff), h: int64(le.Uint16(data[28:]) & 0x3fff)}, nil
	case "VP8L":
		b := le.Uint32(data[21:])
		return header{format: "webp", w: int64(b&0x3fff) + 1, h: int64(b>>14&0x3fff) + 1, trns: b>>28&1 == 1}, nil
	case "VP8X":
		u24 := func(p []byte) int64 { return int64(p[0]) | int64(p[1])<<8 | int64(p[2])<<16 }
		return header{format: "webp", w: u24(data[24:]) + 1, h: u24(data[27:]) + 1, trns: data[20]&0x10 != 0}, nil
	}
	return header{format: "webp"}, fmt.Errorf("WebP file with an unknown chunk %q", data[12:16])
}

// sniffPNM reads the width and height of a PBM/PGM/PPM header.
func sniffPNM(data []byte) (header, error) {
	var nums []int64
	i := 2
	for len(nums) < 2 && i < len(data) {
		switch c := data[i]; {
		case c == '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case c >= '0' && c <= '9':
			var n int64
			for i < len(data) && data[i] >= '0' && data[i] <= '9' && n < 1<<40 {
				n = n*10 + int64(data[i]-'0')
				i++
			}
			nums = append(nums, n)
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			return header{format: "pnm"}, fmt.Errorf("bad PNM header")
		}
		i++
	}
	if len(nums) < 2 {
		return header{}, errTruncated("PNM")
	}
	return header{format: "pnm", w: nums[0], h: nums[1]}, nil
}

func sniffJPEG(data []byte) (header, error) {
	j, err := codec.ParseJPEG(data)
	h := header{format: "jpeg", w: int64(j.Width), h: int64(j.Height), progressive: j.Progressive,
		components: j.Components, orientation: j.Orientation}
	if err == nil {
		cn := 3
		if j.Components == 1 {
			cn = 1
		}
		h.typ, h.known = gpuimage.MakeType(gpuimage.Depth8U, cn), true
	}
	return h, err
}

// readChecked reads path and checks its header: the format, the claimed size
// against the limits, and (JPEG) that the file is complete.
func readChecked(path string, ro readOpts) ([]byte, header, error) {
	return readCheckedInto(path, ro, nil)
}

// readCheckedInto is readChecked reading the file into a buffer from get.
func readCheckedInto(path string, ro readOpts, get alloc) ([]byte, header, error) {
	data, err := readFile(path, get)
	if err != nil {
		return nil, header{}, err
	}
	h, err := sniff(data)
	if err != nil {
		return nil, h, err
	}
	if h.format != "" {
		if err := checkSize(strings.ToUpper(h.format), h.w, h.h, ro.maxPixels); err != nil {
			return nil, h, err
		}
	}
	return data, h, nil
}

// swapped says whether EXIF orientation o exchanges width and height.
func swapped(o int) bool { return o >= 5 && o <= 8 }

// dropPNGChunks returns the PNG data without the chunks of the given type (the
// input is not changed).
func dropPNGChunks(data []byte, typ string) []byte {
	var out []byte
	for off := 8; off+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[off:]))
		end := off + 12 + n
		if n < 0 || end > len(data) || end < off {
			return data // malformed: left to the decoder to refuse
		}
		if string(data[off+4:off+8]) == typ {
			if out == nil {
				out = append([]byte{}, data[:off]...)
			}
		} else if out != nil {
			out = append(out, data[off:end]...)
		}
		if string(data[off+4:off+8]) == "IEND" {
			if out != nil {
				out = append(out, data[end:]...)
			}
			break
		}
		off = end
	}
	if out == nil {
		return data
	}
	return out
}
