package colorconv

import (
	"math"
	"sync"
	"unsafe"
)

// 8-bit Lab and Luv to RGB in OpenCV's fixed point.
//
// OpenCV 4.x converts 8U Lab and Luv to BGR/RGB with integer arithmetic and tables
// (Lab2RGBinteger and Luv2RGBinteger in imgproc/src/color_lab.cpp), not with its
// float formulas. The two differ most in the dark, out-of-gamut corner (Luv with L
// of 1 or 2 out of 255, where an 8-bit u or v step moves the float result by up to
// 9) and by ±2 here and there for Lab. To give OpenCV's bytes, the CPU and the CUDA
// kernels both run those integer algorithms: the table entries are computed here,
// in float32 and float64 one rounding at a time as OpenCV's softfloat does, and the
// per-pixel steps follow its scalar code.

const (
	luvBase     = 1 << 14 // LUT_BASE: fixed-point 1.0 of Y, X and Z
	luvDescale  = 14      // lab_shift + (base_shift - inv_gamma_shift)
	luvGammaLen = 1 << 12 // INV_GAMMA_TAB_SIZE
)

// fix8Tab is everything the integer conversion reads, in the layout the CUDA
// kernel gi_cvt_fromluv_8u_* takes (int32 words): un and vn as float bits, the
// sRGB flag, the 3x3 XYZ-to-RGB matrix scaled by 2^12 (rows R, G, B), Y of each
// 8-bit L, the 8-bit inverse sRGB curve of each 12-bit linear value, and the float
// bits of L, u and v of each 8-bit value (the steps OpenCV's up and vp tables
// start from).
type fix8Tab struct {
	Un, Vn  uint32
	SRGB    int32
	C       [9]int32
	Y       [256]int32
	Gamma   [luvGammaLen]int32
	L, U, V [256]uint32
	// Lab only: the XYZ-to-RGB matrix with its columns scaled by the white point,
	// times 2^12, and OpenCV's f(Y) of each 8-bit L in 2^-14 (ify).
	LabC [9]int32
	IFY  [256]int32
}

var (
	fix8Once [2]sync.Once
	fix8Tabs [2]fix8Tab
)

// fix8Table returns the tables for srgb (1: sRGB curve, 0: linear LBGR/LRGB).
func fix8Table(srgb int) *fix8Tab {
	fix8Once[srgb].Do(func() { fix8Tabs[srgb] = buildFix8(srgb) })
	return &fix8Tabs[srgb]
}

// bytes is the table as the kernel reads it.
func (t *fix8Tab) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(t)), unsafe.Sizeof(*t))
}

// roundEven is OpenCV's cvRound of a softfloat or softdouble: to nearest, ties to even.
func roundEven(x float64) int32 { return int32(math.RoundToEven(x)) }

func buildFix8(srgb int) fix8Tab {
	var t fix8Tab
	un, vn := luvWhite()
	t.Un, t.Vn = math.Float32bits(un), math.Float32bits(vn)
	t.SRGB = int32(srgb)

	// XYZ to sRGB (OpenCV's XYZ2sRGB_D65 bits) times 2^12.
	m := [9]uint64{
		0x4009ec804102ff8f, 0xbff8982a9930be0e, 0xbfdfe7ff583a53b9,
		0xbfef042528ae74f3, 0x3ffe040f23897204, 0x3fa546d3f9e7b80b,
		0x3fac7de5082cf52c, 0xbfca1e14bdfd2631, 0x3ff0eabef06b3786,
	}
	white := [3]float64{d65X, 1, d65Z}
	for i, b := range m {
		t.C[i] = roundEven(math.Float64frombits(b) * 4096)
		t.LabC[i] = roundEven(math.Float64frombits(b) * 4096 * white[i%3])
	}

	// Every float step is converted explicitly, so that no two operations are fused
	// (softfloat rounds each one).
	for i := range t.Y {
		if i <= 20 { // L <= 8: Y = L/903.3, f(Y) = 7.787*Y + 16/116
			t.Y[i] = roundEven(float64(float32(float32(i*luvBase*20*9) / float32(17*29*29*29))))
			t.IFY[i] = roundEven(float64(float32(float32(luvBase) * float32(float32(float32(16)/float32(116))+float32(float32(i*5)/float32(3*17*29))))))
		} else {
			fy := float32(float32(float32(i*100*luvBase)/float32(255*116)) + float32(float32(16*luvBase)/float32(116)))
			t.Y[i] = roundEven(float64(float32(float32(float32(fy*fy)*fy) / float32(luvBase*luvBase))))
			t.IFY[i] = roundEven(float64(fy))
		}
	}

	for i := range t.L {
		t.L[i] = math.Float32bits(float32(float32(i*100) / 255))
		t.U[i] = math.Float32bits(float32(float32(float32(float32(i)*354)/255) + -134))
		t.V[i] = math.Float32bits(float32(float32(float32(float32(i)*262)/255) + -140))
	}

	if srgb == 1 {
		// applyInvGamma in double, rounded to float, times 255 in float.
		thr := 7827.0 / 2500000.0
		low := 323.0 / 25.0
		power := 12.0 / 5.0
		xshift := 11.0 / 200.0
		inv := 1 / power
		one := 1 + xshift
		for i := range t.Gamma {
			x := float64(float32(i) * (1.0 / luvGammaLen))
			var g float64
			if x <= thr {
				g = x * low
			} else {
				g = math.Pow(x, inv)*one - xshift
			}
			t.Gamma[i] = roundEven(float64(float32(255 * float32(g))))
		}
	}
	return t
}

// luvUp is OpenCV's LuToUp_b[LL*256+uu]: 9*(u + L*un) in 1/16ths.
func (t *fix8Tab) luvUp(LL, uu int) int32 {
	L, u := math.Float32frombits(t.L[LL]), math.Float32frombits(t.U[uu])
	up := float32(9 * float32(u+float32(L*math.Float32frombits(t.Un))))
	return roundEven(float64(float32(up * 16)))
}

// luvVp is OpenCV's LvToVp_b[LL*256+vv]: 0.25/(v + L*vn), clamped to ±0.25, in 2^-24.
func (t *fix8Tab) luvVp(LL, vv int) int32 {
	L, v := math.Float32frombits(t.L[LL]), math.Float32frombits(t.V[vv])
	vp := float32(0.25 / float32(v+float32(L*math.Float32frombits(t.Vn))))
	vp = min(max(vp, -0.25), 0.25)
	return roundEven(float64(float32(vp * (luvBase * 1024))))
}

// luvRGB converts one 8-bit Luv pixel to 8-bit R, G, B.
func (t *fix8Tab) luvRGB(LL, uu, vv uint8) (r, g, b uint8) {
	y := t.Y[LL]
	up, vp := t.luvUp(int(LL), int(uu)), t.luvVp(int(LL), int(vv))
	xv := int64(up) * int64(vp)
	x := int32(xv / luvBase)
	x = int32(int64(y) * int64(x) / luvBase)
	vpl := 12 * 13 * 100 * (luvBase / 1024) * int64(vp*int32(LL))
	zp := (vpl - xv*(255/3)) / luvBase
	zq := zp - 5*255*luvBase
	zm := int32(int64(y) * zq / luvBase)
	z := zm/256 + zm/65536
	x, z = min(max(x, 0), 2*luvBase), min(max(z, 0), 2*luvBase)
	return t.out(&t.C, x, y, z)
}

// labXZ is OpenCV's abToXZ_b: X or Z (in 2^-14) of f(X) or f(Z) (in 2^-14, from
// -8145 on), the inverse of the Lab curve in integer steps.
func labXZ(i int32) int32 {
	if i <= 3390 { // 6/29 in 2^-14: the linear part
		return i*108/841 - luvBase*16/116*108/841
	}
	return i * i / luvBase * i / luvBase
}

// labRGB converts one 8-bit Lab pixel to 8-bit R, G, B.
func (t *fix8Tab) labRGB(LL, aa, bb uint8) (r, g, b uint8) {
	y, ify := t.Y[LL], t.IFY[LL]
	adiv := (5*int32(aa)*53687+1<<7)>>13 - 128*luvBase/500
	bdiv := (int32(bb)*41943+1<<4)>>9 - 128*luvBase/200 + 1
	x, z := labXZ(ify+adiv), labXZ(ify-bdiv)
	return t.out(&t.LabC, x, y, z)
}

// out is the last step of both: XYZ in 2^-14 to 8-bit R, G, B through the 12-bit
// linear value and the inverse sRGB table (or the linear scale).
func (t *fix8Tab) out(c *[9]int32, x, y, z int32) (r, g, b uint8) {
	ch := func(k int) uint8 {
		v := (c[k]*x + c[k+1]*y + c[k+2]*z + 1<<(luvDescale-1)) >> luvDescale
		v = min(max(v, 0), luvGammaLen-1)
		if t.SRGB == 1 {
			v = t.Gamma[v]
		} else {
			v = (v<<8 - v) >> 12
		}
		return uint8(min(v, 255))
	}
	return ch(0), ch(3), ch(6)
}

// fix8Pix is the 8U pixel function of one of the table's conversions: labRGB
// (Lab to RGB) or luvRGB (Luv to RGB).
func fix8Pix(bidx, srgb, dcn int, conv func(t *fix8Tab, c0, c1, c2 uint8) (r, g, b uint8)) pixFunc[uint8] {
	t := fix8Table(srgb)
	return func(s, d []uint8) {
		r, g, b := conv(t, s[0], s[1], s[2])
		putBGR(d, bidx, b, g, r)
		alpha(d, dcn)
	}
}
