// Package colorconv converts images between colour spaces on the GPU or the CPU, as
// OpenCV's cvtColor and transform do: the same codes, value ranges and rounding.
//
// 8-bit and 16-bit results follow OpenCV's fixed-point arithmetic where OpenCV uses
// it (gray, YCrCb, YUV, XYZ, HSV, 8-bit RGB to Lab and Lab and Luv to RGB), so they
// are bit-exact with OpenCV; the other non-linear conversions go through float and
// agree within ±1. 32-bit RGB to Lab and Luv run OpenCV's own table and spline
// approximations (lab32.go) and give its results. Value ranges:
//   - 8U hue is 0..180 (HSV, HLS) or 0..255 (the _FULL codes); 32F hue is 0..360;
//   - 8U Lab is L*255/100, a+128, b+128; 32F Lab has L in 0..100;
//   - 8U Luv is L*255/100, (u+134)*255/354, (v+140)*255/262;
//   - 32F inputs of the non-linear conversions are expected in 0..1.
package colorconv

import (
	"fmt"
	"strings"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// CvtColor converts src to dst with the given code. dst is (re)allocated as the
// code requires, as gocv does, and may not be src itself. src may be a region view.
// OpenCV's rules apply: the BGR-to-X codes take 3 or 4 channels, the others 3
// (GRAY2X: 1); depths 8U, 16U and 32F (HSV, HLS, Lab, Luv: 8U and 32F).
func CvtColor(src, dst *gpuimage.Image, code Code, opts ...gpuimage.Option) error {
	sp, ok := specs[code]
	if !ok {
		return fmt.Errorf("colorconv.CvtColor: unknown or unsupported code %d", int(code))
	}
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("colorconv.CvtColor %v: %w", code, err)
	}
	if d := core.StateOf(dst); d != nil && (src == dst || core.Overlaps(s, d)) {
		// In place, or into a view overlapping the source: convert into a new image.
		return throughNew("colorconv.CvtColor", dst, opts, func(tmp *gpuimage.Image) error { return CvtColor(src, tmp, code, opts...) })
	}
	if !strings.Contains(" "+sp.depths+" ", " "+s.Depth.String()+" ") {
		return fmt.Errorf("colorconv.CvtColor %v: %w: depth %v (this code takes %s)", code, gpuimage.ErrBadType, s.Depth, sp.depths)
	}
	okCn := false
	for _, c := range sp.scn {
		okCn = okCn || c == s.Chans
	}
	if !okCn {
		return fmt.Errorf("colorconv.CvtColor %v: %w: %d channels (this code takes %v)", code, gpuimage.ErrBadType, s.Chans, sp.scn)
	}
	param := sp.param
	if s.Depth == core.Depth32F {
		param = sp.floatP
	}
	d := core.StateOf(dst)
	if err := d.Create(s.Dev, s.Rows, s.Cols, s.Depth, sp.dcn); err != nil {
		return fmt.Errorf("colorconv.CvtColor %v: %w", code, err)
	}
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			return cpuConvert(sp.fam, d, s, sp.bidx, param)
		}
		name := fmt.Sprintf("gi_cvt_%s_%s_%d%d", sp.fam, core.KernelSuffix(s.Depth), s.Chans, d.Chans)
		px := pixelsPerThread(sp.fam, s.Depth)
		if (sp.fam == "fromluv" || sp.fam == "fromlab") && s.Depth == core.Depth8U { // OpenCV's fixed point (fixed8.go)
			key := fmt.Sprintf("colorconv.fix8.%d", param)
			tab, err := core.Resident(s.Dev, key, func() []byte { return fix8Table(param).bytes() })
			if err != nil {
				return err
			}
			return launch(str, name, px, s, d, sp.bidx, tab)
		}
		if sp.fam == "lab" && s.Depth == core.Depth8U { // OpenCV's fixed point (lab8.go)
			tab, err := core.Resident(s.Dev, "colorconv.lab8", func() []byte { return lab8Table().bytes() })
			if err != nil {
				return err
			}
			rest := func(s, d *core.State) error { return launch(str, name, px, s, d, sp.bidx, tab, param) }
			if useSharedTables && core.MaxSharedOptin(s.Dev) >= labRepBytes+labRepStage {
				// Copies of the tables across the banks: one block per SM, runs of 8 pixels.
				return launchRuns(str, fmt.Sprintf("gi_cvt_labr_8u_%d3", s.Chans), labRepRun, labRepThreads, labRepBytes, s, d, rest, sp.bidx, tab, param)
			}
			return rest(s, d)
		}
		if (sp.fam == "lab" || sp.fam == "luv") && s.Depth == core.Depth32F { // OpenCV's tables (lab32.go)
			tab, err := core.Resident(s.Dev, "colorconv.lab32", func() []byte { return lab32Table().bytes() })
			if err != nil {
				return err
			}
			rest := func(s, d *core.State) error { return launch(str, name, px, s, d, sp.bidx, tab, param) }
			if sp.fam == "lab" && param == 1 && useSharedTables && core.MaxSharedOptin(s.Dev) >= labGridBytes {
				// The grid in shared memory: one block per SM, runs of 4 pixels.
				return launchRuns(str, fmt.Sprintf("gi_cvt_labs_32f_%d3", s.Chans), labGridRun, labGridThreads, labGridBytes, s, d, rest, sp.bidx, tab)
			}
			return rest(s, d)
		}
		return launch(str, name, px, s, d, sp.bidx, param)
	})
	if err != nil {
		return fmt.Errorf("colorconv.CvtColor %v: %w", code, err)
	}
	return nil
}

// useSharedTables lets the Lab kernels with large tables in shared memory run where
// the device has that much: 32F sRGB Lab with OpenCV's grid (211 KB) and 8U Lab
// with copies of its tables across the banks (192 KB). The tests turn it off to run the
// kernels that devices with less use (export_test.go).
var useSharedTables = true

// labRepBytes is gi_cvt_labr_8u's dynamic shared memory (kLabRepGammaBytes and the
// cube root's in kernels/color.cu); labRepStage is its static shared memory.
const (
	labRepBytes = 256*256 + 2048*64
	labRepStage = (256 + 2048) * 2
)

// The block sizes and pixels per run (kRun) of the kernels built on runs_body
// (their launch bounds and functors in kernels/color.cu).
const (
	labRepThreads  = 1024
	labRepRun      = 8
	labGridThreads = 768
	labGridRun     = 4
)

// launchRuns runs a kernel built on runs_body over the columns of s and d that
// make whole runs of run pixels: one block of threads per SM (fewer for small
// images), with shmem bytes of tables. rest converts the columns left, or the
// whole image where the rows are not 16-byte aligned (the kernel moves runs as
// whole words).
func launchRuns(str core.Stream, name string, run, threads, shmem int, s, d *core.State,
	rest func(s, d *core.State) error, extra ...any) error {
	cols := s.Cols / run * run
	if cols == 0 || vecWidth(s, d) < 16 {
		return rest(s, d)
	}
	runs := s.Rows * (cols / run)
	grid := [3]int{max(1, min(core.MultiProcessors(s.Dev), (runs+threads-1)/threads)), 1, 1}
	args := append([]any{s.Ptr(), s.Pitch, d.Ptr(), d.Pitch, s.Rows, cols}, extra...)
	if err := s.Dev.Launch(str, name, grid, [3]int{threads, 1, 1}, shmem, args...); err != nil || cols == s.Cols {
		return err
	}
	return rest(rightOf(s, cols), rightOf(d, cols))
}

// rightOf is the view of s to the right of its first cols columns.
func rightOf(s *core.State, cols int) *core.State {
	v := *s
	v.Off += cols * s.Chans * s.Depth.Size()
	v.Cols -= cols
	return &v
}

// vecWidth is the widest access (16, 4 or 1 bytes) both images' rows allow.
func vecWidth(imgs ...*core.State) int {
	for _, n := range []int{16, 4} {
		ok := true
		for _, im := range imgs {
			ok = ok && im.Aligned(n)
		}
		if ok {
			return n
		}
	}
	return 1
}

// pixelsPerThread is how many pixels a colour kernel's thread converts: 16 bytes
// of each channel plane (16 for 8U, 8 for 16U, 4 for 32F), except where the kernel
// lowers it (kPX in kernels/color.cu) to stay within registers.
func pixelsPerThread(fam family, d core.Depth) int {
	if d == core.Depth8U && (fam == "fromhsv" || fam == "fromhls") {
		return 8
	}
	return 16 / d.Size()
}

// launch runs a colour kernel with px pixels per thread, 128 threads per block.
func launch(str core.Stream, name string, px int, s, d *core.State, extra ...any) error {
	args := append([]any{s.Ptr(), s.Pitch, d.Ptr(), d.Pitch, s.Rows, s.Cols, vecWidth(s, d)}, extra...)
	return s.Dev.Launch(str, name, core.Grid((s.Cols+px-1)/px, s.Rows, 128), [3]int{128, 1, 1}, 0, args...)
}

// throughNew runs fn into a new image and copies the result to dst (for outputs
// that share memory with the input).
func throughNew(op string, dst *gpuimage.Image, opts []gpuimage.Option, fn func(tmp *gpuimage.Image) error) error {
	tmp := &gpuimage.Image{}
	defer tmp.Close()
	if err := fn(tmp); err != nil {
		return err
	}
	if err := tmp.CopyTo(dst, opts...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
