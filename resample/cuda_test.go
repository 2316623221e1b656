//go:build cuda

package resample_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/resample"
)

// Poly and UpFirDn on the GPU against the CPU device on fresh random signals:
// lengths 1 to 1e5, batches (300 rows of 451), every ratio of the SciPy test and
// long branches (1/7, 1000/999: the generic kernel), taps 1 to 65 a branch (each
// register kernel), ROI views of a larger image, into poisoned outputs; within
// 1e-5 of the output's RMS (the GPU sums in float32, the CPU in float64).
func TestCUDAPolyMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	var worst float64
	check := func(name string, cs, gs *gpuimage.Image, f func(src, dst *gpuimage.Image) error) {
		t.Helper()
		want := &gpuimage.Image{}
		defer want.Close()
		if err := f(cs, want); err != nil {
			t.Fatalf("%s: CPU: %v", name, err)
		}
		got := tu.Poisoned(t, gpu, want.Rows(), want.Cols(), gpuimage.CV32FC1)
		defer got.Close()
		if err := f(gs, got); err != nil {
			t.Fatalf("%s: GPU: %v", name, err)
		}
		e, ok := rmsErr(tu.Rows(t, got), tu.Rows(t, want))
		worst = math.Max(worst, e)
		if !ok || e > 1e-5 {
			t.Errorf("%s: GPU %dx%d off the CPU's %dx%d by %.3g of the RMS", name, got.Cols(), got.Rows(), want.Cols(), want.Rows(), e)
		}
	}
	shapes := [][2]int{{1, 1}, {1, 7}, {3, 4097}, {300, 451}, {1, 100000}, {2, 4097}}
	all := append(append([][2]int{}, ratios...), [2]int{1000, 999}, [2]int{999, 1000}, [2]int{440, 1})
	for _, sh := range shapes {
		vals := randVals(r, sh[0], sh[1])
		cs, gs := upload(t, gpuimage.CPU(), vals), upload(t, gpu, vals)
		for _, ud := range all {
			if testing.Short() && sh[1] > 4097 {
				continue
			}
			check(fmt.Sprintf("poly %d/%d %dx%d", ud[0], ud[1], sh[0], sh[1]), cs, gs, func(src, dst *gpuimage.Image) error {
				return resample.Poly(src, dst, ud[0], ud[1], nil)
			})
		}
		for _, c := range []struct{ m, up, down int }{{1, 1, 1}, {9, 1, 1}, {17, 3, 2}, {48, 2, 1}, {63, 1, 1}, {65, 1, 1}, {200, 3, 7}, {40, 7, 3},
			{9, 1, 2}, {31, 2, 3}, {5, 1, 3}, {7, 256, 1}} {
			h := randTaps(r, c.m)
			check(fmt.Sprintf("upfirdn m=%d %d/%d %dx%d", c.m, c.up, c.down, sh[0], sh[1]), cs, gs, func(src, dst *gpuimage.Image) error {
				return resample.UpFirDn(src, dst, h, c.up, c.down)
			})
		}
		cs.Close()
		gs.Close()
	}
	// Long batches: blocks of the register kernels take several items each, across
	// rows.
	if !testing.Short() {
		vals := randVals(r, 5, 1000003)
		cs, gs := upload(t, gpuimage.CPU(), vals), upload(t, gpu, vals)
		for _, ud := range [][2]int{{160, 147}, {147, 160}, {2, 1}, {1, 3}} {
			check(fmt.Sprintf("poly %d/%d 5x1000003", ud[0], ud[1]), cs, gs, func(src, dst *gpuimage.Image) error {
				return resample.Poly(src, dst, ud[0], ud[1], nil)
			})
		}
		cs.Close()
		gs.Close()
	}
	// ROI views: a window of rows and columns of a larger image.
	vals := randVals(r, 40, 3000)
	cb, gb := upload(t, gpuimage.CPU(), vals), upload(t, gpu, vals)
	defer cb.Close()
	defer gb.Close()
	roi := image.Rect(123, 5, 2900, 37)
	cv, err := cb.Region(roi)
	if err != nil {
		t.Fatal(err)
	}
	gv, err := gb.Region(roi)
	if err != nil {
		t.Fatal(err)
	}
	for _, ud := range [][2]int{{160, 147}, {1, 7}, {3, 1}} {
		check(fmt.Sprintf("poly %d/%d view", ud[0], ud[1]), cv, gv, func(src, dst *gpuimage.Image) error {
			return resample.Poly(src, dst, ud[0], ud[1], nil)
		})
	}
	// Into a view at an odd column of a larger image (the two-outputs kernels'
	// 8-byte stores are not aligned there): the view's samples as into an image of
	// its own, nothing around it written.
	for _, ud := range [][2]int{{160, 147}, {147, 160}} {
		want := &gpuimage.Image{}
		if err := resample.Poly(cv, want, ud[0], ud[1], nil); err != nil {
			t.Fatal(err)
		}
		big := tu.Poisoned(t, gpu, want.Rows()+2, want.Cols()+3, gpuimage.CV32FC1)
		before := tu.Rows(t, big)
		win := image.Rect(1, 1, 1+want.Cols(), 1+want.Rows())
		dv, err := big.Region(win)
		if err != nil {
			t.Fatal(err)
		}
		if err := resample.Poly(gv, dv, ud[0], ud[1], nil); err != nil {
			t.Fatal(err)
		}
		if e, ok := rmsErr(tu.Rows(t, dv), tu.Rows(t, want)); !ok || e > 1e-5 {
			t.Errorf("poly %d/%d into a view: off the CPU's by %.3g of the RMS", ud[0], ud[1], e)
		}
		after := tu.Rows(t, big)
		for y := range after {
			for x := range after[y] {
				if !image.Pt(x, y).In(win) && math.Float64bits(after[y][x]) != math.Float64bits(before[y][x]) {
					t.Fatalf("poly %d/%d into a view: (%d, %d) outside it written", ud[0], ud[1], x, y)
				}
			}
		}
		dv.Close()
		big.Close()
		want.Close()
	}
	t.Logf("largest difference %.3g of the RMS", worst)
}

// Several streams at once, each resampling its own batch: the same results as one
// at a time.
func TestCUDAPolyStreams(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	const k = 4
	srcs, wants, gots := make([]*gpuimage.Image, k), make([]*gpuimage.Image, k), make([]*gpuimage.Image, k)
	for i := range k {
		vals := randVals(r, 3, 20000+i*77)
		srcs[i] = upload(t, gpu, vals)
		c := upload(t, gpuimage.CPU(), vals)
		wants[i] = &gpuimage.Image{}
		if err := resample.Poly(c, wants[i], 160, 147, nil); err != nil {
			t.Fatal(err)
		}
		c.Close()
		gots[i] = tu.Poisoned(t, gpu, wants[i].Rows(), wants[i].Cols(), gpuimage.CV32FC1)
	}
	var strs []*gpuimage.Stream
	for i := range k {
		s, err := gpu.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		strs = append(strs, s)
		if err := resample.Poly(srcs[i], gots[i], 160, 147, nil, gpuimage.OnStream(s)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range k {
		if err := strs[i].Synchronize(); err != nil {
			t.Fatal(err)
		}
		if e, ok := rmsErr(tu.Rows(t, gots[i]), tu.Rows(t, wants[i])); !ok || e > 1e-5 {
			t.Errorf("stream %d: off the CPU by %.3g of the RMS", i, e)
		}
		for _, im := range []*gpuimage.Image{srcs[i], wants[i], gots[i]} {
			im.Close()
		}
		strs[i].Close()
	}
}

// BenchmarkCUDAPoly times Poly 160/147 (44.1 to 48 kHz) and 147/160 at the
// issue's shapes, by CUDA events around the call from an idle stream (so the
// host's time to queue it counts too).
func BenchmarkCUDAPoly(b *testing.B) {
	gpu := tu.CUDA(b)
	r := tu.Rand(b)
	for _, sh := range [][2]int{{1, 1000000}, {1, 10000000}, {64, 1000000}} {
		for _, ud := range [][2]int{{160, 147}, {147, 160}, {1, 2}, {2, 1}} {
			b.Run(fmt.Sprintf("%dx%d/%d-%d", sh[0], sh[1], ud[0], ud[1]), func(b *testing.B) {
				src := upload(b, gpu, randVals(r, sh[0], sh[1]))
				defer src.Close()
				dst := &gpuimage.Image{}
				defer dst.Close()
				if err := resample.Poly(src, dst, ud[0], ud[1], nil); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(4 * (src.Rows()*src.Cols() + dst.Rows()*dst.Cols())))
				s, err := gpu.NewStream()
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				on := gpuimage.OnStream(s)
				tu.EventMedian(b, s, func() error { return resample.Poly(src, dst, ud[0], ud[1], nil, on) })
			})
		}
	}
}

// Streaming on the GPU in random chunks gives the CPU's Poly output, Delay samples
// later.
func TestCUDAStreamMatchesPoly(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, ud := range [][2]int{{160, 147}, {147, 160}, {1, 7}, {2, 1}, {1000, 999}} {
		vals := randVals(r, 3, 20000)
		got, delay := streamed(t, r, gpu, vals, ud[0], ud[1], []int{1, 7, 1024, 4097})
		src := upload(t, gpuimage.CPU(), vals)
		want := &gpuimage.Image{}
		if err := resample.Poly(src, want, ud[0], ud[1], nil); err != nil {
			t.Fatal(err)
		}
		w := tu.Rows(t, want)
		if len(got[0]) != delay+len(w[0]) {
			t.Errorf("%d/%d: %d samples streamed, want Delay %d + Poly's %d", ud[0], ud[1], len(got[0]), delay, len(w[0]))
		} else {
			for y := range got {
				got[y] = got[y][delay:]
			}
			if e, ok := rmsErr(got, w); !ok || e > 1e-5 {
				t.Errorf("%d/%d: off the CPU's Poly by %.3g of the RMS", ud[0], ud[1], e)
			}
		}
		src.Close()
		want.Close()
	}
}
