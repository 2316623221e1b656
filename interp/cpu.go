package interp

import (
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// fma32 is float32's fused multiply-add, as the kernels' fmaf (through float64,
// whose product of two float32 numbers is exact).
func fma32(a, b, c float32) float32 { return float32(math.FMA(float64(a), float64(b), float64(c))) }

// dist2 is pixel (fx, fy)'s squared distance to point i as the kernels compute it.
func (pl *plan) dist2(i int, fx, fy float32) float32 {
	dy, dx := pl.y[i]-fy, pl.x[i]-fx
	return fma32(dx, dx, fma32(dy, dy, shepardEps))
}

// near is a pixel's chosen points: their indices and squared distances.
type near struct {
	idx []int
	d2  []float32
}

// before orders points by (d2, index).
func before(da float32, ia int, db float32, ib int) bool { return da < db || (da == db && ia < ib) }

// shepardCPU is the CPU twin of the gi_shepard_* kernels (interp_shepard.cu): for
// each pixel the same points by the same float32 distances (all of them, those
// within the radius, the k nearest of those), then the weighted mean in float64.
func shepardCPU(d, m *core.State, pl *plan) {
	dv := cpu.HostView(d)
	var mv cpu.View
	if m != nil {
		mv = cpu.HostView(m)
	}
	cpu.ParallelRows(d.Rows, d.Cols*pl.n*16, func(y0, y1 int) {
		var nr near
		for y := y0; y < y1; y++ {
			out := cpu.Row[float32](dv, y)
			var mask []uint8
			if m != nil {
				mask = cpu.Row[uint8](mv, y)
			}
			for x := range out {
				if mask != nil && mask[x] == 0 {
					out[x] = pl.fill
					continue
				}
				out[x] = pl.pixel(float32(x), float32(y), &nr)
			}
		}
	})
}

// pixel is one pixel's value.
func (pl *plan) pixel(fx, fy float32, nr *near) float32 {
	nr.idx, nr.d2 = nr.idx[:0], nr.d2[:0]
	for i := 0; i < pl.n; i++ {
		d2 := pl.dist2(i, fx, fy)
		if pl.r2 > 0 && d2 > pl.r2 {
			continue
		}
		if pl.k == 0 {
			nr.idx, nr.d2 = append(nr.idx, i), append(nr.d2, d2)
			continue
		}
		// Insert into the k nearest, sorted by (d2, index).
		if len(nr.idx) == pl.k && !before(d2, i, nr.d2[pl.k-1], nr.idx[pl.k-1]) {
			continue
		}
		if len(nr.idx) < pl.k {
			nr.idx, nr.d2 = append(nr.idx, 0), append(nr.d2, 0)
		}
		j := len(nr.idx) - 1
		for ; j > 0 && before(d2, i, nr.d2[j-1], nr.idx[j-1]); j-- {
			nr.idx[j], nr.d2[j] = nr.idx[j-1], nr.d2[j-1]
		}
		nr.idx[j], nr.d2[j] = i, d2
	}
	if len(nr.idx) == 0 {
		return pl.fill
	}
	// A point on the pixel: the first listed; else each weight divided by the
	// nearest point's (no overflow at any power).
	first, dmin := -1, float32(math.Inf(1))
	for j, i := range nr.idx {
		if nr.d2[j] == shepardEps && (first < 0 || i < first) {
			first = i
		}
		dmin = min(dmin, nr.d2[j])
	}
	if first >= 0 {
		return pl.v[first]
	}
	var num, den float64
	for j, i := range nr.idx {
		var w float64
		if pl.power == 2 {
			w = float64(dmin) / float64(nr.d2[j])
		} else {
			w = math.Pow(float64(nr.d2[j])/float64(dmin), -pl.power/2)
		}
		num += w * float64(pl.v[i])
		den += w
	}
	return float32(num / den)
}
