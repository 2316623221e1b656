package resample

import (
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
