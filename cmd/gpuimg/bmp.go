package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// Uncompressed 24- and 32-bit BMP files hold BGR(A) rows, which is the image's own
// layout, so the pure-Go build reads and writes them with row copies instead of
// going through image.Image (a 4K image in about a tenth of the time).

// bmpRows is where an uncompressed 24- or 32-bit BMP file holds its pixel rows.
type bmpRows struct {
	file        []byte
	off, stride int64
	rows, cols  int
	cn          int // 3 or 4 bytes a pixel in the file
	bottomUp    bool
}

// parseBMP finds the rows of an uncompressed 24- or 32-bit BMP; ok is false for any
// other kind of file (left to the general decoders).
func parseBMP(file []byte) (b bmpRows, ok bool, err error) {
	b, ok, err = parseBMPHeader(file, int64(len(file)))
	b.file = file
	return b, ok, err
}

// parseBMPHeader is parseBMP from the file's first bytes (at least the header and
// its colour masks, bmpHead) and its size; b.file is left nil.
func parseBMPHeader(file []byte, size int64) (b bmpRows, ok bool, err error) {
	if len(file) < 54 || file[0] != 'B' || file[1] != 'M' {
		return b, false, nil
	}
	h := file[:54]
	le := binary.LittleEndian
	off, hdr := le.Uint32(h[10:]), le.Uint32(h[14:])
	w, hgt := int32(le.Uint32(h[18:])), int32(le.Uint32(h[22:]))
	planes, bpp, comp := le.Uint16(h[26:]), le.Uint16(h[28:]), le.Uint32(h[30:])
	if hdr < 40 || planes != 1 || (bpp != 24 && bpp != 32) || (comp != 0 && !(comp == 3 && bpp == 32)) || w <= 0 || hgt == 0 {
		return b, false, nil
	}
	if comp == 3 { // bit fields: only the usual BGRA order is the image's layout
		if len(file) < 14+40+16 {
			return b, false, nil
		}
		m := file[14+40:]
		if le.Uint32(m[0:]) != 0xff0000 || le.Uint32(m[4:]) != 0xff00 || le.Uint32(m[8:]) != 0xff {
			return b, false, nil
		}
	}
	b = bmpRows{off: int64(off), rows: int(hgt), cols: int(w), cn: int(bpp / 8), bottomUp: hgt > 0}
	if !b.bottomUp {
		b.rows = -b.rows
	}
	b.stride = int64(b.cols*b.cn+3) &^ 3
	if b.off+b.stride*int64(b.rows-1)+int64(b.cols*b.cn) > size {
		return b, true, fmt.Errorf("truncated BMP file: %dx%d pixels need %d bytes after the header, the file has %d",
			b.cols, b.rows, b.stride*int64(b.rows), size-b.off)
	}
	return b, true, nil
}

// bmpHead is how many of a BMP file's first bytes parseBMPHeader reads.
const bmpHead = 14 + 40 + 16

// readRowsAt reads a 24-bit BMP's rows from its file f straight into dst, top row
// first, without the file passing through another buffer: the system's preadv
// puts each row where it goes (and the padding aside) as it reads.
func (b bmpRows) readRowsAt(f *os.File, dst []byte) error {
	if b.cn != 3 {
		return errors.New("readRowsAt: not a 24-bit BMP")
	}
	pad := make([]byte, b.stride-int64(b.cols*3))
	bufs := make([][]byte, 0, 2*b.rows)
	for i := 0; i < b.rows; i++ {
		y := i
		if b.bottomUp {
			y = b.rows - 1 - i
		}
		bufs = append(bufs, dst[y*b.cols*3:(y+1)*b.cols*3])
		if len(pad) > 0 && i < b.rows-1 { // the last row's padding may be missing
			bufs = append(bufs, pad)
		}
	}
	n, err := readBuffersAt(f, bufs, b.off)
	if err == nil && n < int64(b.rows-1)*b.stride+int64(b.cols*3) {
		err = fmt.Errorf("the file ended after %d bytes of pixels (it changed while being read?)", n)
	}
	return err
}

// copyTo writes the image's BGR rows, top row first, to dst (rows x cols x 3
// bytes). OpenCV reads 32-bit BMPs as BGR, without their fourth byte; so does this.
func (b bmpRows) copyTo(dst []byte) {
	for i := 0; i < b.rows; i++ {
		y := i
		if b.bottomUp {
			y = b.rows - 1 - i
		}
		o := b.off + int64(i)*b.stride
		row := dst[y*b.cols*3 : (y+1)*b.cols*3]
		if b.cn == 3 {
			copy(row, b.file[o:])
			continue
		}
		src := b.file[o : o+int64(4*b.cols)]
		for x := 0; x < b.cols; x++ {
			row[3*x], row[3*x+1], row[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
		}
	}
}

// readBMP decodes an uncompressed 24- or 32-bit BMP into a buffer from get; ok is
// false for any other kind of file (left to the general decoders).
func readBMP(file []byte, get alloc) (p pixels, ok bool, err error) {
	b, ok, err := parseBMP(file)
	if !ok || err != nil {
		return pixels{}, ok, err
	}
	data := get.get(b.rows * b.cols * 3)
	b.copyTo(data)
	return pixels{rows: b.rows, cols: b.cols, typ: gpuimage.CV8UC3, data: data}, true, nil
}

// writeBMP encodes an 8-bit 3- or 4-channel image as an uncompressed BMP. Its
// rows are written from where they are, bottom row first, without a copy.
func writeBMP(w io.Writer, p pixels) error {
	cn := p.typ.Channels()
	if p.typ.Depth() != gpuimage.Depth8U || (cn != 3 && cn != 4) {
		return errors.New("not an 8-bit BGR or BGRA image")
	}
	stride := (p.cols*cn + 3) &^ 3
	h := make([]byte, 54)
	le := binary.LittleEndian
	h[0], h[1] = 'B', 'M'
	le.PutUint32(h[2:], uint32(54+stride*p.rows))
	le.PutUint32(h[10:], 54)
	le.PutUint32(h[14:], 40)
	le.PutUint32(h[18:], uint32(p.cols))
	le.PutUint32(h[22:], uint32(p.rows))
	le.PutUint16(h[26:], 1)
	le.PutUint16(h[28:], uint16(8*cn))
	// The image size field (h[34:38]) stays 0, as OpenCV writes it: a file is
	// the same from both builds.
	pad := make([]byte, stride-p.cols*cn)
	bufs := make([][]byte, 0, 1+2*p.rows)
	bufs = append(bufs, h)
	for y := p.rows - 1; y >= 0; y-- {
		bufs = append(bufs, p.data[y*p.cols*cn:(y+1)*p.cols*cn])
		if len(pad) > 0 {
			bufs = append(bufs, pad)
		}
	}
	if f, ok := w.(*os.File); ok {
		return writeBuffers(f, bufs)
	}
	for _, b := range bufs {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
