package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// The pure-Go decoder, built into both builds: the noopencv build reads every file
// with it, the OpenCV build the formats OpenCV 4.6 does not read (GIF). It returns
// what OpenCV's imread returns for the same file and flag: with readUnchanged the
// file's own depth and channels (gray → 1, gray+alpha and RGBA → 4 (BGRA), RGB and
// palette without transparency → 3 (BGR), 16-bit → 16U, float TIFF → 32F), never an
// alpha channel the file does not have; with readColor 8-bit BGR, with readGray
// 8-bit gray, both turned by the EXIF orientation as OpenCV turns them. JPEG colour
// is converted as libjpeg-turbo converts it (fancy upsampling of 4:2:0 and 4:2:2
// chroma, its fixed-point YCbCr → RGB: codec.YCbCrToBGR), so results agree within
// ±1 in luma and ±3 in colour (the IDCTs differ in rounding).

var decoders = map[string]func([]byte) (image.Image, error){
	"png":  func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) },
	"jpeg": func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) },
	"gif":  func(b []byte) (image.Image, error) { return gif.Decode(bytes.NewReader(b)) },
	"bmp":  func(b []byte) (image.Image, error) { return bmp.Decode(bytes.NewReader(b)) },
	"tiff": func(b []byte) (image.Image, error) { return tiff.Decode(bytes.NewReader(b)) },
	"webp": func(b []byte) (image.Image, error) { return webp.Decode(bytes.NewReader(b)) },
}

// decodeGo decodes a file's bytes whose header h was read by sniff.
func decodeGo(data []byte, h header, mode readMode) (pixels, error) {
	return decodeGoInto(data, h, mode, nil)
}

// decodeGoInto is decodeGo with the pixels of the BMP files it reads itself in a
// buffer from get.
func decodeGoInto(data []byte, h header, mode readMode, get alloc) (pixels, error) {
	if mode == readGray && h.format == "jpeg" && h.components == 3 {
		// libjpeg outputs the luma plane itself for a grayscale read.
		img, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			return pixels{}, decodeErr(h, err)
		}
		if yc, ok := img.(*image.YCbCr); ok {
			b := yc.Bounds()
			p := pixels{rows: b.Dy(), cols: b.Dx(), typ: gpuimage.CV8UC1, data: packRows(yc.Y, yc.YStride, b.Dx(), b.Dy())}
			return orient(p, h.orientation), nil
		}
	}
	p, err := decodeGoUnchanged(data, h, get)
	if err != nil {
		return pixels{}, err
	}
	if mode == readUnchanged {
		return p, nil
	}
	if p.typ.Depth() == gpuimage.Depth32F {
		// OpenCV's TIFF reader gives nothing for these.
		return pixels{}, fmt.Errorf("a 32-bit float %s file cannot be read as 8 bits (-read %v): read it unchanged and convert it", upper(h.format), &mode)
	}
	switch {
	case h.format == "png" && mode == readGray:
		p = pngGray(p) // libpng's own conversion, as OpenCV asks libpng for gray
	case h.format == "tiff" && p.typ.Depth() == gpuimage.Depth16U && p.typ.Channels() >= 3:
		p = to8URounded(p) // libtiff's RGBA reader rounds 16 bits to 8
	}
	p = to8U(p)
	if mode == readColor {
		p = toColor(p)
	} else {
		p = toGray(p)
	}
	return orient(p, h.orientation), nil
}

// pngGray is libpng's png_do_rgb_to_gray without gamma, with the weights OpenCV
// sets (0.299, 0.587 as 15-bit fixed point, truncated), on 8- or 16-bit samples,
// alpha dropped; 16-bit results keep their high byte (png_set_strip_16).
func pngGray(p pixels) pixels {
	cn := p.typ.Channels()
	if cn == 1 {
		return p
	}
	const rc, gc, bc = 9797, 19234, 32768 - 9797 - 19234
	n := p.rows * p.cols
	out := make([]byte, n)
	deep := p.typ.Depth() == gpuimage.Depth16U
	for i := 0; i < n; i++ {
		var b, g, r uint32
		if deep {
			s := p.data[2*cn*i:]
			b, g, r = uint32(s[0])|uint32(s[1])<<8, uint32(s[2])|uint32(s[3])<<8, uint32(s[4])|uint32(s[5])<<8
		} else {
			s := p.data[cn*i:]
			b, g, r = uint32(s[0]), uint32(s[1]), uint32(s[2])
		}
		v := r
		switch {
		case r == g && r == b:
		case deep:
			v = (rc*r + gc*g + bc*b + 16384) >> 15
		default:
			v = (rc*r + gc*g + bc*b) >> 15
		}
		if deep {
			v >>= 8
		}
		out[i] = byte(v)
	}
	return pixels{rows: p.rows, cols: p.cols, typ: gpuimage.CV8UC1, data: out}
}

// to8URounded converts 16U to 8U as libtiff's RGBA reader: (v+128)/257.
func to8URounded(p pixels) pixels {
	n := p.rows * p.cols * p.typ.Channels()
	out := make([]byte, n)
	for i := range out {
		out[i] = byte((int(p.data[2*i]) | int(p.data[2*i+1])<<8 + 128) / 257)
	}
	return pixels{rows: p.rows, cols: p.cols, typ: gpuimage.MakeType(gpuimage.Depth8U, p.typ.Channels()), data: out}
}

func decodeErr(h header, err error) error {
	return fmt.Errorf("corrupt or truncated %s file: %v", upper(h.format), err)
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// decodeGoUnchanged decodes as IMREAD_UNCHANGED.
func decodeGoUnchanged(data []byte, h header, get alloc) (pixels, error) {
	switch h.format {
	case "tiff":
		if t, err := parseTIFF(data, false); err == nil && t.supported() == nil {
			return readTIFF(data)
		}
	case "bmp":
		if p, ok, err := readBMP(data, get); ok || err != nil {
			return p, err
		}
	case "png":
		pix, rows, cols, cn, deep, err := codec.DecodePNGPixels(data)
		if err == nil {
			d := gpuimage.Depth8U
			if deep {
				d = gpuimage.Depth16U
			}
			return pixels{rows: rows, cols: cols, typ: gpuimage.MakeType(d, cn), data: pix}, nil
		}
		if !errors.Is(err, codec.ErrPNGKind) {
			return pixels{}, err
		}
	case "":
		return pixels{}, fmt.Errorf("not an image this build reads (PNG, JPEG, TIFF, BMP, GIF, WebP)")
	}
	dec := decoders[h.format]
	if dec == nil {
		return pixels{}, fmt.Errorf("%s files are not read by this build (it reads PNG, JPEG, TIFF, BMP, GIF, WebP)", upper(h.format))
	}
	img, err := dec(data)
	if err != nil {
		return pixels{}, decodeErr(h, err)
	}
	b := img.Bounds()
	w, ht := b.Dx(), b.Dy()
	switch src := img.(type) {
	case *image.Gray:
		return pixels{rows: ht, cols: w, typ: gpuimage.CV8UC1, data: packRows(src.Pix, src.Stride, w, ht)}, nil
	case *image.Gray16:
		return pixels{rows: ht, cols: w, typ: gpuimage.CV16UC1, data: swap16(packRows(src.Pix, src.Stride, 2*w, ht))}, nil
	case *image.YCbCr:
		return pixels{rows: ht, cols: w, typ: gpuimage.CV8UC3, data: codec.YCbCrToBGR(src)}, nil
	case *image.Paletted:
		return palettedPixels(src, h), nil
	case *image.CMYK:
		return pixels{rows: ht, cols: w, typ: gpuimage.CV8UC3, data: codec.CMYKToBGR(src)}, nil
	}
	// Everything else through NRGBA(64), keeping the channels the file has.
	cn, deep := 3, false
	switch img.(type) {
	case *image.RGBA64, *image.NRGBA64:
		deep = true
	}
	if hasFileAlpha(img, h) {
		cn = 4
	}
	if h.known && h.format == "png" { // the PNG header decides (gray + tRNS stays gray)
		cn, deep = h.typ.Channels(), h.typ.Depth() == gpuimage.Depth16U
	}
	if deep {
		return nrgba64Pixels(img, cn), nil
	}
	return nrgbaPixels(img, cn), nil
}

// hasFileAlpha says whether the decoded image carries the file's own alpha.
func hasFileAlpha(img image.Image, h header) bool {
	switch img.(type) {
	case *image.NYCbCrA:
		return true
	case *image.NRGBA, *image.NRGBA64:
		if h.format == "webp" {
			return webpAlpha(h)
		}
		return true
	case *image.RGBA, *image.RGBA64:
		// x/image/bmp and tiff return RGBA for files with an alpha channel;
		// Go's PNG decoder returns RGBA only for opaque RGB, decided by the header.
		return h.format == "bmp" || h.format == "tiff"
	}
	return false
}

// webpAlpha reads the alpha flag of a WebP header.
func webpAlpha(h header) bool { return h.trns }

func swap16(b []byte) []byte {
	for i := 0; i+1 < len(b); i += 2 {
		b[i], b[i+1] = b[i+1], b[i]
	}
	return b
}

func packRows(pix []byte, stride, rowBytes, rows int) []byte {
	out := make([]byte, rowBytes*rows)
	for y := 0; y < rows; y++ {
		copy(out[y*rowBytes:], pix[y*stride:y*stride+rowBytes])
	}
	return out
}

// palettedPixels expands a palette image: gray palettes of BMP files give one
// channel (as OpenCV reads them), a palette with a transparent entry four.
func palettedPixels(src *image.Paletted, h header) pixels {
	b := src.Bounds()
	w, ht := b.Dx(), b.Dy()
	gray, alpha := true, false
	pal := make([][4]byte, 256)
	for i, c := range src.Palette {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		pal[i] = [4]byte{n.B, n.G, n.R, n.A}
		gray = gray && n.R == n.G && n.G == n.B
		alpha = alpha || n.A != 255
	}
	cn := 3
	switch {
	case h.format == "bmp" && gray:
		cn = 1
	case alpha || h.trns:
		cn = 4
	}
	if h.known && h.format == "png" {
		cn = h.typ.Channels()
	}
	out := make([]byte, w*ht*cn)
	for y := 0; y < ht; y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+w]
		o := out[y*w*cn:]
		for x, idx := range row {
			c := pal[idx]
			if cn == 1 {
				o[x] = c[0]
				continue
			}
			copy(o[x*cn:x*cn+cn], c[:cn])
		}
	}
	return pixels{rows: ht, cols: w, typ: gpuimage.MakeType(gpuimage.Depth8U, cn), data: out}
}

// nrgbaPixels converts any image to 8-bit BGR (cn 3) or BGRA (cn 4), not
// premultiplied.
func nrgbaPixels(img image.Image, cn int) pixels {
	if cn == 1 { // gray with a tRNS colour key, which Go decodes as NRGBA
		return toGray(nrgbaPixels(img, 3))
	}
	b := img.Bounds()
	w, ht := b.Dx(), b.Dy()
	n, ok := img.(*image.NRGBA)
	switch o, hasOpaque := img.(interface{ Opaque() bool }); {
	case ok:
	case hasOpaque && o.Opaque():
		// Without alpha, RGBA and NRGBA hold the same values, and image/draw fills
		// an *image.RGBA without a call per pixel (YCbCr, CMYK, opaque RGBA).
		rgba, isRGBA := img.(*image.RGBA)
		if !isRGBA {
			rgba = image.NewRGBA(image.Rect(0, 0, w, ht))
			draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
		}
		n = &image.NRGBA{Pix: rgba.Pix, Stride: rgba.Stride, Rect: rgba.Rect}
	default:
		n = image.NewNRGBA(image.Rect(0, 0, w, ht))
		draw.Draw(n, n.Bounds(), img, b.Min, draw.Src)
	}
	out := make([]byte, w*ht*cn)
	for y := 0; y < ht; y++ {
		row := n.Pix[n.PixOffset(n.Rect.Min.X, n.Rect.Min.Y+y):]
		o := out[y*w*cn:]
		for x := 0; x < w; x++ {
			s := row[4*x : 4*x+4]
			o[cn*x], o[cn*x+1], o[cn*x+2] = s[2], s[1], s[0]
			if cn == 4 {
				o[cn*x+3] = s[3]
			}
		}
	}
	return pixels{rows: ht, cols: w, typ: gpuimage.MakeType(gpuimage.Depth8U, cn), data: out}
}

// nrgba64Pixels converts to 16-bit gray (cn 1), BGR or BGRA, not premultiplied.
func nrgba64Pixels(img image.Image, cn int) pixels {
	b := img.Bounds()
	w, ht := b.Dx(), b.Dy()
	out := make([]byte, 2*w*ht*cn)
	put := func(i int, v uint16) { out[2*i], out[2*i+1] = byte(v), byte(v>>8) }
	for y := 0; y < ht; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA64Model.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA64)
			i := (y*w + x) * cn
			switch cn {
			case 1:
				put(i, c.R)
			default:
				put(i, c.B)
				put(i+1, c.G)
				put(i+2, c.R)
				if cn == 4 {
					put(i+3, c.A)
				}
			}
		}
	}
	return pixels{rows: ht, cols: w, typ: gpuimage.MakeType(gpuimage.Depth16U, cn), data: out}
}

// to8U converts 16U and 16S (the high byte of the sample, as OpenCV's TIFF and PNG
// readers) and 32F (rounded, saturated) to 8U, as imread without IMREAD_ANYDEPTH.
func to8U(p pixels) pixels {
	d := p.typ.Depth()
	if d == gpuimage.Depth8U {
		return p
	}
	n := p.rows * p.cols * p.typ.Channels()
	out := make([]byte, n)
	for i := 0; i < n; i++ {
		switch d {
		case gpuimage.Depth16U, gpuimage.Depth16S: // OpenCV keeps the high byte of either
			out[i] = p.data[2*i+1]
		case gpuimage.Depth32F:
			f := float32frombits(p.data[4*i:])
			out[i] = byte(min(max(roundHalfEven(f), 0), 255))
		}
	}
	return pixels{rows: p.rows, cols: p.cols, typ: gpuimage.MakeType(gpuimage.Depth8U, p.typ.Channels()), data: out}
}

// toColor makes 8-bit BGR: gray is replicated, alpha dropped.
func toColor(p pixels) pixels {
	cn := p.typ.Channels()
	if cn == 3 {
		return p
	}
	n := p.rows * p.cols
	out := make([]byte, 3*n)
	for i := 0; i < n; i++ {
		if cn == 1 {
			out[3*i], out[3*i+1], out[3*i+2] = p.data[i], p.data[i], p.data[i]
		} else {
			copy(out[3*i:3*i+3], p.data[cn*i:cn*i+3])
		}
	}
	return pixels{rows: p.rows, cols: p.cols, typ: gpuimage.CV8UC3, data: out}
}

// toGray makes 8-bit gray with OpenCV's fixed-point BGR → gray weights.
func toGray(p pixels) pixels {
	cn := p.typ.Channels()
	if cn == 1 {
		return p
	}
	n := p.rows * p.cols
	out := make([]byte, n)
	for i := 0; i < n; i++ {
		s := p.data[cn*i:]
		out[i] = byte((int(s[0])*1868 + int(s[1])*9617 + int(s[2])*4899 + 1<<13) >> 14)
	}
	return pixels{rows: p.rows, cols: p.cols, typ: gpuimage.CV8UC1, data: out}
}

// orient turns and flips 8-bit pixels by an EXIF orientation (1-8).
func orient(p pixels, o int) pixels {
	if o <= 1 || o > 8 {
		return p
	}
	cn := p.typ.Channels()
	w, h := p.cols, p.rows
	ow, oh := w, h
	if swapped(o) {
		ow, oh = h, w
	}
	out := make([]byte, len(p.data))
	for y := 0; y < oh; y++ {
		for x := 0; x < ow; x++ {
			var sx, sy int
			switch o {
			case 2: // mirrored
				sx, sy = w-1-x, y
			case 3: // 180°
				sx, sy = w-1-x, h-1-y
			case 4: // flipped vertically
				sx, sy = x, h-1-y
			case 5: // transposed
				sx, sy = y, x
			case 6: // turned 90° clockwise to display
				sx, sy = y, h-1-x
			case 7: // transversed
				sx, sy = w-1-y, h-1-x
			case 8: // turned 90° anticlockwise to display
				sx, sy = w-1-y, x
			}
			copy(out[(y*ow+x)*cn:(y*ow+x+1)*cn], p.data[(sy*w+sx)*cn:])
		}
	}
	return pixels{rows: oh, cols: ow, typ: p.typ, data: out}
}

func float32frombits(b []byte) float32 {
	return math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// roundHalfEven is cvRound for the values to8U saturates anyway.
func roundHalfEven(f float32) float64 {
	if f != f {
		return 0
	}
	return math.RoundToEven(float64(f))
}
