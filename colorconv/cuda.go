package colorconv

import (
	"fmt"

	"github.com/gpuimg/gpuimg/internal/core"
)

// The CUDA launches (kernels/color.cu): CvtColor's (cudaConvert), Transform's
// (transformCUDA) and the helpers both use.

// cudaConvert converts s to d on a CUDA device with the code's spec, param chosen
// for the depth.
func cudaConvert(str core.Stream, sp spec, d, s *core.State, param int) error {
	name := fmt.Sprintf("gi_cvt_%s_%s_%d%d", sp.fam, core.KernelSuffix(s.Depth), s.Chans, d.Chans)
	px := pixelsPerThread(sp.fam, s.Depth)
	if (sp.fam == "fromluv" || sp.fam == "fromlab") && s.Depth == core.Depth8U { // OpenCV's fixed point (fixed8.go)
		key := fmt.Sprintf("colorconv.fix8.%d", param)
		tab, err := core.Resident(s.Dev, key, func() []byte { return fix8Table(param).bytes() })
		if err != nil {
			return err
		}
		return launch(str, name, px, s, d, cvtArgs{bidx: sp.bidx, tab: tab})
	}
	if sp.fam == "lab" && s.Depth == core.Depth8U { // OpenCV's fixed point (lab8.go)
		tab, err := core.Resident(s.Dev, "colorconv.lab8", func() []byte { return lab8Table().bytes() })
		if err != nil {
			return err
		}
		a := cvtArgs{bidx: sp.bidx, param: param, tab: tab}
		rest := func(s, d *core.State) error { return launch(str, name, px, s, d, a) }
		if useSharedTables && core.MaxSharedOptin(s.Dev) >= labRepBytes+labRepStage {
			// Copies of the tables across the banks: one block per SM, runs of 8 pixels.
			return launchRuns(str, fmt.Sprintf("gi_cvt_labr_8u_%d3", s.Chans), labRepRun, labRepThreads, labRepBytes, s, d, rest, a)
		}
		return rest(s, d)
	}
	if (sp.fam == "lab" || sp.fam == "luv") && s.Depth == core.Depth32F { // OpenCV's tables (lab32.go)
		tab, err := core.Resident(s.Dev, "colorconv.lab32", func() []byte { return lab32Table().bytes() })
		if err != nil {
			return err
		}
		a := cvtArgs{bidx: sp.bidx, param: param, tab: tab}
		rest := func(s, d *core.State) error { return launch(str, name, px, s, d, a) }
		if sp.fam == "lab" && param == 1 && useSharedTables && core.MaxSharedOptin(s.Dev) >= labGridBytes {
			// The grid in shared memory: one block per SM, runs of 4 pixels.
			return launchRuns(str, fmt.Sprintf("gi_cvt_labs_32f_%d3", s.Chans), labGridRun, labGridThreads, labGridBytes, s, d, rest, a)
		}
		return rest(s, d)
	}
	return launch(str, name, px, s, d, cvtArgs{bidx: sp.bidx, param: param})
}

// transformCUDA applies the 4x5 matrix m (row-major, the offsets last) to s into d.
func transformCUDA(str core.Stream, d, s *core.State, m *[20]float32) error {
	host := core.HostBytes(m[:])
	return core.WithUpload(s.Dev, str, host, func(mp uintptr) error {
		name := fmt.Sprintf("gi_xform_%s_%d%d", core.KernelSuffix(s.Depth), s.Chans, d.Chans)
		return launch(str, name, 16/s.Depth.Size(), s, d, cvtArgs{tab: mp})
	})
}

// useSharedTables lets the Lab kernels with large tables in shared memory run where
// the device has that much: 32F sRGB Lab with OpenCV's grid (211 KB) and 8U Lab
// with copies of its tables across the banks (192 KB). The tests turn it off to run the
// kernels that devices with less use (export_test.go).
var useSharedTables = true

// launchRuns runs a kernel built on runs_body over the columns of s and d that
// make whole runs of run pixels: one block of threads per SM (fewer for small
// images), with shmem bytes of tables. rest converts the columns left, or the
// whole image where the rows are not 16-byte aligned (the kernel moves runs as
// whole words).
func launchRuns(str core.Stream, name string, run, threads, shmem int, s, d *core.State,
	rest func(s, d *core.State) error, a cvtArgs) error {
	cols := s.Cols / run * run
	if cols == 0 || vecWidth(s, d) < 16 {
		return rest(s, d)
	}
	runs := s.Rows * (cols / run)
	grid := [3]int{max(1, min(core.MultiProcessors(s.Dev), (runs+threads-1)/threads)), 1, 1}
	p := a.params(s, d)
	p.Cols = int32(cols)
	if err := s.Dev.Launch(str, name, grid, [3]int{threads, 1, 1}, shmem, core.Struct(p)); err != nil || cols == s.Cols {
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
func launch(str core.Stream, name string, px int, s, d *core.State, a cvtArgs) error {
	return s.Dev.Launch(str, name, core.Grid((s.Cols+px-1)/px, s.Rows, 128), [3]int{128, 1, 1}, 0, core.Struct(a.params(s, d)))
}

// colormapCUDA colours s (8UC1) by colormap c into d (8UC3): gi_cvt_colormap_8u_13
// with the map's colours, one word a level (b | g << 8 | r << 16), on the device
// (made once a map).
func colormapCUDA(str core.Stream, d, s *core.State, c ColormapType) error {
	tab, err := core.Resident(s.Dev, fmt.Sprintf("colorconv.colormap.%d", int(c)), func() []byte {
		lut, b := colormapTables[c], make([]byte, 256*4)
		for i := 0; i < 256; i++ {
			copy(b[4*i:4*i+3], lut[3*i:3*i+3])
		}
		return b
	})
	if err != nil {
		return err
	}
	return launch(str, "gi_cvt_colormap_8u_13", pixelsPerThread("colormap", s.Depth), s, d, cvtArgs{tab: tab})
}
