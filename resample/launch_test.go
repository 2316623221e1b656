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

// Every kernel shape Poly and UpFirDn launch on the recorder (the CUDA launch code
// without a GPU): each register kernel, the generic one for long branches and large
// up; each must exist in the fatbin.
func TestLaunchedKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	src := rec.Image(t, 3, 5000, gpuimage.CV32FC1)
	for _, ud := range [][2]int{{160, 147}, {147, 160}, {2, 1}, {1, 2}, {1, 3}, {1, 7}, {1000, 999}} {
		dst := &gpuimage.Image{}
		if err := resample.Poly(src, dst, ud[0], ud[1], nil); err != nil {
			t.Fatal(err)
		}
		dst.Close()
	}
	for _, m := range []int{1, 9, 17, 25, 33, 49, 65} {
		for _, down := range []int{1, 2, 3} {
			dst := &gpuimage.Image{}
			if err := resample.UpFirDn(src, dst, make([]float64, m), 1, down); err != nil {
				t.Fatal(err)
			}
			dst.Close()
		}
	}
	rec.CheckLaunched(t)
}

// Every kernel Resize launches: each interpolation and depth, shrinking and
// enlarging (by exactly 2 too: gi_resize_lin2x_*, gi_resize_cub2x_*,
// gi_resize_cubhalf_*), the 2x2 fast path at each channel count and unaligned.
func TestResizeKernelsExist(t *testing.T) {
	rec := tu.NewRecorder()
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC2, gpuimage.CV8UC3, gpuimage.CV8UC4,
		gpuimage.CV16UC1, gpuimage.CV16SC3, gpuimage.CV32FC1} {
		src := rec.Image(t, 60, 90, mt)
		for _, in := range []resample.Interpolation{resample.InterNearest, resample.InterLinear, resample.InterCubic,
			resample.InterArea, resample.InterLanczos4, resample.InterLinearExact, resample.InterNearestExact} {
			for _, k := range [][2]float64{{0.5, 0.5}, {1.0 / 3, 1.0 / 3}, {0.3, 0.7}, {2.5, 1.5}, {2, 2}} {
				dst := &gpuimage.Image{}
				if err := resample.Resize(src, dst, image.Point{}, k[0], k[1], in); err != nil {
					t.Fatal(err)
				}
				dst.Close()
			}
		}
		for _, b := range []gpuimage.BorderType{gpuimage.BorderDefault, gpuimage.BorderReplicate} {
			dst := &gpuimage.Image{}
			if err := resample.PyrDown(src, dst, image.Point{}, b); err != nil {
				t.Fatal(err)
			}
			dst.Close()
		}
		dst := &gpuimage.Image{}
		if err := resample.PyrUp(src, dst, image.Point{}, gpuimage.BorderDefault); err != nil {
			t.Fatal(err)
		}
		dst.Close()
		for _, sz := range []image.Point{{30, 20}, {45, 30}, {3, 1}, {200, 60}} {
			for _, f := range []resample.Filter{resample.Box, resample.Lanczos3} {
				dst := &gpuimage.Image{}
				if err := resample.Scale(src, dst, sz, f); err != nil {
					t.Fatal(err)
				}
				dst.Close()
			}
		}
		src.Close()
	}
	rec.CheckLaunched(t)
}

// Which area shrinks the vertical-first kernel takes: by default those of 2.5
// source rows an output row or more (whatever the horizontal factor), with
// GPUIMG_AREAF=off none, with =on all it can.
func TestAreafRouting(t *testing.T) {
	sizes := []image.Point{{22, 22}, {300, 86}, {256, 144}, {22, 100}, {100, 216}}
	for _, c := range []struct {
		mode string
		want int
	}{{"", 2}, {"auto", 2}, {"off", 0}, {"on", 5}} {
		func() {
			defer resample.SetAreafMode(c.mode)()
			rec := tu.NewRecorder()
			src := rec.Image(t, 216, 384, gpuimage.CV8UC3)
			defer src.Close()
			for _, sz := range sizes {
				dst := &gpuimage.Image{}
				if err := resample.Resize(src, dst, sz, 0, 0, resample.InterArea); err != nil {
					t.Fatal(err)
				}
				dst.Close()
			}
			if n := rec.Launched("gi_resize_areaf_u8c3"); n != c.want {
				t.Errorf("GPUIMG_AREAF=%q: gi_resize_areaf_u8c3 launched %d times for %v, want %d", c.mode, n, sizes, c.want)
			}
		}()
	}
}

// The vertical-first area kernel, forced (GPUIMG_AREAF=on): InterArea's 8-bit
// fractional shrinks of 1, 3 and 4 channels launch gi_resize_areaf_u8cN, which
// exists.
func TestAreafKernelsExist(t *testing.T) {
	defer resample.SetAreafMode("on")()
	rec := tu.NewRecorder()
	for _, cn := range []int{1, 3, 4} {
		src := rec.Image(t, 216, 384, gpuimage.MakeType(gpuimage.Depth8U, cn))
		for _, sz := range []image.Point{{22, 22}, {256, 144}, {100, 216}} {
			dst := &gpuimage.Image{}
			if err := resample.Resize(src, dst, sz, 0, 0, resample.InterArea); err != nil {
				t.Fatal(err)
			}
			dst.Close()
		}
		src.Close()
		if name := fmt.Sprintf("gi_resize_areaf_u8c%d", cn); rec.Launched(name) != 3 {
			t.Errorf("%s launched %d times, want 3", name, rec.Launched(name))
		}
	}
	rec.CheckLaunched(t)
}

// The kernel each shape gets: register kernels for short branches (the block a
// multiple of up, or of up/2 for two outputs a thread with even steps; the two
// stages within 48 KB), two outputs a thread where down <= 2 up and the branch has
// at most 32 taps (and blocks of at most 352 threads for 24 taps or fewer), fewer
// outputs a thread where the device's blocks (4 an SM here) would get fewer than
// two items each, the generic kernel for long branches and up past 512.
func TestPolyKernelChoice(t *testing.T) {
	for _, c := range []struct {
		n, rows, m, up, down int
		name                 string
		block, k             int
	}{
		{1000000, 1, 3201 + 147, 160, 147, "gi_resample_r22p2d1", 160, 3},
		{1000000, 64, 3201 + 160, 147, 160, "gi_resample_r24p2d2", 147, 8},
		{1000, 1, 3201 + 147, 160, 147, "gi_resample_r22p2d1", 160, 1},
		{1000000, 1, 41 + 1, 2, 1, "gi_resample_r22p2d1", 128, 7},
		{1000000, 1, 41 + 2, 1, 2, "gi_resample_r48", 128, 3},
		{1000000, 1, 10, 1, 3, "gi_resample_r16", 128, 2},
		{1000000, 1, 141 + 7, 1, 7, "gi_resample_any", 128, 0},
		{1000000, 1, 20001, 1000, 999, "gi_resample_any", 128, 0},
		{1000000, 1, 7, 3, 1, "gi_resample_r8p2d1", 129, 8},
		{1000000, 1, 7, 256, 1, "gi_resample_r8p2d1", 256, 8},
		{1000000, 1, 7, 353, 1, "gi_resample_r8", 353, 8},
		{1000000, 1, 7, 353, 2, "gi_resample_r8", 353, 8},
		{1000000, 1, 60, 2, 1, "gi_resample_r32p2d1", 128, 7},
	} {
		name, block, k, w := resample.PolyKernel(c.n, c.rows, c.m, c.up, c.down, 132)
		if name != c.name || block != c.block || k != c.k || 2*w*4 > 48<<10 {
			t.Errorf("%d x %d, %d taps, %d/%d: %s block %d k %d stage %d, want %s block %d k %d", c.rows, c.n, c.m, c.up, c.down, name, block, k, w, c.name, c.block, c.k)
		}
	}
}

// The kernel each resize gets: the 8-bit linear and cubic kernels for 1, 3 and 4
// channels, the tile kernels for 8-bit Lanczos4, cubic shrinks and fractional
// area shrinks of 1, 3 and 4 channels, the register kernels by taps, the two
// passes for filters longer than 8 taps.
func TestResizeKernelChoice(t *testing.T) {
	for _, c := range []struct {
		sw, sh, dw, dh, cn int
		in                 resample.Interpolation
		name               string
	}{
		{3840, 2160, 1280, 720, 3, resample.InterLinear, "gi_resize_sep8_2_c3"},
		{1920, 1080, 3840, 2160, 1, resample.InterLinear, "gi_resize_sep8_2_c1"},
		{1920, 1080, 3000, 2000, 4, resample.InterLinear, "gi_resize_sep8_2_c4"},
		{1920, 1080, 3000, 2000, 2, resample.InterLinear, "gi_resize_reg_x8_2_u8"},
		{1920, 1080, 3000, 2000, 3, resample.InterArea, "gi_resize_sep8_2_c3"},
		{3840, 2160, 1920, 1080, 3, resample.InterCubic, "gi_resize_tile_x8_4_u8c3"},
		{1920, 1080, 1280, 720, 1, resample.InterCubic, "gi_resize_tile_x8_4_u8c1"},
		{1920, 1080, 3840, 2160, 3, resample.InterCubic, "gi_resize_tile_x8_4_u8c3"},
		{640, 480, 1280, 960, 4, resample.InterCubic, "gi_resize_tile_x8_4_u8c4"},
		{1920, 1080, 3840, 1080, 1, resample.InterCubic, "gi_resize_tile_x8_4_u8c1"},
		{1920, 1080, 3840, 2160, 2, resample.InterCubic, "gi_resize_reg_x8_4_u8"},
		{3840, 2160, 1920, 1080, 2, resample.InterCubic, "gi_resize_reg_x8_4_u8"},
		{3840, 2160, 1920, 1080, 3, resample.InterLanczos4, "gi_resize_tile_x8_8_u8c3"},
		{1920, 1080, 3840, 2160, 4, resample.InterLanczos4, "gi_resize_tile_x8_8_u8c4"},
		{3840, 2160, 1920, 1080, 2, resample.InterLanczos4, "gi_resize_reg_x8_8_u8"},
		{3840, 2160, 1280, 720, 3, resample.InterCubic, "gi_resize_sep8_4_c3e2"},
		{3840, 2160, 480, 270, 3, resample.InterLanczos4, "gi_resize_reg_x8_8_u8c3"},
		{3840, 2160, 1280, 720, 4, resample.InterLanczos4, "gi_resize_tile_x8_8_u8c4"},
		{3840, 2160, 2560, 1440, 3, resample.InterArea, "gi_resize_tile_f_u8c3"},
		{3840, 2160, 224, 224, 3, resample.InterArea, "gi_resize_tile_f_u8c3"},
		{1920, 1080, 224, 224, 1, resample.InterArea, "gi_resize_tile_f_u8c1"},
		{3840, 2160, 300, 200, 4, resample.InterArea, "gi_resize_tile_f_u8c4"},
		{3840, 2160, 1000, 700, 3, resample.InterArea, "gi_resize_tile_f_u8c3"},
		{3840, 2160, 100, 50, 3, resample.InterArea, ""},
		{3840, 2160, 1000, 700, 2, resample.InterArea, "gi_resize_reg_f_8_u8"},
		{3840, 2160, 1000, 700, 3, resample.InterLinearExact, "gi_resize_reg_ex_2_u8"},
	} {
		if name, _ := resample.ResizeKernel(c.sw, c.sh, c.dw, c.dh, c.cn, c.in); name != c.name {
			t.Errorf("%dx%d -> %dx%d, %d channels, %v: %q, want %q", c.sw, c.sh, c.dw, c.dh, c.cn, c.in, name, c.name)
		}
	}
}

// The kernel each Scale gets: Pillow's 8-bit arithmetic in the register
// kernels for 1, 3 and 4 channels up to 8 taps, the two passes past them.
func TestScaleKernelChoice(t *testing.T) {
	for _, c := range []struct {
		sw, sh, dw, dh, cn int
		f                  resample.Filter
		name               string
	}{
		{3840, 2160, 1920, 1080, 3, resample.Lanczos3, ""},
		{3840, 2160, 1920, 1080, 4, resample.Bilinear, "gi_resize_reg_p_4_u8c4"}, // 4 taps an axis
		{3840, 2160, 1920, 2160, 1, resample.Bicubic, ""},                        // 8 taps, a shrink: the two passes
		{1920, 1080, 3840, 2160, 3, resample.Lanczos3, "gi_resize_reg_p_8_u8c3"},
		{3840, 2160, 1920, 1080, 2, resample.Lanczos3, ""},
		{3840, 2160, 256, 144, 3, resample.Lanczos3, ""},
	} {
		if name, _ := resample.ScaleKernel(c.sw, c.sh, c.dw, c.dh, c.cn, c.f); name != c.name {
			t.Errorf("%dx%d -> %dx%d, %d channels, %v: %q, want %q", c.sw, c.sh, c.dw, c.dh, c.cn, c.f, name, c.name)
		}
	}
}

// Which Scale plans the tensor-core passes take (on devices of compute
// capability 8.0 and newer, rows a multiple of 8 bytes apart): 8-bit plans but
// the shrinks of at most 4 taps an axis, both axes resampled, tiles of 16 outputs
// spanning at most 4 steps of 32 bytes on each pass; the steps (KS: the
// kernel gi_resize_mma_p_KS) for the bench's shapes.
func TestScalePMMAChoice(t *testing.T) {
	for _, c := range []struct {
		sw, sh, dw, dh, cn int
		f                  resample.Filter
		off                int
		h, v               int
		first              bool
	}{
		{3840, 2160, 1920, 1080, 3, resample.Lanczos3, 0, 3, 2, true},
		{3840, 2160, 1920, 1080, 3, resample.Lanczos3, 7, 3, 2, true},
		{3840, 2160, 1920, 1080, 1, resample.Lanczos3, 0, 2, 2, true},
		{3840, 2160, 1920, 1080, 4, resample.Lanczos3, 0, 3, 2, true},
		{3840, 2160, 1920, 1080, 3, resample.Bicubic, 0, 2, 2, true},
		{3840, 2160, 1920, 1080, 3, resample.Bilinear, 0, 2, 2, false}, // 4 taps: the register kernel
		{1920, 1080, 3840, 2160, 3, resample.Lanczos3, 0, 1, 1, true},  // 6 taps, enlarging
		{1920, 1080, 3840, 2160, 3, resample.Bicubic, 0, 1, 1, true},   // 4 taps, enlarging
		{3840, 2160, 1280, 720, 3, resample.Lanczos3, 0, 4, 2, true},   // 18 taps
		{3840, 2160, 256, 144, 3, resample.Lanczos3, 0, 0, 0, true},    // 90 taps: too many
		{3840, 2160, 1920, 2160, 3, resample.Lanczos3, 0, 0, 0, false}, // one axis: the other kernels
	} {
		h, v, first := resample.ScalePMMA(c.sw, c.sh, c.dw, c.dh, c.cn, c.f, c.off)
		if h != c.h || v != c.v || first != c.first {
			t.Errorf("%dx%d -> %dx%d, %d channels, %v, offset %d: steps %d, %d, first %v; want %d, %d, %v",
				c.sw, c.sh, c.dw, c.dh, c.cn, c.f, c.off, h, v, first, c.h, c.v, c.first)
		}
	}
}

// The two passes' horizontal kernel: taps read as words for 8-bit images of 1, 3
// and 4 channels up to 32 taps, a thread an element from 16x for 3 and 4
// channels, the element-wise pixel kernel else.
func TestScaleHKernelChoice(t *testing.T) {
	for _, c := range []struct {
		sw, dw, cn int
		f          resample.Filter
		name       string
	}{
		{3840, 1920, 3, resample.Lanczos3, "gi_resize_hw_p_16_u8c3"}, // 12 taps
		{3840, 1920, 1, resample.Bicubic, "gi_resize_hw_p_16_u8c1"},  // 8
		{3840, 960, 4, resample.Lanczos3, "gi_resize_hw_p_32_u8c4"},  // 24
		{3840, 1920, 2, resample.Lanczos3, "gi_resize_h_p_u8"},
		{3840, 640, 3, resample.Lanczos3, "gi_resize_h_p_u8"}, // 36
		{3840, 256, 3, resample.Lanczos3, "gi_resize_h_p_u8"},
		{3840, 240, 3, resample.Bilinear, "gi_resize_he_p_u8"},
	} {
		if name := resample.ScaleHKernel(c.sw, 2160, c.dw, 1080, c.cn, c.f); name != c.name {
			t.Errorf("%d -> %d, %d channels, %v: %q, want %q", c.sw, c.dw, c.cn, c.f, name, c.name)
		}
	}
}

// The register kernels' launches: float plans of 4 or 8 taps (16U, 16S, 32F cubic
// and Lanczos4) whose tiles would be shorter than 4 rows take an element a thread
// (f1) and taller tiles; 2 taps, 8U and taller tiles keep theirs. Float Lanczos4
// enlargements of 3 channels take the 3-channel kernel, however short their tiles.
func TestResizeRegLaunch(t *testing.T) {
	for _, c := range []struct {
		sw, sh, dw, dh, cn int
		d                  gpuimage.Depth
		in                 resample.Interpolation
		name               string
		th                 int
	}{
		{1920, 1080, 960, 540, 1, gpuimage.Depth32F, resample.InterCubic, "gi_resize_reg_f1_4_f32", 2},
		{3840, 2160, 1920, 1080, 1, gpuimage.Depth16U, resample.InterCubic, "gi_resize_reg_f1_4_u16", 7},
		{1920, 1080, 1280, 720, 1, gpuimage.Depth16S, resample.InterLanczos4, "gi_resize_reg_f1_8_s16", 3},
		{3840, 2160, 1920, 1080, 3, gpuimage.Depth16U, resample.InterCubic, "gi_resize_reg_f_4_u16", 6},
		{1920, 1080, 1280, 720, 1, gpuimage.Depth32F, resample.InterLinear, "gi_resize_reg_f_2_f32", 1},
		{1920, 1080, 3840, 2160, 3, gpuimage.Depth16U, resample.InterLanczos4, "gi_resize_reg_f_8_u16c3", 46},
		{64, 48, 128, 96, 3, gpuimage.Depth32F, resample.InterLanczos4, "gi_resize_reg_f_8_f32c3", 1},
		{3840, 2160, 1920, 1080, 3, gpuimage.Depth32F, resample.InterLanczos4, "gi_resize_reg_f_8_f32", 11},
	} {
		name, gx, th := resample.ResizeRegLaunch(c.sw, c.sh, c.dw, c.dh, c.cn, c.d, c.in)
		if name != c.name || th != c.th || gx*128*4 < c.dw*c.cn {
			t.Errorf("%dx%d -> %dx%d x%d %v %v: %s, %d blocks a row, %d rows, want %s, %d rows", c.sw, c.sh, c.dw, c.dh, c.cn, c.d, c.in, name, gx, th, c.name, c.th)
		}
	}
}

// The tile kernels' shapes: every row tile's source rows within fr, the
// staged rows' stride past the widest span with room for the word-wise reads,
// shared memory as the kernel lays it out, within the block's limit; several
// rows a block where they fit.
func TestResizeTileShape(t *testing.T) {
	for _, c := range []struct {
		sw, sh, dw, dh, cn int
		in                 resample.Interpolation
		minTh              int
	}{
		{3840, 2160, 224, 224, 3, resample.InterArea, 1}, {1920, 1080, 224, 224, 3, resample.InterArea, 2},
		{1920, 1080, 1280, 720, 3, resample.InterArea, 16}, {3840, 2160, 2560, 1440, 4, resample.InterArea, 8},
		{451, 300, 17, 9, 1, resample.InterArea, 1}, {37, 5, 2, 1, 3, resample.InterArea, 1},
		{3840, 2160, 1920, 1080, 3, resample.InterCubic, 8}, {7680, 4320, 3840, 2160, 4, resample.InterCubic, 8},
		{3840, 2160, 1920, 1080, 3, resample.InterLanczos4, 8}, {1920, 1080, 3840, 2160, 3, resample.InterLanczos4, 32},
		{451, 300, 1000, 700, 1, resample.InterLanczos4, 8}, {7, 5, 3, 2, 4, resample.InterLanczos4, 1},
	} {
		th, fr, rs, smem := resample.ResizeTile(c.sw, c.sh, c.dw, c.dh, c.cn, c.in)
		sx, sy := float64(c.sw)/float64(c.dw), float64(c.sh)/float64(c.dh)
		taps := map[resample.Interpolation]float64{resample.InterCubic: 4, resample.InterLanczos4: 8}[c.in]
		name := fmt.Sprintf("%dx%d -> %dx%d x%d %v", c.sw, c.sh, c.dw, c.dh, c.cn, c.in)
		switch {
		case th < c.minTh:
			t.Errorf("%s: %d rows a block, want at least %d", name, th, c.minTh)
		case float64(fr) < sy*float64(min(th, c.dh)) || float64(fr) > sy*float64(th)+max(taps, math.Ceil(sy)+1)+1:
			t.Errorf("%s: %d rows staged for %d output rows of %.3g", name, fr, th, sy)
		case rs%16 != 0 || float64(rs) < sx*32*float64(c.cn) && c.dw > 32 || rs < 48:
			t.Errorf("%s: rows %d bytes apart", name, rs)
		case smem > 96<<10 || smem < fr*rs:
			t.Errorf("%s: %d bytes of shared memory", name, smem)
		}
	}
}

// The fixed-weight kernels take their plans where the output's rows are 4-byte
// aligned (for 4 channels every view) and, for cubhalf's word loads, the
// source's 8-byte aligned; the general kernels otherwise.
func TestResizeFixedLaunch(t *testing.T) {
	for _, cn := range []int{1, 3, 4} {
		mt := gpuimage.MakeType(gpuimage.Depth8U, cn)
		for _, c := range []struct {
			kernel string
			in     resample.Interpolation
			f      float64
		}{{"lin2x", resample.InterLinear, 2}, {"cub2x", resample.InterCubic, 2}, {"cubhalf", resample.InterCubic, 0.5}} {
			rec := tu.NewRecorder()
			run := func(src, dst *gpuimage.Image) {
				t.Helper()
				if err := resample.Resize(src, dst, image.Point{}, c.f, c.f, c.in); err != nil {
					t.Fatal(err)
				}
			}
			region := func(im *gpuimage.Image, r image.Rectangle) *gpuimage.Image {
				t.Helper()
				v, err := im.Region(r)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			src := rec.Image(t, 46, 62, mt)
			dw, dh := int(62*c.f), int(46*c.f)
			want := 1
			dst := &gpuimage.Image{}
			run(src, dst)
			dst.Close()
			big := rec.Image(t, dh+5, dw+9, mt)
			v := region(big, image.Rect(1, 2, 1+dw, 2+dh)) // one pixel in: unaligned
			run(src, v)
			v.Close()
			if cn == 4 { // a pixel of 4 bytes: every view is aligned
				want++
			}
			if c.kernel == "cubhalf" {
				sbig := rec.Image(t, 50, 80, mt)
				for _, x := range []int{1, 8} { // 8 pixels in: aligned to 8 bytes
					sv, out := region(sbig, image.Rect(x, 3, x+62, 3+46)), &gpuimage.Image{}
					run(sv, out)
					out.Close()
					sv.Close()
				}
				want++
			}
			name := fmt.Sprintf("gi_resize_%s_u8c%d", c.kernel, cn)
			if got := rec.Launched(name); got != want {
				t.Errorf("8UC%d: %s launched %d times, want %d", cn, name, got, want)
			}
		}
	}
}
