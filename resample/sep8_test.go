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
