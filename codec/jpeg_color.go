package codec

import "image"

// YCbCrToBGR converts a decoded JPEG to packed BGR bytes as libjpeg-turbo does by default: "fancy"
// (triangular) upsampling of 4:2:0 and 4:2:2 chroma more than 2 samples wide, then
// its 16-bit fixed-point YCbCr → RGB tables. Other subsamplings replicate chroma,
// as do sub-images that start at an odd row or column (their chroma samples do not
// start on a pair of pixels); other sub-images convert as images of their own.
// A nil image gives nil.
func YCbCrToBGR(m *image.YCbCr) []byte {
	if m == nil {
		return nil
	}
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]byte, 3*w*h)
	cb := make([]byte, w+2)
	cr := make([]byte, w+2)
	// libjpeg-turbo upsamples plainly (replicates) where chroma is at most 2 wide.
	fancy := (w+1)/2 > 2 && b.Min.X%2 == 0 && b.Min.Y%2 == 0
	for y := 0; y < h; y++ {
		switch {
		case m.SubsampleRatio == image.YCbCrSubsampleRatio420 && fancy:
			fancyRow420(m, y, w, h, cb, cr)
		case m.SubsampleRatio == image.YCbCrSubsampleRatio422 && fancy:
			fancyRow422(m.Cb[(y)*m.CStride:], w, cb)
			fancyRow422(m.Cr[(y)*m.CStride:], w, cr)
		default:
			for x := 0; x < w; x++ {
				o := m.COffset(b.Min.X+x, b.Min.Y+y)
				cb[x], cr[x] = m.Cb[o], m.Cr[o]
			}
		}
		yrow := m.Y[y*m.YStride:]
		o := out[3*w*y:]
		for x := 0; x < w; x++ {
			o[3*x+2], o[3*x+1], o[3*x] = yccToRGB(yrow[x], cb[x], cr[x])
		}
	}
	return out
}

// fancyRow420 upsamples the chroma of output row y of a 4:2:0 image: 3:1 weights
// towards the nearer chroma row (the edge rows stand in for the missing ones), then
// 3:1 across columns, rounding as libjpeg-turbo's h2v2_fancy_upsample.
func fancyRow420(m *image.YCbCr, y, w, h int, cb, cr []byte) {
	cw, ch := (w+1)/2, (h+1)/2
	r0 := y / 2
	r1 := r0 - 1
	if y%2 == 1 {
		r1 = r0 + 1
	}
	r1 = max(0, min(r1, ch-1))
	for _, pl := range [2]struct {
		src []byte
		dst []byte
	}{{m.Cb, cb}, {m.Cr, cr}} {
		in0, in1 := pl.src[r0*m.CStride:], pl.src[r1*m.CStride:]
		col := func(c int) int { return 3*int(in0[c]) + int(in1[c]) }
		for c := 0; c < cw; c++ {
			this := col(c)
			var left, right int
			if c == 0 {
				left = (this*4 + 8) >> 4
			} else {
				left = (this*3 + col(c-1) + 8) >> 4
			}
			if c == cw-1 {
				right = (this*4 + 7) >> 4
			} else {
				right = (this*3 + col(c+1) + 7) >> 4
			}
			pl.dst[2*c], pl.dst[2*c+1] = byte(left), byte(right)
		}
	}
}

// fancyRow422 upsamples one 4:2:2 chroma row as libjpeg-turbo's h2v1_fancy_upsample.
func fancyRow422(in []byte, w int, dst []byte) {
	cw := (w + 1) / 2
	for c := 0; c < cw; c++ {
		v := int(in[c])
		if c == 0 {
			dst[0] = in[0]
		} else {
			dst[2*c] = byte((v*3 + int(in[c-1]) + 1) >> 2)
		}
		if c == cw-1 {
			dst[2*c+1] = in[c]
		} else {
			dst[2*c+1] = byte((v*3 + int(in[c+1]) + 2) >> 2)
		}
	}
}

// CMYKToBGR converts a decoded CMYK JPEG to packed BGR bytes as OpenCV's CMYK → BGR step for JPEG (on libjpeg's inverted
// CMYK, which is K' = 255 - K: R = K' - (C*K' >> 8), likewise G from M and B from Y).
// A nil image gives nil.
func CMYKToBGR(m *image.CMYK) []byte {
	if m == nil {
		return nil
	}
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]byte, 3*w*h)
	for y := 0; y < h; y++ {
		row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
		o := out[3*w*y:]
		for x := 0; x < w; x++ {
			c, mg, yl, k := int(row[4*x]), int(row[4*x+1]), int(row[4*x+2]), 255-int(row[4*x+3])
			o[3*x+2], o[3*x+1], o[3*x] = byte(k-(c*k>>8)), byte(k-(mg*k>>8)), byte(k-(yl*k>>8))
		}
	}
	return out
}

// yccToRGB is libjpeg-turbo's ycc_rgb_convert: 16-bit fixed-point tables, the
// green term rounded once.
func yccToRGB(y, cb, cr byte) (r, g, b byte) {
	const half = 1 << 15
	x, z := int64(cb)-128, int64(cr)-128
	fix := func(v float64) int64 { return int64(v*65536 + 0.5) }
	yy := int64(y)
	rr := yy + (fix(1.40200)*z+half)>>16
	gg := yy + (-fix(0.34414)*x+half-fix(0.71414)*z)>>16
	bb := yy + (fix(1.77200)*x+half)>>16
	return clamp8(rr), clamp8(gg), clamp8(bb)
}

func clamp8(v int64) byte {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return byte(v)
}
