package convolve

import (
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// cpuFilter is the reference implementation: the source with its apron is copied to
// a float32 buffer through the border rule, then filtered in float32 (a row pass and
// a column pass for separable kernels) and saturated to the output depth.
func cpuFilter(d, s *core.State, p *plan) {
	cn, esz := s.Chans, s.Depth.Size()
	pw, ph := s.Cols+p.kw-1, s.Rows+p.kh-1
	wr, wc, ox, oy := s.BorderGeometry(p.isolated)
	const constant = math.MinInt // in xs: the column is the border value
	xs := make([]int, pw)        // byte offset of each padded column from the view's column 0
	for j := range xs {
		m := cpu.BorderMap(ox+j-p.ax, wc, int(p.border))
		xs[j] = constant
		if m >= 0 {
			xs[j] = (m - ox) * cn * esz
		}
	}
	pad := make([]float32, pw*ph*cn)
	buf := s.Buf.Host
	cpu.ParallelRows(ph, pw*cn*4, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			row := pad[r*pw*cn : (r+1)*pw*cn]
			m := cpu.BorderMap(oy+r-p.ay, wr, int(p.border))
			for j, xo := range xs {
				for c := 0; c < cn; c++ {
					if m < 0 || xo == constant {
						row[j*cn+c] = p.value[c]
						continue
					}
					row[j*cn+c] = cpu.ReadElem(buf, s.Off+(m-oy)*s.Pitch+xo+c*esz, s.Depth)
				}
			}
		}
	})
	out := make([]float32, s.Rows*s.Cols*cn)
	rowLen := s.Cols * cn
	if p.sep {
		kx, ky := taps32(p.kx), taps32(p.ky)
		mid := make([]float32, ph*rowLen)
		cpu.ParallelRows(ph, rowLen*len(kx)*4, func(r0, r1 int) {
			for r := r0; r < r1; r++ {
				in, o := pad[r*pw*cn:], mid[r*rowLen:(r+1)*rowLen]
				for i := range o {
					var acc float32
					for j, w := range kx {
						acc += w * in[i+j*cn]
					}
					o[i] = acc
				}
			}
		})
		cpu.ParallelRows(s.Rows, rowLen*len(ky)*4, func(y0, y1 int) {
			for y := y0; y < y1; y++ {
				o := out[y*rowLen : (y+1)*rowLen]
				for i := range o {
					var acc float32
					for k, w := range ky {
						acc += w * mid[(y+k)*rowLen+i]
					}
					o[i] = acc
				}
			}
		})
	} else {
		k := make([][]float32, p.kh)
		for i := range k {
			k[i] = taps32(p.k[i])
		}
		cpu.ParallelRows(s.Rows, rowLen*p.kw*p.kh*4, func(y0, y1 int) {
			for y := y0; y < y1; y++ {
				o := out[y*rowLen : (y+1)*rowLen]
				for i := range o {
					var acc float32
					for a, kr := range k {
						in := pad[(y+a)*pw*cn+i:]
						for b, w := range kr {
							acc += w * in[b*cn]
						}
					}
					o[i] = acc
				}
			}
		})
	}
	delta := float32(p.delta)
	dv := cpu.HostView(d)
	cpu.ParallelRows(s.Rows, rowLen*4, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			o := out[y*rowLen : (y+1)*rowLen]
			switch d.Depth {
			case core.Depth8U:
				if p.halfUp {
					storeHalfUp(cpu.Row[uint8](dv, y), o)
					continue
				}
				store(cpu.Row[uint8](dv, y), o, delta)
			case core.Depth16U:
				store(cpu.Row[uint16](dv, y), o, delta)
			case core.Depth16S:
				store(cpu.Row[int16](dv, y), o, delta)
			case core.Depth32F:
				store(cpu.Row[float32](dv, y), o, delta)
			}
		}
	})
}

func store[T cpu.Elem](dst []T, v []float32, delta float32) {
	for i, f := range v {
		dst[i] = cpu.Saturate[T](f + delta)
	}
}

// storeHalfUp rounds half up and saturates, as OpenCV's fixed-point results.
func storeHalfUp(dst []uint8, v []float32) {
	for i, f := range v {
		dst[i] = uint8(min(max(math.Floor(float64(f)+0.5), 0), 255))
	}
}

func taps32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, f := range v {
		out[i] = float32(f)
	}
	return out
}
