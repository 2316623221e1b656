package resample

import (
	"fmt"
	"os"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/devcache"
)

// Scale's 8-bit passes on the tensor cores (kernels/resample_pmma.cu's
// gi_resize_mma_p_KS): each pass is a product of a banded matrix of Pillow's
// weights, split into three signed-byte digits, with the rows of a byte matrix,
// written transposed, so the horizontal pass writes the intermediate a column a
// row and the vertical pass reads it so. This file builds the weights' operand
// tables (per tile of 16 outputs: its first byte and the mma A fragments of each
// step of 32 bytes and digit), decides which plans take the kernels, and
// launches the two passes.

// pmmaAlign is the alignment of a tile's first byte (a0): the kernels' loads
// are 8 bytes.
const pmmaAlign = 8

// pmmaSlot is where byte k of a tile's span (from its a0) lies in the kernels'
// mma operands: k-step s, in the lane of index t in its group of 4 (lanes
// 4g + t), columns 16 and up of the step (hi 1) or not, byte i of the register:
// lane t's 8 bytes 32s + 8t .. + 7 of a step are its columns 4t..4t+3, then
// 16+4t..16+4t+3 (the kernel's one 8-byte load).
func pmmaSlot(k int) (s, t, hi, i int) {
	r := k % 32
	return k / 32, r / 8, (r % 8) / 4, r % 4
}

// pmmaMaxKS is the most steps of 32 bytes a tile of the kernels spans
// (gi_resize_mma_p_1 .. _4).
const pmmaMaxKS = 4

// pmmaMode is GPUIMG_PMMA: "off" keeps Scale's 8-bit plans on the other kernels
// (for comparisons), "all" sends every plan the kernels can take to them, else
// those of more than 4 taps an axis (pmmaFirst).
var pmmaMode = os.Getenv("GPUIMG_PMMA")

// pmmaPass is one pass's operand tables: each tile's first byte a0 (a multiple
// of 8) and the tiles' A fragments, as words ((tile*ks + s)*3 + digit)*128 +
// lane*4 + reg, for ks steps of 32 bytes a tile.
type pmmaPass struct {
	ks    int
	a0    []int32
	frags []uint32
}

// pmmaTables are a plan's two passes for a source whose rows start off bytes
// past a multiple of 8, and their devcache.Sum.
type pmmaTables struct {
	h, v pmmaPass
	sum  uint64
}

// pmmaDigits splits a weight w into the signed bytes d0 + 256 d1 + 65536 d2, and
// reports whether they fit.
func pmmaDigits(w int32) ([3]int8, bool) {
	d0 := int8(w)
	w1 := (w - int32(d0)) >> 8
	d1 := int8(w1)
	d2 := (w1 - int32(d1)) >> 8
	return [3]int8{d0, d1, int8(d2)}, d2 >= -128 && d2 <= 127
}

// newPMMAPass builds the tables of a pass over an axis of Pillow's integer
// weights (a.start, a.w) whose outputs are its pixels' cn channels, the taps of
// output m = pixel*cn + c lying at bytes off + (start + j)*cn + c of X's rows
// (which have off + n*cn bytes: n source pixels). It reports false where a tile
// spans more than pmmaMaxKS steps, a weight does not fit three digits, or a
// weighted tap lies outside the row.
func newPMMAPass(a axis, cn, n, off int) (pmmaPass, bool) {
	outs := len(a.start) * cn
	tiles := (outs + 15) / 16
	first, last := make([]int, tiles), make([]int, tiles)
	for i := range first {
		first[i], last[i] = -1, -1
	}
	// tap calls f for each weighted tap of output m: its byte and weight.
	tap := func(m int, f func(b int, w int32) bool) bool {
		px, c := m/cn, m%cn
		for j := 0; j < a.n; j++ {
			w := int32(a.w[px*a.n+j])
			if w == 0 {
				continue
			}
			if x := int(a.start[px]) + j; x < 0 || x >= n {
				return false
			}
			if !f(off+(int(a.start[px])+j)*cn+c, w) {
				return false
			}
		}
		return true
	}
	for m := range outs {
		t := m / 16
		if !tap(m, func(b int, w int32) bool {
			if first[t] < 0 || b < first[t] {
				first[t] = b
			}
			last[t] = max(last[t], b)
			_, ok := pmmaDigits(w)
			return ok
		}) {
			return pmmaPass{}, false
		}
	}
	p := pmmaPass{ks: 1, a0: make([]int32, tiles)}
	for t := range tiles {
		if first[t] < 0 {
			first[t], last[t] = off, off
		}
		p.a0[t] = int32(first[t] &^ (pmmaAlign - 1))
		p.ks = max(p.ks, (last[t]-int(p.a0[t]))/32+1)
	}
	if p.ks > pmmaMaxKS {
		return pmmaPass{}, false
	}
	p.frags = make([]uint32, tiles*p.ks*3*128)
	for m := range outs {
		t, r := m/16, m%16
		tap(m, func(b int, w int32) bool {
			s, lt, hi, i := pmmaSlot(b - int(p.a0[t]))
			// Row r of A is lane 4*(r%8) + lt's register r/8 (+ 2 for columns
			// 16 and up: hi).
			lane, reg := 4*(r%8)+lt, r/8+2*hi
			d, _ := pmmaDigits(w)
			for dg := range 3 {
				p.frags[((t*p.ks+s)*3+dg)*128+lane*4+reg] |= uint32(uint8(d[dg])) << (8 * i)
			}
			return true
		})
	}
	return p, true
}

// pmmaOK reports whether the kernels can take the plan at all: Pillow's 8-bit
// arithmetic, both axes resampled (a pass Pillow skips is a copy the other
// kernels do better).
func (pl *resizePlan) pmmaOK() bool {
	return pmmaMode != "off" && pl.arith == arPillow && pl.depth == core.Depth8U && pl.dw != pl.sw && pl.dh != pl.sh
}

// pmmaFirst reports whether the plan tries the tensor-core passes before the
// register kernels: Scale's 8-bit plans but the shrinks of at most 4 taps an
// axis, where gi_resize_reg_p_4_* was faster (H100, 2026-12-07, 8UC3: bilinear
// 4K -> 1080p 33.9 against 35.8 us; the passes' bicubic 1080p -> 4K 43.3 against
// 65.5, Lanczos3 4K -> 1080p 40.8 against 69.3).
func (pl *resizePlan) pmmaFirst() bool {
	enlarge := pl.dw > pl.sw && pl.dh > pl.sh
	return pl.pmmaOK() && (pmmaMode == "all" || enlarge || max(pl.x.n, pl.y.n) > 4)
}

// pmma is the plan's tables for a source whose rows start off bytes past a
// multiple of 8 (made once for each off, kept with the plan), nil where a pass
// spans more than the kernels take.
func (pl *resizePlan) pmma(off int) *pmmaTables {
	pl.pmmaMu.Lock()
	defer pl.pmmaMu.Unlock()
	if t, ok := pl.pmmaTabs[off]; ok {
		return t
	}
	if pl.pmmaTabs == nil {
		pl.pmmaTabs = map[int]*pmmaTables{}
	}
	var t *pmmaTables
	h, okh := newPMMAPass(pl.x, pl.cn, pl.sw, off)
	v, okv := newPMMAPass(pl.y, 1, pl.sh, 0)
	if okh && okv {
		t = &pmmaTables{h: h, v: v}
		t.sum = devcache.Sum(t.pieces())
	}
	pl.pmmaTabs[off] = t
	return t
}

// pieces is the tables as the device holds them, one after another.
func (t *pmmaTables) pieces() [][]byte {
	return [][]byte{core.HostBytes(t.h.frags), core.HostBytes(t.v.frags), core.HostBytes(t.h.a0), core.HostBytes(t.v.a0)}
}

// pmmaRows is the rows of X a block row of a pass walks: a multiple of 32, as
// few as give 4 waves of the blocks of 4 warps the multiprocessors hold (perSM
// a multiprocessor). On the H100 (2026-12-07 16:02Z, two runs each in one call,
// 1 -> 4 waves) 4K -> 1080p Lanczos3 8UC3 went from 41.3 / 40.8 to 39.7 / 40.1
// us, 8UC4 52.8 -> 50.4, Lanczos3 4K -> 8K 161 -> 146; the 1080p sources within
// 0.5.
func pmmaRows(tiles, rows, sms, perSM int) int {
	gx := (tiles + 3) / 4
	chunks := max(1, 4*perSM*sms/gx)
	th := (rows + chunks - 1) / chunks
	th = (th + 31) / 32 * 32
	return max(th, 32*((rows+32*65535-1)/(32*65535)))
}

// resizePMMA runs the two passes of a plan that pmmaFirst takes on the tensor
// cores where the device (compute capability 8.0 and newer), the source's rows
// (pitch a multiple of 8) and the plan's spans allow, reporting whether it did.
func resizePMMA(str core.Stream, s *core.State, pl *resizePlan, p resizeParams) (bool, error) {
	if major, _ := core.ComputeCapability(s.Dev); major < 8 || s.Pitch%pmmaAlign != 0 {
		return false, nil
	}
	off := int(s.Ptr() % pmmaAlign)
	t := pl.pmma(off)
	if t == nil {
		return false, nil
	}
	buf, at, err := uploadTables(s, str, "resample-pmma", t.pieces(), t.sum)
	if err != nil {
		return true, err
	}
	defer buf.Release()
	// The intermediate: a row of each of the dw*cn output columns of the
	// horizontal pass, sh bytes (the source rows) long.
	mids := pl.dw * pl.cn
	mp := (pl.sh + 31) / 32 * 32
	mid, err := s.Dev.Alloc(mp * mids)
	if err != nil {
		return true, err
	}
	defer mid.Release()
	mid.Touch(str)
	sms := core.MultiProcessors(s.Dev)
	launch := func(ps pmmaPass, q resizeParams, frags, a0 uintptr) error {
		tiles := len(ps.a0)
		q.Xstart, q.Xw = a0, frags
		name := fmt.Sprintf("gi_resize_mma_p_%d", ps.ks)
		q.Th = int32(pmmaRows(tiles, int(q.Sh), sms, core.BlocksPerSM(s.Dev, name, 128, 0, 16)))
		grid := [3]int{(tiles + 3) / 4, (int(q.Sh) + int(q.Th) - 1) / int(q.Th), 1}
		return s.Dev.Launch(str, name, grid, [3]int{128, 1, 1}, 0, core.Struct(&q))
	}
	h := resizeParams{Src: s.Ptr() - uintptr(off), Sp: p.Sp, Dst: mid.Ptr, Dp: int32(mp),
		Sw: int32(off + pl.sw*pl.cn), Sh: int32(pl.sh), Dw: int32(mids)}
	if err := launch(t.h, h, at(0), at(2)); err != nil {
		return true, err
	}
	v := resizeParams{Src: mid.Ptr, Sp: int32(mp), Dst: p.Dst, Dp: p.Dp, Sw: int32(pl.sh), Sh: int32(mids), Dw: int32(pl.dh)}
	return true, launch(t.v, v, at(1), at(3))
}
