package colorconv

import (
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// The CPU device's conversions: per-pixel functions with the kernels' arithmetic.

type pixFunc[T cpu.Elem] func(s, d []T)

func cpuConvert(fam family, d, s *core.State, bidx, param int) error {
	switch s.Depth {
	case core.Depth8U:
		return cpuFamily[uint8](fam, d, s, bidx, param)
	case core.Depth16U:
		return cpuFamily[uint16](fam, d, s, bidx, param)
	case core.Depth32F:
		return cpuFamily[float32](fam, d, s, bidx, param)
	}
	return fmt.Errorf("depth %v", s.Depth)
}

func cpuFamily[T cpu.Elem](fam family, d, s *core.State, bidx, p int) error {
	dcn := d.Chans
	var f pixFunc[T]
	switch fam {
	case "rgb":
		f = rgb2rgb[T](bidx, s.Chans, dcn)
	case "gray":
		f = rgb2gray[T](bidx)
	case "fromgray":
		f = gray2rgb[T](dcn)
	case "ycc":
		f = rgb2ycc[T](bidx, p)
	case "fromycc":
		f = ycc2rgb[T](bidx, p, dcn)
	case "xyz":
		f = rgb2xyz[T](bidx)
	case "fromxyz":
		f = xyz2rgb[T](bidx, dcn)
	case "hsv":
		f = rgb2hsv[T](bidx, p)
	case "fromhsv":
		f = hsv2rgbPix[T](bidx, p, dcn)
	case "hls":
		f = rgb2hlsPix[T](bidx, p)
	case "fromhls":
		f = hls2rgbPix[T](bidx, p, dcn)
	case "lab":
		if s.Depth == core.Depth8U { // OpenCV's fixed point (lab8.go)
			f = any(lab8Pix(bidx, p)).(pixFunc[T])
		} else {
			f = rgb2lab[T](bidx, p)
		}
	case "fromlab":
		f = lab2rgb[T](bidx, p, dcn)
		if s.Depth == core.Depth8U { // OpenCV's fixed point (fixed8.go)
			f = any(fix8Pix(bidx, p, dcn, (*fix8Tab).labRGB)).(pixFunc[T])
		}
	case "luv":
		f = rgb2luv[T](bidx, p)
	case "fromluv":
		f = luv2rgb[T](bidx, p, dcn)
		if s.Depth == core.Depth8U { // OpenCV's fixed point (fixed8.go)
			f = any(fix8Pix(bidx, p, dcn, (*fix8Tab).luvRGB)).(pixFunc[T])
		}
	default:
		return fmt.Errorf("no CPU conversion for %s", fam)
	}
	perPixel(d, s, f)
	return nil
}

// perPixel applies f to every pixel, rows in parallel.
func perPixel[T cpu.Elem](d, s *core.State, f pixFunc[T]) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	scn, dcn := s.Chans, d.Chans
	cpu.ParallelRows(s.Rows, s.RowBytes()*8, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			in, out := cpu.Row[T](sv, y), cpu.Row[T](dv, y)
			for x := 0; x < s.Cols; x++ {
				f(in[x*scn:x*scn+scn], out[x*dcn:x*dcn+dcn])
			}
		}
	})
}

func isFloat[T cpu.Elem]() bool {
	var z T
	_, ok := any(z).(float32)
	return ok
}

// maxOf is the opaque alpha of T.
func maxOf[T cpu.Elem]() T {
	var z T
	switch any(z).(type) {
	case uint8:
		return T(cpu.Saturate[uint8](255))
	case uint16:
		return T(cpu.Saturate[uint16](65535))
	}
	return T(cpu.Saturate[float32](1))
}

func bgr[T cpu.Elem](s []T, bidx int) (b, g, r T) {
	if bidx == 0 {
		return s[0], s[1], s[2]
	}
	return s[2], s[1], s[0]
}

func putBGR[T cpu.Elem](d []T, bidx int, b, g, r T) {
	if bidx == 0 {
		d[0], d[1], d[2] = b, g, r
	} else {
		d[0], d[1], d[2] = r, g, b
	}
}

func alpha[T cpu.Elem](d []T, dcn int) {
	if dcn == 4 {
		d[3] = maxOf[T]()
	}
}

// descale is OpenCV's CV_DESCALE: rounding right shift (arithmetic for negatives).
func descale(x, n int) int { return (x + 1<<(n-1)) >> n }

// satI saturates an integer to T's range.
func satI[T cpu.Elem](v int) T { return cpu.Saturate[T](float32(v)) }

func rgb2rgb[T cpu.Elem](bidx, scn, dcn int) pixFunc[T] {
	return func(s, d []T) {
		b, g, r := bgr(s, bidx)
		d[0], d[1], d[2] = b, g, r
		if dcn == 4 {
			if scn == 4 {
				d[3] = s[3]
			} else {
				d[3] = maxOf[T]()
			}
		}
	}
}

func rgb2gray[T cpu.Elem](bidx int) pixFunc[T] {
	if isFloat[T]() {
		return func(s, d []T) {
			b, g, r := bgr(s, bidx)
			d[0] = T(float32(b)*0.114 + float32(g)*0.587 + float32(r)*0.299)
		}
	}
	return func(s, d []T) {
		b, g, r := bgr(s, bidx)
		d[0] = T(descale(int(b)*3735+int(g)*19235+int(r)*9798, 15)) // OpenCV 4's 15-bit weights
	}
}

func gray2rgb[T cpu.Elem](dcn int) pixFunc[T] {
	return func(s, d []T) {
		d[0], d[1], d[2] = s[0], s[0], s[0]
		alpha(d, dcn)
	}
}

func rgb2ycc[T cpu.Elem](bidx, yuv int) pixFunc[T] {
	if isFloat[T]() {
		c3, c4 := float32(0.713), float32(0.564)
		if yuv == 1 {
			c3, c4 = 0.877, 0.492
		}
		return func(s, d []T) {
			b, g, r := bgr(s, bidx)
			Y := float32(b)*0.114 + float32(g)*0.587 + float32(r)*0.299
			cr, cb := (float32(r)-Y)*c3+0.5, (float32(b)-Y)*c4+0.5
			d[0] = T(Y)
			if yuv == 1 {
				d[1], d[2] = T(cb), T(cr)
			} else {
				d[1], d[2] = T(cr), T(cb)
			}
		}
	}
	c3, c4 := 11682, 9241
	if yuv == 1 {
		c3, c4 = 14369, 8061
	}
	delta := int(maxOf[T]()/2+1) << 14 // 128 or 32768, times 2^14
	return func(s, d []T) {
		b, g, r := bgr(s, bidx)
		Y := descale(int(b)*1868+int(g)*9617+int(r)*4899, 14)
		cr, cb := descale((int(r)-Y)*c3+delta, 14), descale((int(b)-Y)*c4+delta, 14)
		d[0] = satI[T](Y)
		if yuv == 1 {
			d[1], d[2] = satI[T](cb), satI[T](cr)
		} else {
			d[1], d[2] = satI[T](cr), satI[T](cb)
		}
	}
}

func ycc2rgb[T cpu.Elem](bidx, yuv, dcn int) pixFunc[T] {
	order := func(s []T) (Y, cr, cb T) {
		if yuv == 1 {
			return s[0], s[2], s[1]
		}
		return s[0], s[1], s[2]
	}
	if isFloat[T]() {
		c0, c1, c2, c3 := float32(1.403), float32(-0.714), float32(-0.344), float32(1.773)
		if yuv == 1 {
			c0, c1, c2, c3 = 1.140, -0.581, -0.395, 2.032
		}
		return func(s, d []T) {
			Y, Cr, Cb := order(s)
			cb, cr := float32(Cb)-0.5, float32(Cr)-0.5
			putBGR(d, bidx, T(float32(Y)+cb*c3), T(float32(Y)+cb*c2+cr*c1), T(float32(Y)+cr*c0))
			alpha(d, dcn)
		}
	}
	c0, c1, c2, c3 := 22987, -11698, -5636, 29049
	if yuv == 1 {
		c0, c1, c2, c3 = 18678, -9519, -6472, 33292
	}
	half := int(maxOf[T]()/2 + 1)
	return func(s, d []T) {
		Y, Cr, Cb := order(s)
		cb, cr := int(Cb)-half, int(Cr)-half
		b := int(Y) + descale(cb*c3, 14)
		g := int(Y) + descale(cb*c2+cr*c1, 14)
		r := int(Y) + descale(cr*c0, 14)
		putBGR(d, bidx, satI[T](b), satI[T](g), satI[T](r))
		alpha(d, dcn)
	}
}

// sRGB D65 matrices, rows X, Y, Z (and R, G, B) over columns R, G, B (X, Y, Z).
var (
	rgb2xyzI = [9]int{1689, 1465, 739, 871, 2929, 296, 79, 488, 3892}
	xyz2rgbI = [9]int{13273, -6296, -2042, -3970, 7684, 170, 228, -836, 4331}
	rgb2xyzF = [9]float32{0.412453, 0.357580, 0.180423, 0.212671, 0.715160, 0.072169, 0.019334, 0.119193, 0.950227}
	xyz2rgbF = [9]float32{3.240479, -1.53715, -0.498535, -0.969256, 1.875991, 0.041556, 0.055648, -0.204043, 1.057311}
)

func rgb2xyz[T cpu.Elem](bidx int) pixFunc[T] {
	if isFloat[T]() {
		return func(s, d []T) {
			b, g, r := bgr(s, bidx)
			for k := 0; k < 3; k++ {
				C := rgb2xyzF[3*k:]
				d[k] = T(float32(b)*C[2] + float32(g)*C[1] + float32(r)*C[0])
			}
		}
	}
	return func(s, d []T) {
		b, g, r := bgr(s, bidx)
		for k := 0; k < 3; k++ {
			C := rgb2xyzI[3*k:]
			d[k] = satI[T](descale(int(r)*C[0]+int(g)*C[1]+int(b)*C[2], 12))
		}
	}
}

func xyz2rgb[T cpu.Elem](bidx, dcn int) pixFunc[T] {
	return func(s, d []T) {
		var o [3]T
		for k := 0; k < 3; k++ {
			if isFloat[T]() {
				C := xyz2rgbF[3*k:]
				o[k] = T(float32(s[0])*C[0] + float32(s[1])*C[1] + float32(s[2])*C[2])
			} else {
				C := xyz2rgbI[3*k:]
				o[k] = satI[T](descale(int(s[0])*C[0]+int(s[1])*C[1]+int(s[2])*C[2], 12))
			}
		}
		putBGR(d, bidx, o[2], o[1], o[0])
		alpha(d, dcn)
	}
}

const fltEpsilon = 1.1920929e-7

// hsvTables are OpenCV's division tables for 8U HSV: sdiv[v] = round(255*4096/v),
// hdiv[d] = round(hrange*4096/(6d)), both rounded half to even in double.
func hsvTables(hrange int) (sdiv, hdiv [256]int) {
	for i := 1; i < 256; i++ {
		sdiv[i] = int(math.RoundToEven(float64(255<<12) / float64(i)))
		hdiv[i] = int(math.RoundToEven(float64(hrange<<12) / (6 * float64(i))))
	}
	return
}

func rgb2hsv[T cpu.Elem](bidx, hrange int) pixFunc[T] {
	if isFloat[T]() {
		hscale := float32(hrange) * (1.0 / 360)
		return func(s, d []T) {
			b, g, r := bgr(s, bidx)
			B, G, R := float32(b), float32(g), float32(r)
			v := max(R, G, B)
			diff := v - min(R, G, B)
			S := diff / (float32(math.Abs(float64(v))) + fltEpsilon)
			diff = 60 / (diff + fltEpsilon)
			var h float32
			switch v {
			case R:
				h = (G - B) * diff
			case G:
				h = (B-R)*diff + 120
			default:
				h = (R-G)*diff + 240
			}
			if h < 0 {
				h += 360
			}
			d[0], d[1], d[2] = T(h*hscale), T(S), T(v)
		}
	}
	sdiv, hdiv := hsvTables(hrange)
	return func(s, d []T) {
		b, g, r := bgr(s, bidx)
		B, G, R := int(b), int(g), int(r)
		v := max(B, G, R)
		diff := v - min(B, G, R)
		vr, vg := 0, 0
		if v == R {
			vr = -1
		}
		if v == G {
			vg = -1
		}
		S := (diff*sdiv[v] + 1<<11) >> 12
		h := (vr & (G - B)) + (^vr & ((vg & (B - R + 2*diff)) + (^vg & (R - G + 4*diff))))
		h = (h*hdiv[diff] + 1<<11) >> 12
		if h < 0 {
			h += hrange
		}
		d[0], d[1], d[2] = satI[T](h), T(S), T(v)
	}
}

// sectors maps an HSV/HLS sector to which of the four values b, g and r take.
var sectors = [6][3]int{{1, 3, 0}, {1, 0, 2}, {3, 0, 1}, {0, 2, 1}, {0, 1, 3}, {2, 1, 0}}

// hueSector reduces h (already times hscale) to [0, 6) as OpenCV does and splits it
// into its sector and the fraction in it. HSV takes fmod(h, 6), after which a
// negative hue is in no sector; HLS (wrap) takes its loops of h += 6 or h -= 6,
// here as one fmod plus 6 for a negative rest: the same where they end (each step
// is exact below 2^24), and an end where they never do (|h| past 2^26, infinite).
// A hue in no sector (negative for HSV, 6 after rounding, NaN) is sector 0,
// fraction 0, as OpenCV's (unsigned)cvFloor(h) >= 6 check makes it. The kernels'
// hue_sector is the same.
func hueSector(h float32, wrap bool) (int, float32) {
	if !(h >= 0 && h < 6) {
		h = float32(math.Mod(float64(h), 6))
		if wrap && h < 0 {
			h += 6
		}
	}
	if !(h >= 0 && h < 6) {
		return 0, 0
	}
	sector := int(h)
	return sector, h - float32(sector)
}

func hsv2rgb(h, s, v, hscale float32) (b, g, r float32) {
	if s == 0 {
		return v, v, v
	}
	sector, h := hueSector(h*hscale, false)
	tab := [4]float32{v, v * (1 - s), v * (1 - s*h), v * (1 - s*(1-h))}
	return tab[sectors[sector][0]], tab[sectors[sector][1]], tab[sectors[sector][2]]
}

func hsv2rgbPix[T cpu.Elem](bidx, hrange, dcn int) pixFunc[T] {
	hscale := 6 / float32(hrange)
	return func(s, d []T) {
		if isFloat[T]() {
			b, g, r := hsv2rgb(float32(s[0]), float32(s[1]), float32(s[2]), hscale)
			putBGR(d, bidx, T(b), T(g), T(r))
		} else {
			// OpenCV's vectorised 8U path truncates (its scalar tail rounds).
			b, g, r := hsv2rgb(float32(s[0]), float32(s[1])*(1.0/255), float32(s[2])*(1.0/255), hscale)
			putBGR(d, bidx, satI[T](int(b*255)), satI[T](int(g*255)), satI[T](int(r*255)))
		}
		alpha(d, dcn)
	}
}

func rgb2hls(b, g, r, hscale float32) (h, l, s float32) {
	vmax, vmin := max(r, g, b), min(r, g, b)
	diff := vmax - vmin
	l = (vmax + vmin) * 0.5
	if diff > fltEpsilon {
		if l < 0.5 {
			s = diff / (vmax + vmin)
		} else {
			s = diff / (2 - vmax - vmin)
		}
		diff = 60 / diff
		switch vmax {
		case r:
			h = (g - b) * diff
		case g:
			h = (b-r)*diff + 120
		default:
			h = (r-g)*diff + 240
		}
		if h < 0 {
			h += 360
		}
	}
	return h * hscale, l, s
}

func rgb2hlsPix[T cpu.Elem](bidx, hrange int) pixFunc[T] {
	hscale := float32(hrange) / 360
	return func(s, d []T) {
		b, g, r := bgr(s, bidx)
		if isFloat[T]() {
			h, l, S := rgb2hls(float32(b), float32(g), float32(r), hscale)
			d[0], d[1], d[2] = T(h), T(l), T(S)
			return
		}
		h, l, S := rgb2hls(float32(b)*(1.0/255), float32(g)*(1.0/255), float32(r)*(1.0/255), hscale)
		d[0], d[1], d[2] = cpu.Saturate[T](h), cpu.Saturate[T](l*255), cpu.Saturate[T](S*255)
	}
}

func hls2rgb(h, l, s, hscale float32) (b, g, r float32) {
	if s == 0 {
		return l, l, l
	}
	var p2 float32
	if l <= 0.5 {
		p2 = l * (1 + s)
	} else {
		p2 = l + s - l*s
	}
	p1 := 2*l - p2
	sector, h := hueSector(h*hscale, true)
	tab := [4]float32{p2, p1, p1 + (p2-p1)*(1-h), p1 + (p2-p1)*h}
	return tab[sectors[sector][0]], tab[sectors[sector][1]], tab[sectors[sector][2]]
}

func hls2rgbPix[T cpu.Elem](bidx, hrange, dcn int) pixFunc[T] {
	hscale := 6 / float32(hrange)
	return func(s, d []T) {
		if isFloat[T]() {
			b, g, r := hls2rgb(float32(s[0]), float32(s[1]), float32(s[2]), hscale)
			putBGR(d, bidx, T(b), T(g), T(r))
		} else {
			b, g, r := hls2rgb(float32(s[0]), float32(s[1])*(1.0/255), float32(s[2])*(1.0/255), hscale)
			putBGR(d, bidx, cpu.Saturate[T](b*255), cpu.Saturate[T](g*255), cpu.Saturate[T](r*255))
		}
		alpha(d, dcn)
	}
}

func srgbGamma(x float32) float32 {
	if x <= 0.04045 {
		return x * (1 / 12.92)
	}
	return float32(math.Pow(float64((x+0.055)*(1/1.055)), 2.4))
}

func srgbInvGamma(x float32) float32 {
	if x <= 0.0031308 {
		return 12.92 * x
	}
	return 1.055*float32(math.Pow(float64(x), 1/2.4)) - 0.055
}

// clip01 clamps x to [0, 1], NaN to 0 (as the kernels' fminf(fmaxf(x, 0), 1) does;
// Go's min and max would keep it, and OpenCV's clip then indexes its tables with it).
func clip01(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	return min(x, 1)
}

// gamma8 is srgbGamma of each 8-bit value scaled by 1/255: the same float32
// results, looked up instead of computed with math.Pow per pixel.
var gamma8 = func() (t [256]float32) {
	for v := range t {
		t[v] = srgbGamma(float32(v) * (1.0 / 255))
	}
	return t
}()

// linearRGB returns linear r, g, b in 0..1 of an 8-bit pixel (32F Lab and Luv
// follow OpenCV's tables in lab32.go).
func linearRGB[T cpu.Elem](b, g, r T, srgb int) (float32, float32, float32) {
	if srgb == 1 {
		return gamma8[uint8(b)], gamma8[uint8(g)], gamma8[uint8(r)]
	}
	return float32(b) * (1.0 / 255), float32(g) * (1.0 / 255), float32(r) * (1.0 / 255)
}

// rgb2lab is 32F BGR/RGB to Lab on OpenCV's table and splines (lab32.go); 8U is
// lab8Pix.
func rgb2lab[T cpu.Elem](bidx, srgb int) pixFunc[T] {
	t := lab32Table()
	return func(s, d []T) {
		var L, a, b float32
		if srgb == 1 {
			b0, g0, r0 := bgr(s, bidx)
			L, a, b = t.labSRGB(float32(b0), float32(g0), float32(r0))
		} else {
			L, a, b = t.labLinear(bidx, float32(s[0]), float32(s[1]), float32(s[2]))
		}
		d[0], d[1], d[2] = T(L), T(a), T(b)
	}
}

// outRGB clips linear r, g, b to 0..1, applies the sRGB curve and scales by depth.
func outRGB[T cpu.Elem](d []T, bidx, srgb int, R, G, B float32) {
	R, G, B = clip01(R), clip01(G), clip01(B)
	if srgb == 1 {
		R, G, B = srgbInvGamma(R), srgbInvGamma(G), srgbInvGamma(B)
	}
	if isFloat[T]() {
		putBGR(d, bidx, T(B), T(G), T(R))
	} else {
		putBGR(d, bidx, cpu.Saturate[T](B*255), cpu.Saturate[T](G*255), cpu.Saturate[T](R*255))
	}
}

func lab2rgb[T cpu.Elem](bidx, srgb, dcn int) pixFunc[T] {
	return func(s, d []T) {
		L, a, bb := float32(s[0]), float32(s[1]), float32(s[2]) // 32F; 8U is fix8Tab.labRGB (fixed8.go)
		var y, fy float32
		if L <= 8 {
			y = L * (1 / 903.3)
			fy = 7.787*y + 16.0/116
		} else {
			fy = (L + 16) * (1.0 / 116)
			y = fy * fy * fy
		}
		fx, fz := a*(1.0/500)+fy, fy-bb*(1.0/200)
		inv := func(f float32) float32 {
			if f > 0.206893 {
				return f * f * f
			}
			return (f - 16.0/116) * (1 / 7.787)
		}
		x, z := inv(fx)*0.950456, inv(fz)*1.088754
		C := xyz2rgbF
		outRGB(d, bidx, srgb, x*C[0]+y*C[1]+z*C[2], x*C[3]+y*C[4]+z*C[5], x*C[6]+y*C[7]+z*C[8])
		alpha(d, dcn)
	}
}

// u'n, v'n of OpenCV's D65 white (0.950456, 1, 1.088754).
const luvUn, luvVn = 0.19783940, 0.46834220

func rgb2luv[T cpu.Elem](bidx, srgb int) pixFunc[T] {
	if isFloat[T]() { // OpenCV's splines (lab32.go)
		t := lab32Table()
		return func(s, d []T) {
			L, u, v := t.luv(bidx, srgb, float32(s[0]), float32(s[1]), float32(s[2]))
			d[0], d[1], d[2] = T(L), T(u), T(v)
		}
	}
	return func(s, d []T) { // 8U
		b, g, r := bgr(s, bidx)
		lb, lg, lr := linearRGB(b, g, r, srgb)
		C := rgb2xyzF
		X := lr*C[0] + lg*C[1] + lb*C[2]
		Y := lr*C[3] + lg*C[4] + lb*C[5]
		Z := lr*C[6] + lg*C[7] + lb*C[8]
		L := 903.3 * Y
		if Y > 0.008856 {
			L = 116*float32(math.Cbrt(float64(Y))) - 16
		}
		dd := 1 / max(X+15*Y+3*Z, fltEpsilon)
		u, v := 13*L*(4*X*dd-luvUn), 13*L*(9*Y*dd-luvVn)
		d[0], d[1], d[2] = cpu.Saturate[T](L*(255.0/100)), cpu.Saturate[T]((u+134)*(255.0/354)), cpu.Saturate[T]((v+140)*(255.0/262))
	}
}

// luv2rgb is 32F Luv to RGB, OpenCV's float formula; 8U is fix8Tab.luvRGB (fixed8.go).
func luv2rgb[T cpu.Elem](bidx, srgb, dcn int) pixFunc[T] {
	return func(s, d []T) {
		L, u, v := float32(s[0]), float32(s[1]), float32(s[2])
		var Y float32
		if L >= 8 {
			Y = (L + 16) * (1.0 / 116)
			Y = Y * Y * Y
		} else {
			Y = L * (1 / 903.3)
		}
		up := 3 * (u + L*(13*luvUn))
		vp := min(max(0.25/(v+L*(13*luvVn)), -0.25), 0.25)
		X := Y * 3 * up * vp
		Z := Y * ((12*13*L-up)*vp - 5)
		C := xyz2rgbF
		outRGB(d, bidx, srgb, X*C[0]+Y*C[1]+Z*C[2], X*C[3]+Y*C[4]+Z*C[5], X*C[6]+Y*C[7]+Z*C[8])
		alpha(d, dcn)
	}
}

// colormapCPU is the CPU twin of gi_cvt_colormap_8u_13: each gray level of s (8UC1)
// looked up in lut (256 BGR colours) into d (8UC3).
func colormapCPU(d, s *core.State, lut string) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	cpu.ParallelRows(s.Rows, s.Cols*4, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			in, out := cpu.Row[uint8](sv, y), cpu.Row[uint8](dv, y)
			for x, v := range in {
				copy(out[3*x:3*x+3], lut[3*int(v):])
			}
		}
	})
}
