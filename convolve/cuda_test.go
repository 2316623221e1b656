//go:build cuda

package convolve_test

import (
	"fmt"
	"image"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CUDA device against the CPU device: every call, every type, every border, on
// the awkward sizes, whole and as views inside a larger image, into poisoned
// outputs. Large kernels (the CPU reference is slow there) run on fewer sizes and
// borders.

// pair makes the same random image, or a view of it, on both devices.
func pair(t *testing.T, r *rand.Rand, gpu *gpuimage.Device, rows, cols int, mt gpuimage.MatType, roi bool) (cpuIm, gpuIm *gpuimage.Image, closeAll func()) {
	t.Helper()
	// Views: odd offsets, and on some sizes 4- or 8-column ones (aligned rows, which
	// the register and streaming kernels take).
	return pairAt(t, r, gpu, rows, cols, mt, roi, []int{2, 4, 8}[(rows+cols)%3])
}

// pairAt is pair with the view ox columns into its image.
func pairAt(t *testing.T, r *rand.Rand, gpu *gpuimage.Device, rows, cols int, mt gpuimage.MatType, roi bool, ox int) (cpuIm, gpuIm *gpuimage.Image, closeAll func()) {
	t.Helper()
	prow, pcol, rect := rows, cols, image.Rect(0, 0, cols, rows)
	if roi {
		prow, pcol, rect = rows+9, cols+ox+3, image.Rect(ox, 5, ox+cols, 5+rows)
	}
	data := tu.RandomBytes(r, mt.Depth(), prow*pcol*mt.Channels())
	var all []*gpuimage.Image
	mk := func(dev *gpuimage.Device) *gpuimage.Image {
		full, err := gpuimage.NewFromBytes(dev, prow, pcol, mt, data)
		if err != nil {
			t.Fatal(err)
		}
		v, err := full.Region(rect)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, full, v)
		return v
	}
	return mk(gpuimage.CPU()), mk(gpu), func() {
		for _, im := range all {
			im.Close()
		}
	}
}

func TestCUDAMatchesCPU(t *testing.T) {
	types := tu.Types
	if os.Getenv("GPUIMG_QUICK") != "" { // under compute-sanitizer: fewer types
		types = []gpuimage.MatType{gpuimage.CV8UC3, gpuimage.CV16SC4, gpuimage.CV32FC1}
	}
	matchCPU(t, types)
}

// The streaming separable kernel only takes large images; here it takes every size.
func TestCUDAStreamingSeparable(t *testing.T) {
	defer convolve.SetRSepMinArea(convolve.SetRSepMinArea(1))
	matchCPU(t, []gpuimage.MatType{gpuimage.CV8UC1})
}

// matchCPU runs every case on images of the given types, every size, whole and as
// views, with every border, on both devices.
func matchCPU(t *testing.T, types []gpuimage.MatType) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	checked := 0
	for _, mt := range types {
		for _, c := range append(cases(r, mt.Depth()), bigGaussian()) {
			big := c.kw*c.kh > 64
			for _, sz := range tu.Sizes {
				if big && sz != [2]int{300, 451} && sz != [2]int{1, 37} {
					continue
				}
				for _, roi := range []bool{false, true} {
					for bi, b := range borders {
						if big && bi%2 == 1 {
							continue
						}
						name := fmt.Sprintf("%v/%s/%dx%d/roi=%v/%v", mt, c.name, sz[0], sz[1], roi, b)
						compareDevices(t, r, gpu, name, c, mt, sz[0], sz[1], roi, b)
						checked++
					}
				}
			}
		}
	}
	t.Logf("%d cases checked", checked)
}

// Kernels larger than the image on both devices, every border (wrap too), whole
// images and views; 41x41 takes the frequency-domain route on CUDA.
func TestCUDASmallImages(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4, gpuimage.CV16UC1, gpuimage.CV32FC1} {
		for _, c := range append(smallCases(r), cases(r, mt.Depth())...) {
			for _, sz := range smallSizes {
				for _, roi := range []bool{false, true} {
					for _, b := range borders {
						name := fmt.Sprintf("%v/%s/%dx%d/roi=%v/%v", mt, c.name, sz[1], sz[0], roi, b)
						compareDevices(t, r, gpu, name, c, mt, sz[0], sz[1], roi, b)
					}
				}
			}
		}
	}
}

// bigGaussian has a 67x67 kernel on 8-bit images: past the tiled separable kernel,
// so it takes the direct one.
func bigGaussian() filterCase {
	return filterCase{name: "gaussian sigma 11", kind: "gauss", ddepth: convolve.SameDepth, kw: 89, kh: 89, sumAbs: 1, sx: 11}
}

func compareDevices(t *testing.T, r *rand.Rand, gpu *gpuimage.Device, name string, c filterCase, mt gpuimage.MatType, rows, cols int, roi bool, b convolve.BorderType) {
	t.Helper()
	compareDevicesAt(t, r, gpu, name, c, mt, rows, cols, roi, []int{2, 4, 8}[(rows+cols)%3], b)
}

// compareDevicesAt is compareDevices with views ox columns into their images.
func compareDevicesAt(t *testing.T, r *rand.Rand, gpu *gpuimage.Device, name string, c filterCase, mt gpuimage.MatType, rows, cols int, roi bool, ox int, b convolve.BorderType) {
	t.Helper()
	cs, gs, done := pairAt(t, r, gpu, rows, cols, mt, roi, ox)
	defer done()
	want := &gpuimage.Image{}
	defer want.Close()
	opt := gpuimage.BorderValue(gpuimage.NewScalar(17, 250, 3, 99))
	if err := c.run(cs, want, b, opt); err != nil {
		t.Fatalf("%s: cpu: %v", name, err)
	}
	got := tu.Poisoned(t, gpu, rows, cols, want.Type())
	defer got.Close()
	if err := c.run(gs, got, b, opt); err != nil {
		t.Fatalf("%s: cuda: %v", name, err)
	}
	dd := want.Type().Depth()
	abs, rel := tolerance(c, dd, tu.InputMax(mt.Depth()))
	if d := tu.Compare(dd, tu.Bytes(t, got), tu.Bytes(t, want), abs, rel); d.Bad != 0 {
		t.Errorf("%s: %d of %d elements differ (max %g); %s", name, d.Bad, d.N, d.MaxAbs, d.First)
	}
}

// compareAligned runs call on a CPU and a CUDA image of rows x cols (or views of
// them 16 columns in, 16-byte aligned for every channel count) into a fresh and a
// poisoned output (of the type the CPU call made), and fails the test where they
// differ by more than tol.
func compareAligned(t *testing.T, r *rand.Rand, gpu *gpuimage.Device, name string, rows, cols int, mt gpuimage.MatType, roi bool, tol float64, call func(src, dst *gpuimage.Image) error) {
	t.Helper()
	cv, gv, done := pairAt(t, r, gpu, rows, cols, mt, roi, 16)
	defer done()
	want := &gpuimage.Image{}
	defer want.Close()
	if err := call(cv, want); err != nil {
		t.Fatalf("%s: cpu: %v", name, err)
	}
	got := tu.Poisoned(t, gpu, rows, cols, want.Type())
	defer got.Close()
	if err := call(gv, got); err != nil {
		t.Fatalf("%s: cuda: %v", name, err)
	}
	if d := tu.Compare(want.Type().Depth(), tu.Bytes(t, got), tu.Bytes(t, want), tol, 0); d.Bad != 0 {
		t.Errorf("%s: %d of %d elements differ (max %g); %s", name, d.Bad, d.N, d.MaxAbs, d.First)
	}
}

// Images tall enough that the small-filter kernels' blocks walk down more than one
// strip of rows (their grids fill the GPU once, not the image; the packed-row
// kernels' grids of a block a strip are turned off here), narrow enough that
// the CPU reference stays quick: whole and as 16-byte aligned views (which the
// packed-row and packed integer kernels take), against the CPU device. Under
// compute-sanitizer's racecheck (GPUIMG_QUICK=1) it checks that a warp's shared
// rows are not reused before every lane has read them.
func TestCUDATallImages(t *testing.T) {
	defer convolve.SetP2DSpread(convolve.SetP2DSpread(false)) // one wave of blocks walking down
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	types := []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4, gpuimage.CV16UC1, gpuimage.CV16SC3, gpuimage.CV32FC1}
	rows, cols := 50000, 40
	if os.Getenv("GPUIMG_QUICK") != "" {
		types = types[:2]
	}
	launches := convolve.Launches()
	for _, mt := range types {
		wider := gpuimage.Depth32F
		if mt.Depth() == gpuimage.Depth8U {
			wider = gpuimage.Depth16S
		}
		k3, k5 := softKernel(r, 3, 3, 0.5, 6), softKernel(r, 5, 5, 0.5, 20)
		cs := []filterCase{
			{name: "filter2D 3x3", kind: "filter2D", ddepth: convolve.SameDepth, kw: 3, kh: 3, k: k3, anchor: image.Pt(-1, -1), sumAbs: tu.SumAbs(k3)},
			{name: "filter2D 5x5 wider", kind: "filter2D", ddepth: wider, kw: 5, kh: 5, k: k5, anchor: image.Pt(-1, -1), delta: 3, sumAbs: tu.SumAbs(k5)},
			{name: "sobel dx", kind: "sobel", ddepth: wider, kw: 3, kh: 3, dx: 1, ksz: 3, scale: 1, sumAbs: 8},
			{name: "scharr dy", kind: "sobel", ddepth: convolve.SameDepth, kw: 3, kh: 3, dy: 1, ksz: convolve.FilterScharr, scale: 0.25, sumAbs: 8},
			{name: "laplacian 3", kind: "laplacian", ddepth: wider, kw: 3, kh: 3, ksz: 3, scale: 1, sumAbs: 16},
			{name: "gaussian 5x5", kind: "gauss", ddepth: convolve.SameDepth, kw: 5, kh: 5, ksize: image.Pt(5, 5), sumAbs: 1},
			{name: "box 3x3", kind: "box", ddepth: convolve.SameDepth, kw: 3, kh: 3, ksize: image.Pt(3, 3), anchor: image.Pt(-1, -1), norm: true, sumAbs: 1},
		}
		for _, c := range cs {
			for _, roi := range []bool{false, true} {
				for _, b := range []convolve.BorderType{convolve.BorderConstant, convolve.BorderReflect101} {
					name := fmt.Sprintf("%v/%s/%dx%d/roi=%v/%v", mt, c.name, cols, rows, roi, b)
					compareDevicesAt(t, r, gpu, name, c, mt, rows, cols, roi, 16, b)
				}
			}
		}
	}
	n := launches()
	p2d := 0
	for name, k := range n {
		if strings.HasPrefix(name, "gi_p2d_") {
			p2d += k
		}
	}
	if p2d == 0 {
		t.Errorf("no packed-row kernel ran: %v", n)
	}
	t.Logf("kernels recorded: %v", n)
}

// In place (dst == src) and on a user stream.
func TestCUDAInPlaceAndStream(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	cs, gs, done := pair(t, r, gpu, 123, 77, gpuimage.CV8UC3, true)
	defer done()
	want := &gpuimage.Image{}
	defer want.Close()
	if err := convolve.GaussianBlur(cs, want, image.Pt(5, 5), 0, 0, convolve.BorderDefault); err != nil {
		t.Fatal(err)
	}
	st, err := gpu.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := convolve.GaussianBlur(gs, gs, image.Pt(5, 5), 0, 0, convolve.BorderDefault, gpuimage.OnStream(st)); err != nil {
		t.Fatal(err)
	}
	if err := st.Synchronize(); err != nil {
		t.Fatal(err)
	}
	tu.Check(t, "in place on a stream", gpuimage.Depth8U, tu.Bytes(t, gs), tu.Bytes(t, want))
}

// The packed integer kernel (fixed-point Gaussian and normalized box filters, 3x3
// and 5x5, 8U with 1, 3 or 4 channels; 3x3 Sobel and Scharr derivatives of them to
// 8U and 16S) is exact: it must equal the CPU device bit
// for bit, on every border, whole images and views whose rows start 16-byte aligned
// (the kernel's condition), with a per-channel constant border value.
func TestCUDAPackedExact(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	calls := []struct {
		name string
		run  func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error
	}{
		{"gaussian 5x5", func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error {
			return convolve.GaussianBlur(src, dst, image.Pt(5, 5), 0, 0, b, opts...)
		}},
		{"gaussian 3x3", func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error {
			return convolve.GaussianBlur(src, dst, image.Pt(3, 3), 0, 0, b, opts...)
		}},
		{"gaussian 5x3", func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error {
			return convolve.GaussianBlur(src, dst, image.Pt(5, 3), 0, 0, b, opts...)
		}},
		{"blur 5x5", func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error {
			return convolve.Blur(src, dst, image.Pt(5, 5), image.Pt(-1, -1), b, opts...)
		}},
		{"blur 3x3", func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error {
			return convolve.Blur(src, dst, image.Pt(3, 3), image.Pt(-1, -1), b, opts...)
		}},
	}
	// The derivatives: Sobel and Scharr along x and y, to 8U (saturated) and 16S.
	for _, dd := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16S} {
		for _, d := range []struct{ dx, dy, ksize int }{{1, 0, 3}, {0, 1, 3}, {1, 0, convolve.FilterScharr}, {0, 1, convolve.FilterScharr}} {
			calls = append(calls, struct {
				name string
				run  func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error
			}{fmt.Sprintf("sobel dx %d dy %d ksize %d to %v", d.dx, d.dy, d.ksize, dd), func(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error {
				return convolve.Sobel(src, dst, dd, d.dx, d.dy, d.ksize, 1, 0, b, opts...)
			}})
		}
	}
	sizes := append([][2]int{{2, 7}, {9, 481}, {33, 960}, {70, 1000}}, tu.Sizes...)
	if os.Getenv("GPUIMG_QUICK") != "" { // under compute-sanitizer
		sizes = [][2]int{{9, 481}, {37, 1}, {300, 451}}
	}
	launches := convolve.Launches()
	opt := gpuimage.BorderValue(gpuimage.NewScalar(17, 250, 3, 99))
	checked := 0
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4} {
		for _, c := range calls {
			for _, sz := range sizes {
				for _, roi := range []bool{false, true} {
					for _, b := range borders {
						name := fmt.Sprintf("%v/%s/%dx%d/roi=%v/%v", mt, c.name, sz[0], sz[1], roi, b)
						compareAligned(t, r, gpu, name, sz[0], sz[1], mt, roi, 0, func(src, dst *gpuimage.Image) error {
							return c.run(src, dst, b, opt)
						})
						checked++
					}
				}
			}
		}
	}
	// Views of a Gaussian that are not isolated are not blurred in fixed point (as
	// OpenCV does): those take the float kernels. Everything else took this one.
	n := 0
	for _, k := range launches() {
		n += k
	}
	if n < checked/2 {
		t.Errorf("the packed kernel ran %d times in %d cases", n, checked)
	}
	t.Logf("%d cases checked, %d on the packed kernel", checked, n)
}

// The tensor-core kernel (filter2D of up to 7 rows, 8U to 8U, taps as integers of 2
// or 3 signed-byte digits) against the CPU device, within ±1, on every border, whole
// images and views whose rows start 16-byte aligned (its condition), with anchors at
// both ends and a per-channel constant border value. Every call in the matrix takes
// it, and both digit counts run.
func TestCUDAImma(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	soft := func(kh, kw int, add, div float64) [][]float64 { return softKernel(r, kh, kw, add, div) }
	integer := [][]float64{{0, 0, 1, 1, 1, 0, 0}, {0, 1, 2, 2, 2, 1, 0}, {1, 2, -3, -7, -3, 2, 1}, {1, 2, -7, -24, -7, 2, 1},
		{1, 2, -3, -7, -3, 2, 1}, {0, 1, 2, 2, 2, 1, 0}, {0, 0, 1, 1, 1, 0, 0}}
	calls := []struct {
		name   string
		k      [][]float64
		anchor image.Point
		delta  float64
	}{
		{"soft 7x7", soft(7, 7, 0.6, 40), image.Pt(-1, -1), 0.5},
		{"signed 7x7", soft(7, 7, 0.1, 8), image.Pt(-1, -1), 100}, // 3 digits
		{"integer 7x7", integer, image.Pt(-1, -1), 128},           // exact
		{"7x6 anchor(1,5)", soft(6, 7, 0.5, 30), image.Pt(1, 5), -2},
		{"6x7 anchor(2,4)", soft(7, 6, 0.5, 30), image.Pt(2, 4), 0.25},
		{"3x7 anchor(0,0)", soft(7, 3, 0.5, 12), image.Pt(0, 0), 0},
		{"7x7 anchor(6,6)", soft(7, 7, 0.6, 40), image.Pt(6, 6), 0},
	}
	sizes := append([][2]int{{2, 7}, {9, 481}, {33, 960}, {129, 65}, {257, 130}}, tu.Sizes...)
	if os.Getenv("GPUIMG_QUICK") != "" { // under compute-sanitizer
		sizes = [][2]int{{9, 481}, {37, 1}, {257, 130}}
	}
	launches := convolve.Launches()
	opt := gpuimage.BorderValue(gpuimage.NewScalar(17, 250, 3, 99))
	checked := 0
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4} {
		for _, c := range calls {
			for _, sz := range sizes {
				rows, cols := sz[0], sz[1]
				if len(c.k[0]) > cols && len(c.k) > rows { // refused
					continue
				}
				for _, roi := range []bool{false, true} {
					for _, b := range borders {
						name := fmt.Sprintf("%v/%s/%dx%d/roi=%v/%v", mt, c.name, rows, cols, roi, b)
						compareAligned(t, r, gpu, name, rows, cols, mt, roi, 1, func(src, dst *gpuimage.Image) error {
							return convolve.Filter2D(src, dst, convolve.SameDepth, c.k, c.anchor, c.delta, b, opt)
						})
						checked++
					}
				}
			}
		}
	}
	n := launches()
	total := 0
	for name, k := range n {
		if strings.HasPrefix(name, "gi_imma_") {
			total += k
		}
	}
	if total != checked || n["gi_imma_k7_c3_d2"] == 0 || n["gi_imma_k7_c3_d3"] == 0 {
		t.Errorf("the tensor-core kernel ran %d times in %d cases: %v", total, checked, n)
	}
	t.Logf("%d cases checked: %v", checked, n)
}
