package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/zlib"
)

// ErrPNGKind reports a PNG that DecodePNGPixels leaves to a general decoder
// (palettes, bit depths under 8, interlacing, colour-key transparency).
var ErrPNGKind = errors.New("codec: PNG kind not decoded here")

// DecodePNGPixels decodes the common PNGs -- 8- or 16-bit gray, gray+alpha, RGB and
// RGBA, not interlaced, without a tRNS chunk -- straight into packed rows as OpenCV's
// IMREAD_UNCHANGED gives them: gray (1 channel), BGR (3) or BGRA (4; gray+alpha with
// its gray replicated), 16-bit samples little-endian. It inflates with
// klauspost/compress and unfilters in place, without an image.Image in between.
// Other kinds return ErrPNGKind; corrupt files (bad CRCs, short data) an error.
func DecodePNGPixels(data []byte) (pix []byte, rows, cols, channels int, deep bool, err error) {
	if len(data) < 8+25 || string(data[:8]) != "\x89PNG\r\n\x1a\n" {
		return nil, 0, 0, 0, false, fmt.Errorf("not a PNG file")
	}
	be := binary.BigEndian
	var idat [][]byte
	var depth, ctype, interlace byte
	for off := 8; ; {
		if off+12 > len(data) {
			return nil, 0, 0, 0, false, fmt.Errorf("truncated PNG file: it ends before IEND")
		}
		n := int64(be.Uint32(data[off:]))
		if n > int64(len(data)-off-12) {
			return nil, 0, 0, 0, false, fmt.Errorf("truncated PNG file: a %d-byte chunk runs past the end", n)
		}
		typ, body := string(data[off+4:off+8]), data[off+8:off+8+int(n)]
		if crc32.ChecksumIEEE(data[off+4:off+8+int(n)]) != be.Uint32(data[off+8+int(n):]) && typ[0] >= 'A' && typ[0] <= 'Z' {
			return nil, 0, 0, 0, false, fmt.Errorf("corrupt PNG file: bad CRC in the %s chunk", typ)
		}
		switch typ {
		case "IHDR":
			if len(body) < 13 {
				return nil, 0, 0, 0, false, fmt.Errorf("corrupt PNG file: short IHDR")
			}
			cols, rows = int(be.Uint32(body)), int(be.Uint32(body[4:]))
			depth, ctype, interlace = body[8], body[9], body[12]
		case "tRNS", "PLTE":
			return nil, 0, 0, 0, false, ErrPNGKind
		case "IDAT":
			idat = append(idat, body)
		}
		off += 12 + int(n)
		if typ == "IEND" {
			break
		}
	}
	if len(idat) == 0 {
		return nil, 0, 0, 0, false, fmt.Errorf("corrupt PNG file: no IDAT chunk")
	}
	channels = map[byte]int{0: 1, 2: 3, 4: 2, 6: 4}[ctype]
	if channels == 0 || (depth != 8 && depth != 16) || interlace != 0 || rows <= 0 || cols <= 0 {
		return nil, 0, 0, 0, false, ErrPNGKind
	}
	if err := checkSize("PNG", cols, rows); err != nil {
		return nil, 0, 0, 0, false, err
	}
	deep = depth == 16
	es := int(depth / 8)
	bpp := channels * es
	rowBytes := cols * bpp
	// One contiguous stream: klauspost/compress inflates a *bytes.Reader faster
	// than a chain of readers.
	stream := idat[0]
	if len(idat) > 1 {
		stream = bytes.Join(idat, nil)
	}
	zr, err := zlib.NewReader(bytes.NewReader(stream))
	if err != nil {
		return nil, 0, 0, 0, false, fmt.Errorf("corrupt PNG file: %v", err)
	}
	defer zr.Close()
	raw := make([]byte, (rowBytes+1)*rows)
	if _, err := io.ReadFull(zr, raw); err != nil {
		return nil, 0, 0, 0, false, fmt.Errorf("corrupt or truncated PNG file: not enough pixel data (%v)", err)
	}
	outCn := channels
	if channels == 2 {
		outCn = 4
	}
	pix = make([]byte, rows*cols*outCn*es)
	var prev []byte
	for y := 0; y < rows; y++ {
		line := raw[y*(rowBytes+1) : (y+1)*(rowBytes+1)]
		cur := line[1:]
		if err := unfilter(line[0], cur, prev, bpp); err != nil {
			return nil, 0, 0, 0, false, err
		}
		fromFile(pix[y*cols*outCn*es:(y+1)*cols*outCn*es], cur, channels, es)
		prev = cur
	}
	return pix, rows, cols, outCn, deep, nil
}

// unfilter undoes a row's PNG filter in place (prev is nil for the first row).
func unfilter(ft byte, cur, prev []byte, bpp int) error {
	switch ft {
	case 0:
	case 1:
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case 2:
		if prev != nil {
			for i := range cur {
				cur[i] += prev[i]
			}
		}
	case 3:
		for i := range cur {
			var a, b int
			if i >= bpp {
				a = int(cur[i-bpp])
			}
			if prev != nil {
				b = int(prev[i])
			}
			cur[i] += byte((a + b) / 2)
		}
	case 4:
		for i := range cur {
			var a, b, c byte
			if i >= bpp {
				a = cur[i-bpp]
			}
			if prev != nil {
				b = prev[i]
				if i >= bpp {
					c = prev[i-bpp]
				}
			}
			cur[i] += paethPredictor(a, b, c)
		}
	default:
		return fmt.Errorf("corrupt PNG file: filter type %d", ft)
	}
	return nil
}

// fromFile writes a row in the file's order (gray, GA, RGB, RGBA; big-endian
// samples) as gray, BGRA or BGR with little-endian samples.
func fromFile(dst, src []byte, channels, es int) {
	n := len(src) / (channels * es)
	switch {
	case es == 1 && channels == 1:
		copy(dst, src)
		return
	case es == 1 && channels == 3:
		for i := 0; i < n; i++ {
			dst[3*i], dst[3*i+1], dst[3*i+2] = src[3*i+2], src[3*i+1], src[3*i]
		}
		return
	}
	get := func(i, c, k int) byte { return src[(i*channels+c)*es+k] }
	for i := 0; i < n; i++ {
		for k := 0; k < es; k++ {
			kk := es - 1 - k // big-endian to little-endian
			switch channels {
			case 1:
				dst[i*es+kk] = get(i, 0, k)
			case 2:
				g, a := get(i, 0, k), get(i, 1, k)
				o := i * 4 * es
				dst[o+kk], dst[o+es+kk], dst[o+2*es+kk], dst[o+3*es+kk] = g, g, g, a
			case 3:
				o := i * 3 * es
				dst[o+kk], dst[o+es+kk], dst[o+2*es+kk] = get(i, 2, k), get(i, 1, k), get(i, 0, k)
			case 4:
				o := i * 4 * es
				dst[o+kk], dst[o+es+kk], dst[o+2*es+kk], dst[o+3*es+kk] = get(i, 2, k), get(i, 1, k), get(i, 0, k), get(i, 3, k)
			}
		}
	}
}
