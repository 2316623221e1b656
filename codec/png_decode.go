package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync/atomic"

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
	outCn := channels
	if channels == 2 {
		outCn = 4
	}
	pix = make([]byte, rows*cols*outCn*es)
	var prev []byte
	err = inflateRows(zr, make([]byte, (rowBytes+1)*rows), rowBytes+1, func(lines []byte, y0 int) error {
		for y := y0; len(lines) > 0; y++ {
			line := lines[:rowBytes+1]
			lines = lines[rowBytes+1:]
			cur := line[1:]
			if err := unfilter(line[0], cur, prev, bpp); err != nil {
				return err
			}
			fromFile(pix[y*cols*outCn*es:(y+1)*cols*outCn*es], cur, channels, es)
			prev = cur
		}
		return nil
	})
	if err != nil {
		return nil, 0, 0, 0, false, err
	}
	return pix, rows, cols, outCn, deep, nil
}

// pngChunkRows is how many rows inflateRows hands on at a time.
const pngChunkRows = 16

// inflateRows inflates zr into raw, lines of lineBytes each, and calls use on each
// run of pngChunkRows lines (y0 is the first's index) as soon as it is inflated:
// inflating the next run on another goroutine while use unfilters this one, so a
// decode takes about as long as the slower of the two instead of their sum. It
// closes zr.
func inflateRows(zr io.ReadCloser, raw []byte, lineBytes int, use func(lines []byte, y0 int) error) error {
	rows := len(raw) / lineBytes
	ready := make(chan int, rows/pngChunkRows+1) // lines inflated so far; never blocks
	var stop atomic.Bool
	var inflateErr error
	go func() {
		defer close(ready)
		defer zr.Close()
		for done := 0; done < rows && !stop.Load(); {
			n := min(pngChunkRows, rows-done)
			if _, err := io.ReadFull(zr, raw[done*lineBytes:(done+n)*lineBytes]); err != nil {
				inflateErr = fmt.Errorf("corrupt or truncated PNG file: not enough pixel data (%v)", err)
				return
			}
			done += n
			ready <- done
		}
	}()
	var err error
	y := 0
	for done := range ready { // ends when the inflating goroutine has
		if err == nil {
			err = use(raw[y*lineBytes:done*lineBytes], y)
			stop.Store(err != nil)
		}
		y = done
	}
	if err != nil {
		return err
	}
	return inflateErr // written before ready was closed
}

// unfilter undoes a row's PNG filter in place (prev is nil for the first row).
// The loops are specialised so that the common cases run without bounds checks or
// unpredictable branches: the first bpp bytes, which have no left neighbour, apart;
// Up eight bytes at a time; Paeth's choice by masks. On a photo-like
// 4K RGB file, mostly Paeth rows, this halves the decode's unfiltering time.
func unfilter(ft byte, cur, prev []byte, bpp int) error {
	if ft > 4 {
		return fmt.Errorf("corrupt PNG file: filter type %d", ft)
	}
	if prev == nil { // the row above is zeros: Up does nothing, Paeth is Sub
		switch ft {
		case 2:
			return nil
		case 4:
			ft = 1
		}
	}
	n := len(cur)
	bpp = min(bpp, n)
	switch ft {
	case 1:
		for i := bpp; i < n; i++ {
			cur[i] += cur[i-bpp]
		}
	case 2:
		upRow(cur, prev[:n])
	case 3:
		if prev == nil {
			for i := bpp; i < n; i++ {
				cur[i] += cur[i-bpp] >> 1
			}
			return nil
		}
		prev = prev[:n]
		for i := 0; i < bpp; i++ {
			cur[i] += prev[i] >> 1
		}
		for i := bpp; i < n; i++ {
			cur[i] += byte((uint(cur[i-bpp]) + uint(prev[i])) >> 1)
		}
	case 4:
		prev = prev[:n]
		for i := 0; i < bpp; i++ {
			cur[i] += prev[i] // a = c = 0: the predictor is b
		}
		switch {
		case bpp == 3 && n%3 == 0: // rows are whole pixels in a file; the test's need not be
			paethRow3(cur, prev)
		case bpp == 4 && n%4 == 0:
			paethRow4(cur, prev)
		default:
			left, upLeft := cur[:n-bpp], prev[:n-bpp]
			cur, prev = cur[bpp:], prev[bpp:]
			for i := range cur {
				cur[i] += paeth(left[i], prev[i], upLeft[i])
			}
		}
	}
	return nil
}

// paeth is the Paeth predictor of a byte from its left (a), upper (b) and upper
// left (c) neighbours, PNG's choice among the three of the one nearest a + b - c
// (a, then b, on ties). This is stb_image's equivalent form: with lo and hi the
// smaller and larger of a and b and t = 3c - (a + b), the answer is hi if t <= lo,
// else lo if hi <= t, else c (TestPaeth checks every input). Masks, not
// ifs, select: the compiler makes branches of ifs, which photos mispredict.
func paeth(a, b, c byte) byte {
	ic := int(c)
	lo, hi := int(min(a, b)), int(max(a, b))
	t := 3*ic - lo - hi
	r := ic ^ (lo^ic)&^((t-hi)>>63)       // lo if hi <= t
	return byte(r ^ (hi^r)&^((lo-t)>>63)) // hi if t <= lo
}

// paethRow3 unfilters a Paeth row of 3-byte pixels after the first, keeping the
// left and upper-left pixels in registers (the loop's chain then has no store and
// reload in it).
func paethRow3(cur, prev []byte) {
	a0, a1, a2 := cur[0], cur[1], cur[2]
	c0, c1, c2 := prev[0], prev[1], prev[2]
	for i := 3; i+3 <= len(cur); i += 3 {
		p, q := prev[i:i+3:i+3], cur[i:i+3:i+3]
		b0, b1, b2 := p[0], p[1], p[2]
		a0 = q[0] + paeth(a0, b0, c0)
		a1 = q[1] + paeth(a1, b1, c1)
		a2 = q[2] + paeth(a2, b2, c2)
		q[0], q[1], q[2] = a0, a1, a2
		c0, c1, c2 = b0, b1, b2
	}
}

// paethRow4 is paethRow3 for 4-byte pixels.
func paethRow4(cur, prev []byte) {
	a0, a1, a2, a3 := cur[0], cur[1], cur[2], cur[3]
	c0, c1, c2, c3 := prev[0], prev[1], prev[2], prev[3]
	for i := 4; i+4 <= len(cur); i += 4 {
		p, q := prev[i:i+4:i+4], cur[i:i+4:i+4]
		b0, b1, b2, b3 := p[0], p[1], p[2], p[3]
		a0 = q[0] + paeth(a0, b0, c0)
		a1 = q[1] + paeth(a1, b1, c1)
		a2 = q[2] + paeth(a2, b2, c2)
		a3 = q[3] + paeth(a3, b3, c3)
		q[0], q[1], q[2], q[3] = a0, a1, a2, a3
		c0, c1, c2, c3 = b0, b1, b2, b3
	}
}

// upRow adds prev to cur bytewise, eight bytes at a time (the sum of the low seven
// bits of each byte, then the top bit by exclusive or, so no carry crosses a byte).
func upRow(cur, prev []byte) {
	const low, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	i := 0
	for ; i+8 <= len(cur); i += 8 {
		x, y := binary.LittleEndian.Uint64(cur[i:]), binary.LittleEndian.Uint64(prev[i:])
		binary.LittleEndian.PutUint64(cur[i:], ((x&low)+(y&low))^((x^y)&high))
	}
	for ; i < len(cur); i++ {
		cur[i] += prev[i]
	}
}

// fromFile writes a row in the file's order (gray, GA, RGB, RGBA; big-endian
// samples) as gray, BGRA (gray+alpha with its gray replicated) or BGR with
// little-endian samples, a loop for each kind.
func fromFile(dst, src []byte, channels, es int) {
	n := len(src) / (channels * es)
	switch {
	case es == 1 && channels == 1:
		copy(dst, src)
	case es == 1 && channels == 2:
		for i := 0; i < n; i++ {
			s, d := src[2*i:2*i+2:2*i+2], dst[4*i:4*i+4:4*i+4]
			d[0], d[1], d[2], d[3] = s[0], s[0], s[0], s[1]
		}
	case es == 1 && channels == 3:
		for i := 0; i < n; i++ {
			s, d := src[3*i:3*i+3:3*i+3], dst[3*i:3*i+3:3*i+3]
			d[0], d[1], d[2] = s[2], s[1], s[0]
		}
	case es == 1 && channels == 4:
		for i := 0; i < n; i++ {
			s, d := src[4*i:4*i+4:4*i+4], dst[4*i:4*i+4:4*i+4]
			d[0], d[1], d[2], d[3] = s[2], s[1], s[0], s[3]
		}
	case channels == 1: // 16-bit: swap the bytes of each sample, four at a time
		const lo = 0x00ff00ff00ff00ff
		i := 0
		for ; i+8 <= len(src); i += 8 {
			x := binary.LittleEndian.Uint64(src[i:])
			binary.LittleEndian.PutUint64(dst[i:], (x&lo)<<8|(x>>8)&lo)
		}
		for ; i+2 <= len(src); i += 2 {
			dst[i], dst[i+1] = src[i+1], src[i]
		}
	case channels == 2:
		for i := 0; i < n; i++ {
			s, d := src[4*i:4*i+4:4*i+4], dst[8*i:8*i+8:8*i+8]
			d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = s[1], s[0], s[1], s[0], s[1], s[0], s[3], s[2]
		}
	case channels == 3: // RGB big-endian reversed byte for byte is BGR little-endian
		for i := 0; i < n; i++ {
			s, d := src[6*i:6*i+6:6*i+6], dst[6*i:6*i+6:6*i+6]
			d[0], d[1], d[2], d[3], d[4], d[5] = s[5], s[4], s[3], s[2], s[1], s[0]
		}
	default:
		for i := 0; i < n; i++ {
			s, d := src[8*i:8*i+8:8*i+8], dst[8*i:8*i+8:8*i+8]
			d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = s[5], s[4], s[3], s[2], s[1], s[0], s[7], s[6]
		}
	}
}
