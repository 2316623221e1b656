package resample

import (
	"fmt"
	"testing"

	"github.com/gpuimg/gpuimg/internal/core"
)

// resizeFixed takes exactly the plans the fixed-weight kernels compute: 8-bit
// InterLinear and InterCubic enlargements by 2 on both axes (by scale or by
// size) and InterCubic shrinks by 2, 1, 3 or 4 channels, from 1x1 up; not 2
// channels, other depths, other arithmetic or interpolations, other factors, or
// tables edited away from the kernel's pattern.
func TestResizeFixedPlans(t *testing.T) {
	x2 := func(sw, sh, cn int, depth core.Depth, in Interpolation) *resizePlan {
		return newResizePlan(sw, sh, 2*sw, 2*sh, cn, depth, 2, 2, in)
	}
	half := func(sw, sh, cn int, depth core.Depth, in Interpolation) *resizePlan {
		return newResizePlan(sw, sh, sw/2, sh/2, cn, depth, 0.5, 0.5, in)
	}
	for _, c := range []struct {
		name string
		pl   *resizePlan
		want string
	}{
		{"linear 1x1 8UC1", x2(1, 1, 1, core.Depth8U, InterLinear), "lin2x"},
		{"linear 2x1 8UC3", x2(2, 1, 3, core.Depth8U, InterLinear), "lin2x"},
		{"linear 5x3 8UC4", x2(5, 3, 4, core.Depth8U, InterLinear), "lin2x"},
		{"linear 451x300 8UC3", x2(451, 300, 3, core.Depth8U, InterLinear), "lin2x"},
		{"linear 1920x1080 8UC3", x2(1920, 1080, 3, core.Depth8U, InterLinear), "lin2x"},
		{"linear 8UC2", x2(40, 30, 2, core.Depth8U, InterLinear), ""},
		{"linear 16UC3", x2(40, 30, 3, core.Depth16U, InterLinear), ""},
		{"linear 32FC1", x2(40, 30, 1, core.Depth32F, InterLinear), ""},
		{"linear exact", x2(40, 30, 3, core.Depth8U, InterLinearExact), ""},
		{"area x2", x2(40, 30, 3, core.Depth8U, InterArea), ""},
		{"lanczos4 x2", x2(40, 30, 3, core.Depth8U, InterLanczos4), ""},
		{"linear x2 by 1.5", newResizePlan(40, 30, 80, 45, 3, core.Depth8U, 2, 1.5, InterLinear), ""},
		{"linear x2.5", newResizePlan(40, 30, 100, 75, 3, core.Depth8U, 2.5, 2.5, InterLinear), ""},
		{"linear x2 with other inverse scales", newResizePlan(40, 30, 80, 60, 3, core.Depth8U, 2.01, 2.01, InterLinear), ""},
		{"cubic 1x1 8UC1", x2(1, 1, 1, core.Depth8U, InterCubic), "cub2x"},
		{"cubic 5x3 8UC4", x2(5, 3, 4, core.Depth8U, InterCubic), "cub2x"},
		{"cubic 1920x1080 8UC3", x2(1920, 1080, 3, core.Depth8U, InterCubic), "cub2x"},
		{"cubic x2 8UC2", x2(40, 30, 2, core.Depth8U, InterCubic), ""},
		{"cubic x2 16UC1", x2(40, 30, 1, core.Depth16U, InterCubic), ""},
		{"cubic x2 by 1.5", newResizePlan(40, 30, 80, 45, 3, core.Depth8U, 2, 1.5, InterCubic), ""},
		{"cubic x2 with other inverse scales", newResizePlan(40, 30, 80, 60, 3, core.Depth8U, 2.01, 2.01, InterCubic), ""},
		{"cubic 2x2 to 1x1 8UC3", half(2, 2, 3, core.Depth8U, InterCubic), "cubhalf"},
		{"cubic 3840x2160 to 1080p 8UC3", half(3840, 2160, 3, core.Depth8U, InterCubic), "cubhalf"},
		{"cubic 902x602 half 8UC1", half(902, 602, 1, core.Depth8U, InterCubic), "cubhalf"},
		{"cubic 40x30 half 8UC4", half(40, 30, 4, core.Depth8U, InterCubic), "cubhalf"},
		{"cubic 41x31 by 0.5", half(41, 31, 3, core.Depth8U, InterCubic), "cubhalf"},
		{"cubic 41x30 to 20x15", newResizePlan(41, 30, 20, 15, 3, core.Depth8U, 20.0/41, 0.5, InterCubic), ""},
		{"cubic half 8UC2", half(40, 30, 2, core.Depth8U, InterCubic), ""},
		{"cubic half 32FC3", half(40, 30, 3, core.Depth32F, InterCubic), ""},
		{"cubic by 1/3", newResizePlan(60, 30, 20, 10, 3, core.Depth8U, 1.0/3, 1.0/3, InterCubic), ""},
		{"linear half (area)", half(40, 30, 3, core.Depth8U, InterLinear), ""},
	} {
		if got := resizeFixed(c.pl); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		name string
		pl   func() *resizePlan
		edit func(pl *resizePlan)
	}{
		{"linear: a horizontal weight", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterLinear) },
			func(pl *resizePlan) { pl.x.w[6], pl.x.w[7] = 1535, 513 }},
		{"linear: a horizontal start", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterLinear) },
			func(pl *resizePlan) { pl.x.start[9]++ }},
		{"linear: a vertical weight", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterLinear) },
			func(pl *resizePlan) { pl.y.w[4], pl.y.w[5] = 513, 1535 }},
		{"linear: the first row's start", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterLinear) },
			func(pl *resizePlan) { pl.y.start[0], pl.y.w[0], pl.y.w[1] = 0, 2048, 0 }},
		{"linear: a scalar tail", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterLinear) },
			func(pl *resizePlan) { pl.simd -= 8 }},
		{"cub2x: a horizontal weight", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterCubic) },
			func(pl *resizePlan) { pl.x.w[4*7+1]++ }},
		{"cub2x: a vertical start", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterCubic) },
			func(pl *resizePlan) { pl.y.start[5]-- }},
		{"cub2x: weights too large", func() *resizePlan { return x2(40, 30, 3, core.Depth8U, InterCubic) },
			func(pl *resizePlan) {
				for i := range pl.x.w {
					pl.x.w[i] *= 32
				}
			}},
		{"cubhalf: a vertical weight", func() *resizePlan { return half(40, 30, 3, core.Depth8U, InterCubic) },
			func(pl *resizePlan) { pl.y.w[4*14+3]-- }},
		{"cubhalf: a horizontal start", func() *resizePlan { return half(40, 30, 3, core.Depth8U, InterCubic) },
			func(pl *resizePlan) { pl.x.start[0] = 0 }},
	} {
		pl := c.pl()
		pl.x.w, pl.y.w = append([]float32(nil), pl.x.w...), append([]float32(nil), pl.y.w...)
		pl.x.start, pl.y.start = append([]int32(nil), pl.x.start...), append([]int32(nil), pl.y.start...)
		c.edit(pl)
		if k := resizeFixed(pl); k != "" {
			t.Errorf("%s: taken by %s", c.name, k)
		}
	}
	// The grid is one wave where the rows allow it, and its block rows' shares
	// (fixedRows in kernels/resample_resize.cu, mirrored here) cover the rows
	// once, non-empty, on even bounds where they must be, within two rows of each
	// other.
	for _, c := range [][4]int{{15, 2160, 1320}, {30, 4320, 1320}, {1, 2, 1320}, {1, 1, 1320}, {1, 2 * 65535 * 64, 1320},
		{4, 600, 16}, {16, 10, 1}, {8, 1081, 1188}, {8, 1080, 1056}, {1, 3, 7}} {
		for _, even := range []bool{true, false} {
			gx, dh, slots := c[0], c[1], c[2]
			if even && dh%2 != 0 {
				continue
			}
			gy := fixedRows(gx, dh, slots, even)
			name := fmt.Sprintf("%d rows, %d block columns, %d blocks at once, even %v: %d block rows", dh, gx, slots, even, gy)
			if gy < 1 || gy > 65535 || gx*gy > max(slots, gx) {
				t.Errorf("%s", name)
				continue
			}
			next, least, most := 0, dh, 0
			for b := 0; b < gy; b++ {
				y0, y1 := b*dh/gy, (b+1)*dh/gy
				if even {
					y0, y1 = y0&^1, y1&^1
				}
				if y0 != next || y1 <= y0 {
					t.Errorf("%s: block row %d has rows %d..%d after %d", name, b, y0, y1, next)
					break
				}
				next, least, most = y1, min(least, y1-y0), max(most, y1-y0)
			}
			if next != dh || most-least > 2 {
				t.Errorf("%s: rows to %d, shares of %d to %d", name, next, least, most)
			}
		}
	}
	// lin2x's tiles start on even rows, cover the rows in one wave where they
	// can, and fit the grid.
	for _, c := range [][3]int{{3840, 2160, 924}, {7680, 4320, 924}, {2, 2, 924}, {100, 2 * 65535 * 64, 924}, {902, 600, 16}, {4000, 10, 1}} {
		gx, th := lin2xShape(c[0], c[1], c[2])
		gy := (c[1] + th - 1) / th
		if th%2 != 0 || th < 2 || gy > 65535 || gx*4*resizeRT < c[0] || (gx-1)*4*resizeRT >= c[0] || gx*gy > max(c[2], gx) && th > 2 && gy > 1 {
			t.Errorf("lin2x %dx%d, %d blocks at once: grid %d x %d, %d rows a tile", c[0], c[1], c[2], gx, gy, th)
		}
	}
	// cubhalf's word groups read inside the row, and are all the groups that do;
	// the grid has a block column for them and one for the rest.
	for _, c := range [][3]int{{3840, 1920, 3}, {3841, 1920, 3}, {3839, 1920, 3}, {1920, 960, 1}, {1920, 960, 4}, {2, 1, 3},
		{9, 4, 1}, {10, 5, 1}, {11, 5, 1}, {20, 10, 4}, {21, 10, 3}, {4097, 2048, 3}, {902, 451, 4}} {
		sw, dw, cn := c[0], c[1], c[2]
		gx, gin := cubHalfGroups(sw, dw, cn)
		ng := (dw + 3) / 4
		inside := func(g int) bool { return g >= 1 && g < ng && (8*g+8)*cn+8 <= sw*cn }
		ok := gin <= ng && (gin <= 1 || inside(gin-1)) && !inside(gin) && (gx-1)*resizeFT >= gin-1 && (gx == 1 || (gx-2)*resizeFT < gin-1)
		for g := 1; g < gin && ok; g++ {
			ok = inside(g)
		}
		if !ok {
			t.Errorf("%d pixels of %d channels to %d: %d block columns, word groups 1..%d", sw, cn, dw, gx, gin-1)
		}
	}
}
