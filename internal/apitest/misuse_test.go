package apitest

import (
	"errors"
	"math"
	"testing"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// Absurd arguments give errors (or -1), never a hang or a panic.
func TestAbsurdSizes(t *testing.T) {
	for _, n := range []int{1<<30 + 1, 1<<62 + 1, math.MaxInt} {
		if got := fftfilter.GetOptimalDFTSize(n); got != -1 {
			t.Errorf("GetOptimalDFTSize(%d) = %d, want -1", n, got)
		}
	}
	if got := fftfilter.GetOptimalDFTSize(1 << 30); got != 1<<30 {
		t.Errorf("GetOptimalDFTSize(2^30) = %d", got)
	}
	for _, dev := range devices(t) {
		for _, n := range []int{-1, 0, 1 << 60, math.MaxInt} {
			h, err := dev.NewHostBuffer(n)
			if err == nil {
				h.Close()
				t.Errorf("%s: NewHostBuffer(%d) succeeded", dev.Name(), n)
			}
		}
		if _, err := gpuimage.New(dev, 1<<30, 1<<30, gpuimage.CV8UC4); err == nil {
			t.Errorf("%s: a 2^30 x 2^30 image was allocated", dev.Name())
		} else {
			var oom *gpuimage.OutOfMemoryError
			if !errors.As(err, &oom) && err.Error() == "" {
				t.Errorf("%s: %v", dev.Name(), err)
			}
		}
	}
}
