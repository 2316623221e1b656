package main

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"os"
	"strings"

	"golang.org/x/image/bmp"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// The write rule, the same in both builds: a file is written only in a format that
// holds the image's depth and channels without loss of range; anything else is
// refused with an error naming a format that does (or the conversion to make).
// Nothing is scaled or cut silently.

// formatRule is what one output format holds.
type formatRule struct {
	name   string
	depths []gpuimage.Depth
	chans  []int
}

var (
	d8      = []gpuimage.Depth{gpuimage.Depth8U}
	d8to16  = []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U}
	d32     = []gpuimage.Depth{gpuimage.Depth32F}
	c134    = []int{1, 3, 4}
	c13     = []int{1, 3}
	allTIFF = []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F}
)

// formatRules are keyed by extension; writable (per build) lists which this build
// writes.
var formatRules = map[string]formatRule{
	".png":  {"PNG", d8to16, c134},
	".jpg":  {"JPEG", d8, c13},
	".jpeg": {"JPEG", d8, c13},
	".jpe":  {"JPEG", d8, c13},
	".bmp":  {"BMP", d8, c13}, // OpenCV reads 32-bit BMPs without their alpha
	".dib":  {"BMP", d8, c13},
	".tif":  {"TIFF", allTIFF, c134},
	".tiff": {"TIFF", allTIFF, c134},
	".gif":  {"GIF", d8, c13},
	".webp": {"WebP", d8, []int{3, 4}},
	".pbm":  {"PBM", d8, []int{1}},
	".pgm":  {"PGM", d8to16, []int{1}},
	".ppm":  {"PPM", d8to16, []int{3}},
	".pnm":  {"PNM", d8to16, c13},
	".exr":  {"OpenEXR", d32, c134},
	".hdr":  {"Radiance HDR", d32, []int{3}},
	".pic":  {"Radiance HDR", d32, []int{3}},
	".sr":   {"Sun raster", d8, c13},
	".ras":  {"Sun raster", d8, c13},
	".jp2":  {"JPEG 2000", d8to16, c134},
}

func (r formatRule) holds(t gpuimage.MatType) bool {
	okD, okC := false, false
	for _, d := range r.depths {
		okD = okD || d == t.Depth()
	}
	for _, c := range r.chans {
		okC = okC || c == t.Channels()
	}
	return okD && okC
}

// checkEncodable applies the write rule to an image of type t written to path.
func checkEncodable(path string, t gpuimage.MatType) error {
	ext := extOf(path)
	r, ok := formatRules[ext]
	if !ok {
		return checkWritable(path)
	}
	if r.holds(t) {
		return nil
	}
	cn := t.Channels()
	if cn == 2 {
		return fmt.Errorf("no image format holds a 2-channel (complex) %v image: take its magnitude or spectrum first", t)
	}
	var alt []string
	named := map[string]bool{}
	for _, ext := range writable {
		if f := formatRules[ext]; f.holds(t) && !named[f.name] {
			named[f.name] = true
			alt = append(alt, ext)
		}
	}
	hint := "convert it first (e.g. convert:depth=8U)"
	if len(alt) > 0 {
		hint = "write " + strings.Join(alt, " or ") + ", or convert it first"
	}
	if !containsInt(r.chans, cn) {
		return fmt.Errorf("%s holds %s-channel images, not this %d-channel %v one: %s", r.name, joinInts(r.chans), cn, t, hint)
	}
	return fmt.Errorf("%s holds %s images, not this %v one (nothing is scaled or cut on writing): %s", r.name, joinDepths(r.depths), t, hint)
}

func containsInt(v []int, x int) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func joinDepths(v []gpuimage.Depth) string {
	s := make([]string, len(v))
	for i, d := range v {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}

// writeOpts are the flags that govern encoding.
type writeOpts struct {
	quality     int // JPEG, 1-100
	compression int // PNG, 0-9 (OpenCV's IMWRITE_PNG_COMPRESSION)
}

// encodeGo writes p in pure Go (both builds write TIFF and GIF this way).
func encodeGo(path string, p pixels, wo writeOpts) error {
	if err := checkEncodable(path, p.typ); err != nil {
		return err
	}
	return atomicWrite(path, func(tmp string) error {
		f, err := os.Create(tmp)
		if err != nil {
			return err
		}
		if err := encodeGoTo(f, path, p, wo); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

func encodeGoTo(f *os.File, path string, p pixels, wo writeOpts) error {
	switch formatRules[extOf(path)].name {
	case "TIFF":
		return writeTIFF(f, p)
	case "BMP":
		if p.typ.Channels() >= 3 {
			return writeBMP(f, p)
		}
		return bmp.Encode(f, goImage(p))
	case "PNG":
		return codec.EncodePNG(f, p.data, p.rows, p.cols, p.typ.Channels(), p.typ.Depth() == gpuimage.Depth16U, wo.compression)
	case "JPEG":
		return codec.WriteJPEGPixels(f, p.data, p.rows, p.cols, p.typ.Channels(), wo.quality)
	case "GIF":
		img := goImage(p)
		if g, ok := img.(*image.Gray); ok {
			img = grayPaletted(g)
		}
		return gif.Encode(f, img, nil)
	}
	return fmt.Errorf("this build cannot write %s files", extOf(path))
}

// goImage wraps 8- or 16-bit pixels of 1, 3 or 4 channels as a Go image.
func goImage(p pixels) image.Image {
	w, h, cn := p.cols, p.rows, p.typ.Channels()
	r := image.Rect(0, 0, w, h)
	deep := p.typ.Depth() == gpuimage.Depth16U
	switch {
	case cn == 1 && !deep:
		return &image.Gray{Pix: p.data, Stride: w, Rect: r}
	case cn == 1:
		g := image.NewGray16(r)
		for i := 0; i < w*h; i++ {
			g.Pix[2*i], g.Pix[2*i+1] = p.data[2*i+1], p.data[2*i]
		}
		return g
	case !deep:
		m := image.NewNRGBA(r)
		for i := 0; i < w*h; i++ {
			s := p.data[cn*i:]
			a := byte(255)
			if cn == 4 {
				a = s[3]
			}
			m.Pix[4*i], m.Pix[4*i+1], m.Pix[4*i+2], m.Pix[4*i+3] = s[2], s[1], s[0], a
		}
		return m
	}
	m := image.NewNRGBA64(r)
	for i := 0; i < w*h; i++ {
		s := p.data[2*cn*i:]
		v := func(c int) uint16 { return uint16(s[2*c]) | uint16(s[2*c+1])<<8 }
		a := uint16(0xffff)
		if cn == 4 {
			a = v(3)
		}
		m.SetNRGBA64(i%w, i/w, color.NRGBA64{R: v(2), G: v(1), B: v(0), A: a})
	}
	return m
}

// grayPaletted is a gray image as a GIF holds it exactly: a 256-entry gray palette.
func grayPaletted(g *image.Gray) *image.Paletted {
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.Gray{uint8(i)}
	}
	b := g.Bounds()
	return &image.Paletted{Pix: g.Pix, Stride: g.Stride, Rect: b, Palette: pal}
}
