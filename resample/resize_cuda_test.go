//go:build cuda

package resample_test

import (
	"fmt"
	"image"
	"math/rand"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/resample"
)

// Resize on the GPU against the CPU device on fresh random images: every
// interpolation, depth and channel count, shrinking and enlarging by integer and
// fractional factors (the 2x2 fast path among them; one axis kept, where
// InterArea's float plan has a tap a pixel on it), 1x1, 1xN, Nx1, 451x300 and
// 4097x3 images, views inside a larger image (unaligned: the fast path's fallback),
// into poisoned outputs. The kernels reproduce the CPU twin's arithmetic operation
// for operation, so the results must be identical, except InterArea's 8-bit
// fractional shrinks on gi_resize_areaf_* (the steep ones by default, all with
// GPUIMG_AREAF=on, none with =off: rows summed first):
// within one, at most one element in a hundred off (areafTol).
func TestCUDAResizeMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	types := []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC2, gpuimage.CV8UC3, gpuimage.CV8UC4,
		gpuimage.CV16UC1, gpuimage.CV16UC4, gpuimage.CV16SC3, gpuimage.CV32FC1, gpuimage.CV32FC3}
	shapes := [][2]int{{1, 1}, {1, 37}, {29, 1}, {300, 451}, {3, 4097}, {64, 96}}
	scales := []resizeCase{{fx: 0.5, fy: 0.5}, {fx: 2, fy: 2}, {fx: 1.0 / 3, fy: 0.25}, {fx: 0.3, fy: 1.7},
		{fx: 0.06, fy: 0.05}, {size: image.Pt(17, 9)}, {size: image.Pt(1, 1)}, {fx: 1.01, fy: 0.99}, {fx: 2.0 / 3, fy: 2.0 / 3},
		{fx: 1, fy: 2.0 / 3}}
	for _, mt := range types {
		for _, sh := range shapes {
			for _, roi := range []bool{false, true} {
				if roi && sh[0] == 1 {
					continue
				}
				cs, gs := randomViews(t, r, gpu, mt, sh, roi)
				for _, k := range scales {
					w, h := float64(sh[1])*k.fx, float64(sh[0])*k.fy
					if k.size == (image.Point{}) && (w <= 0.5 || h <= 0.5) {
						continue
					}
					for _, in := range allInterps {
						name := fmt.Sprintf("%v/%dx%d/roi=%v/%v/size=%v,fx=%.3g,fy=%.3g", mt, sh[1], sh[0], roi, in, k.size, k.fx, k.fy)
						tol := areafTol(mt, sh[1], sh[0], k.size, k.fx, k.fy, in)
						if err := closeOnGPU(t, gpu, name, mt, cs, gs, tol, func(src, dst *gpuimage.Image) error {
							return resample.Resize(src, dst, k.size, k.fx, k.fy, in)
						}); err != nil {
							t.Fatalf("%s: CPU: %v", name, err)
						}
					}
				}
				cs.Close()
				gs.Close()
			}
		}
	}
}

// The kernels that specialise on the pixel's layout, for every depth and channel
// count: the 2x2 halving (InterLinear's and InterArea's fast path,
// gi_resize_area2_*) and nearest's gathers (whole pixels of 2 to 16 bytes as one
// element, 3 channels 4 pixels a thread), on shapes with whole groups, a partial
// last group and an odd last row, aligned and as unaligned views (the fallbacks).
func TestCUDAResizeEveryTypeMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	cases := []struct {
		in resample.Interpolation
		f  float64
	}{{resample.InterLinear, 0.5}, {resample.InterArea, 0.5}, {resample.InterNearest, 0.5}, {resample.InterNearest, 2},
		{resample.InterNearestExact, 2.0 / 3}}
	for _, d := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F} {
		for cn := 1; cn <= 4; cn++ {
			mt := gpuimage.MakeType(d, cn)
			for _, sh := range [][2]int{{64, 96}, {301, 451}, {303, 35}, {3, 4097}, {2, 17}} {
				for _, roi := range []bool{false, true} {
					cs, gs := randomViews(t, r, gpu, mt, sh, roi)
					for _, c := range cases {
						name := fmt.Sprintf("%v/%dx%d/roi=%v/%v/f=%.3g", mt, sh[1], sh[0], roi, c.in, c.f)
						if err := sameOnGPU(t, gpu, name, mt, cs, gs, func(src, dst *gpuimage.Image) error {
							return resample.Resize(src, dst, image.Point{}, c.f, c.f, c.in)
						}); err != nil {
							t.Fatalf("%s: CPU: %v", name, err)
						}
					}
					cs.Close()
					gs.Close()
				}
			}
		}
	}
}

// The fixed-weight kernels against the CPU device: InterLinear's and InterCubic's
// 8-bit enlargements by exactly 2 (gi_resize_lin2x_*, gi_resize_cub2x_*) and
// InterCubic's shrinks by exactly 2 (gi_resize_cubhalf_*), 1, 3 and 4 channels,
// from the smallest sizes up, odd widths (a thread's last pixels past the row; a
// shrink's source a pixel wider than twice its output, whose last words would
// pass the row's end), whole images, unaligned views (the general kernels for
// cubhalf) and views 8 pixels in (8-byte aligned: the fixed kernels) as sources,
// into poisoned images and into aligned views of a poisoned image, whose
// surroundings must keep their poison.
func TestCUDAResizeFixedMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	up := [][2]int{{1, 1}, {1, 2}, {2, 1}, {37, 1}, {1, 37}, {3, 5}, {300, 451}, {3, 4097}, {129, 130}}
	down := [][2]int{{2, 2}, {2, 9}, {9, 2}, {3, 5}, {5, 3}, {301, 451}, {4, 4097}, {129, 130}, {600, 902}, {66, 2050}}
	cases := []struct {
		in     resample.Interpolation
		f      float64
		shapes [][2]int
	}{{resample.InterLinear, 2, up}, {resample.InterCubic, 2, up}, {resample.InterCubic, 0.5, down}}
	for cn := 1; cn <= 4; cn++ {
		if cn == 2 {
			continue
		}
		mt := gpuimage.MakeType(gpuimage.Depth8U, cn)
		for _, c := range cases {
			for _, sh := range c.shapes {
				for roi := 0; roi < 3; roi++ {
					var cs, gs *gpuimage.Image
					if roi < 2 {
						cs, gs = randomViews(t, r, gpu, mt, sh, roi == 1)
					} else { // 8 pixels in, 3 rows down: 8-byte aligned
						cs, gs = viewsAt(t, r, gpu, mt, sh, image.Pt(8, 3), image.Pt(16, 4))
					}
					name := fmt.Sprintf("%v/%v/f=%g/%dx%d/roi=%d", mt, c.in, c.f, sh[1], sh[0], roi)
					run := func(src, dst *gpuimage.Image) error {
						return resample.Resize(src, dst, image.Point{}, c.f, c.f, c.in)
					}
					if err := sameOnGPU(t, gpu, name, mt, cs, gs, run); err != nil {
						t.Fatalf("%s: CPU: %v", name, err)
					}
					want := &gpuimage.Image{}
					if err := run(cs, want); err != nil {
						t.Fatal(err)
					}
					// Into a view 4 pixels in and 2 rows down of a poisoned image with
					// 3 rows and 8 pixels to spare.
					dh, dw := want.Rows(), want.Cols()
					big := tu.Poisoned(t, gpu, dh+3, dw+8, mt)
					v, err := big.Region(image.Rect(4, 2, 4+dw, 2+dh))
					if err != nil {
						t.Fatal(err)
					}
					if err := run(gs, v); err != nil {
						t.Fatalf("%s: GPU into a view: %v", name, err)
					}
					all, wb := tu.Bytes(t, big), tu.Bytes(t, want)
					for y := 0; y < dh+3; y++ {
						for x := 0; x < (dw+8)*cn; x++ {
							got, w := all[y*(dw+8)*cn+x], byte(tu.PoisonByte)
							if y >= 2 && y < 2+dh && x >= 4*cn && x < (4+dw)*cn {
								w = wb[(y-2)*dw*cn+x-4*cn]
							}
							if got != w {
								t.Fatalf("%s: into a view: row %d element %d is %d, want %d", name, y, x, got, w)
							}
						}
					}
					v.Close()
					big.Close()
					want.Close()
					cs.Close()
					gs.Close()
				}
			}
		}
	}
}

// The bench's shapes, 4K 8UC3 down to 1080p, 1440p (2/3) and 224x224 and up to
// 8K, and Scale's antialiased shrinks to 1080p and 1000x700, on both devices.
func TestCUDAResizeLargeMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	data := tu.RandomBytes(r, gpuimage.Depth8U, 2160*3840*3)
	cs, gs := view(t, gpuimage.CPU(), 2160, 3840, gpuimage.CV8UC3, data, image.Rect(0, 0, 3840, 2160)),
		view(t, gpu, 2160, 3840, gpuimage.CV8UC3, data, image.Rect(0, 0, 3840, 2160))
	defer cs.Close()
	defer gs.Close()
	for _, sz := range []image.Point{{1920, 1080}, {2560, 1440}, {224, 224}, {7680, 4320}} {
		for _, in := range allInterps {
			if testing.Short() && sz.X > 3840 && in != resample.InterLinear {
				continue
			}
			name := fmt.Sprintf("4K -> %v %v", sz, in)
			tol := areafTol(gpuimage.CV8UC3, 3840, 2160, sz, 0, 0, in)
			if err := closeOnGPU(t, gpu, name, gpuimage.CV8UC3, cs, gs, tol, func(src, dst *gpuimage.Image) error {
				return resample.Resize(src, dst, sz, 0, 0, in)
			}); err != nil {
				t.Fatalf("%s: CPU: %v", name, err)
			}
		}
	}
	for _, sz := range []image.Point{{1920, 1080}, {1000, 700}} {
		for _, f := range []resample.Filter{resample.Bilinear, resample.Lanczos3} {
			name := fmt.Sprintf("4K -> %v Scale %v", sz, f)
			if err := sameOnGPU(t, gpu, name, gpuimage.CV8UC3, cs, gs, func(src, dst *gpuimage.Image) error {
				return resample.Scale(src, dst, sz, f)
			}); err != nil {
				t.Fatalf("%s: CPU: %v", name, err)
			}
		}
	}
}

// PyrDown and PyrUp on the GPU against the CPU device: every depth, odd and even
// sizes, the sizes OpenCV allows, PyrDown's border rules, views; identical results.
func TestCUDAPyrMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	types := []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV16UC1, gpuimage.CV16SC4, gpuimage.CV32FC1, gpuimage.CV32FC3}
	for _, mt := range types {
		for _, sh := range [][2]int{{1, 1}, {1, 37}, {29, 1}, {2, 3}, {300, 451}, {3, 4097}} {
			rect := image.Rect(3, 2, 3+sh[1], 2+sh[0])
			data := tu.RandomBytes(r, mt.Depth(), (sh[0]+5)*(sh[1]+7)*mt.Channels())
			cs, gs := view(t, gpuimage.CPU(), sh[0]+5, sh[1]+7, mt, data, rect), view(t, gpu, sh[0]+5, sh[1]+7, mt, data, rect)
			type call struct {
				name string
				f    func(src, dst *gpuimage.Image) error
			}
			var calls []call
			for _, b := range []gpuimage.BorderType{gpuimage.BorderDefault, gpuimage.BorderReplicate, gpuimage.BorderReflect, gpuimage.BorderWrap} {
				for _, ds := range []image.Point{{}, {sh[1]/2 + 1, sh[0]/2 + 1}, {max(1, sh[1]/2), max(1, sh[0]/2)}} {
					calls = append(calls, call{fmt.Sprintf("PyrDown %v %v", b, ds), func(src, dst *gpuimage.Image) error {
						return resample.PyrDown(src, dst, ds, b)
					}})
				}
			}
			for _, us := range []image.Point{{}, {sh[1]*2 + 1, sh[0]*2 + 1}, {sh[1]*2 - 1, sh[0]*2 - 1}} {
				calls = append(calls, call{fmt.Sprintf("PyrUp %v", us), func(src, dst *gpuimage.Image) error {
					return resample.PyrUp(src, dst, us, gpuimage.BorderDefault)
				}})
			}
			for _, c := range calls {
				// A CPU error is a size the call refuses for this source: skipped.
				_ = sameOnGPU(t, gpu, fmt.Sprintf("%v %dx%d %s", mt, sh[1], sh[0], c.name), mt, cs, gs, c.f)
			}
			cs.Close()
			gs.Close()
		}
	}
}

// Scale on the GPU against the CPU device: every filter and depth, 1 to 4
// channels, shrinking (by 2 and 4: the word-wise horizontal pass's 16 and 32
// taps; steep shrinks whose weights are too many for the horizontal pass to stage
// among them; one axis shrunk by 9 and the other enlarged, whose weights at the
// edges pass 2^22), enlarging, one axis only (each way: the other pass
// then has the single weight 2^22), views; identical results.
func TestCUDAScaleMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC2, gpuimage.CV8UC3, gpuimage.CV8UC4, gpuimage.CV16UC1, gpuimage.CV16SC3, gpuimage.CV32FC3} {
		for _, sh := range [][2]int{{1, 1}, {1, 37}, {300, 451}, {3, 4097}, {700, 90}} {
			rect := image.Rect(3, 2, 3+sh[1], 2+sh[0])
			data := tu.RandomBytes(r, mt.Depth(), (sh[0]+5)*(sh[1]+7)*mt.Channels())
			cs, gs := view(t, gpuimage.CPU(), sh[0]+5, sh[1]+7, mt, data, rect), view(t, gpu, sh[0]+5, sh[1]+7, mt, data, rect)
			for _, sz := range []image.Point{{1, 1}, {sh[1]/2 + 1, sh[0]/2 + 1}, {sh[1]/9 + 1, sh[0]/40 + 1}, {sh[1]/4 + 1, sh[0]/3 + 1}, {sh[1]/9 + 1, sh[0]*2 + 1}, {sh[1]*2 + 1, sh[0] + 3}, {sh[1], sh[0]/3 + 1}, {sh[1]/20 + 1, sh[0]}} {
				if sz.X == sh[1] && sz.Y == sh[0] {
					continue
				}
				for _, f := range allFilters {
					name := fmt.Sprintf("%v %dx%d -> %v %v", mt, sh[1], sh[0], sz, f)
					if err := sameOnGPU(t, gpu, name, mt, cs, gs, func(src, dst *gpuimage.Image) error {
						return resample.Scale(src, dst, sz, f)
					}); err != nil {
						t.Fatalf("%s: CPU: %v", name, err)
					}
				}
			}
			cs.Close()
			gs.Close()
		}
	}
}

// sameOnGPU runs f on the CPU image cs and on the GPU image gs (into an output
// poisoned first, of the CPU result's shape) and reports every element that
// differs (the kernels reproduce the CPU twins exactly). It returns the CPU call's
// error, before running anything on the GPU.
func sameOnGPU(t *testing.T, gpu *gpuimage.Device, name string, mt gpuimage.MatType, cs, gs *gpuimage.Image, f func(src, dst *gpuimage.Image) error) error {
	t.Helper()
	return closeOnGPU(t, gpu, name, mt, cs, gs, 0, f)
}

// areafTol is the difference allowed between the devices for a resize of an
// image of type mt: one for the 8-bit area plans that gi_resize_areaf_* may
// take (their sums in another order than OpenCV's), else none.
func areafTol(mt gpuimage.MatType, cols, rows int, size image.Point, fx, fy float64, in resample.Interpolation) int {
	if mt.Depth() == gpuimage.Depth8U && in == resample.InterArea && resample.AreafTakes(cols, rows, mt.Channels(), size, fx, fy, in) {
		return 1
	}
	return 0
}

// closeOnGPU is sameOnGPU allowing elements to differ by up to tol, at most
// one in a hundred of them (and at least one) where tol is not zero.
func closeOnGPU(t *testing.T, gpu *gpuimage.Device, name string, mt gpuimage.MatType, cs, gs *gpuimage.Image, tol int, f func(src, dst *gpuimage.Image) error) error {
	t.Helper()
	want := &gpuimage.Image{}
	if err := f(cs, want); err != nil {
		return err
	}
	defer want.Close()
	got := tu.Poisoned(t, gpu, want.Rows(), want.Cols(), mt)
	defer got.Close()
	if err := f(gs, got); err != nil {
		t.Fatalf("%s: GPU: %v", name, err)
	}
	d := tu.Compare(mt.Depth(), tu.Bytes(t, got), tu.Bytes(t, want), float64(tol), 0)
	if d.Bad != 0 {
		t.Errorf("%s: %d of %d elements differ by more than %d (max %g); %s", name, d.Bad, d.N, tol, d.MaxAbs, d.First)
	}
	if off := d.N - d.Exact; tol != 0 && off > max(1, d.N/100) {
		t.Errorf("%s: %d of %d elements differ (by at most %d): more than one in a hundred", name, off, d.N, tol)
	}
	return nil
}

// randomViews is the same random image of type mt on the CPU device and on gpu:
// sh (rows, cols) itself, or with roi a view of that size 2 rows down and 3
// pixels in of a larger image (5 rows and 7 pixels more).
func randomViews(t testing.TB, r *rand.Rand, gpu *gpuimage.Device, mt gpuimage.MatType, sh [2]int, roi bool) (cs, gs *gpuimage.Image) {
	t.Helper()
	if roi {
		return viewsAt(t, r, gpu, mt, sh, image.Pt(3, 2), image.Pt(7, 5))
	}
	return viewsAt(t, r, gpu, mt, sh, image.Point{}, image.Point{})
}

// viewsAt is the same random image of type mt on the CPU device and on gpu: a
// view of sh (rows, cols) at at in an image more pixels and rows larger.
func viewsAt(t testing.TB, r *rand.Rand, gpu *gpuimage.Device, mt gpuimage.MatType, sh [2]int, at, more image.Point) (cs, gs *gpuimage.Image) {
	t.Helper()
	prow, pcol, rect := sh[0]+more.Y, sh[1]+more.X, image.Rect(at.X, at.Y, at.X+sh[1], at.Y+sh[0])
	data := tu.RandomBytes(r, mt.Depth(), prow*pcol*mt.Channels())
	return view(t, gpuimage.CPU(), prow, pcol, mt, data, rect), view(t, gpu, prow, pcol, mt, data, rect)
}

// view uploads a prow x pcol image of data to dev and returns its region rect.
func view(t testing.TB, dev *gpuimage.Device, prow, pcol int, mt gpuimage.MatType, data []byte, rect image.Rectangle) *gpuimage.Image {
	t.Helper()
	full, err := gpuimage.NewFromBytes(dev, prow, pcol, mt, data)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	v, err := full.Region(rect)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// BenchmarkCUDAResize times the 8-bit separable kernels beyond the bench's 8UC3
// cases: 1, 3 and 4 channels, linear, cubic, Lanczos4 and area, halving,
// doubling and fractional factors of a 1080p image, by CUDA events around the
// call.
func BenchmarkCUDAResize(b *testing.B) {
	gpu := tu.CUDA(b)
	r := tu.Rand(b)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4} {
		data := tu.RandomBytes(r, mt.Depth(), 1080*1920*mt.Channels())
		src := view(b, gpu, 1080, 1920, mt, data, image.Rect(0, 0, 1920, 1080))
		for _, in := range []resample.Interpolation{resample.InterLinear, resample.InterCubic, resample.InterLanczos4, resample.InterArea} {
			for _, f := range []float64{0.5, 2.0 / 3, 0.3, 0.125, 1.37, 2} {
				b.Run(fmt.Sprintf("%v/%v/x%.3g", mt, in, f), func(b *testing.B) {
					dst := &gpuimage.Image{}
					defer dst.Close()
					if err := resample.Resize(src, dst, image.Point{}, f, f, in); err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(data) + dst.Rows()*dst.Cols()*mt.Channels()))
					s, err := gpu.NewStream()
					if err != nil {
						b.Fatal(err)
					}
					defer s.Close()
					on := gpuimage.OnStream(s)
					tu.EventMedian(b, s, func() error { return resample.Resize(src, dst, image.Point{}, f, f, in, on) })
				})
			}
		}
		src.Close()
	}
}
