package codec_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/gpuimg/gpuimg/codec"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// A sub-image that starts on even coordinates converts as a copy of it would; one
// that starts on an odd row or column replicates its chroma, each pixel taking the
// sample that covers it (it used to upsample from samples one pixel off).
func TestYCbCrToBGRSubImage(t *testing.T) {
	r := tu.Rand(t)
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio422} {
		m := image.NewYCbCr(image.Rect(0, 0, 40, 30), ratio)
		r.Read(m.Y)
		r.Read(m.Cb)
		r.Read(m.Cr)
		even := m.SubImage(image.Rect(4, 6, 31, 27)).(*image.YCbCr)
		cp := image.NewYCbCr(image.Rect(0, 0, even.Rect.Dx(), even.Rect.Dy()), ratio)
		for y := 0; y < cp.Rect.Dy(); y++ {
			copy(cp.Y[y*cp.YStride:], even.Y[y*even.YStride:y*even.YStride+cp.Rect.Dx()])
		}
		for y := 0; y < len(cp.Cb)/cp.CStride; y++ {
			copy(cp.Cb[y*cp.CStride:(y+1)*cp.CStride], even.Cb[y*even.CStride:])
			copy(cp.Cr[y*cp.CStride:(y+1)*cp.CStride], even.Cr[y*even.CStride:])
		}
		if !bytes.Equal(codec.YCbCrToBGR(even), codec.YCbCrToBGR(cp)) {
			t.Errorf("%v: a sub-image at (4,6) differs from its copy", ratio)
		}
		odd := m.SubImage(image.Rect(3, 5, 31, 27)).(*image.YCbCr)
		got := codec.YCbCrToBGR(odd)
		plain := image.NewYCbCr(image.Rect(0, 0, odd.Rect.Dx(), odd.Rect.Dy()), image.YCbCrSubsampleRatio444)
		for y := 0; y < plain.Rect.Dy(); y++ {
			for x := 0; x < plain.Rect.Dx(); x++ {
				px, py := odd.Rect.Min.X+x, odd.Rect.Min.Y+y
				plain.Y[y*plain.YStride+x] = odd.Y[odd.YOffset(px, py)]
				plain.Cb[y*plain.CStride+x] = odd.Cb[odd.COffset(px, py)]
				plain.Cr[y*plain.CStride+x] = odd.Cr[odd.COffset(px, py)]
			}
		}
		if !bytes.Equal(got, codec.YCbCrToBGR(plain)) {
			t.Errorf("%v: a sub-image at (3,5) is not its pixels with their own chroma samples", ratio)
		}
	}
}
