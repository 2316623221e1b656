//go:build !noopencv

package colorconv_test

import (
	"bytes"
	"image"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
	"github.com/gpuimg/gpuimg/internal/gocvtest"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// ApplyColorMap on the CPU device against OpenCV 4.6's applyColorMap (gocv), every
// map, 8UC1 and 8UC3 (through gray), random images of odd sizes and region views:
// the same bytes.
func TestApplyColorMapMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for c := colorconv.ColormapAutumn; c <= colorconv.ColormapDeepGreen; c++ {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3} {
			for i, sz := range tu.Sizes {
				rows, cols := sz[0]+3, sz[1]+5
				m := gocvtest.Mat(t, rows, cols, mt, tu.RandomBytes(r, gpuimage.Depth8U, rows*cols*mt.Channels()))
				roi := image.Rect(0, 0, cols, rows)
				if i%2 == 1 {
					roi = image.Rect(2, 1, 2+sz[1], 1+sz[0])
				}
				mv := m.Region(roi)
				in := mv.Clone()
				want := gocv.NewMat()
				gocv.ApplyColorMap(in, &want, gocv.ColormapTypes(c))
				src, err := gocvmat.Upload(gpuimage.CPU(), m)
				if err != nil {
					t.Fatal(err)
				}
				view, err := src.Region(roi)
				if err != nil {
					t.Fatal(err)
				}
				var dst gpuimage.Image
				if err := colorconv.ApplyColorMap(view, &dst, c); err != nil {
					t.Fatalf("%v %v: %v", c, mt, err)
				}
				got, _ := gocvmat.Download(&dst)
				if !bytes.Equal(gocvtest.Bytes(t, got), gocvtest.Bytes(t, want)) {
					t.Errorf("%v %v %v: differs from OpenCV's", c, mt, roi)
				}
				for _, x := range []interface{ Close() error }{&dst, view, src, &got, &want, &in, &mv, &m} {
					x.Close()
				}
			}
		}
	}
}
