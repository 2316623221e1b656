package resample

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/devcache"
)

// polyRegs are the register kernels' branch lengths, gi_resample_r8 .. r64, and
// polyPairs those of the two-outputs-a-thread kernels gi_resample_rQRp2d1 and
// p2d2 (22: resample_poly's default filter has 21 taps a branch where up >= down).
var (
	polyRegs  = []int{8, 16, 24, 32, 48, 64}
	polyPairs = []int{8, 16, 22, 24, 32}
)

// polySmem bounds the register kernels' two stages (no opt-in to larger shared
// memory).
const polySmem = 48 << 10

// polyShape is a launch of the polyphase kernels (kernels/resample_poly.cu):
// name, grid and block; for the register kernels k groups of P outputs a thread an
// item, segs items a row, per items a block, w samples a stage (of two), smem the
// two stages' bytes.
type polyShape struct {
	name                  string
	grid, block           [3]int
	k, w, segs, per, smem int
}

// polyLaunch is how a plan runs for outn outputs over rows rows: the register
// kernel of the shortest branch length that holds qn taps, two outputs a thread
// (p2dD) where their newest samples are at most 2 apart (down <= 2 up) and a
// kernel of that length has them, with blocks of at least polyThreads threads,
// P times a multiple of up, and k groups of outputs a thread an item (fewer where
// the stages would not fit or the device's blocks would get fewer than two items
// each); or gi_resample_any (a thread an output) for longer branches, up past
// polyMaxT, or a stage too large. slots is how many blocks of a kernel the device
// holds at once: the items are shared among at most that many blocks, so that
// they run in one wave, each pipelining its items.
func polyLaunch(pl *plan, outn, rows int, slots func(name string, block, smem int) int) polyShape {
	// The shortest branch length of a kernel that holds qn taps, of kernels whose
	// lengths are ls; 0 for none.
	fit := func(ls []int) int {
		for _, r := range ls {
			if pl.qn <= r {
				return r
			}
		}
		return 0
	}
	if qr := fit(polyRegs); qr > 0 {
		pn, d := 1, 0
		if q2 := fit(polyPairs); q2 > 0 && pl.down <= 2*pl.up {
			qr, pn, d = q2, 2, 1
			if pl.down > pl.up {
				d = 2
			}
		}
		// The block: a multiple of unit threads (P of them cover up outputs), each
		// group's step in samples even for P = 2 (its windows start at even offsets).
		unit := pl.up / gcd(pl.up, pn)
		t := unit * ((polyThreads + unit - 1) / unit)
		if pn == 2 && (pn*t/pl.up*pl.down)%2 != 0 {
			t *= 2
		}
		if pn == 2 && (t > polyMaxT || qr <= 24 && t > polyMaxT2) {
			qr, pn, d, t = fit(polyRegs), 1, 0, pl.up*((polyThreads+pl.up-1)/pl.up)
		}
		if t <= polyMaxT {
			name := "gi_resample_r" + strconv.Itoa(qr)
			if pn == 2 {
				name += "p2d" + strconv.Itoa(d)
			}
			win := qr
			if pn == 2 {
				win = 1 + (qr+d+2)&^1
			}
			stage := func(k int) int { return (((pn*t*k-pn)*pl.down+pl.up-1)/pl.up + win + 1) &^ 1 }
			segs := func(k int) int { return (outn + pn*t*k - 1) / (pn * t * k) }
			k := polyMaxK
			for k > 1 && 2*stage(k)*4 > polySmem {
				k--
			}
			n := max(1, slots(name, t, 2*stage(k)*4))
			for k > 1 && segs(k)*rows < 2*n {
				k--
			}
			if w := stage(k); 2*w*4 <= polySmem {
				items := segs(k) * rows
				per := (items + n - 1) / n
				return polyShape{name: name, grid: [3]int{(items + per - 1) / per, 1, 1}, block: [3]int{t, 1, 1},
					k: k, w: w, segs: segs(k), per: per, smem: 2 * w * 4}
			}
		}
	}
	return polyShape{name: "gi_resample_any", grid: [3]int{(outn + polyThreads - 1) / polyThreads, min(rows, 65535), 1},
		block: [3]int{polyThreads, 1, 1}}
}

// polyCUDA launches polyLaunch's kernel over d, with the plan's polyphase taps on
// the device (copied the first time, then kept: internal/devcache).
func polyCUDA(str core.Stream, d, s *core.State, pl *plan, t0 int64) error {
	hb := core.HostBytes(pl.h)
	size := len(hb)
	key := fmt.Sprintf("resample-poly-%d", pl.up)
	buf, err := devcache.Derived(s.Dev, str, key, [][]byte{hb}, size, func(buf *core.Buffer) error {
		return s.Dev.Copy2D(core.Copy{Dst: buf, SrcHost: hb, DstPitch: size, SrcPitch: size, Width: size, Rows: 1}, str)
	})
	if err != nil {
		return err
	}
	defer buf.Release()
	sms := core.MultiProcessors(s.Dev)
	l := polyLaunch(pl, d.Cols, s.Rows, func(name string, block, smem int) int {
		return sms * core.BlocksPerSM(s.Dev, name, block, smem, 4)
	})
	p := polyParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Rows: int32(s.Rows),
		N: int32(s.Cols), Outn: int32(d.Cols), Up: int32(pl.up), Down: int32(pl.down), Qn: int32(pl.qn),
		K: int32(l.k), W: int32(l.w), Segs: int32(l.segs), Per: int32(l.per), T0: t0, H: buf.Ptr}
	return s.Dev.Launch(str, l.name, l.grid, l.block, l.smem, core.Struct(&p))
}

// resizeSuffix names an element type in the resize kernels' names.
func resizeSuffix(d core.Depth) string {
	return map[core.Depth]string{core.Depth8U: "u8", core.Depth16U: "u16", core.Depth16S: "s16", core.Depth32F: "f32"}[d]
}

// resizeCUDA launches the plan's kernel (kernels/resample_resize.cu) with its
// tables on the device (kept for the next call with the same tables:
// internal/devcache).
func resizeCUDA(str core.Stream, d, s *core.State, pl *resizePlan) error {
	p := resizeParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Sw: int32(pl.sw), Sh: int32(pl.sh),
		Dw: int32(pl.dw), Dh: int32(pl.dh), Cn: int32(pl.cn)}
	// Scale's 8-bit plans on the tensor cores need none of the tables below
	// (the fixed-weight and tile kernels take none of Pillow's plans).
	if pl.kind == kindSep && pl.pmmaFirst() {
		if ok, err := resizePMMA(str, s, pl, p); ok {
			return err
		}
	}
	if pl.area {
		if ok, err := resizeAreaf(str, s, pl, p); ok {
			return err
		}
	}
	tabs, sum := pl.deviceTables()
	var at func(int) uintptr
	if len(tabs) > 0 {
		buf, a, err := uploadTables(s, str, "resample-resize", tabs, sum)
		if err != nil {
			return err
		}
		defer buf.Release()
		at = a
	}
	gy := func(n int) int { return min(n, 65535) }
	sfx := resizeSuffix(pl.depth)
	switch pl.kind {
	case kindGather:
		p.Xs, p.Ys = at(0), at(1)
		name, cn := gatherKernel(pl, s, d)
		p.Cn = int32(cn)
		// Each thread walks down several rows (grid-stride): its setup (the source
		// offsets, a division by cn each) is paid once for them.
		threads := (pl.dw*cn + 3) / 4
		gx := (threads + 255) / 256
		return s.Dev.Launch(str, name, [3]int{gx, gy(min(pl.dh, max(1, (8*core.MultiProcessors(s.Dev)+gx-1)/gx))), 1}, [3]int{256, 1, 1}, 0, core.Struct(&p))
	case kindAreaFast:
		p.Ix, p.Iy = int32(pl.ix), int32(pl.iy)
		if pl.round2 {
			p.Round2 = 1
		}
		// The 2x2 case: 8 output pixels a thread (4 of 32F) from 16-byte loads,
		// stored as 8 bytes (8U) or 16.
		if pl.ix == 2 && pl.iy == 2 && pl.cn != 2 && s.Aligned(16) && d.Aligned(min(16, 8*pl.depth.Size())) {
			per := 8
			if pl.depth == core.Depth32F {
				per = 4
			}
			groups := (pl.dw + per - 1) / per
			return s.Dev.Launch(str, fmt.Sprintf("gi_resize_area2_%sc%d", sfx, pl.cn), [3]int{(groups + 127) / 128, gy(pl.dh), 1}, [3]int{128, 1, 1}, 0, core.Struct(&p))
		}
		return s.Dev.Launch(str, "gi_resize_area_"+sfx, [3]int{(pl.dw*pl.cn + 255) / 256, gy(pl.dh), 1}, [3]int{256, 1, 1}, 0, core.Struct(&p))
	}
	p.Xstart, p.Xw, p.Ystart, p.Yw = at(0), at(1), at(2), at(3)
	p.Nx, p.Ny, p.Simd, p.SimdKind = int32(pl.x.n), int32(pl.y.n), int32(pl.simd), int32(pl.simdKind)
	sms := core.MultiProcessors(s.Dev)
	switch k := resizeFixed(pl); {
	case k == "" || fixedOff[k] || !d.Aligned(4):
	case k == "lin2x":
		name := fmt.Sprintf("gi_resize_lin2x_u8c%d", pl.cn)
		gx, th := lin2xShape(pl.dw, pl.dh, sms*core.BlocksPerSM(s.Dev, name, resizeRT, 0, 8))
		p.Th = int32(th)
		return s.Dev.Launch(str, name, [3]int{gx, (pl.dh + th - 1) / th, 1}, [3]int{resizeRT, 1, 1}, 0, core.Struct(&p))
	case k == "cub2x" || s.Aligned(8): // cubhalf reads 8-byte words
		name := fmt.Sprintf("gi_resize_%s_u8c%d", k, pl.cn)
		gx := (pl.dw + 4*resizeFT - 1) / (4 * resizeFT)
		if k == "cubhalf" {
			var gin int
			gx, gin = cubHalfGroups(pl.sw, pl.dw, pl.cn)
			p.Gin = int32(gin)
		}
		gy := fixedRows(gx, pl.dh, sms*core.BlocksPerSM(s.Dev, name, resizeFT, 0, 16), k == "cub2x")
		return s.Dev.Launch(str, name, [3]int{gx, gy, 1}, [3]int{resizeFT, 1, 1}, 0, core.Struct(&p))
	}
	if t, ok := pl.tileShape(sms, core.MaxSharedOptin(s.Dev)); ok && tileReadable(s) {
		p.Th, p.Fr, p.Rs, p.Ws = int32(t.th), int32(t.fr), int32(t.rs), int32(t.ws)
		grid := [3]int{(pl.dw + resizeTW - 1) / resizeTW, (pl.dh + t.th - 1) / t.th, 1}
		return s.Dev.Launch(str, t.name, grid, [3]int{resizeRT, 1, 1}, t.smem, core.Struct(&p))
	}
	if name, gx, th := resizeRegLaunch(pl, sms); name != "" {
		p.Th = int32(th)
		return s.Dev.Launch(str, name, [3]int{gx, (pl.dh + th - 1) / th, 1}, [3]int{resizeRT, 1, 1}, 0, core.Struct(&p))
	}
	return resizeTwoPass(str, s, d, pl, p, sms)
}

// uploadTables is tables (of devcache.Sum sum) one after another on s's device,
// kept for the next call with the same tables (internal/devcache) under kind,
// and at, the device address of table i. The caller releases the buffer.
func uploadTables(s *core.State, str core.Stream, kind string, tabs [][]byte, sum uint64) (buf *core.Buffer, at func(i int) uintptr, err error) {
	size := 0
	for _, t := range tabs {
		size += len(t)
	}
	buf, err = devcache.DerivedSum(s.Dev, str, kind, sum, size, func(buf *core.Buffer) error {
		off := 0
		for _, t := range tabs {
			c := core.Copy{Dst: buf, DstOff: off, SrcHost: t, DstPitch: len(t), SrcPitch: len(t), Width: len(t), Rows: 1}
			if err := s.Dev.Copy2D(c, str); err != nil {
				return err
			}
			off += len(t)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return buf, func(i int) uintptr {
		off := 0
		for _, t := range tabs[:i] {
			off += len(t)
		}
		return buf.Ptr + uintptr(off)
	}, nil
}

// gatherKernel is the gi_resize_gather_* kernel for a nearest plan from s into d
// and the channels it sees a pixel as: a pixel of 2, 4, 8 or 16 bytes (8UC2,
// 8UC4, 16UC2, 16UC4, 32FC2, 32FC4) moves as one element of that size, where both
// images' rows are aligned to it, else element by element. On the H200 (same
// call, against NPP's nppiResize) 4K->8K 8UC4 went from 150.7 to 46.6 us (NPP
// 110.7); 4 pixels of 3 channels a thread measured slower than 4 elements (32FC3
// 4K->8K 191.6 -> 234.5).
func gatherKernel(pl *resizePlan, s, d *core.State) (name string, cn int) {
	size := pl.depth.Size()
	if pb := pl.cn * size; pb <= 16 && pb&(pb-1) == 0 && pb > size && s.Aligned(pb) && d.Aligned(pb) {
		return gatherNames[pb], 1
	}
	return gatherNames[size], pl.cn
}

// gatherNames are the gi_resize_gather_* kernels by their element's bytes.
var gatherNames = map[int]string{1: "gi_resize_gather_u8", 2: "gi_resize_gather_u16", 4: "gi_resize_gather_f32",
	8: "gi_resize_gather_w8", 16: "gi_resize_gather_w16"}

// deviceTables is the plan's tables as the kernels read them (the nearest kinds'
// offsets; the separable kinds' starts and weights) and their devcache.Sum, made
// on the plan's first launch and kept with it: a plan is cached for its sizes, so
// later calls neither convert nor hash them again.
func (pl *resizePlan) deviceTables() ([][]byte, uint64) {
	pl.tabsOnce.Do(func() {
		switch pl.kind {
		case kindGather:
			pl.tabs = [][]byte{core.HostBytes(pl.xs), core.HostBytes(pl.ys)}
		case kindSep:
			pl.tabs = [][]byte{core.HostBytes(pl.x.start), core.HostBytes(pl.x.w), core.HostBytes(pl.y.start), core.HostBytes(pl.y.w)}
		}
		pl.tabsSum = devcache.Sum(pl.tabs)
	})
	return pl.tabs, pl.tabsSum
}

// tileShape is how gi_resize_tile_* computes the plan on a device of sms
// multiprocessors whose blocks may opt in to optin bytes of shared memory, and
// whether it does (tileKernel's plans; kept with the plan, made once a device
// kind). For InterArea's shrinks on the H100 (8UC3, same run) it took
// 1080p->224x224 from 16.3 to 11.7 us, 1080p by 2/3 from 20.1 to 15.9,
// 4K->224x224 from 32.2 to 23.4, and 4K by 2/3 from 47.1 to 48.3 (no gain there)
// against the register and two-pass kernels; Pillow's arithmetic (Scale)
// measured slower in it, and stays with those.
func (pl *resizePlan) tileShape(sms, optin int) (resizeTile, bool) {
	if pl.kind != kindSep {
		return resizeTile{}, false
	}
	key := [2]int{sms, optin}
	pl.tileMu.Lock()
	defer pl.tileMu.Unlock()
	t, ok := pl.tiles[key]
	if !ok {
		t = newResizeTile(pl, sms, optin)
		if pl.tiles == nil {
			pl.tiles = map[[2]int]resizeTile{}
		}
		pl.tiles[key] = t
	}
	return t, t.th > 0
}

// tileKernel is the gi_resize_tile_* kernel that computes the plan, "" for none
// (1, 3 or 4 channels of 8U): InterArea's shrinks by other than whole factors
// (OpenCV's float arithmetic, gi_resize_tile_f_u8cN), and of the fixed-point
// plans (gi_resize_tile_x8_K_u8cN) Lanczos4's (8 taps) and cubic shrinks (4
// taps; VResizeCubicVec_32s8u's rounding, as gi_resize_sep8_4_*), cubic
// enlargements included. On the H100 (8UC3, same run, against the register
// kernels) Lanczos4 4K->1080p went from 59.7 to 40.7 us, 1080p->4K from 115.2
// to 75.9, cubic 4K->1080p from 31.0 to 28.1, 8K->4K from 112.6 to 96.4 and
// 1080p by 2/3 from 16.9 to 13.3. Linear (2 taps) measured slower in it
// (1080p->4K 39.8 against 27.2 us) and stays with sep8, as do steep shrinks
// (below). Cubic enlargements stayed with sep8 too (4K->8K 155.5 against 150.0)
// until the tiles' cheaper staging (b347967): on the H200 (2026-11-29, same run,
// two runs each) cubic 1080p->4K went from 46.1-46.6 to 37.3-37.4 us, 4K->8K
// from 149.3 to 134.4-134.5 and 640x480 x2 from 18.7 to 10.5.
func (pl *resizePlan) tileKernel() string {
	if pl.kind != kindSep || pl.depth != core.Depth8U || (pl.cn != 1 && pl.cn != 3 && pl.cn != 4) {
		return ""
	}
	if pl.arith == arFloat {
		return fmt.Sprintf("gi_resize_tile_f_u8c%d", pl.cn)
	}
	if pl.arith != arFix8 || pl.x.n != pl.y.n || (pl.x.n != 8 && (pl.x.n != 4 || pl.simdKind != simdCubic)) {
		return ""
	}
	// Shrinks steeper than 3x (cubic) or 4x (Lanczos4) on either axis stay with
	// the register kernels: the stage would copy mostly bytes that no tap reads
	// (1080p by 0.125: Lanczos4 8UC4 17.3 against 12.8 us, cubic 8UC1 11.9
	// against 10.0, BenchmarkCUDAResize on the H100).
	lim := 3
	if pl.x.n == 8 {
		lim = 4
	}
	if pl.sw >= lim*pl.dw || pl.sh >= lim*pl.dh {
		return ""
	}
	return fmt.Sprintf("gi_resize_tile_x8_%d_u8c%d", pl.x.n, pl.cn)
}

// resizeTile is a gi_resize_tile_* launch: the kernel's name (tileKernel's), th
// output rows a block, staging at most fr source rows rs bytes apart and its
// pixels' horizontal weights ws apart, smem bytes of shared memory a block
// (kernels/resample_resize.cu's tile lays them out); th 0: no tile kernel takes
// the plan.
type resizeTile struct {
	name                 string
	th, fr, rs, ws, smem int
}

// resizeTileSmem is the shared memory a tile kernel's block aims at (several
// blocks a multiprocessor); a tile of one row may take up to resizeTileMax.
const (
	resizeTileSmem = 32 << 10
	resizeTileMax  = 96 << 10
)

// newResizeTile picks the most rows a block whose shared memory stays within
// resizeTileSmem and whose grid has at least 4 blocks a multiprocessor (fewer
// rows a block repeat more of the source rows their tiles share), else one row
// within resizeTileMax, else none.
func newResizeTile(pl *resizePlan, sms, optin int) resizeTile {
	name := pl.tileKernel()
	if name == "" {
		return resizeTile{}
	}
	for _, a := range []axis{pl.x, pl.y} {
		for i := 1; i < len(a.start); i++ {
			if a.start[i] < a.start[i-1] {
				return resizeTile{}
			}
		}
	}
	nb := 0 // the most bytes a tile's source rows span
	for x0 := 0; x0 < pl.dw; x0 += resizeTW {
		last := min(x0+resizeTW, pl.dw) - 1
		cs := min(max(int(pl.x.start[x0]), 0), pl.sw-1)
		nb = max(nb, (min(pl.sw, int(pl.x.start[last])+pl.x.n)-cs)*pl.cn)
	}
	// Room for the span's alignment, its last vector and the word-wise reads
	// past its end.
	rs := (nb + 48 + 15) / 16 * 16
	// A pixel's weights: for the fixed-point kernels half as many words as taps
	// (their bytes split as the kernel sums them, kernels/resample_resize.cu's
	// tileStage), else whole 16-byte groups, an odd number of them.
	ws := pl.x.n / 2
	if pl.arith != arFix8 {
		ws = (pl.x.n + 3) / 4 * 4
		if ws/4%2 == 0 {
			ws += 4
		}
	}
	shape := func(th int) resizeTile {
		fr := 0
		for y0 := 0; y0 < pl.dh; y0 += th {
			last := min(y0+th, pl.dh) - 1
			fr = max(fr, int(pl.y.start[last])+pl.y.n-int(pl.y.start[y0]))
		}
		// stage, mid, wx, wy, ry, al
		smem := fr*rs + 4*(fr*resizeTW*pl.cn+resizeTW*ws+th*pl.y.n+th+fr)
		return resizeTile{name: name, th: th, fr: fr, rs: rs, ws: ws, smem: smem}
	}
	gx := (pl.dw + resizeTW - 1) / resizeTW
	// At most resizeThMax rows: tileStage stages the fixed-point rows' weights a
	// thread a row, in the block's threads past its first GI_RESIZE_TW.
	for _, th := range []int{resizeThMax, 48, 32, 24, 16, 12, 8, 6, 4, 3, 2} {
		if t := shape(th); th < pl.dh && t.smem <= resizeTileSmem && gx*((pl.dh+th-1)/th) >= 4*sms && (pl.dh+th-1)/th <= 65535 {
			return t
		}
	}
	if t := shape(1); t.smem <= min(max(optin, 48<<10), resizeTileMax) && pl.dh <= 65535 {
		return t
	}
	return resizeTile{}
}

// tileReadable reports whether the tile kernel may read s's rows in whole
// 16-byte vectors: the vector that holds any of its bytes lies in its
// allocation (16-byte aligned, and the last row's last vector inside).
func tileReadable(s *core.State) bool {
	if s.Buf == nil || s.Buf.Ptr%16 != 0 {
		return false
	}
	end := s.Ptr() + uintptr((s.Rows-1)*s.Pitch+s.Cols*s.Depth.Size()*s.Chans)
	return (end+15)/16*16 <= s.Buf.Ptr+uintptr(s.Buf.Size)
}

// resizeStageMax is the most shared memory the horizontal pass stages its
// weights in (the default limit, no opt-in).
const resizeStageMax = 48 << 10

// resizeTwoPass runs a separable plan of more than 8 taps an axis as Pillow does:
// the horizontal pass of every source row into an intermediate image of the
// output's width (8-bit for Pillow's arithmetic, float sums otherwise), then the
// vertical pass from it (resizeHKernel's, then gi_resize_v_*). The intermediate
// comes from the device's allocation cache.
func resizeTwoPass(str core.Stream, s, d *core.State, pl *resizePlan, p resizeParams, sms int) error {
	mid, ve := 4, resizeVEF
	if pl.arith == arPillow {
		mid, ve = 1, resizeVE8
	}
	pitch := (pl.dw*pl.cn*mid + 255) / 256 * 256 // whole vectors for the vertical pass's loads
	buf, err := s.Dev.Alloc(pitch * pl.sh)
	if err != nil {
		return err
	}
	defer buf.Release()
	buf.Touch(str)
	name := func(pass string) string {
		return fmt.Sprintf("gi_resize_%s_%s_%s", pass, resizeMode(pl), resizeSuffix(pl.depth))
	}
	// As many blocks as the multiprocessors hold at once (one wave, no tail), each
	// walking down its share of rows. (It was 16 blocks a multiprocessor: where
	// fewer fit, as for the staged weights of Scale's 4K -> 256x144 Lanczos3 (4),
	// that ran in waves; that case went from 113.6 to 93.8 us on the H200.)
	gy := func(kernel string, gx, rows, smem int) int {
		return min(rows, max(1, core.BlocksPerSM(s.Dev, kernel, resizeRT, smem, 16)*sms/gx), 65535)
	}
	h := p
	h.Dst, h.Dp, h.Dh = buf.Ptr, int32(pitch), int32(pl.sh)
	hk, elem, words := resizeHKernel(pl, s.Buf != nil && s.Buf.Ptr%4 == 0)
	hn := pl.dw
	if elem {
		hn = pl.dw * pl.cn
	}
	ws := 0 // gi_resize_hw_* keeps its weights in registers
	if !words {
		ws = pl.x.n | 1 // odd: the staged weights' rows fall in different banks
		if resizeRT*ws*4 > resizeStageMax {
			ws = 0
		}
	}
	h.Ws = int32(ws)
	gx := (hn + resizeRT - 1) / resizeRT
	if err := s.Dev.Launch(str, hk, [3]int{gx, gy(hk, gx, pl.sh, resizeRT*ws*4), 1}, [3]int{resizeRT, 1, 1}, resizeRT*ws*4, core.Struct(&h)); err != nil {
		return err
	}
	v := p
	v.Src, v.Sp = buf.Ptr, int32(pitch)
	vx := (pl.dw*pl.cn + resizeRT*ve - 1) / (resizeRT * ve)
	return s.Dev.Launch(str, name("v"), [3]int{vx, gy(name("v"), vx, pl.dh, 0), 1}, [3]int{resizeRT, 1, 1}, 0, core.Struct(&v))
}

// resizeHKernel is the two passes' horizontal kernel for the plan, whether it
// runs a thread an output element (else a pixel), and whether it reads its taps
// as words (its weights in registers, else staged in shared memory where they fit):
//   - for steep shrinks of 3 or 4 channels (16x and more) gi_resize_he_*, a thread
//     an element: a thread a pixel would spread a warp's loads of one tap over
//     many cache lines (on the H100 from about 16x);
//   - for Pillow's arithmetic on 8U of 1, 3 or 4 channels and at most K = 16 or 32
//     taps, gi_resize_hw_p_K_u8cN, which reads a pixel's taps as whole words (so
//     its source's allocation must be 4-byte aligned: words4) and sums them with
//     dp4a;
//   - else gi_resize_h_*, which reads them one element at a time.
func resizeHKernel(pl *resizePlan, words4 bool) (name string, elem, words bool) {
	switch {
	case pl.cn >= 3 && pl.sw >= 16*pl.dw:
		return fmt.Sprintf("gi_resize_he_%s_%s", resizeMode(pl), resizeSuffix(pl.depth)), true, false
	case words4 && pl.arith == arPillow && pl.depth == core.Depth8U && pl.cn != 2 && pl.cn <= 4 && pl.x.n <= 32:
		return fmt.Sprintf("gi_resize_hw_p_%d_u8c%d", 16*((pl.x.n+15)/16), pl.cn), false, true
	}
	return fmt.Sprintf("gi_resize_h_%s_%s", resizeMode(pl), resizeSuffix(pl.depth)), false, false
}

func resizeMode(pl *resizePlan) string {
	return map[arith]string{arFloat: "f", arFix8: "x8", arExact: "ex", arPillow: "p"}[pl.arith]
}

// resizeRegKernel is the register kernel for a separable plan (gi_resize_reg_*):
// the fewest taps K of those built for its arithmetic and depth that hold both
// axes' (at most 8), and the elements a thread, E; none ("") for longer filters,
// which the two passes take (on the H100 register kernels of 16 and 32 taps
// were 5-30 times slower than a staged kernel: too few rows a tile to share
// their sums). The 8-bit OpenCV and Pillow kernels also come for 1, 3 and 4
// channels (suffix cN: the taps' offsets are constants there).
func resizeRegKernel(pl *resizePlan) (name string, k, e int) {
	if resizeSep8(pl) {
		name := fmt.Sprintf("gi_resize_sep8_%d_c%d", pl.x.n, pl.cn)
		if pl.x.n == 4 && pl.dh < pl.sh {
			return name + "e2", 4, 2
		}
		return name, pl.x.n, 4
	}
	n := max(pl.x.n, pl.y.n)
	var ks []int
	switch pl.arith {
	case arFix8:
		ks = []int{n} // 2, 4 or 8: linear, cubic, Lanczos4
	case arExact:
		ks = []int{2, 4}
	case arPillow:
		// 8 taps only for enlargements: a shrink of 5 to 8 taps was faster in
		// the two passes (bicubic 1080p->540p 8UC3 18.7 us against 24.1, 4K->1080p
		// 58.5 against 58.7, H100, 2026-12-07).
		ks = []int{4}
		if pl.dw >= pl.sw && pl.dh >= pl.sh {
			ks = []int{4, 8}
		}
	default:
		ks = []int{2, 4, 8}
		if pl.depth == core.Depth8U {
			ks = []int{4, 8}
		}
	}
	for _, k := range ks {
		if n <= k {
			name := fmt.Sprintf("gi_resize_reg_%s_%d_%s", resizeMode(pl), k, resizeSuffix(pl.depth))
			if (pl.arith == arFix8 || pl.arith == arPillow) && pl.cn != 2 || float3Lanczos(pl, k) {
				name += fmt.Sprintf("c%d", pl.cn)
			}
			return name, k, resizeElems(pl.arith, k)
		}
	}
	return "", 0, 0
}

// float3Lanczos reports whether a float plan of k taps is a Lanczos4 enlargement
// of 3 channels of 16U, 16S or 32F, which the kernel for 3 channels (its taps 3
// elements apart at immediate offsets) computes faster: on the H200 (same call)
// 16UC3 1080p->4K 169 -> 126 us (NPP 146), 4K->8K 570 -> 414 (NPP 546), 32FC3
// 1080p->4K 137 -> 124. Cubic, linear and the shrinks were slower in it (cubic
// 4K->1080p 16UC3 47.1 -> 58.4, Lanczos4 by 1/2 32FC3 85.3 -> 94.2).
func float3Lanczos(pl *resizePlan, k int) bool {
	return pl.arith == arFloat && pl.depth != core.Depth8U && pl.cn == 3 && k == 8 && pl.dw >= pl.sw && pl.dh >= pl.sh
}

// resizeRegLaunch is the register kernel for the plan (resizeRegKernel's; ""
// for none) on a device of sms multiprocessors, its blocks a row of tiles and
// its output rows a tile. A float plan of 4 or 8 taps (16U, 16S and 32F cubic
// and Lanczos4) whose tiles would be shorter than 4 rows takes the kernel of an
// element a thread (f1), whose tiles are 4 times as tall for as many threads:
// fewer source rows summed twice. On the H200 (same call, against E = 4 or 2)
// cubic 1080p->540p 32FC1 went from 20.7 to 8.9 us (NPP 12.0), 4K->1080p from
// 42.0 to 22.6 (NPP 29.9), Lanczos4 1080p by 2/3 16UC1 from 41.0 to 19.1 (NPP
// 28.4); linear's 2 taps were slower so (2/3 32FC1 4K 16.2 -> 28.3).
func resizeRegLaunch(pl *resizePlan, sms int) (name string, gx, th int) {
	name, k, e := resizeRegKernel(pl)
	if name == "" {
		return "", 0, 0
	}
	rows := func() {
		gx = (pl.dw*pl.cn + resizeRT*e - 1) / (resizeRT * e)
		th = resizeRegRows(name, pl.dh, gx, e, sms, pl.dh < pl.sh)
	}
	rows()
	if th < 4 && k >= 4 && pl.depth != core.Depth8U && strings.HasPrefix(name, "gi_resize_reg_f_") && !float3Lanczos(pl, k) {
		name, e = strings.Replace(name, "_f_", "_f1_", 1), 1
		rows()
	}
	return name, gx, th
}

// resizeSep8 reports whether gi_resize_sep8_* computes the plan: kFix8's 2 taps
// (VResizeLinear's arithmetic) or 4 (cubic) on both axes, 1, 3 or 4 channels,
// tiles of at most GI_RESIZE_THMAX rows. Its linear arithmetic leaves out
// VResizeLinear's clamps, so it takes only weights that cannot reach them:
// non-negative, each pair summing to at most 2050 (OpenCV's linear and enlarging
// area weights are pairs rounded from fractions of 2048).
func resizeSep8(pl *resizePlan) bool {
	if pl.depth != core.Depth8U || pl.arith != arFix8 || pl.cn == 2 || pl.cn > 4 || pl.x.n != pl.y.n ||
		pl.dh > resizeThMax*65535 {
		return false
	}
	switch {
	case pl.x.n == 4:
		return pl.simdKind == simdCubic
	case pl.x.n != 2 || pl.simdKind != simdLinear:
		return false
	}
	for _, a := range []axis{pl.x, pl.y} {
		for i := 0; i+1 < len(a.w); i += 2 {
			if a.w[i] < 0 || a.w[i+1] < 0 || a.w[i]+a.w[i+1] > 2050 {
				return false
			}
		}
	}
	return true
}

// resizeElems is how many output elements (GI_RESIZE_RT apart) a register kernel
// thread computes for K taps (kernels/resample_resize.cu's instantiations,
// measured on the H100: the 8-bit cubic and Pillow kernels gain from more threads
// than registers hold sums for four elements).
func resizeElems(a arith, k int) int {
	switch {
	case k <= 2 || (k <= 4 && a != arFix8 && a != arPillow):
		return 4
	}
	return 2
}

// resizeRegRows is the output rows a register kernel's thread walks down: at most
// GI_RESIZE_THMAX (each tile recomputes the K-1 source rows it shares with the
// tile above), few enough blocks for the grid, and enough blocks for 16 a
// multiprocessor, or for the sep8 kernels (gx blocks a row of tiles) rows for as
// many tiles as fill two waves and more of the blocks their launch bounds hold
// (kernels/resample_params.h's GI_RESIZE_SEP8_BLOCKS; measured on the H100).
// The 2-tap shrinks (shrink: fewer output rows than source rows) take one wave
// of tiles where it holds them within GI_RESIZE_THMAX rows (a tile's first
// output rows recompute the source row it shares with the tile above, a larger
// share of a short tile; H100, 8UC3 by 2/3, same run: 1080p 10.2 -> 8.8 us, 4K
// 23.2 -> 21.6); past that (8K by 2/3: 1.02 waves, 85 -> 126 us) and for
// enlargements (slower so) two.
func resizeRegRows(name string, dh, gx, e, sms int, shrink bool) int {
	var th int
	if strings.HasPrefix(name, "gi_resize_sep8_") {
		// rows(per) is the rows a tile for per tiles a multiprocessor.
		rows := func(per int) int {
			tiles := max(1, per*sms/gx)
			return (dh + tiles - 1) / tiles
		}
		per := 20 // 2 x 10 blocks of gi_resize_sep8_2_*, 2.5 x 8 of gi_resize_sep8_4_*
		if e == 2 {
			per = 36 // 3 x 12 of gi_resize_sep8_4_*e2
		}
		if shrink && strings.HasPrefix(name, "gi_resize_sep8_2_") {
			// One wave: 10 blocks a multiprocessor (GI_RESIZE_SEP8_BLOCKS).
			if th1 := min(resizeThMax, rows(10)); gx*((dh+th1-1)/th1) <= 10*sms {
				per = 10
			}
		}
		th = rows(per)
	} else {
		th = dh * gx / (16 * sms)
	}
	th = max(1, min(resizeThMax, th))
	return max(th, (dh+65534)/65535)
}

// pyrCUDA launches gi_pyrdown_* (kernels/resample_pyr.cu): a thread an output
// element, the rows spread over the grid's second axis.
func pyrCUDA(str core.Stream, d, s *core.State, pl *pyrPlan) error {
	p := pyrParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Sw: int32(pl.sw), Sh: int32(pl.sh),
		Dw: int32(pl.dw), Dh: int32(pl.dh), Cn: int32(pl.cn), Border: int32(pl.border), Width0: int32(min((pl.sw-3)/2+1, pl.dw))}
	grid := [3]int{(pl.dw*pl.cn + 255) / 256, min(pl.dh, 65535), 1}
	return s.Dev.Launch(str, "gi_pyrdown_"+resizeSuffix(s.Depth), grid, [3]int{256, 1, 1}, 0, core.Struct(&p))
}
