package convolve

import (
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
)

// The tensor-core kernel (kernels/filter_imma.cu: gi_imma_k7_c<C>_d<D>) filters 8U images
// with the taps as integers over a power of two, each split into signed-byte
// digits, so that integer mma instructions take the multiply-adds. Its sums are
// exact; only the taps are rounded, and immaQuantize keeps the most that rounding
// can move a result (before it is rounded to 8 bits) within immaMaxErr. The float
// kernels' sums and OpenCV's carry rounding errors of their own, so both agree
// within ±1 and almost always exactly.
const immaMaxErr = 1.0 / 256

// immaOff (GPUIMG_IMMA_OFF=1) sends these filters to the float kernels instead, and
// immaMinDigits (GPUIMG_IMMA_DIGITS=3) makes every split 3 digits, for comparisons.
var (
	immaOff       = envInt("GPUIMG_IMMA_OFF", 0) > 0
	immaMinDigits = envInt("GPUIMG_IMMA_DIGITS", 2)
)

// immaQuant is a 2-D kernel as integers w over 2^shift, of digits signed bytes
// each (w = sum of digit k times 256^k).
type immaQuant struct {
	digits, shift int
	w             [][]int64
	// err is the most a result can move before it is rounded to 8 bits: 255 * sum
	// |tap - w/2^shift|, and the float rounding of the combined sums.
	err float64
}

// digit is digit k (0 lowest) of tap (i, j), from -128 to 127.
func (q immaQuant) digit(i, j, k int) int8 {
	w := q.w[i][j]
	for range k {
		w = (w - int64(lowDigit(w))) >> 8
	}
	return lowDigit(w)
}

// lowDigit is w's lowest balanced base-256 digit: w - lowDigit(w) is a multiple of
// 256.
func lowDigit(w int64) int8 { return int8(((w + 128) & 255) - 128) }

// immaQuantize returns the kernel as integers with the fewest digits (2 or 3) whose
// error is within immaMaxErr, at the largest scale that keeps the top digit within
// ±127; false when neither is, or a tap is not finite. delta is added to each sum.
// The taps are taken as float32, as the float kernels and OpenCV take them. The
// kernel sums the top two digits' planes in int32: |w| / 256^(digits-2) is at most
// 32512, so 255 such products of up to 7x25 taps stay within it.
func immaQuantize(k [][]float64, delta float64) (immaQuant, bool) {
	maxAbs, sumAbs := 0.0, 0.0
	for _, row := range k {
		for _, v := range row {
			f := math.Abs(float64(float32(v)))
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return immaQuant{}, false
			}
			maxAbs, sumAbs = max(maxAbs, f), sumAbs+f
		}
	}
	for digits := max(immaMinDigits, 2); digits <= 3; digits++ {
		limit := 127 * math.Pow(256, float64(digits-1)) // the top digit stays within ±127
		shift := 40
		if maxAbs > 0 {
			_, e := math.Frexp(limit / maxAbs) // limit/maxAbs = f * 2^e, f in [0.5, 1)
			shift = min(e-1, 40)
		}
		// Float32 rounding: of the top planes' sum (at most 255*sum|tap| in output
		// units), and of the additions to delta and the result (smaller terms).
		q := immaQuant{digits: digits, shift: shift, w: make([][]int64, len(k)),
			err: (255*sumAbs + 2*math.Abs(delta) + 512) * 0x1p-24}
		for i, row := range k {
			q.w[i] = make([]int64, len(row))
			for j, v := range row {
				f := float64(float32(v))
				w := math.RoundToEven(math.Ldexp(f, shift))
				q.w[i][j] = int64(w)
				q.err += 255 * math.Abs(f-math.Ldexp(w, -shift))
			}
		}
		if q.err <= immaMaxErr {
			return q, true
		}
	}
	return immaQuant{}, false
}

// immaArgs returns the name and ImmaTaps of the tensor-core kernel for the 2-D
// kernel k, or "" when the plan needs another: it takes 8U to 8U (not the
// fixed-point Gaussian) on 1, 3 or 4 channels, kernels of up to 7 rows whose rows
// span (kw-1)*C bytes plus the 4-byte alignment of the anchor within 24, source
// and output rows 16-byte aligned,
// on devices of compute capability 8.0 or newer.
func immaArgs(d, s *core.State, p *plan, k [][]float64) (string, *immaTaps) {
	c := s.Chans
	if immaOff || s.Depth != core.Depth8U || d.Depth != core.Depth8U || p.halfUp || (c != 1 && c != 3 && c != 4) ||
		p.kh > 7 || s.Ptr()%16 != 0 || s.Pitch%16 != 0 || d.Ptr()%16 != 0 || d.Pitch%16 != 0 {
		return "", nil
	}
	if major, _ := core.ComputeCapability(s.Dev); major < 8 {
		return "", nil
	}
	lead := 4 * ((p.ax*c + 3) / 4) // the first tap's byte, 4-byte aligned, left of the output
	e := lead - p.ax*c
	if (p.kw-1)*c+e+8 > 32 || math.IsNaN(p.delta) || math.IsInf(p.delta, 0) {
		return "", nil
	}
	q, ok := immaQuantize(k, p.delta)
	if !ok {
		return "", nil
	}
	// ImmaTaps.p: for kernel row i and digit dg, byte t+7 (t = -7..32) is the digit
	// of tap j where t = e + j*c.
	t := &immaTaps{Scale: float32(math.Ldexp(1, -q.shift)), Lead: int32(lead)}
	for i := range p.kh {
		for dg := range q.digits {
			for j := range p.kw {
				b := e + j*c + 7
				t.P[(i*3+dg)*immaPW+b/4] |= uint32(uint8(q.digit(i, j, dg))) << (8 * (b % 4))
			}
		}
	}
	for ch, v := range p.value { // saturated to 8U: bytes
		t.Cval[ch] = int32(v)
	}
	ntx := (s.Cols*c + 63) / 64
	t.Ntx, t.Ntiles = int32(ntx), int32(ntx*((s.Rows+127)/128))
	return fmt.Sprintf("gi_imma_k7_c%d_d%d", c, q.digits), t
}

// immaLaunch runs the tensor-core kernel: 256 threads take a tile of 128 rows by 64
// bytes, and two blocks per SM (its launch bounds) walk the tiles.
func immaLaunch(str core.Stream, d, s *core.State, p *plan, name string, t *immaTaps) error {
	if onLaunch != nil {
		onLaunch(name)
	}
	n := min(int(t.Ntiles), 2*core.MultiProcessors(s.Dev))
	return s.Dev.Launch(str, name, [3]int{n, 1, 1}, [3]int{256, 1, 1}, 0, append(geoArgs(d, s, p), core.Struct(t))...)
}
