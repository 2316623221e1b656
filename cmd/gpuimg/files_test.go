package main

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/bmp"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// fixture is a generated image file and what reading it must give: the type as
// IMREAD_UNCHANGED, or an error containing fail.
type fixture struct {
	name string
	data []byte
	typ  gpuimage.MatType
	fail string
}

// rawPNG writes a PNG of the given bit depth and colour type from packed rows
// (already in the file's sample layout), with extra chunks (PLTE, tRNS) before IDAT:
// the kinds Go's encoder cannot write (gray+alpha, colour-key transparency, 1-bit).
func rawPNG(w, h int, depth, ctype byte, rows [][]byte, chunks ...[2]string) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc.Sum32())
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	chunk("IHDR", append(ihdr, depth, ctype, 0, 0, 0))
	for _, c := range chunks {
		chunk(c[0], []byte(c[1]))
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	for _, r := range rows {
		zw.Write(append([]byte{0}, r...))
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

func randRows(r *rand.Rand, h, rowBytes int) [][]byte {
	rows := make([][]byte, h)
	for i := range rows {
		rows[i] = make([]byte, rowBytes)
		r.Read(rows[i])
	}
	return rows
}

// photo is a smooth random colour image (JPEG round trips of noise say little).
func photo(r *rand.Rand, w, h int, alpha bool) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	fx, fy, ph := r.Float64()*0.3, r.Float64()*0.3, r.Float64()*6
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := func(k float64) uint8 {
				return uint8(127 + 120*sinApprox(fx*float64(x)*k+fy*float64(y)+ph*k))
			}
			a := uint8(255)
			if alpha {
				a = uint8(r.Intn(256))
			}
			m.SetNRGBA(x, y, color.NRGBA{v(1), v(1.7), v(2.3), a})
		}
	}
	return m
}

func sinApprox(x float64) float64 {
	for x > 3.14159 {
		x -= 6.28318
	}
	for x < -3.14159 {
		x += 6.28318
	}
	return x * (1.27323954 - 0.405284735*abs(x))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func encodeWith(t testing.TB, img image.Image, enc func(*bytes.Buffer, image.Image) error) []byte {
	var b bytes.Buffer
	if err := enc(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fixtures returns files of every kind the decoders must agree on, with odd sizes,
// and truncated and bomb files of each format.
func fixtures(t testing.TB, r *rand.Rand) []fixture {
	var fs []fixture
	add := func(name string, data []byte, typ gpuimage.MatType) {
		fs = append(fs, fixture{name: name, data: data, typ: typ})
	}
	w, h := 37, 23
	add("gray.png", rawPNG(w, h, 8, 0, randRows(r, h, w)), gpuimage.CV8UC1)
	add("gray1bit.png", rawPNG(w, h, 1, 0, randRows(r, h, (w+7)/8)), gpuimage.CV8UC1)
	add("gray4bit.png", rawPNG(w, h, 4, 0, randRows(r, h, (w+1)/2)), gpuimage.CV8UC1)
	add("gray16.png", rawPNG(w, h, 16, 0, randRows(r, h, 2*w)), gpuimage.CV16UC1)
	add("gray-trns.png", rawPNG(w, h, 8, 0, randRows(r, h, w), [2]string{"tRNS", "\x00\x07"}), gpuimage.CV8UC1)
	add("grayalpha.png", rawPNG(w, h, 8, 4, randRows(r, h, 2*w)), gpuimage.CV8UC4)
	add("grayalpha16.png", rawPNG(w, h, 16, 4, randRows(r, h, 4*w)), gpuimage.CV16UC4)
	add("rgb.png", rawPNG(w, h, 8, 2, randRows(r, h, 3*w)), gpuimage.CV8UC3)
	add("rgb16.png", rawPNG(w, h, 16, 2, randRows(r, h, 6*w)), gpuimage.CV16UC3)
	add("rgba.png", rawPNG(w, h, 8, 6, randRows(r, h, 4*w)), gpuimage.CV8UC4)
	add("rgba16.png", rawPNG(w, h, 16, 6, randRows(r, h, 8*w)), gpuimage.CV16UC4)
	pal := make([]byte, 3*256)
	r.Read(pal)
	idx := randRows(r, h, w)
	add("palette.png", rawPNG(w, h, 8, 3, idx, [2]string{"PLTE", string(pal)}), gpuimage.CV8UC3)
	trns := make([]byte, 256)
	r.Read(trns)
	add("palette-trns.png", rawPNG(w, h, 8, 3, idx, [2]string{"PLTE", string(pal)}, [2]string{"tRNS", string(trns)}), gpuimage.CV8UC4)
	add("rgb-iccp.png", rawPNG(w, h, 8, 2, randRows(r, h, 3*w), [2]string{"iCCP", "bad\x00\x00\x78\x9c\x03\x00\x00\x00\x00\x01"}), gpuimage.CV8UC3)
	add("1x1.png", rawPNG(1, 1, 8, 2, randRows(r, 1, 3)), gpuimage.CV8UC3)

	gray := image.NewGray(image.Rect(0, 0, 41, 17))
	r.Read(gray.Pix)
	jpg := func(m image.Image) []byte {
		return encodeWith(t, m, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, &jpeg.Options{Quality: 90}) })
	}
	add("gray.jpg", jpg(gray), gpuimage.CV8UC1)
	add("color420.jpg", jpg(photo(r, 45, 31, false)), gpuimage.CV8UC3)
	add("color420-1x1.jpg", jpg(photo(r, 1, 1, false)), gpuimage.CV8UC3)
	add("color420-2x3.jpg", jpg(photo(r, 2, 3, false)), gpuimage.CV8UC3)
	for _, o := range []int{2, 3, 5, 6, 7, 8} {
		add(fmt.Sprintf("exif-orient%d.jpg", o), withOrientation(jpg(photo(r, 21, 11, false)), o), gpuimage.CV8UC3)
	}

	bmpOf := func(p pixels) []byte {
		var b bytes.Buffer
		if err := writeBMP(&b, p); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	px := func(cn int) pixels {
		p := pixels{rows: 13, cols: 7, typ: gpuimage.MakeType(gpuimage.Depth8U, cn), data: make([]byte, 13*7*cn)}
		r.Read(p.data)
		return p
	}
	add("bgr.bmp", bmpOf(px(3)), gpuimage.CV8UC3)
	add("bgra.bmp", bmpOf(px(4)), gpuimage.CV8UC3)
	add("gray.bmp", encodeWith(t, gray, func(b *bytes.Buffer, m image.Image) error { return bmp.Encode(b, m) }), gpuimage.CV8UC1)

	pm := image.NewPaletted(image.Rect(0, 0, 19, 11), palette.Plan9)
	r.Read(pm.Pix)
	add("plain.gif", encodeWith(t, pm, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) }), gpuimage.CV8UC3)
	tp := image.NewPaletted(pm.Rect, append(color.Palette{color.NRGBA{}}, palette.Plan9[1:]...))
	copy(tp.Pix, pm.Pix)
	add("transparent.gif", encodeWith(t, tp, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) }), gpuimage.CV8UC4)

	for _, typ := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4, gpuimage.CV16UC1, gpuimage.CV16UC3,
		gpuimage.CV16SC1, gpuimage.CV32FC1, gpuimage.CV32FC3, gpuimage.CV32FC4} {
		p := pixels{rows: 9, cols: 29, typ: typ, data: make([]byte, 9*29*typ.Channels()*typ.Depth().Size())}
		r.Read(p.data)
		if typ.Depth() == gpuimage.Depth32F { // finite floats
			for i := 0; i < len(p.data); i += 4 {
				binary.LittleEndian.PutUint32(p.data[i:], math32(r.Float32()*1000-500))
			}
		}
		var b bytes.Buffer
		if err := writeTIFF(&b, p); err != nil {
			t.Fatal(err)
		}
		add(strings.ToLower(typ.String())+".tiff", b.Bytes(), typ)
	}
	{ // several strips, compressed in parallel
		p := pixels{rows: 1100, cols: 300, typ: gpuimage.CV8UC3, data: make([]byte, 1100*300*3)}
		r.Read(p.data)
		var b bytes.Buffer
		if err := writeTIFF(&b, p); err != nil {
			t.Fatal(err)
		}
		add("strips.tiff", b.Bytes(), gpuimage.CV8UC3)
	}

	// Truncated files: the first half of each kind.
	n := len(fs)
	for _, f := range fs[:n] {
		if f.name == "1x1.png" || f.name == "color420-1x1.jpg" {
			continue
		}
		fs = append(fs, fixture{name: "truncated-" + f.name, data: f.data[:len(f.data)/2], fail: "truncated"})
	}
	// Bombs: tiny files whose headers claim huge images.
	bomb := rawPNG(1, 1, 8, 2, [][]byte{{1, 2, 3}})
	binary.BigEndian.PutUint32(bomb[16:], 100000)
	binary.BigEndian.PutUint32(bomb[20:], 100000)
	fs = append(fs, fixture{name: "bomb.png", data: bomb, fail: "too large"})
	bb := bmpOf(px(3))
	binary.LittleEndian.PutUint32(bb[18:], 2147483647)
	binary.LittleEndian.PutUint32(bb[22:], 1)
	fs = append(fs, fixture{name: "bomb.bmp", data: bb, fail: "too large"})
	jb := append([]byte{}, fs[indexOf(fs, "color420.jpg")].data...)
	sof := bytes.Index(jb, []byte{0xff, 0xc0})
	binary.BigEndian.PutUint16(jb[sof+5:], 65000)
	binary.BigEndian.PutUint16(jb[sof+7:], 65000)
	fs = append(fs, fixture{name: "bomb.jpg", data: jb, fail: "too large"})
	gb := append([]byte{}, fs[indexOf(fs, "plain.gif")].data...)
	binary.LittleEndian.PutUint16(gb[6:], 65535)
	binary.LittleEndian.PutUint16(gb[8:], 65535)
	fs = append(fs, fixture{name: "bomb.gif", data: gb, fail: "too large"})
	tb := append([]byte{}, fs[indexOf(fs, "cv_8uc1.tiff")].data...)
	patchTIFFSize(tb, 1<<20, 1<<20)
	fs = append(fs, fixture{name: "bomb.tiff", data: tb, fail: "too large"})
	return fs
}

// withOrientation inserts an EXIF block with orientation o after the SOI marker.
func withOrientation(jpg []byte, o int) []byte {
	tiff := []byte("II*\x00\x08\x00\x00\x00\x01\x00")
	tiff = binary.LittleEndian.AppendUint16(tiff, 0x0112)
	tiff = binary.LittleEndian.AppendUint16(tiff, 3)
	tiff = binary.LittleEndian.AppendUint32(tiff, 1)
	tiff = binary.LittleEndian.AppendUint16(tiff, uint16(o))
	tiff = append(tiff, 0, 0, 0, 0, 0, 0)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	out := append([]byte{}, jpg[:2]...)
	out = append(out, 0xff, 0xe1, byte((len(seg)+2)>>8), byte(len(seg)+2))
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

func math32(f float32) uint32 { return math.Float32bits(f) }

func indexOf(fs []fixture, name string) int {
	for i, f := range fs {
		if f.name == name {
			return i
		}
	}
	panic("no fixture " + name)
}

// patchTIFFSize rewrites the width and height entries of a little-endian TIFF
// written by writeTIFF.
func patchTIFFSize(b []byte, w, h uint32) {
	le := binary.LittleEndian
	off := le.Uint32(b[4:])
	n := int(le.Uint16(b[off:]))
	for k := 0; k < n; k++ {
		e := b[int(off)+2+12*k:]
		switch le.Uint16(e) {
		case tagWidth:
			le.PutUint32(e[8:], w)
		case tagHeight:
			le.PutUint32(e[8:], h)
		}
	}
}

func writeFixtures(t *testing.T, fs []fixture) string {
	dir := t.TempDir()
	for _, f := range fs {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The pure-Go decoder, in every build: each generated file reads as the type
// OpenCV's IMREAD_UNCHANGED gives (checked against OpenCV itself in
// TestDecodersAgree), truncated files and bombs fail with errors that say so, and
// the colour and gray modes give 8-bit BGR and gray.
func TestDecodeGo(t *testing.T) {
	r := tu.Rand(t)
	ro := readOpts{maxPixels: defaultMaxPixels}
	for _, f := range fixtures(t, r) {
		h, err := sniff(f.data)
		if err == nil {
			if err = checkSize(h.format, h.w, h.h, ro.maxPixels); err == nil {
				var p pixels
				p, err = decodeGo(f.data, h, readUnchanged)
				if err == nil && f.fail == "" && (p.typ != f.typ || len(p.data) != p.rows*p.cols*f.typ.Channels()*f.typ.Depth().Size()) {
					t.Errorf("%s: read as %v (%d bytes), want %v", f.name, p.typ, len(p.data), f.typ)
				}
				for mode, want := range map[readMode]gpuimage.MatType{readColor: gpuimage.CV8UC3, readGray: gpuimage.CV8UC1} {
					q, err := decodeGo(f.data, h, mode)
					if err == nil && q.typ != want {
						t.Errorf("%s -read %v: %v, want %v", f.name, &mode, q.typ, want)
					}
					if err == nil && swapped(h.orientation) && (q.rows != p.cols || q.cols != p.rows) {
						t.Errorf("%s -read %v: %dx%d, want the %dx%d image turned", f.name, &mode, q.cols, q.rows, p.cols, p.rows)
					}
				}
			}
		}
		switch {
		case f.fail == "" && err != nil:
			t.Errorf("%s: %v", f.name, err)
		case f.fail != "" && (err == nil || !strings.Contains(err.Error(), f.fail)):
			t.Errorf("%s: error %v, want one saying %q", f.name, err, f.fail)
		}
	}
}

// writeTIFF compresses strips in parallel: files of several strips (and a last,
// shorter one) read back exactly, in every layout it writes.
func TestTIFFStrips(t *testing.T) {
	r := tu.Rand(t)
	for _, typ := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4, gpuimage.CV16UC3, gpuimage.CV16SC1, gpuimage.CV32FC1, gpuimage.CV32FC4} {
		rows, cols := 2101, 257 // 3 strips at one byte a pixel, more at more
		p := pixels{rows: rows, cols: cols, typ: typ, data: make([]byte, rows*cols*typ.Channels()*typ.Depth().Size())}
		r.Read(p.data[:len(p.data)/2]) // half noise, half zeros: strips of different sizes
		var b bytes.Buffer
		if err := writeTIFF(&b, p); err != nil {
			t.Fatal(err)
		}
		info, err := parseTIFF(b.Bytes(), true)
		if err != nil {
			t.Fatal(err)
		}
		if len(info.offsets) < 3 {
			t.Fatalf("%v: %d strips, want several", typ, len(info.offsets))
		}
		back, err := readTIFF(b.Bytes())
		if err != nil || back.typ != typ || back.rows != rows || back.cols != cols || !bytes.Equal(back.data, p.data) {
			t.Errorf("%v: read back %v %dx%d, same pixels %v, %v", typ, back.typ, back.cols, back.rows, bytes.Equal(back.data, p.data), err)
		}
	}
}
