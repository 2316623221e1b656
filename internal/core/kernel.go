package core

import (
	"fmt"
	"image"
	"math"
)

// CheckTaps reports a kernel vector (named what in the message) that is empty or
// holds a NaN or infinite tap. Callers wrap the error with their ErrBadKernel.
func CheckTaps(v []float64, what string) error {
	if len(v) == 0 {
		return fmt.Errorf("%s is empty", what)
	}
	for _, f := range v {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s has a non-finite tap %v", what, f)
		}
	}
	return nil
}

// CheckKernel2D reports a 2-D kernel (rows of taps) that is empty, ragged or not
// finite.
func CheckKernel2D(k [][]float64) error {
	if len(k) == 0 || len(k[0]) == 0 {
		return fmt.Errorf("kernel is nil or empty")
	}
	for i, row := range k {
		if len(row) != len(k[0]) {
			return fmt.Errorf("kernel row %d has %d taps, row 0 has %d", i, len(row), len(k[0]))
		}
		if err := CheckTaps(row, "kernel"); err != nil {
			return err
		}
	}
	return nil
}

// KernelAnchor resolves an anchor as OpenCV does ((-1,-1) is the kernel's centre)
// and reports one outside the kw x kh kernel.
func KernelAnchor(anchor image.Point, kw, kh int) (ax, ay int, err error) {
	ax, ay = anchor.X, anchor.Y
	if ax == -1 {
		ax = kw / 2
	}
	if ay == -1 {
		ay = kh / 2
	}
	if ax < 0 || ax >= kw || ay < 0 || ay >= kh {
		return 0, 0, fmt.Errorf("anchor (%d,%d) is outside the %dx%d kernel", anchor.X, anchor.Y, kw, kh)
	}
	return ax, ay, nil
}

// Flag is 1 for true and 0 for false, as the kernels' parameter structs take
// booleans (int fields).
func Flag(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
