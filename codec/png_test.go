package codec_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// EncodePNG's files decode with Go's PNG decoder to the same pixels, for every
// channel count and depth, sizes that split into several strips or none, and every
// compression level.
func TestEncodePNG(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 1}, {1, 37}, {37, 1}, {300, 451}, {3, 4097}, {129, 5}, {256, 3}} {
		for _, cn := range []int{1, 3, 4} {
			for _, deep := range []bool{false, true} {
				for li, level := range []int{0, 1, 1, 6, 9} {
					rows, cols := sz[0], sz[1]
					es := 1
					if deep {
						es = 2
					}
					pix := make([]byte, rows*cols*cn*es)
					if li == 1 { // noise, Huffman-coded at level 1
						r.Read(pix)
					} else { // smooth data, which LZ77 matching compresses
						for i := range pix {
							pix[i] = byte(i / (cn * es * 7))
						}
					}
					var b bytes.Buffer
					if err := codec.EncodePNG(&b, pix, rows, cols, cn, deep, level); err != nil {
						t.Fatal(err)
					}
					back, br, bc, bcn, bdeep, err := codec.DecodePNGPixels(b.Bytes())
					if err != nil || br != rows || bc != cols || bcn != cn || bdeep != deep || !bytes.Equal(back, pix) {
						t.Fatalf("%dx%d C%d deep=%v level %d: DecodePNGPixels: %v, %dx%d C%d deep=%v, same pixels %v",
							cols, rows, cn, deep, level, err, bc, br, bcn, bdeep, bytes.Equal(back, pix))
					}
					img, err := png.Decode(bytes.NewReader(b.Bytes()))
					if err != nil {
						t.Fatalf("%dx%d C%d deep=%v level %d: Go cannot read the file: %v", cols, rows, cn, deep, level, err)
					}
					for i := 0; i < rows*cols; i++ {
						x, y := i%cols, i/cols
						c := color.NRGBA64Model.Convert(img.At(x, y)).(color.NRGBA64)
						if !deep { // 8-bit samples: compare in 8 bits (NRGBA64 of NRGBA rounds)
							n := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
							c = color.NRGBA64{R: uint16(n.R) * 0x101, G: uint16(n.G) * 0x101, B: uint16(n.B) * 0x101, A: uint16(n.A) * 0x101}
						}
						v := func(k int) uint16 {
							o := (i*cn + k) * es
							if deep {
								return uint16(pix[o]) | uint16(pix[o+1])<<8
							}
							return uint16(pix[o]) * 0x101
						}
						want := color.NRGBA64{R: v(0), G: v(0), B: v(0), A: 0xffff}
						if cn >= 3 {
							want.R, want.G, want.B = v(2), v(1), v(0)
						}
						if cn == 4 {
							want.A = v(3)
						}
						if cn == 4 && want.A == 0 {
							continue // NRGBA64 conversion of fully transparent pixels drops the colour
						}
						if c != want {
							t.Fatalf("%dx%d C%d deep=%v level %d: pixel (%d,%d) %v, want %v", cols, rows, cn, deep, level, x, y, c, want)
						}
					}
					if _, ok := img.(image.Image); !ok {
						t.Fatal("no image")
					}
				}
			}
		}
	}
	if err := codec.EncodePNG(&bytes.Buffer{}, make([]byte, 8), 2, 2, 2, false, 1); err == nil {
		t.Error("2 channels accepted")
	}
	if err := codec.EncodePNG(&bytes.Buffer{}, make([]byte, 12), 2, 2, 3, false, 10); err == nil {
		t.Error("level 10 accepted")
	}
	if err := codec.EncodePNG(&bytes.Buffer{}, make([]byte, 11), 2, 2, 3, false, 1); err == nil {
		t.Error("short pixel data accepted")
	}
	// Sizes whose byte count overflows were accepted, then indexed out of range.
	if err := codec.EncodePNG(&bytes.Buffer{}, make([]byte, 9), 1<<40, 1<<31, 3, true, 1); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("2^31 x 2^40 pixels: %v", err)
	}
	if err := codec.EncodePNG(&bytes.Buffer{}, make([]byte, 9), 1<<30, 1<<30, 3, true, 1); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("2^30 x 2^30 pixels from 9 bytes: %v", err)
	}
	// A nil writer is an error, not a panic on the first write.
	if err := codec.EncodePNG(nil, make([]byte, 12), 2, 2, 3, false, 1); !errors.Is(err, gpuimage.ErrNil) {
		t.Errorf("EncodePNG to a nil writer: %v", err)
	}
	if err := codec.WriteJPEGPixels(nil, make([]byte, 12), 2, 2, 3, 90); !errors.Is(err, gpuimage.ErrNil) {
		t.Errorf("WriteJPEGPixels to a nil writer: %v", err)
	}
	for _, c := range []struct{ n, rows, cols, cn int }{{12, 2, 2, 2}, {11, 2, 2, 3}, {9, 1 << 40, 1 << 31, 3}, {9, 0, 3, 3}, {3, 1, 70000, 1}} {
		if _, err := codec.EncodeJPEGPixels(make([]byte, c.n), c.rows, c.cols, c.cn, 90); err == nil {
			t.Errorf("EncodeJPEGPixels of %d bytes as %dx%dx%d accepted", c.n, c.cols, c.rows, c.cn)
		}
	}
}

// BenchmarkEncodePNG4K: a photo-like 3840x2160 BGR image at OpenCV's default level.
func BenchmarkEncodePNG4K(b *testing.B) {
	img := photo(rand.New(rand.NewSource(1)), 3840, 2160) // one image for every benchmark
	pix := make([]byte, 3840*2160*3)
	for i := 0; i < 3840*2160; i++ {
		pix[3*i], pix[3*i+1], pix[3*i+2] = img.Pix[4*i+2], img.Pix[4*i+1], img.Pix[4*i]
	}
	b.SetBytes(int64(len(pix)))
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		var buf bytes.Buffer
		if err := codec.EncodePNG(&buf, pix, 2160, 3840, 3, false, codec.DefaultPNGCompression); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size)/1e6, "MB/file")
}

// BenchmarkGoPNG4K: Go's image/png on the same image, for comparison.
func BenchmarkGoPNG4K(b *testing.B) {
	img := photo(rand.New(rand.NewSource(1)), 3840, 2160) // one image for every benchmark
	b.SetBytes(3840 * 2160 * 3)
	b.ResetTimer()
	for _, lvl := range []png.CompressionLevel{png.BestSpeed} {
		var size int
		for i := 0; i < b.N; i++ {
			var buf bytes.Buffer
			(&png.Encoder{CompressionLevel: lvl}).Encode(&buf, img)
			size = buf.Len()
		}
		b.ReportMetric(float64(size)/1e6, "MB/file")
	}
}

// BenchmarkDecodePNG4K and BenchmarkGoDecodePNG4K: a photo-like 3840x2160 BGR PNG.
func BenchmarkDecodePNG4K(b *testing.B)   { benchDecodePNG(b, false) }
func BenchmarkGoDecodePNG4K(b *testing.B) { benchDecodePNG(b, true) }

func benchDecodePNG(b *testing.B, goDecoder bool) {
	img := photo(rand.New(rand.NewSource(1)), 3840, 2160) // one image for every benchmark
	var buf bytes.Buffer
	(&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	b.SetBytes(3840 * 2160 * 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if goDecoder {
			_, err = png.Decode(bytes.NewReader(buf.Bytes()))
		} else {
			_, _, _, _, _, err = codec.DecodePNGPixels(buf.Bytes())
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// EncodeJPEGPixels writes the bytes Go's encoder writes for the same pixels as an
// *image.NRGBA (it hands the encoder an opaque *image.RGBA, which it converts
// faster), for odd sizes and gray.
func TestEncodeJPEGPixelsAsGo(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][3]int{{1, 1, 3}, {7, 5, 3}, {451, 300, 3}, {3, 4097, 3}, {33, 17, 1}} {
		rows, cols, cn := sz[0], sz[1], sz[2]
		pix := make([]byte, rows*cols*cn)
		r.Read(pix)
		got, err := codec.EncodeJPEGPixels(pix, rows, cols, cn, 90)
		if err != nil {
			t.Fatal(err)
		}
		var img image.Image = &image.Gray{Pix: pix, Stride: cols, Rect: image.Rect(0, 0, cols, rows)}
		if cn == 3 {
			m := image.NewNRGBA(image.Rect(0, 0, cols, rows))
			for i := 0; i < rows*cols; i++ {
				m.Pix[4*i], m.Pix[4*i+1], m.Pix[4*i+2], m.Pix[4*i+3] = pix[3*i+2], pix[3*i+1], pix[3*i], 255
			}
			img = m
		}
		var want bytes.Buffer
		if err := jpeg.Encode(&want, img, &jpeg.Options{Quality: 90}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%dx%d C%d: %d bytes, not the %d Go writes", cols, rows, cn, len(got), want.Len())
		}
	}
}
