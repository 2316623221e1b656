package resample

import (
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// polyCPU is the CPU twin of gi_resample_*: every output's polyphase sum
// (ResamplePolyParams), in float64.
func polyCPU(d, s *core.State, pl *plan, t0 int64) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	n, up, down, qn := int64(s.Cols), int64(pl.up), int64(pl.down), pl.qn
	cpu.ParallelRows(s.Rows, d.Cols*qn*4, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			x, out := cpu.Row[float32](sv, y), cpu.Row[float32](dv, y)
			for o := range out {
				t := int64(o)*down + t0
				i0 := t / up
				h := pl.h[int(t%up)*qn:][:qn]
				// Only the taps that meet the signal: 0 <= i0-q < n.
				q0, q1 := int(min(int64(qn), max(0, i0-(n-1)))), int(min(int64(qn), i0+1))
				var acc float64
				for q := q0; q < q1; q++ {
					acc += float64(h[q]) * float64(x[i0-int64(q)])
				}
				out[o] = float32(acc)
			}
		}
	})
}

// resizeCPU is the CPU twin of the resize kernels (resample_resize.cu): the
// plan's gather, integer-factor area average or two separable passes, with
// OpenCV's arithmetic (resizePlan).
func resizeCPU(d, s *core.State, pl *resizePlan) {
	switch s.Depth {
	case core.Depth8U:
		resizeT[uint8](d, s, pl)
	case core.Depth16U:
		resizeT[uint16](d, s, pl)
	case core.Depth16S:
		resizeT[int16](d, s, pl)
	default:
		resizeT[float32](d, s, pl)
	}
}

func resizeT[T cpu.Elem](d, s *core.State, pl *resizePlan) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	cn, w := pl.cn, pl.dw*pl.cn
	work := w * 8
	if pl.kind == kindSep {
		work *= pl.x.n * pl.y.n
	}
	cpu.ParallelRows(pl.dh, work, func(y0, y1 int) {
		switch pl.kind {
		case kindGather:
			for y := y0; y < y1; y++ {
				in, out := cpu.Row[T](sv, int(pl.ys[y])), cpu.Row[T](dv, y)
				for x := range out {
					out[x] = in[int(pl.xs[x/cn])*cn+x%cn]
				}
			}
		case kindAreaFast:
			for y := y0; y < y1; y++ {
				areaFastRow(cpu.Row[T](dv, y), sv, pl, y)
			}
		default:
			sepRows[T](dv, sv, pl, y0, y1)
		}
	})
}

// areaFastRow is resizeAreaFast_'s output row y: the average of ix x iy pixels,
// rounded as OpenCV rounds it ((sum + 2) >> 2 on its 2x2 fast path, sum * (1/area)
// otherwise), and the mean of the pixels that exist where the block passes the
// image's right or bottom edge.
func areaFastRow[T cpu.Elem](out []T, sv cpu.View, pl *resizePlan, y int) {
	cn, area := pl.cn, pl.ix*pl.iy
	scale := 1 / float32(area)
	sy0 := y * pl.iy
	full := 0
	if sy0+pl.iy <= pl.sh {
		full = pl.sw / pl.ix * cn
	}
	var z T
	_, isF := any(z).(float32)
	_, is8 := any(z).(uint8)
	for x := range out {
		dx, c := x/cn, x%cn
		sx0 := dx * pl.ix
		if x < full {
			if pl.round2 {
				a, b := cpu.Row[T](sv, sy0), cpu.Row[T](sv, sy0+1)
				i := sx0*cn + c
				out[x] = T((int(a[i]) + int(a[i+cn]) + int(b[i]) + int(b[i+cn]) + 2) >> 2)
				continue
			}
			// OpenCV sums the block's elements four at a time (exact integer
			// sums of four, then the running sum: int for 8U, float otherwise).
			var isum int
			var fsum float32
			var grp float32
			for k := 0; k < area; k++ {
				v := cpu.Row[T](sv, sy0+k/pl.ix)[(sx0+k%pl.ix)*cn+c]
				switch {
				case is8:
					isum += int(v)
				case isF:
					if k%4 == 0 || k >= area/4*4 {
						grp = float32(v)
					} else {
						grp = float32(grp + float32(v))
					}
					if k%4 == 3 || k >= area/4*4 {
						fsum = float32(fsum + grp)
					}
				default:
					if k%4 == 0 || k >= area/4*4 {
						isum = int(v)
					} else {
						isum += int(v)
					}
					if k%4 == 3 || k >= area/4*4 {
						fsum = float32(fsum + float32(isum))
					}
				}
			}
			if is8 {
				fsum = float32(isum)
			}
			out[x] = cpu.Saturate[T](float32(fsum * scale))
			continue
		}
		var isum int
		var fsum float32
		n := 0
		for sy := sy0; sy < min(sy0+pl.iy, pl.sh); sy++ {
			row := cpu.Row[T](sv, sy)
			for sx := sx0; sx < min(sx0+pl.ix, pl.sw); sx++ {
				if is8 {
					isum += int(row[sx*cn+c])
				} else {
					fsum = float32(fsum + float32(row[sx*cn+c]))
				}
				n++
			}
		}
		if is8 {
			fsum = float32(isum)
		}
		out[x] = cpu.Saturate[T](float32(fsum / float32(n)))
	}
}

// sepRows computes output rows y0..y1 of a separable plan: each needed source
// row's horizontal pass (kept for the next output rows), then the vertical one.
func sepRows[T cpu.Elem](dv, sv cpu.View, pl *resizePlan, y0, y1 int) {
	cn, w, nx, ny := pl.cn, pl.dw*pl.cn, pl.x.n, pl.y.n
	lines := make([][]float64, ny)
	tags := make([]int, ny)
	for i := range lines {
		lines[i] = make([]float64, w)
		tags[i] = -1
	}
	line := func(r int) []float64 {
		slot := r % ny
		if tags[slot] == r {
			return lines[slot]
		}
		in, h := cpu.Row[T](sv, r), lines[slot]
		for x := range h {
			dx, c := x/cn, x%cn
			ws := pl.x.w[dx*nx:][:nx]
			st := int(pl.x.start[dx])
			if pl.arith == arFloat {
				var acc float32
				for j, wj := range ws {
					p := float32(float32(in[clamp(st+j, pl.sw)*cn+c]) * wj)
					if j == 0 {
						acc = p
					} else {
						acc = float32(acc + p)
					}
				}
				h[x] = float64(acc)
				continue
			}
			var acc int64
			for j, wj := range ws {
				acc += int64(in[clamp(st+j, pl.sw)*cn+c]) * int64(wj)
			}
			if pl.arith == arPillow {
				acc = satU8((acc + 1<<(pillowBits-1)) >> pillowBits)
			}
			h[x] = float64(acc)
		}
		tags[slot] = r
		return h
	}
	hs := make([][]float64, ny)
	for y := y0; y < y1; y++ {
		for j := range hs {
			hs[j] = line(clamp(int(pl.y.start[y])+j, pl.sh))
		}
		bs := pl.y.w[y*ny:][:ny]
		out := cpu.Row[T](dv, y)
		for x := range out {
			out[x] = vertical[T](pl, hs, bs, x)
		}
	}
}

// vertical is element x of an output row from its rows' horizontal sums hs and
// the vertical weights bs, in the plan's arithmetic.
func vertical[T cpu.Elem](pl *resizePlan, hs [][]float64, bs []float32, x int) T {
	switch pl.arith {
	case arFloat:
		var acc float32
		for j, b := range bs {
			p := float32(float32(hs[j][x]) * b)
			if j == 0 {
				acc = p
			} else {
				acc = float32(acc + p)
			}
		}
		return cpu.Saturate[T](acc)
	case arFix8:
		if x < pl.simd && pl.simdKind == simdLinear {
			// VResizeLinearVec_32s8u: (((h >> 4) * b) >> 16 summed, + 2) >> 2.
			var s int32
			for j, b := range bs {
				t := sat16(int64(hs[j][x]) >> 4)
				s += (t * int32(b)) >> 16
			}
			return T(satU8(int64(sat16(int64(s))+2) >> 2))
		}
		if x < pl.simd && pl.simdKind == simdCubic {
			// VResizeCubicVec_32s8u: float, the products summed last to first.
			const sc = float32(1.0 / (2048 * 2048))
			var acc float32
			for j := len(bs) - 1; j >= 0; j-- {
				p := float32(float32(hs[j][x]) * float32(bs[j]*sc))
				if j == len(bs)-1 {
					acc = p
				} else {
					acc = float32(p + acc)
				}
			}
			return T(satU8(int64(math.RoundToEven(float64(acc)))))
		}
		var acc int64
		for j, b := range bs {
			acc += int64(hs[j][x]) * int64(b)
		}
		return T(satU8((acc + 1<<21) >> 22))
	}
	var acc int64
	for j, b := range bs {
		acc += int64(hs[j][x]) * int64(b)
	}
	if pl.arith == arPillow {
		return T(satU8((acc + 1<<(pillowBits-1)) >> pillowBits))
	}
	var z T
	switch any(z).(type) {
	case uint8:
		return T(satU8((acc + 1<<15) >> 16))
	case uint16:
		return T(max(0, min(math.MaxUint16, (acc+1<<31)>>32)))
	}
	return T(max(math.MinInt16, min(math.MaxInt16, (acc+1<<31)>>32)))
}

func clamp(i, n int) int { return max(0, min(i, n-1)) }

func sat16(v int64) int32 { return int32(max(math.MinInt16, min(math.MaxInt16, v))) }

func satU8(v int64) int64 { return max(0, min(255, v)) }

// pyrCPU is the CPU twin of gi_pyrdown_* (resample_pyr.cu): OpenCV's pyrDown_, a
// row pass then a column pass, exact integer sums for the integer depths and
// float32 in OpenCV's order for 32F. (PyrUp runs as a resizePlan: resizeCPU.)
func pyrCPU(d, s *core.State, pl *pyrPlan) {
	switch s.Depth {
	case core.Depth8U:
		pyrT[uint8](d, s, pl)
	case core.Depth16U:
		pyrT[uint16](d, s, pl)
	case core.Depth16S:
		pyrT[int16](d, s, pl)
	default:
		pyrT[float32](d, s, pl)
	}
}

// pyrVal is a pass's value: an exact integer, or a float32 (f) for 32F.
type pyrVal struct {
	i int64
	f float32
}

func pyrT[T cpu.Elem](d, s *core.State, pl *pyrPlan) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	var z T
	_, isF := any(z).(float32)
	// comb is a + 6b + ... as OpenCV writes each sum, in float32 for 32F.
	mul := func(a pyrVal, k int) pyrVal { return pyrVal{a.i * int64(k), float32(a.f * float32(k))} }
	add := func(a, b pyrVal) pyrVal { return pyrVal{a.i + b.i, float32(a.f + b.f)} }
	elem := func(row []T, i int) pyrVal { return pyrVal{int64(row[i]), float32(row[i])} }
	cn := pl.cn
	store := func(out []T, x int, v pyrVal, shift int) {
		if isF {
			out[x] = T(float32(v.f * (1 / float32(int(1)<<shift))))
			return
		}
		out[x] = cpu.Saturate[T](float32((v.i + 1<<(shift-1)) >> shift))
	}
	// 6*s2 + 4*(s1 + s3) + s0 + s4 over rows or columns 2i-2 .. 2i+2.
	five := func(v [5]pyrVal) pyrVal {
		return add(add(add(mul(v[2], 6), mul(add(v[1], v[3]), 4)), v[0]), v[4])
	}
	// Past width0 OpenCV's right-border table steps its taps by one source
	// column an output instead of two (pyrDown_'s tabR): kept, so that a wider
	// dst than half the source matches it.
	width0 := min((pl.sw-3)/2+1, pl.dw)
	centre := func(dx int) int {
		if dx < width0 {
			return 2 * dx
		}
		return 2*width0 + dx - width0
	}
	cpu.ParallelRows(pl.dh, pl.dw*cn*25, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			var rows [5][]T
			for k := range rows {
				rows[k] = cpu.Row[T](sv, cpu.BorderMap(2*y+k-2, pl.sh, pl.border))
			}
			out := cpu.Row[T](dv, y)
			for x := range out {
				dx, c := x/cn, x%cn
				var h [5]pyrVal
				for k, r := range rows {
					var v [5]pyrVal
					for j := range v {
						v[j] = elem(r, cpu.BorderMap(centre(dx)+j-2, pl.sw, pl.border)*cn+c)
					}
					h[k] = five(v)
				}
				store(out, x, five(h), 8)
			}
		}
	})
}
