package resample

// PolyKernel is the kernel polyLaunch picks for a resampling of rows signals of n
// samples by up/down (reduced) with m taps, on a device of sms multiprocessors,
// with its block, outputs a thread and stage.
func PolyKernel(n, rows, m, up, down, sms int) (name string, block, k, w int) {
	pl, err := newPlan(make([]float64, m), up, down)
	if err != nil {
		panic(err)
	}
	name, _, b, _, k, w := polyLaunch(pl, (n*up+down-1)/down, rows, sms)
	return name, b[0], k, w
}

// ResizeKernel is the separable kernel family a resize of a sw x sh 8-bit image
// of cn channels to dw x dh by interp picks: the register kernel's name and taps,
// or "" (the two passes).
func ResizeKernel(sw, sh, dw, dh, cn int, interp Interpolation) (name string, k int) {
	pl := newResizePlan(sw, sh, dw, dh, cn, 0, float64(dw)/float64(sw), float64(dh)/float64(sh), interp)
	name, k, _ = resizeRegKernel(pl)
	return name, k
}
