package colorconv

import (
	"sync"
	"unsafe"
)

// 8-bit BGR/RGB to Lab in OpenCV's fixed point.
//
// OpenCV 4.x converts 8U BGR/RGB to Lab with integers and two tables (RGB2Lab_b in
// imgproc/src/color_lab.cpp), not with its float formula, which differs from it
// by up to 3. The CPU device and the CUDA kernel gi_cvt_lab_8u_* run its steps:
//
//	R, G, B = gamma[r], gamma[g], gamma[b]               (linear, 0..2040)
//	X = cbrt[(R*cx0 + G*cx1 + B*cx2 + 2^11) >> 12]       (f(X/Xn) in 2^-15; Y, Z alike)
//	L = (296*fY - 1336935 + 2^14) >> 15                  (255/100 of 116 f(Y) - 16)
//	a = (500*(fX - fY) + 128*2^15 + 2^14) >> 15
//	b = (200*(fY - fZ) + 128*2^15 + 2^14) >> 15
//
// each result saturated to 0..255. The table entries are computed here in
// float32, one rounding at a time as OpenCV's softfloat does, which gives its
// bytes for all 2^24 inputs.

const (
	lab8Shift  = 12   // lab_shift: the matrix's fixed point
	lab8Shift2 = 15   // lab_shift2: f's fixed point
	lab8CbrtN  = 2048 // the cube-root entries used: indices reach 2040 (255 << 3)
	// lab8Lscale and lab8Lshift take 116 f(Y) - 16 to 0..255 (OpenCV's Lscale, Lshift).
	lab8Lscale = (116*255 + 50) / 100
	lab8Lshift = -((16*255*(1<<lab8Shift2) + 50) / 100)
)

// lab8Tab is OpenCV's sRGBGammaTab_b (the sRGB curve of each 8-bit value, times
// 255*8) and LabCbrtTab_b (f(t) = cbrt(t), linear below 0.008856, times 2^15, of t
// in steps of 1/2040), in the layout the CUDA kernel takes.
type lab8Tab struct {
	Gamma [256]uint16
	Cbrt  [lab8CbrtN]uint16
}

// lab8C is RGB2Lab_b's matrix: OpenCV's sRGB2XYZ_D65 with its rows divided by
// the white point's X, Y, Z, times 2^12 and rounded (rows X, Y, Z; columns R, G,
// B). Each row sums to 4096. kernels/color.cu has the same numbers.
var lab8C = func() (c [9]int32) {
	white := [3]float64{d65X, 1, d65Z}
	for i := range 9 {
		c[i] = roundEven(float64(1<<lab8Shift) * rgb2xyzD65[i] / white[i/3])
	}
	return c
}()

var (
	lab8Once sync.Once
	lab8     lab8Tab
)

// lab8Table returns the tables, built on first use.
func lab8Table() *lab8Tab {
	lab8Once.Do(func() {
		for i := range lab8.Gamma {
			lab8.Gamma[i] = uint16(roundEven(float64(float32(255*8) * applyGamma(float32(i)/255))))
		}
		scale := float32(1.0 / (255.0 * 8))
		for i := range lab8.Cbrt {
			lab8.Cbrt[i] = uint16(roundEven(float64(float32(1<<lab8Shift2) * labCurve(scale*float32(i)))))
		}
	})
	return &lab8
}

// bytes is the table as the kernel reads it.
func (t *lab8Tab) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(t)), unsafe.Sizeof(*t))
}

// lab8Pix is 8U BGR/RGB (srgb 1) or LBGR/LRGB (srgb 0) to Lab.
func lab8Pix(bidx, srgb int) pixFunc[uint8] {
	t := lab8Table()
	lin := func(v uint8) int32 {
		if srgb == 1 {
			return int32(t.Gamma[v])
		}
		return int32(v) << 3
	}
	f := func(R, G, B int32, k int) int32 {
		c := &lab8C
		return int32(t.Cbrt[(R*c[k]+G*c[k+1]+B*c[k+2]+1<<(lab8Shift-1))>>lab8Shift])
	}
	sat := func(v int32) uint8 { return uint8(min(max(v, 0), 255)) }
	const half = 1 << (lab8Shift2 - 1)
	return func(s, d []uint8) {
		b, g, r := bgr(s, bidx)
		R, G, B := lin(r), lin(g), lin(b)
		fX, fY, fZ := f(R, G, B, 0), f(R, G, B, 3), f(R, G, B, 6)
		d[0] = sat((lab8Lscale*fY + lab8Lshift + half) >> lab8Shift2)
		d[1] = sat((500*(fX-fY) + 128<<lab8Shift2 + half) >> lab8Shift2)
		d[2] = sat((200*(fY-fZ) + 128<<lab8Shift2 + half) >> lab8Shift2)
	}
}
