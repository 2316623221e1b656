package colorconv

import (
	"math"
	"math/big"
	"sync"
	"unsafe"
)

// 32-bit float BGR/RGB to Lab and Luv as OpenCV 4.x computes them
// (RGB2Lab_f and RGB2Luvfloat in imgproc/src/color_lab.cpp), so that results agree
// with cv::cvtColor to float rounding rather than to the ~0.5 by which OpenCV's
// approximations differ from the CIE formulas:
//
//   - sRGB to Lab (COLOR_BGR2Lab, COLOR_RGB2Lab) rounds each channel to 1/16384,
//     interpolates a 33x33x33 table of L, a and b (in 1/16384 units)
//     trilinearly in fixed point and scales the result back to float.
//   - Linear Lab (COLOR_LBGR2Lab, COLOR_LRGB2Lab) and all Luv take the cube root,
//     and Luv the sRGB curve, from cubic splines of 1024 pieces.
//
// The tables are built here one float rounding at a time, as OpenCV builds them
// with its softfloat (its own cube root included), and the per-pixel steps follow
// OpenCV's vector loop, which converts all but a row's last few pixels. The CUDA
// kernels (RGB2Lab32, RGB2Luv32 in kernels/color.cu) read the same tables.
//
// One difference is left: for linear Lab, OpenCV's scalar loop, which converts the
// last width%8 pixels of each row, takes the cube root from cv::cubeRoot instead of
// the spline, so there it may differ by up to 0.035 in a (3.48e-5 in the cube
// root, near the curve's kink at 0.008856).

const (
	labLUTDim = 33      // LAB_LUT_DIM: grid points per axis (32 cells)
	labBase32 = 1 << 14 // LAB_BASE: fixed-point 1.0 of the table's inputs and outputs
	splineN   = 1024    // LAB_CBRT_TAB_SIZE and GAMMA_TAB_SIZE: spline pieces
)

var (
	d65X = math.Float64frombits(0x3fee6a22b3892ee8) // D65 white X: 0.950456
	d65Z = math.Float64frombits(0x3ff16b8950763a19) // D65 white Z: 1.088754
	// rgb2xyzD65 is OpenCV's sRGB2XYZ_D65 (rows X, Y, Z; columns R, G, B).
	rgb2xyzD65 = func() (m [9]float64) {
		for i, b := range [9]uint64{
			0x3fda65a14488c60d, 0x3fd6e297396d0918, 0x3fc71819d2391d58,
			0x3fcb38cda6e75ff6, 0x3fe6e297396d0918, 0x3fb279aae6c8f755,
			0x3f93cc4ac6cdaf4b, 0x3fbe836eb4e98138, 0x3fee68427418d691,
		} {
			m[i] = math.Float64frombits(b)
		}
		return m
	}()
)

// lab32Tab is what the conversions read, in the layout the CUDA kernels take: a
// 128-byte header, the two splines (4 float32 coefficients per piece), the Lab
// table per cell of the grid (the L of its 8 corners, then their a, then their b)
// and per grid point.
type lab32Tab struct {
	LabC      [9]float32 // RGB2Lab_f's matrix: XYZ rows over the white point; columns R, G, B
	LuvC      [9]float32 // RGB2Luvfloat's matrix (OpenCV's sRGB2XYZ_D65 as float)
	Un, Vn    float32    // u'n and v'n of the D65 white, times 13
	CbrtScale float32    // LabCbrtTabScale: the cube-root spline's pieces per unit
	_         [11]float32
	Cbrt      [4 * splineN]float32 // LabCbrtTab: f(t) (cube root, linear below 0.008856) on t in [0, 1.5]
	Gamma     [4 * splineN]float32 // sRGBGammaTab: the sRGB curve on [0, 1]
	LUT       [labLUTDim * labLUTDim * labLUTDim * 24]int16
	// Grid is the same table per grid point (blue fastest): L, a, b. The CUDA kernel
	// that keeps it in shared memory reads it (5 values of padding).
	Grid [labLUTDim*labLUTDim*labLUTDim*3 + 5]int16
}

// labGridBytes is the size of lab32Tab.Grid, the shared memory of the
// gi_cvt_labs_32f kernels.
const labGridBytes = (labLUTDim*labLUTDim*labLUTDim*3 + 5) * 2

var (
	lab32Once sync.Once
	lab32     *lab32Tab
)

// lab32Table returns the tables, built on first use (about 50 ms).
func lab32Table() *lab32Tab {
	lab32Once.Do(func() { lab32 = buildLab32() })
	return lab32
}

// bytes is the table as the kernels read it.
func (t *lab32Tab) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(t)), unsafe.Sizeof(*t))
}

// luvWhite returns OpenCV's un and vn (13 times u'n and v'n of the D65 white).
func luvWhite() (un, vn float32) {
	dd := float32(d65X + 15 + d65Z*3)
	dd = 1 / max(dd, float32(fltEpsilon))
	return float32(float32(dd*52) * float32(d65X)), float32(dd * 117)
}

// cbrtSoft is OpenCV's softfloat cbrt (Ken Turkowski's rational approximation in
// double, its mantissa truncated to float).
func cbrtSoft(x float32) float32 {
	v := math.Float32bits(x)
	if v&0x7fffffff == 0 {
		return 0
	}
	s := v >> 31
	ex := int((v>>23)&0xff) - 127
	shx := ex % 3
	if shx >= 0 {
		shx -= 3
	}
	ex = (ex-shx)/3 - 1
	fr := math.Float64frombits(uint64(shx+1023)<<52 | uint64(v&0x7fffff)<<29)
	horner := func(c ...uint64) float64 {
		r := math.Float64frombits(c[0])
		for _, k := range c[1:] {
			r = float64(r*fr) + math.Float64frombits(k)
		}
		return r
	}
	num := horner(0x4046a09e6653ba70, 0x406808f46c6116e0, 0x405dca97439cae14, 0x402add70d2827500, 0x3fc4f15f83f55d2d)
	den := horner(0x402d9e20660edb21, 0x4062ff15c0285815, 0x406510d06a8112ce, 0x4040fecbc9e2c375, 0x3ff0000000000000)
	fr = num / den
	return math.Float32frombits(s<<31 + uint32(ex+127)<<23 + uint32((math.Float64bits(fr)&(1<<52-1))>>29))
}

// The Lab curve's constants as OpenCV's softfloat holds them.
var (
	labThresh = float32(216) / float32(24389) // (6/29)^3
	labScale  = float32(841) / float32(108)   // 7.787
	labBias   = float32(16) / float32(116)
)

// labCurve is f(t) as OpenCV samples it for its tables (LabCbrtTab, LabCbrtTab_b):
// t*7.787 + 16/116 below (6/29)^3, its softfloat cube root from there.
func labCurve(x float32) float32 {
	if x < labThresh {
		return fma32(x, labScale, labBias)
	}
	return cbrtSoft(x)
}

// applyGamma is OpenCV's applyGamma: the sRGB curve in double, rounded to float.
func applyGamma(x float32) float32 {
	xd := float64(x)
	thr, low, xshift, power := 809.0/20000, 323.0/25, 11.0/200, 12.0/5
	if xd <= thr {
		return float32(xd / low)
	}
	one := 1 + xshift
	return float32(math.Pow((xd+xshift)/one, power))
}

// fma32 is softfloat's mulAdd: a*b + c rounded once to float.
func fma32(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(128).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	f, _ := x.Float32()
	return f
}

// splineBuild is OpenCV's splineBuild: the natural cubic spline through f[0..n] at
// 0..n, as 4 coefficients per piece, in float one rounding at a time.
func splineBuild(f []float32, tab []float32) {
	n := len(f) - 1
	tab[0], tab[1] = 0, 0
	for i := 1; i < n; i++ {
		t := float32(float32(float32(f[i+1]-float32(f[i]*2))+f[i-1]) * 3)
		l := float32(1 / float32(4-tab[(i-1)*4]))
		tab[i*4] = l
		tab[i*4+1] = float32(float32(t-tab[(i-1)*4+1]) * l)
	}
	var cn float32
	for j := 0; j < n; j++ {
		i := n - j - 1
		c := float32(tab[i*4+1] - float32(tab[i*4]*cn))
		b := float32(float32(f[i+1]-f[i]) - float32(float32(cn+float32(c*2))/3))
		d := float32(float32(cn-c) / 3)
		tab[i*4], tab[i*4+1], tab[i*4+2], tab[i*4+3] = f[i], b, c, d
		cn = c
	}
}

// splineAt is OpenCV's splineInterpolate: the spline at x (clamped to its pieces),
// each multiply and add rounded on its own as in OpenCV's SSE build.
func splineAt(x float32, tab []float32) float32 {
	ix := min(max(int(x), 0), len(tab)/4-1)
	x = float32(x - float32(ix))
	t := tab[ix*4 : ix*4+4]
	return float32(float32(float32(float32(float32(float32(t[3]*x)+t[2])*x)+t[1])*x) + t[0])
}

func buildLab32() *lab32Tab {
	t := new(lab32Tab)
	t.Un, t.Vn = luvWhite()
	white := [3]float64{1 / d65X, 1, 1 / d65Z}
	for i := range 9 {
		t.LabC[i] = float32(white[i/3] * rgb2xyzD65[i])
		t.LuvC[i] = float32(rgb2xyzD65[i])
	}
	// Splines: the cube root on [0, 1.5] and the sRGB curve on [0, 1].
	t.CbrtScale = float32(2048) / float32(3)
	var f [splineN + 1]float32
	scale := 1 / t.CbrtScale
	for i := range f {
		f[i] = labCurve(scale * float32(i))
	}
	splineBuild(f[:], t.Cbrt[:])
	for i := range f {
		f[i] = applyGamma(float32(1.0/splineN) * float32(i))
	}
	splineBuild(f[:], t.Gamma[:])

	// The Lab table at the grid points (initLUTforLABLUVs16). The first axis is blue:
	// OpenCV calls it R but gives it the matrix's blue column.
	var S [9]float32
	for i := range 3 {
		for k := range 3 {
			S[i*3+k] = float32(rgb2xyzD65[i*3+2-k] * white[i])
		}
	}
	f9033 := float32(29*29*29) / float32(27)
	prev := t.Grid[:]
	q14 := func(v float32) int16 { return int16(roundEven(float64(v))) }
	for p := range labLUTDim {
		for q := range labLUTDim {
			for r := range labLUTDim {
				B := applyGamma(float32(p) / float32(labLUTDim-1))
				G := applyGamma(float32(q) / float32(labLUTDim-1))
				R := applyGamma(float32(r) / float32(labLUTDim-1))
				dot := func(k int) float32 {
					return float32(float32(float32(B*S[k])+float32(G*S[k+1])) + float32(R*S[k+2]))
				}
				X, Y, Z := dot(0), dot(3), dot(6)
				fx := func(v float32) float32 { // labCurve, but linear at the threshold itself
					if v > labThresh {
						return cbrtSoft(v)
					}
					return fma32(v, labScale, labBias)
				}
				FX, FY, FZ := fx(X), fx(Y), fx(Z)
				L := float32(f9033 * Y)
				if Y > labThresh {
					L = float32(float32(116*FY) - 16)
				}
				a, b := float32(500*float32(FX-FY)), float32(200*float32(FY-FZ))
				idx := 3 * (p + q*labLUTDim + r*labLUTDim*labLUTDim)
				prev[idx] = q14(float32(float32(labBase32*L) / 100))
				prev[idx+1] = q14(float32(float32(labBase32*float32(a+128)) / 256))
				prev[idx+2] = q14(float32(float32(labBase32*float32(b+128)) / 256))
			}
		}
	}
	// Per cell, its 8 corners (corner 4*dp + 2*dq + dr), clamped at the far faces.
	const D = labLUTDim
	for p := range D {
		for q := range D {
			for r := range D {
				cell := 24 * (p + q*D + r*D*D)
				for c := range 8 {
					pp, qq, rr := min(p+c>>2, D-1), min(q+c>>1&1, D-1), min(r+c&1, D-1)
					old := 3 * (pp + qq*D + rr*D*D)
					t.LUT[cell+c], t.LUT[cell+8+c], t.LUT[cell+16+c] = prev[old], prev[old+1], prev[old+2]
				}
			}
		}
	}
	return t
}

// labSRGB is 32F sRGB Lab of one pixel: the table interpolated in fixed point.
func (t *lab32Tab) labSRGB(b, g, r float32) (L, A, B float32) {
	q := func(v float32) int { return int(math.RoundToEven(float64(clip01(v) * labBase32))) }
	cx, cy, cz := q(b), q(g), q(r)
	cell := t.LUT[24*(cx>>9+(cy>>9)*labLUTDim+(cz>>9)*labLUTDim*labLUTDim):]
	x, y, z := cx>>5&15, cy>>5&15, cz>>5&15
	var s [3]int
	for c := range 8 {
		wx, wy, wz := 16-x, 16-y, 16-z
		if c&4 != 0 {
			wx = x
		}
		if c&2 != 0 {
			wy = y
		}
		if c&1 != 0 {
			wz = z
		}
		w := wx * wy * wz
		s[0] += int(cell[c]) * w
		s[1] += int(cell[8+c]) * w
		s[2] += int(cell[16+c]) * w
	}
	iL, ia, ib := (s[0]+2048)>>12, (s[1]+2048)>>12, (s[2]+2048)>>12
	return float32(iL) * (100.0 / labBase32), float32(ia)*(256.0/labBase32) - 128, float32(ib)*(256.0/labBase32) - 128
}

// xyz32 is X, Y, Z of a pixel as OpenCV's vector loop sums them: the first channel's
// term added last (s0*C0 + (s1*C1 + s2*C2)), with the matrix columns in the
// pixel's channel order.
func xyz32(m *[9]float32, bidx int, s0, s1, s2 float32) (X, Y, Z float32) {
	dot := func(row int) float32 {
		c0, c2 := m[row*3+2], m[row*3] // BGR: blue first
		if bidx == 2 {
			c0, c2 = c2, c0
		}
		return float32(float32(s0*c0) + float32(float32(s1*m[row*3+1])+float32(s2*c2)))
	}
	return dot(0), dot(1), dot(2)
}

// labLinear is 32F linear-RGB Lab of one pixel (channels in memory order).
func (t *lab32Tab) labLinear(bidx int, s0, s1, s2 float32) (L, A, B float32) {
	X, Y, Z := xyz32(&t.LabC, bidx, clip01(s0), clip01(s1), clip01(s2))
	FX := splineAt(float32(X*t.CbrtScale), t.Cbrt[:])
	FY := splineAt(float32(Y*t.CbrtScale), t.Cbrt[:])
	FZ := splineAt(float32(Z*t.CbrtScale), t.Cbrt[:])
	L = float32(903.3 * Y)
	if Y > 0.008856 {
		L = float32(float32(116*FY) - 16)
	}
	return L, float32(500 * float32(FX-FY)), float32(200 * float32(FY-FZ))
}

// luv is 32F Luv of one pixel (channels in memory order), srgb 1 with the curve.
func (t *lab32Tab) luv(bidx, srgb int, s0, s1, s2 float32) (L, u, v float32) {
	s0, s1, s2 = clip01(s0), clip01(s1), clip01(s2)
	if srgb == 1 {
		s0 = splineAt(float32(s0*splineN), t.Gamma[:])
		s1 = splineAt(float32(s1*splineN), t.Gamma[:])
		s2 = splineAt(float32(s2*splineN), t.Gamma[:])
	}
	X, Y, Z := xyz32(&t.LuvC, bidx, s0, s1, s2)
	L = splineAt(float32(Y*t.CbrtScale), t.Cbrt[:])
	L = float32(float32(L*116) - 16)
	d := float32(float32(Y*15) + float32(float32(Z*3)+X))
	d = float32(52 / max(d, float32(fltEpsilon)))
	u = float32(L * float32(float32(X*d)-t.Un))
	v = float32(L * float32(float32(float32(2.25*Y)*d)-t.Vn))
	return L, u, v
}
