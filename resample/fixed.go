package resample

import (
	"os"
	"strings"

	"github.com/gpuimg/gpuimg/internal/core"
)

// The fixed-weight kernels (kernels/resample_resize.cu's gi_resize_lin2x_*,
// gi_resize_cub2x_* and gi_resize_cubhalf_*) compute an 8-bit resize by exactly 2
// whose taps are the same for every output pixel of a parity, without the
// general kernels' per-pixel weight tables: the plan's own tables are checked
// against the kernel's pattern once (resizeFixed), and the cubic kernels read
// their few weights from them.
//
// On the H200 (8UC3, kernel medians, each against the general kernels in the
// same call): InterLinear 1080p->4K 27.3 -> 14.3 us (lin2x); InterCubic
// 1080p->4K 35.2 -> 26.0, 4K->8K 124.0 -> 91.0 (cub2x); InterCubic 4K->1080p
// 24.6 -> 15.5, 8K->4K 81.2 -> 54.0, 1080p->540p 10.6 -> 8.3 (cubhalf).

// fixedOff holds the fixed-weight kernels switched off by GPUIMG_LIN2X=off,
// GPUIMG_CUB2X=off and GPUIMG_CUBHALF=off: their plans go to the general
// kernels (for comparisons).
var fixedOff = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range []string{"lin2x", "cub2x", "cubhalf"} {
		m[k] = os.Getenv("GPUIMG_"+strings.ToUpper(k)) == "off"
	}
	return m
}()

// resizeFixed is the fixed-weight kernel that computes the plan, "" for none
// (checked once, kept with the plan); 8U plans of OpenCV's fixed-point
// arithmetic, 1, 3 or 4 channels:
//   - "lin2x": InterLinear's enlargement by exactly 2 on both axes
//     (fixedLin2x);
//   - "cub2x": InterCubic's enlargement by exactly 2 on both axes, output i of
//     each axis reading source pixels i/2 - 2 + i%2 .. i/2 + 1 + i%2 with the
//     weights of output i%2;
//   - "cubhalf": InterCubic's shrink by exactly 2 on both axes, output i reading
//     2i - 1 .. 2i + 2 with output 0's weights.
//
// Both cubic kernels sum each axis's taps in float, so weights whose magnitudes
// sum past 2^16 (never OpenCV's cubic ones) are refused: a horizontal sum of
// 255 times them stays an exact float integer below 2^24.
func resizeFixed(pl *resizePlan) string {
	pl.fixedOnce.Do(func() {
		if pl.kind != kindSep || pl.depth != core.Depth8U || pl.arith != arFix8 || (pl.cn != 1 && pl.cn != 3 && pl.cn != 4) {
			return
		}
		switch {
		case fixedLin2x(pl):
			pl.fixed = "lin2x"
		case pl.x.n != 4 || pl.y.n != 4 || pl.simdKind != simdCubic || !smallTaps(pl.x) || !smallTaps(pl.y):
		case pl.dw == 2*pl.sw && pl.dh == 2*pl.sh && periodicTaps(pl.x, 2, cub2xStart) && periodicTaps(pl.y, 2, cub2xStart):
			pl.fixed = "cub2x"
		case periodicTaps(pl.x, 1, cubHalfStart) && periodicTaps(pl.y, 1, cubHalfStart):
			pl.fixed = "cubhalf"
		}
	})
	return pl.fixed
}

// cub2xStart and cubHalfStart are the first source pixel of output i in
// gi_resize_cub2x_* and gi_resize_cubhalf_*.
func cub2xStart(i int) int   { return i/2 - 2 + i%2 }
func cubHalfStart(i int) int { return 2*i - 1 }

// periodicTaps reports whether output i of axis a reads from start(i) with the
// weights of output i%period, for every i.
func periodicTaps(a axis, period int, start func(int) int) bool {
	if len(a.start) < period {
		return false
	}
	for i := range a.start {
		if int(a.start[i]) != start(i) {
			return false
		}
		for j := 0; j < a.n; j++ {
			if a.w[i*a.n+j] != a.w[(i%period)*a.n+j] {
				return false
			}
		}
	}
	return true
}

// smallTaps reports whether every output's weights of a have magnitudes that sum
// to less than 2^16 (see resizeFixed).
func smallTaps(a axis) bool {
	for i := 0; i < len(a.start); i++ {
		var sum float64
		for _, w := range a.w[i*a.n : (i+1)*a.n] {
			sum += max(float64(w), -float64(w))
		}
		if sum >= 1<<16 {
			return false
		}
	}
	return true
}

// fixedLin2x reports whether gi_resize_lin2x_* computes the plan: InterLinear's
// enlargement by exactly 2 on both axes, VResizeLinear's vector arithmetic for
// the whole row, and tables that are the kernel's fixed ones. Horizontally only
// the weight each source pixel gets once the taps are clamped matters (the
// horizontal sum is exact): output i takes pixel i/2 at 1536 and its neighbour
// on i's side at 512, or 2048 where that neighbour is clamped onto it.
// Vertically each tap is rounded apart, so the taps themselves must be the
// kernel's: rows i/2 - 1 and i/2 at 512 and 1536 for even i, i/2 and i/2 + 1 at
// 1536 and 512 for odd i (clamped by the kernel, as by OpenCV, which keeps the
// weights at the edges). On the H200 (same call, against gi_resize_sep8_2_c3)
// 8UC3 1080p->4K went from 27.3 to 14.3 us (NPP 50.3), 4K->8K from 94.9 to 52.2.
func fixedLin2x(pl *resizePlan) bool {
	return pl.x.n == 2 && pl.y.n == 2 && pl.simdKind == simdLinear && pl.simd == pl.dw*pl.cn &&
		pl.dw == 2*pl.sw && pl.dh == 2*pl.sh && lin2xCols(pl.x, pl.sw) && lin2xRows(pl.y)
}

// lin2xCols reports whether the horizontal taps a of an n-pixel row give each
// output pixel lin2x's weights (see fixedLin2x).
func lin2xCols(a axis, n int) bool {
	for i := 0; i < 2*n; i++ {
		near, far := i/2, min(max(i/2-1+2*(i%2), 0), n-1)
		var wn, wf float32
		for j := 0; j < 2; j++ {
			switch k, w := min(max(int(a.start[i])+j, 0), n-1), a.w[2*i+j]; {
			case k == near:
				wn += w
			case k == far:
				wf += w
			case w != 0:
				return false
			}
		}
		if near == far && wn != 2048 || near != far && (wn != 1536 || wf != 512) {
			return false
		}
	}
	return true
}

// lin2xRows reports whether the vertical taps a are lin2x's, tap by tap.
func lin2xRows(a axis) bool {
	if !periodicTaps(a, 2, func(i int) int { return i/2 - 1 + i%2 }) {
		return false
	}
	return a.w[0] == 512 && a.w[1] == 1536 && a.w[2] == 1536 && a.w[3] == 512
}

// fixedRows is a fixed-weight cubic kernel's grid height for gx block columns
// on a device that holds slots of its blocks at once: one wave of blocks, each
// block row taking an even share of the output rows (kernels/resample_resize.cu's
// fixedRows), at least two rows where even (cub2x starts each share on an even
// row), so that there is no tail, every multiprocessor has as much work, and the
// fewest source rows are computed twice (each share's first, by the share above
// too). On the H200 (8UC3, same call) two and four waves were slower: cubic
// 1080p->4K 26.2 us in one, 29.2 in two, 32.0 in four. (lin2x keeps its tiles of
// p.th rows and blocks of 128, lin2xShape: in this scheme, blocks of 64, linear
// 1080p->4K took 13.3 us against 14.3, but 8UC1 4K->8K 22.8 against 20.6.)
func fixedRows(gx, dh, slots int, even bool) int {
	rows := dh
	if even {
		rows = dh / 2
	}
	return max(1, min(slots/gx, rows, 65535))
}

// lin2xShape is gi_resize_lin2x_*'s grid width (4 output pixels a thread) and
// output rows a tile (even: a tile starts on an even row) for a device that
// holds slots of its blocks at once: tiles as tall as one wave of blocks allows,
// so that there is no tail and the fewest source rows are computed twice (each
// tile's first, by the tile above too).
func lin2xShape(dw, dh, slots int) (gx, th int) {
	gx = (dw + 4*resizeRT - 1) / (4 * resizeRT)
	gy := max(1, slots/gx)
	th = max(2, (dh+gy-1)/gy, (dh+65535-1)/65535)
	return gx, th + th%2
}

// cubHalfGroups is gi_resize_cubhalf_*'s grid width and its p.gin for a
// sw-pixel source row of cn channels and dw output pixels: groups of 4 output
// pixels 1 .. gin - 1 read their source words inside the row (group g's from
// byte 8g*cn - 8 to 8g*cn + 8cn + 8), a thread each from the first block
// column on; the last block column takes group 0 and groups gin .. (a byte at
// a time, clamped).
func cubHalfGroups(sw, dw, cn int) (gx, gin int) {
	ng := (dw + 3) / 4
	if n := sw*cn - 8*cn - 8; n >= 0 {
		gin = min(ng, n/(8*cn)+1)
	}
	return (max(0, gin-1)+resizeFT-1)/resizeFT + 1, gin
}
