package gpuimage

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
)

// FromImage uploads a Go image to dev, in gocv's channel order:
//   - *image.Gray → CV8UC1, *image.Gray16 → CV16UC1;
//   - *image.RGBA, *image.NRGBA and images with alpha (paletted ones too) → CV8UC4,
//     BGRA, not premultiplied;
//   - *image.RGBA64, *image.NRGBA64 → CV16UC4, BGRA;
//   - any other image (JPEG's YCbCr, CMYK, ...) → CV8UC3, BGR.
func FromImage(dev *Device, img image.Image) (*Image, error) {
	if img == nil {
		return nil, opError("FromImage", fmt.Errorf("nil image.Image"))
	}
	r := img.Bounds()
	w, h := r.Dx(), r.Dy()
	var t MatType
	var data []byte
	switch src := img.(type) {
	case *image.Gray:
		t, data = CV8UC1, packRows(src.Pix, src.Stride, w, h)
	case *image.Gray16:
		t = CV16UC1
		data = make([]byte, 2*w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := src.Gray16At(r.Min.X+x, r.Min.Y+y).Y
				data[2*(y*w+x)], data[2*(y*w+x)+1] = byte(v), byte(v>>8)
			}
		}
	case *image.RGBA64, *image.NRGBA64:
		t = CV16UC4
		data = make([]byte, 8*w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := color.NRGBA64Model.Convert(img.At(r.Min.X+x, r.Min.Y+y)).(color.NRGBA64)
				o := 8 * (y*w + x)
				for i, v := range [4]uint16{c.B, c.G, c.R, c.A} {
					data[o+2*i], data[o+2*i+1] = byte(v), byte(v>>8)
				}
			}
		}
	default:
		var pix []byte // NRGBA rows
		alpha := hasAlpha(img)
		if src, ok := img.(*image.NRGBA); ok {
			pix = packRows(src.Pix[src.PixOffset(r.Min.X, r.Min.Y):], src.Stride, 4*w, h)
		}
		if pix == nil {
			// Opaque images (JPEG's YCbCr, CMYK, ...) go to *image.RGBA, into which
			// image/draw converts without a call per pixel (2x faster than into
			// *image.NRGBA); without alpha the two hold the same values.
			rect := image.Rect(0, 0, w, h)
			pix = make([]byte, 4*w*h)
			var dst draw.Image = &image.RGBA{Pix: pix, Stride: 4 * w, Rect: rect}
			if alpha {
				dst = &image.NRGBA{Pix: pix, Stride: 4 * w, Rect: rect}
			}
			draw.Draw(dst, rect, img, r.Min, draw.Src)
		}
		if alpha {
			t, data = CV8UC4, make([]byte, 4*w*h)
			for i := 0; i < w*h; i++ {
				data[4*i], data[4*i+1], data[4*i+2], data[4*i+3] = pix[4*i+2], pix[4*i+1], pix[4*i], pix[4*i+3]
			}
		} else {
			t, data = CV8UC3, make([]byte, 3*w*h)
			for i := 0; i < w*h; i++ {
				data[3*i], data[3*i+1], data[3*i+2] = pix[4*i+2], pix[4*i+1], pix[4*i]
			}
		}
	}
	return NewFromBytes(dev, h, w, t, data)
}

// hasAlpha reports whether img's colour model carries alpha.
func hasAlpha(img image.Image) bool {
	switch img.(type) {
	case *image.RGBA, *image.NRGBA, *image.Paletted, *image.Alpha, *image.Alpha16, *image.NYCbCrA:
		return true
	}
	return false
}

func packRows(pix []byte, stride, rowBytes, rows int) []byte {
	if stride == rowBytes {
		return pix[:rowBytes*rows]
	}
	out := make([]byte, rowBytes*rows)
	for y := 0; y < rows; y++ {
		copy(out[y*rowBytes:], pix[y*stride:y*stride+rowBytes])
	}
	return out
}

// ToImage downloads the image as a Go image: 8UC1 → *image.Gray, 16UC1 →
// *image.Gray16, 8UC3/8UC4 (BGR/BGRA) → *image.NRGBA, 16UC3/16UC4 → *image.NRGBA64.
// Other depths need ConvertTo first; 2-channel images have no Go image type.
func (im *Image) ToImage() (image.Image, error) {
	if err := im.state().Check(); err != nil {
		return nil, opError("ToImage", err)
	}
	w, h, cn := im.Cols(), im.Rows(), im.Channels()
	data := make([]byte, h*w*im.ElemSize())
	if err := im.Download(data); err != nil {
		return nil, err
	}
	switch {
	case im.Type() == CV8UC1:
		return &image.Gray{Pix: data, Stride: w, Rect: image.Rect(0, 0, w, h)}, nil
	case im.Type() == CV16UC1:
		out := image.NewGray16(image.Rect(0, 0, w, h))
		for i := 0; i < w*h; i++ { // little-endian to big-endian
			out.Pix[2*i], out.Pix[2*i+1] = data[2*i+1], data[2*i]
		}
		return out, nil
	case im.Depth() == Depth8U && cn >= 3:
		out := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i := 0; i < w*h; i++ {
			p := data[cn*i:]
			a := byte(255)
			if cn == 4 {
				a = p[3]
			}
			out.Pix[4*i], out.Pix[4*i+1], out.Pix[4*i+2], out.Pix[4*i+3] = p[2], p[1], p[0], a
		}
		return out, nil
	case im.Depth() == Depth16U && cn >= 3:
		out := image.NewNRGBA64(image.Rect(0, 0, w, h))
		for i := 0; i < w*h; i++ {
			p := data[2*cn*i:]
			v := [4]byte{p[5], p[4], p[3], p[2]} // R, G as little-endian pairs
			o := out.Pix[8*i:]
			o[0], o[1], o[2], o[3] = v[0], v[1], v[2], v[3]
			o[4], o[5] = p[1], p[0]
			o[6], o[7] = 0xff, 0xff
			if cn == 4 {
				o[6], o[7] = p[7], p[6]
			}
		}
		return out, nil
	}
	return nil, opError("ToImage", fmt.Errorf("%w: %v has no Go image type (convert to 8U or 16U with 1, 3 or 4 channels first)", ErrBadType, im.Type()))
}
