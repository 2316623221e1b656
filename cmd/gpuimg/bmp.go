package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// Uncompressed 24- and 32-bit BMP files hold BGR(A) rows, which is the image's own
// layout, so the pure-Go build reads and writes them with row copies instead of
// going through image.Image (a 4K image in about a tenth of the time).

// readBMP decodes an uncompressed 24- or 32-bit BMP; ok is false for any other kind
// of file (left to the general decoders).
func readBMP(file []byte) (p pixels, ok bool, err error) {
	if len(file) < 54 || file[0] != 'B' || file[1] != 'M' {
		return pixels{}, false, nil
	}
	h := file[:54]
	le := binary.LittleEndian
	off, hdr := le.Uint32(h[10:]), le.Uint32(h[14:])
	w, hgt := int32(le.Uint32(h[18:])), int32(le.Uint32(h[22:]))
	planes, bpp, comp := le.Uint16(h[26:]), le.Uint16(h[28:]), le.Uint32(h[30:])
	if hdr < 40 || planes != 1 || (bpp != 24 && bpp != 32) || (comp != 0 && !(comp == 3 && bpp == 32)) || w <= 0 || hgt == 0 {
		return pixels{}, false, nil
	}
	if comp == 3 { // bit fields: only the usual BGRA order is the image's layout
		if len(file) < 14+40+16 {
			return pixels{}, false, nil
		}
		m := file[14+40:]
		if le.Uint32(m[0:]) != 0xff0000 || le.Uint32(m[4:]) != 0xff00 || le.Uint32(m[8:]) != 0xff {
			return pixels{}, false, nil
		}
	}
	rows, cols, cn := int(hgt), int(w), int(bpp/8)
	bottomUp := rows > 0
	if !bottomUp {
		rows = -rows
	}
	stride := int64(cols*cn+3) &^ 3
	if int64(off)+stride*int64(rows-1)+int64(cols*cn) > int64(len(file)) {
		return pixels{}, true, fmt.Errorf("truncated BMP file: %dx%d pixels need %d bytes after the header, the file has %d",
			cols, rows, stride*int64(rows), int64(len(file))-int64(off))
	}
	// OpenCV reads 32-bit BMPs as BGR, without their fourth byte; so does this.
	data := make([]byte, rows*cols*3)
	for i := 0; i < rows; i++ {
		y := i
		if bottomUp {
			y = rows - 1 - i
		}
		o := int64(off) + int64(i)*stride
		dst := data[y*cols*3 : (y+1)*cols*3]
		if cn == 3 {
			copy(dst, file[o:])
			continue
		}
		src := file[o : o+int64(4*cols)]
		for x := 0; x < cols; x++ {
			dst[3*x], dst[3*x+1], dst[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
		}
	}
	return pixels{rows: rows, cols: cols, typ: gpuimage.CV8UC3, data: data}, true, nil
}

// writeBMP encodes an 8-bit 3- or 4-channel image as an uncompressed BMP.
func writeBMP(w io.Writer, p pixels) error {
	cn := p.typ.Channels()
	if p.typ.Depth() != gpuimage.Depth8U || (cn != 3 && cn != 4) {
		return errors.New("not an 8-bit BGR or BGRA image")
	}
	stride := (p.cols*cn + 3) &^ 3
	var h [54]byte
	le := binary.LittleEndian
	h[0], h[1] = 'B', 'M'
	le.PutUint32(h[2:], uint32(54+stride*p.rows))
	le.PutUint32(h[10:], 54)
	le.PutUint32(h[14:], 40)
	le.PutUint32(h[18:], uint32(p.cols))
	le.PutUint32(h[22:], uint32(p.rows))
	le.PutUint16(h[26:], 1)
	le.PutUint16(h[28:], uint16(8*cn))
	le.PutUint32(h[34:], uint32(stride*p.rows))
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write(h[:])
	pad := make([]byte, stride-p.cols*cn)
	for y := p.rows - 1; y >= 0; y-- {
		bw.Write(p.data[y*p.cols*cn : (y+1)*p.cols*cn])
		bw.Write(pad)
	}
	return bw.Flush()
}
