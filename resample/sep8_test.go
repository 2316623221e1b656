package resample

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/core"
)

// resizeSep8 takes only the plans its kernel computes exactly: 8U, 2 or 4 taps, 1,
// 3 or 4 channels, and for 2 taps weights that cannot reach VResizeLinear's
// clamps (the kernel leaves them out).
func TestResizeSep8Plans(t *testing.T) {
	lin := func(cn int, depth core.Depth) *resizePlan {
		return newResizePlan(100, 80, 150, 120, cn, depth, 1.5, 1.5, InterLinear)
	}
	for _, c := range []struct {
		name string
		pl   *resizePlan
		want bool
	}{
		{"linear 8UC3", lin(3, core.Depth8U), true},
		{"linear 8UC1", lin(1, core.Depth8U), true},
		{"linear 8UC4", lin(4, core.Depth8U), true},
		{"linear 8UC2", lin(2, core.Depth8U), false},
		{"linear 16UC3", lin(3, core.Depth16U), false},
		{"cubic 8UC3", newResizePlan(100, 80, 50, 40, 3, core.Depth8U, 0.5, 0.5, InterCubic), true},
		{"lanczos4 8UC3", newResizePlan(100, 80, 50, 40, 3, core.Depth8U, 0.5, 0.5, InterLanczos4), false},
		{"area enlarging 8UC3", newResizePlan(100, 80, 150, 120, 3, core.Depth8U, 1.5, 1.5, InterArea), true},
		{"linear exact 8UC3", newResizePlan(100, 80, 150, 120, 3, core.Depth8U, 1.5, 1.5, InterLinearExact), false},
	} {
		if got := resizeSep8(c.pl); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// Weights past the bound the kernel's arithmetic relies on, and tiles taller
	// than its stage.
	for _, c := range []struct {
		name string
		edit func(pl *resizePlan)
	}{
		{"negative weight", func(pl *resizePlan) { pl.x.w[2] = -1 }},
		{"pair over 2050", func(pl *resizePlan) { pl.y.w[0], pl.y.w[1] = 1500, 551 }},
		{"too tall", func(pl *resizePlan) { pl.dh = resizeThMax*65535 + 1 }},
	} {
		pl := lin(3, core.Depth8U)
		pl.x.w, pl.y.w = append([]float32(nil), pl.x.w...), append([]float32(nil), pl.y.w...)
		c.edit(pl)
		if resizeSep8(pl) {
			t.Errorf("%s: taken", c.name)
		}
	}
}

// Pillow's 8-bit weights are integers the kernels take exactly: floats (24-bit
// significands) and, for the passes that sum with dp4a (gi_resize_hw_p_*,
// gi_resize_v_p_u8), two unsigned bytes and a signed one, so |w| < 2^23. They
// pass 2^22 (one) where an enlargement's window is cut at the image's edge
// (bicubic 2 -> 3: 4470245).
func TestPillowWeightsFitKernels(t *testing.T) {
	worst := 0.0
	for _, f := range []Filter{Box, Bilinear, Bicubic, Lanczos3, Hamming} {
		for n := 1; n <= 160; n++ {
			for dn := 1; dn <= 160; dn++ {
				for _, w := range pillowAxis(n, dn, f, true).w {
					worst = max(worst, float64(w), -float64(w))
				}
			}
		}
	}
	if worst >= 1<<23 {
		t.Fatalf("a weight of magnitude %g, at least 2^23", worst)
	}
	t.Logf("largest weight %g (2^22 = %d)", worst, 1<<22)
}

// resizeLin2x takes exactly the plans gi_resize_lin2x_* computes: InterLinear's 8-bit
// enlargements by 2 on both axes (by scale or by size) of 1, 3 or 4 channels, from
// 1x1 up; not 2 channels, other depths, the exact or area arithmetic, other
// factors, or tables edited away from its fixed weights.
func TestResizeLin2xPlans(t *testing.T) {
	lin := func(sw, sh, cn int, depth core.Depth, in Interpolation) *resizePlan {
		return newResizePlan(sw, sh, 2*sw, 2*sh, cn, depth, 2, 2, in)
	}
	for _, c := range []struct {
		name string
		pl   *resizePlan
		want bool
	}{
		{"1x1 8UC1", lin(1, 1, 1, core.Depth8U, InterLinear), true},
		{"2x1 8UC3", lin(2, 1, 3, core.Depth8U, InterLinear), true},
		{"5x3 8UC4", lin(5, 3, 4, core.Depth8U, InterLinear), true},
		{"451x300 8UC3", lin(451, 300, 3, core.Depth8U, InterLinear), true},
		{"1920x1080 8UC3", lin(1920, 1080, 3, core.Depth8U, InterLinear), true},
		{"8UC2", lin(40, 30, 2, core.Depth8U, InterLinear), false},
		{"16UC3", lin(40, 30, 3, core.Depth16U, InterLinear), false},
		{"32FC1", lin(40, 30, 1, core.Depth32F, InterLinear), false},
		{"linear exact", lin(40, 30, 3, core.Depth8U, InterLinearExact), false},
		{"area", lin(40, 30, 3, core.Depth8U, InterArea), false},
		{"cubic", lin(40, 30, 3, core.Depth8U, InterCubic), false},
		{"x2 by 1.5", newResizePlan(40, 30, 80, 45, 3, core.Depth8U, 2, 1.5, InterLinear), false},
		{"x2.5", newResizePlan(40, 30, 100, 75, 3, core.Depth8U, 2.5, 2.5, InterLinear), false},
		{"x2 with other inverse scales", newResizePlan(40, 30, 80, 60, 3, core.Depth8U, 2.01, 2.01, InterLinear), false},
	} {
		if got := resizeLin2x(c.pl); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		name string
		edit func(pl *resizePlan)
	}{
		{"a horizontal weight", func(pl *resizePlan) { pl.x.w[6], pl.x.w[7] = 1535, 513 }},
		{"a horizontal start", func(pl *resizePlan) { pl.x.start[9]++ }},
		{"a vertical weight", func(pl *resizePlan) { pl.y.w[4], pl.y.w[5] = 513, 1535 }},
		{"the first row's start", func(pl *resizePlan) { pl.y.start[0], pl.y.w[0], pl.y.w[1] = 0, 2048, 0 }},
		{"a scalar tail", func(pl *resizePlan) { pl.simd -= 8 }},
	} {
		pl := lin(40, 30, 3, core.Depth8U, InterLinear)
		pl.x.w, pl.y.w = append([]float32(nil), pl.x.w...), append([]float32(nil), pl.y.w...)
		pl.x.start, pl.y.start = append([]int32(nil), pl.x.start...), append([]int32(nil), pl.y.start...)
		c.edit(pl)
		if resizeLin2x(pl) {
			t.Errorf("%s: taken", c.name)
		}
	}
	// Tiles start on even rows, cover the rows in one wave where they can, and
	// fit the grid.
	for _, c := range [][3]int{{3840, 2160, 924}, {7680, 4320, 924}, {2, 2, 924}, {100, 2 * 65535 * 64, 924}, {902, 600, 16}, {4000, 10, 1}} {
		gx, th := lin2xShape(c[0], c[1], c[2])
		gy := (c[1] + th - 1) / th
		if th%2 != 0 || th < 2 || gy > 65535 || gx*4*resizeRT < c[0] || (gx-1)*4*resizeRT >= c[0] || gx*gy > max(c[2], gx) && th > 2 && gy > 1 {
			t.Errorf("%dx%d, %d blocks at once: grid %d x %d, %d rows a tile", c[0], c[1], c[2], gx, gy, th)
		}
	}
}
