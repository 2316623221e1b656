package resample

import (
	"image"

	"github.com/gpuimg/gpuimg/internal/core"
)

// PolyKernel is the kernel polyLaunch picks for a resampling of rows signals of n
// samples by up/down (reduced) with m taps, on a device of sms multiprocessors,
// with its block, outputs a thread and stage.
func PolyKernel(n, rows, m, up, down, sms int) (name string, block, k, w int) {
	pl, err := newPlan(make([]float64, m), up, down)
	if err != nil {
		panic(err)
	}
	l := polyLaunch(pl, (n*up+down-1)/down, rows, func(string, int, int) int { return 4 * sms })
	return l.name, l.block[0], l.k, l.w
}

// ResizeKernel is the separable kernel family a resize of a sw x sh 8-bit image
// of cn channels to dw x dh by interp picks on an H100 (132 multiprocessors,
// 227 KB of shared memory a block): the tile kernel's name, the register
// kernel's name and taps, or "" (the two passes).
func ResizeKernel(sw, sh, dw, dh, cn int, interp Interpolation) (name string, k int) {
	return planKernel(newResizePlan(sw, sh, dw, dh, cn, 0, float64(dw)/float64(sw), float64(dh)/float64(sh), interp))
}

// ScaleKernel is ResizeKernel for Scale's plans.
func ScaleKernel(sw, sh, dw, dh, cn int, f Filter) (name string, k int) {
	return planKernel(scalePlan(sw, sh, dw, dh, cn, 0, f))
}

func planKernel(pl *resizePlan) (name string, k int) {
	if t, ok := pl.tileShape(132, 227<<10); ok {
		return t.name, 0
	}
	name, k, _ = resizeRegKernel(pl)
	return name, k
}

// ResizeRegLaunch is the register kernel, its blocks a row of tiles and its rows
// a tile for that resize (ifx = dw/sw, ify = dh/sh) of cn channels of depth on a
// device of 132 multiprocessors.
func ResizeRegLaunch(sw, sh, dw, dh, cn int, depth core.Depth, interp Interpolation) (name string, gx, th int) {
	return resizeRegLaunch(newResizePlan(sw, sh, dw, dh, cn, depth, float64(dw)/float64(sw), float64(dh)/float64(sh), interp), 132)
}

// ResizeTile is the tile kernel's shape for that resize on an H100: th output rows
// a block, fr source rows staged rs bytes apart, smem bytes of shared memory (th
// 0: it does not take the plan).
func ResizeTile(sw, sh, dw, dh, cn int, interp Interpolation) (th, fr, rs, smem int) {
	t, _ := newResizePlan(sw, sh, dw, dh, cn, 0, float64(dw)/float64(sw), float64(dh)/float64(sh), interp).tileShape(132, 227<<10)
	return t.th, t.fr, t.rs, t.smem
}

// ScaleHKernel is the horizontal kernel of Scale's two passes for that shape, on
// a source whose allocation is 4-byte aligned.
func ScaleHKernel(sw, sh, dw, dh, cn int, f Filter) string {
	name, _, _ := resizeHKernel(scalePlan(sw, sh, dw, dh, cn, 0, f), true)
	return name
}

// ScaleTaps is the width of Scale's 8-bit weight table for an axis of n pixels
// scaled to dn by f.
func ScaleTaps(n, dn int, f Filter) int { return pillowAxis(n, dn, f, true).n }

// ScalePMMA is the steps of 32 bytes a tile of Scale's tensor-core passes
// (horizontal, vertical) for an 8-bit image of that shape whose rows start off
// bytes past a multiple of 8 (0, 0: they do not take it), and whether the plan
// tries them before the register kernels.
func ScalePMMA(sw, sh, dw, dh, cn int, f Filter, off int) (h, v int, first bool) {
	pl := scalePlan(sw, sh, dw, dh, cn, 0, f)
	if t := pl.pmma(off); t != nil && pl.pmmaOK() {
		h, v = t.h.ks, t.v.ks
	}
	return h, v, pl.pmmaFirst()
}

// AreafTakes reports whether a resize of a cols x rows 8-bit image of chans
// channels (to size, or by fx, fy where size is zero) by interp is one that
// gi_resize_areaf_* takes (by GPUIMG_AREAF and its shape), whose results are within
// one of the CPU device's rather than equal (resample/areaf.go).
func AreafTakes(cols, rows, chans int, size image.Point, fx, fy float64, interp Interpolation) bool {
	size, ifx, ify, err := resizeTarget(cols, rows, size, fx, fy)
	if err != nil {
		return false
	}
	if size.X == cols && size.Y == rows {
		return false
	}
	pl := newResizePlan(cols, rows, size.X, size.Y, chans, core.Depth8U, ifx, ify, interp)
	return pl.areafTakes() != nil
}

// SetAreafMode sets GPUIMG_AREAF's mode for a test; restore puts it back.
func SetAreafMode(m string) (restore func()) {
	old := areafMode
	areafMode = m
	return func() { areafMode = old }
}
