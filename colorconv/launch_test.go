package colorconv_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every conversion on the recorder (the CUDA launch code without a GPU), with and
// without the shared-memory Lab kernels: each kernel launched must exist in the
// fatbin. Codes, depths and channel counts the call refuses are skipped.
func TestLaunchedKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	depths := []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F}
	for _, shared := range []bool{true, false} {
		restore := colorconv.UseSharedTables(shared)
		for _, d := range depths {
			for cn := 1; cn <= 4; cn++ {
				src := rec.Image(t, 37, 300, gpuimage.MakeType(d, cn))
				for code := colorconv.Code(0); code < 160; code++ {
					dst := &gpuimage.Image{}
					colorconv.CvtColor(src, dst, code) // refusals are other tests' business
					dst.Close()
				}
				if d == gpuimage.Depth8U {
					dst := &gpuimage.Image{}
					colorconv.ApplyColorMap(src, dst, colorconv.ColormapViridis)
					dst.Close()
				}
				for dcn := 1; dcn <= 4; dcn++ {
					m := make([][]float64, dcn)
					for i := range m {
						m[i] = make([]float64, cn+1)
					}
					dst := &gpuimage.Image{}
					colorconv.Transform(src, dst, m)
					dst.Close()
				}
			}
		}
		restore()
	}
	rec.CheckLaunched(t)
}
