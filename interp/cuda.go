package interp

import (
	"math"
	"unsafe"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/devcache"
)

// shepardCUDA launches the plan's kernel (kernels/interp_shepard.cu) over d: every
// point (gi_shepard_all_*), or the grid's (gi_shepard_grid_*), p2 for power 2 and
// pw for others; the points (and the grid's cells) are copied to the device once
// for each set (internal/devcache: a map redrawn from the same points reuses
// them).
func shepardCUDA(str core.Stream, d, m *core.State, pl *plan) error {
	pts, cells := pl.sorted()
	pb := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(pts))), len(pts)*4)
	var cb []byte
	if len(cells) > 0 {
		cb = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(cells))), len(cells)*4)
	}
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
		grid := [3]int{(d.Cols + shepardBX*shepardPX - 1) / (shepardBX * shepardPX), (d.Rows + shepardBY - 1) / shepardBY, 1}
		return d.Dev.Launch(str, "gi_shepard_all_"+suffix, grid, block, 0, core.Struct(&p))
	}
	p.Cells = buf.Ptr + uintptr(len(pb))
	p.Gx, p.Gy, p.Cell, p.Rings = int32(pl.gx), int32(pl.gy), int32(pl.cell), int32(pl.rings)
	grid := [3]int{(d.Cols + shepardBX - 1) / shepardBX, (d.Rows + shepardBY - 1) / shepardBY, 1}
	return d.Dev.Launch(str, "gi_shepard_grid_"+suffix, grid, block, 0, core.Struct(&p))
}
