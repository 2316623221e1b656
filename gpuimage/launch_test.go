package gpuimage_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The element-wise operations on the recorder (the CUDA launch code without a
// GPU), every depth pair and channel count: each kernel launched must exist in the
// fatbin.
func TestLaunchedKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	depths := []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F}
	for _, d := range depths {
		for cn := 1; cn <= 4; cn++ {
			im := rec.Image(t, 37, 53, gpuimage.MakeType(d, cn))
			if err := im.SetTo(gpuimage.NewScalar(1, 2, 3, 4)); err != nil {
				t.Errorf("SetTo: %v", err)
			}
			for _, dd := range depths {
				dst := &gpuimage.Image{}
				if err := im.ConvertTo(dst, dd, 0.5, 1); err != nil {
					t.Errorf("ConvertTo: %v", err)
				}
				dst.Close()
			}
			dst := &gpuimage.Image{}
			for c := 0; c < cn; c++ {
				im.ExtractChannel(dst, c)
			}
			im.AddAlpha(dst)
			im.RemoveAlpha(dst)
			dst.Close()
			planes := make([]*gpuimage.Image, cn)
			for i := range planes {
				planes[i] = rec.Image(t, 37, 53, gpuimage.MakeType(d, 1))
			}
			merged := &gpuimage.Image{}
			if err := gpuimage.Merge(planes, merged); err != nil {
				t.Errorf("Merge: %v", err)
			}
			merged.Close()
		}
	}
	rec.CheckLaunched(t)
}
