//go:build !noopencv

package colorconv_test

import (
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
	"github.com/gpuimg/gpuimg/internal/gocvtest"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

func TestTransformMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, d := range tu.Depths {
		for _, scn := range []int{1, 3, 4} {
			for _, dcn := range []int{1, 3, 4} {
				for _, offset := range []bool{false, true} {
					mt := gpuimage.MakeType(d, scn)
					m := make([][]float64, dcn)
					tm := gocv.NewMatWithSize(dcn, scn+map[bool]int{true: 1}[offset], gocv.MatTypeCV32F)
					for c := range m {
						for k := 0; k < tm.Cols(); k++ {
							v := r.Float64()*2 - 0.5
							if k == scn {
								v = r.Float64()*40 - 20
							}
							v = float64(float32(v))
							m[c] = append(m[c], v)
							tm.SetFloatAt(c, k, float32(v))
						}
					}
					im, data := tu.Random(t, r, gpuimage.CPU(), 37, 45, mt)
					src, _ := gocv.NewMatFromBytes(37, 45, gocv.MatType(mt), data)
					want := gocv.NewMat()
					gocv.Transform(src, &want, tm)
					var dst gpuimage.Image
					if err := colorconv.Transform(im, &dst, m); err != nil {
						t.Fatal(err)
					}
					got, _ := gocvmat.Download(&dst)
					// 32F: sums of terms up to ~600*2 lose ~1e-6 of that magnitude each
					// to float32 rounding (OpenCV and we sum in different orders).
					abs, rel := tu.Tolerance(d)
					if d == gpuimage.Depth32F {
						abs = 2.5e-3
					}
					if res := tu.Compare(d, gocvtest.Bytes(t, got), gocvtest.Bytes(t, want), abs, rel); res.Bad != 0 {
						t.Errorf("Transform %v -> %d channels, offset %v: %d of %d out of tolerance (max %g); %s", mt, dcn, offset, res.Bad, res.N, res.MaxAbs, res.First)
					}
					for _, c := range []interface{ Close() error }{im, &dst, &src, &want, &got, &tm} {
						c.Close()
					}
				}
			}
		}
	}
}
