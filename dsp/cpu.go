package dsp

import (
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// conv1dCPU is the CPU twin of gi_conv1d_*: each row of d gets
// y[o] = sum over q of g[q] * x[o + off + q], x zero outside its n samples, summed
// in float64.
func conv1dCPU(d, s *core.State, g []float32, off int) {
	sv, dv := cpu.HostView(s), cpu.HostView(d)
	n, m := s.Cols, len(g)
	cpu.ParallelRows(s.Rows, d.Cols*m*4, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			x, out := cpu.Row[float32](sv, y), cpu.Row[float32](dv, y)
			for o := range out {
				// Only the taps that meet the signal: 0 <= o+off+q < n.
				q0, q1 := max(0, -(o+off)), min(m, n-(o+off))
				var acc float64
				for q := q0; q < q1; q++ {
					acc += float64(g[q]) * float64(x[o+off+q])
				}
				out[o] = float32(acc)
			}
		}
	})
}
