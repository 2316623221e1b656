package main

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/bmp"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// The fast BMP reader and writer against golang.org/x/image/bmp, on odd widths
// (row padding) and both channel counts.
func TestBMP(t *testing.T) {
	for _, cn := range []int{3, 4} {
		for _, w := range []int{1, 5, 6, 7} {
			p := pixels{rows: 3, cols: w, typ: gpuimage.MakeType(gpuimage.Depth8U, cn)}
			for i := 0; i < 3*w*cn; i++ {
				p.data = append(p.data, byte(i*37+cn))
			}
			if cn == 4 { // x/image/bmp writes 32-bit only for opaque-free images; keep alpha 255
				for i := 3; i < len(p.data); i += 4 {
					p.data[i] = 255
				}
			}
			var buf bytes.Buffer
			if err := writeBMP(&buf, p); err != nil {
				t.Fatal(err)
			}
			img, err := bmp.Decode(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("x/image/bmp cannot read what writeBMP wrote: %v", err)
			}
			for y := 0; y < 3; y++ {
				for x := 0; x < w; x++ {
					o := (y*w + x) * cn
					want := color.NRGBA{p.data[o+2], p.data[o+1], p.data[o], 255}
					if got := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA); got != want {
						t.Fatalf("C%d width %d pixel (%d,%d): %v, want %v", cn, w, x, y, got, want)
					}
				}
			}
			back, ok, err := readBMP(buf.Bytes(), nil)
			want := p.data
			if cn == 4 { // read as OpenCV reads 32-bit BMPs: BGR
				want = toColor(p).data
			}
			if !ok || err != nil || back.rows != 3 || back.cols != w || back.typ != gpuimage.CV8UC3 || !bytes.Equal(back.data, want) {
				t.Fatalf("C%d width %d: read back %v %v %+v", cn, w, ok, err, back.typ)
			}
			if _, ok, err := readBMP(buf.Bytes()[:len(buf.Bytes())-5], nil); !ok || err == nil {
				t.Errorf("truncated BMP: ok %v, err %v", ok, err)
			}
		}
	}
	// Another kind of BMP (x/image/bmp's 8-bit paletted) is left to the general decoders.
	var buf bytes.Buffer
	bmp.Encode(&buf, image.NewGray(image.Rect(0, 0, 4, 2)))
	if _, ok, err := readBMP(buf.Bytes(), nil); ok || err != nil {
		t.Errorf("8-bit BMP: ok %v, err %v; want it passed on", ok, err)
	}
}
