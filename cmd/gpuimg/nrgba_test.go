package main

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"testing"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// nrgbaPixels gives, for opaque images that it converts through *image.RGBA, the
// pixels that drawing into *image.NRGBA gives (and does that for the others).
func TestNRGBAPixels(t *testing.T) {
	r := tu.Rand(t)
	ycc := image.NewYCbCr(image.Rect(0, 0, 11, 6), image.YCbCrSubsampleRatio420)
	r.Read(ycc.Y)
	r.Read(ycc.Cb)
	r.Read(ycc.Cr)
	cmyk := image.NewCMYK(image.Rect(1, 2, 8, 7))
	r.Read(cmyk.Pix)
	opaqueRGBA := image.NewRGBA(image.Rect(0, 0, 5, 3))
	r.Read(opaqueRGBA.Pix)
	for i := 3; i < len(opaqueRGBA.Pix); i += 4 {
		opaqueRGBA.Pix[i] = 255
	}
	clear := image.NewRGBA(image.Rect(0, 0, 5, 3)) // one translucent pixel
	copy(clear.Pix, opaqueRGBA.Pix)
	clear.Pix[3], clear.Pix[0] = 100, 90
	pal := image.NewPaletted(image.Rect(0, 0, 4, 2), color.Palette{color.NRGBA{9, 8, 7, 255}, color.NRGBA{1, 2, 3, 40}})
	pal.Pix[1] = 1
	for _, img := range []image.Image{ycc, ycc.SubImage(image.Rect(2, 1, 9, 5)), cmyk, opaqueRGBA, clear, pal} {
		b := img.Bounds()
		ref := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(ref, ref.Bounds(), img, b.Min, draw.Src)
		for _, cn := range []int{3, 4} {
			want := make([]byte, 0, b.Dx()*b.Dy()*cn)
			for i := 0; i < len(ref.Pix); i += 4 {
				want = append(want, ref.Pix[i+2], ref.Pix[i+1], ref.Pix[i])
				if cn == 4 {
					want = append(want, ref.Pix[i+3])
				}
			}
			if got := nrgbaPixels(img, cn); !bytes.Equal(got.data, want) {
				t.Errorf("%T %v, %d channels: %v, want %v", img, b, cn, got.data, want)
			}
		}
	}
}
