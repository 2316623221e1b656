package interp_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/interp"
)

// Every kernel Shepard launches on the recorder (the CUDA launch code without a
// GPU): all points (few and many) and the grid, power 2 and others; each must exist in the fatbin.
func TestLaunchedKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	dst := rec.Image(t, 30, 40, gpuimage.CV32FC1)
	pts := []interp.Point{{X: 1, Y: 2, Value: 3}, {X: 30, Y: 20, Value: 1}}
	for _, o := range []interp.ShepardOptions{{}, {Power: 3}, {K: 4}, {Radius: 5, Power: 1}} {
		if err := interp.Shepard(pts, dst, &o); err != nil {
			t.Fatal(err)
		}
	}
	// Many points: the far-field kernels.
	restore := interp.SetTileMin(1)
	for _, o := range []interp.ShepardOptions{{}, {Power: 3}} {
		if err := interp.Shepard(pts, dst, &o); err != nil {
			t.Fatal(err)
		}
	}
	restore()
	rec.CheckLaunched(t)
}
