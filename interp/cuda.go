package interp

import (
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/devcache"
)

// shepardCUDA launches the plan's kernel (kernels/interp_shepard.cu) over d: every
// point (gi_shepard_all_*; from tileMin points on, gi_shepard_tiles_*: the far
// points through each tile's expansion), or the grid's (gi_shepard_grid_*), p2 for
// power 2 and pw for others; the points (and the grid's cells) are copied to the device once
// for each set (internal/devcache: a map redrawn from the same points reuses
// them).
func shepardCUDA(str core.Stream, d, m *core.State, pl *plan) error {
	pts, cells := pl.sorted()
	pb, cb := core.HostBytes(pts), core.HostBytes(cells)
	size := len(pb) + len(cb)
	buf, err := devcache.Derived(d.Dev, str, "interp-shepard", [][]byte{pb, cb}, size, func(buf *core.Buffer) error {
		if err := d.Dev.Copy2D(core.Copy{Dst: buf, SrcHost: pb, DstPitch: len(pb), SrcPitch: len(pb), Width: len(pb), Rows: 1}, str); err != nil {
			return err
		}
		return d.Dev.Copy2D(core.Copy{Dst: buf, DstOff: len(pb), SrcHost: cb, DstPitch: len(cb), SrcPitch: len(cb), Width: len(cb), Rows: 1}, str)
	})
	if err != nil {
		return err
	}
	defer buf.Release()
	// A pixel whose weights sum past half the weight of a point on it (or past
	// 1e30, where the sums near float32's range) is computed again one point at a
	// time.
	big := math.Min(0.5*math.Pow(float64(shepardEps), -pl.power/2), 1e30)
	p := shepardParams{Dst: d.Ptr(), Dp: int32(d.Pitch), W: int32(d.Cols), H: int32(d.Rows), Pts: buf.Ptr, N: int32(pl.n),
		Power: float32(pl.power), R2: pl.r2, K: int32(pl.k), Fill: pl.fill, Big: float32(big)}
	if m != nil {
		p.Mask, p.Mp = m.Ptr(), int32(m.Pitch)
	}
	suffix := "pw"
	if pl.power == 2 {
		suffix = "p2"
	}
	block := [3]int{shepardBX, shepardBY, 1}
	if pl.gx == 0 {
		tiles := [3]int{(d.Cols + shepardT - 1) / shepardT, (d.Rows + shepardT - 1) / shepardT, 1}
		if pl.n >= tileMinSmall || pl.n >= tileMin && tiles[0]*tiles[1] >= tileFull {
			if r := farRatio(pl.power); r > 0 {
				p.Far2 = float32(farTo(r))
				return d.Dev.Launch(str, "gi_shepard_tiles_"+suffix, tiles, [3]int{shepardTT, 1, 1}, 0, core.Struct(&p))
			}
		}
		grid := [3]int{(d.Cols + shepardBX*shepardPX - 1) / (shepardBX * shepardPX), (d.Rows + shepardBY - 1) / shepardBY, 1}
		return d.Dev.Launch(str, "gi_shepard_all_"+suffix, grid, block, 0, core.Struct(&p))
	}
	p.Cells = buf.Ptr + uintptr(len(pb))
	p.Gx, p.Gy, p.Cell, p.Rings = int32(pl.gx), int32(pl.gy), int32(pl.cell), int32(pl.rings)
	grid := [3]int{(d.Cols + shepardBX - 1) / shepardBX, (d.Rows + shepardBY - 1) / shepardBY, 1}
	return d.Dev.Launch(str, "gi_shepard_grid_"+suffix, grid, block, 0, core.Struct(&p))
}

// tileMin and tileMinSmall are the fewest points for which Shepard over every
// point takes the far-field kernels (gi_shepard_tiles_*), on maps of tileFull
// tiles or more and on smaller ones (too few blocks to fill the GPU): below them,
// every point at every pixel costs less than the tiles' expansions (H100, power
// 2: 4K, 64 points 154 against 202 us, 128 points 295 against 193; 512x512, 512
// points 39 against 70, 1024 points 143 against 111). Variables for the tests.
var tileMin, tileMinSmall = 128, 1024

// tileFull is the tiles (blocks of GI_SHEPARD_TT threads) a map needs for
// tileMin to apply: two an SM of a large GPU.
const tileFull = 256

// farTol bounds the far-field expansion's dropped terms, relative to each far
// point's weight.
const farTol = 5e-7

// farRatio is the largest of a few ratios r (a tile's half diagonal over a far
// point's distance from its centre) for which the expansion of degree shepardQ of
// |u - q|^-power drops less than farTol of every far point's weight: the tail
// (1+r)^p sum_{n>Q} binom(n+p-1, n) r^n (the coefficients of (1-z)^-p bound those
// of its n-th degree terms). 0 where none does or the power passes 8 (weights
// of far points would leave float32's range).
func farRatio(power float64) float64 {
	if power > 8 {
		return 0
	}
	for _, r := range []float64{1. / 4, 1. / 5, 1. / 6, 1. / 8, 1. / 10, 1. / 12, 1. / 16} {
		t, tail := 1.0, 0.0 // t: binom(n+p-1, n) r^n
		for n := 1; n <= shepardQ+600; n++ {
			t *= (float64(n-1) + power) / float64(n) * r
			if n > shepardQ {
				tail += t
			}
		}
		if tail*math.Pow(1+r, power) <= farTol {
			return r
		}
	}
	return 0
}

// farTo is the squared distance from a tile's centre past which a point is far
// at ratio r (kernels: ShepardParams.far2), a little past the tile's half
// diagonal over r so that float rounding keeps the ratio.
func farTo(r float64) float64 {
	rho := 0.5 * float64(shepardT-1) * math.Sqrt2
	return math.Pow(rho/r*(1+1e-4), 2)
}
