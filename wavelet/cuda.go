package wavelet

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/internal/core"
)

// kernelTaps are the filter lengths the kernels are compiled for (FM in
// kernels/wavelet.cu): a filter runs on the first that holds it, its taps padded
// with zeros.
var kernelTaps = []int{2, 4, 8, 12, 20, 30}

// kernelNames are each kind's kernels, less the _fFM suffix.
var kernelNames = [...]string{fwdRows: "gi_wt_dwt_rows", fwdCols: "gi_wt_dwt_cols", fwd2: "gi_wt_dwt2",
	invRows: "gi_wt_idwt_rows", invCols: "gi_wt_idwt_cols", inv2: "gi_wt_idwt2"}

// cuda launches the step's kernel (kernels/wavelet.cu): one level, every line or
// the whole image, in one launch.
func (st *step) cuda(str core.Stream) error {
	fm := 0
	for _, k := range kernelTaps {
		if st.f <= k {
			fm = k
			break
		}
	}
	if fm == 0 {
		return fmt.Errorf("filters of %d taps: at most %d", st.f, wtMaxF)
	}
	var p wtParams
	for i, s := range st.in {
		p.In[i], p.Ip[i] = s.Ptr(), int32(s.Pitch)
	}
	for i, d := range st.out {
		p.Out[i], p.Op[i] = d.Ptr(), int32(d.Pitch)
	}
	in, out := st.in[0], st.out[0]
	p.Iw, p.Ih, p.Ow, p.Oh = int32(in.Cols), int32(in.Rows), int32(out.Cols), int32(out.Rows)
	p.F, p.Off, p.Mode = int32(fm), int32(st.off), int32(st.mode)
	for j := 0; j < st.f; j++ {
		p.Lo[j], p.Hi[j] = float32(st.lo[j]), float32(st.hi[j])
	}
	ceil := func(a, b int) int { return (a + b - 1) / b }
	if st.haar2() {
		// Two taps in 2-D, even sizes, aligned rows: gi_wt_dwt2_haar and
		// gi_wt_idwt2_haar, a thread a 2x4 block of the image.
		name, n := "gi_wt_dwt2_haar", out
		if st.kind == inv2 {
			name, n = "gi_wt_idwt2_haar", in
		}
		grid := [3]int{ceil(n.Cols/2, wtBX), min(ceil(n.Rows, wtBY), 65535), 1}
		return in.Dev.Launch(str, name, grid, [3]int{wtBX, wtBY, 1}, 0, core.Struct(&p))
	}
	ys := func(n int) int { return min(n, 65535) } // the kernels loop over the rest
	block := [3]int{wtBX, wtBY, 1}
	var grid [3]int
	switch st.kind {
	case fwdRows:
		block, grid = [3]int{wtRT, 1, 1}, [3]int{ceil(out.Cols, 2*wtRT), ys(in.Rows), 1}
	case invRows:
		block, grid = [3]int{wtRT, 1, 1}, [3]int{ceil(out.Cols, 2*wtRT), ys(in.Rows), 1}
	case fwdCols:
		grid = [3]int{ceil(in.Cols, wtBX), ys(ceil(out.Rows, wtCT)), 1}
	case invCols:
		grid = [3]int{ceil(in.Cols, wtBX), ys(ceil(out.Rows, 2*wtCT)), 1}
	case fwd2:
		grid = [3]int{ceil(out.Cols, wtFX), ys(ceil(out.Rows, wtFY)), 1}
	case inv2:
		grid = [3]int{ceil(out.Cols, 2*wtFX), ys(ceil(out.Rows, 2*wtFY)), 1}
	}
	return in.Dev.Launch(str, fmt.Sprintf("%s_f%d", kernelNames[st.kind], fm), grid, block, 0, core.Struct(&p))
}

// wtBandParams mirrors gi_wt_sumsq's and gi_wt_threshold's parameters
// (kernels/wavelet_params.h: WtBandParams) field for field.
type wtBandParams struct {
	P           uintptr
	Pitch, W, H int32
	Sum         uintptr
	Thr         float32
	Hard        int32
}

// bandGrid is a band's grid: blocks of wtBX x wtBY threads, at most 65535 rows of
// them (the kernels loop).
func bandGrid(s *core.State, cols int) [3]int {
	return [3]int{cols, min((s.Rows+wtBY-1)/wtBY, 65535), 1}
}

// sumSquaresCUDA adds each band's squares on the device (gi_wt_sumsq, into a
// double each) and reads the sums back.
func sumSquaresCUDA(str core.Stream, sts []*core.State, sums []float64) error {
	dev := sts[0].Dev
	buf, err := dev.Alloc(8 * len(sts))
	if err != nil {
		return err
	}
	defer buf.Release()
	if err := dev.Memset2D(buf, 0, 8*len(sts), 8*len(sts), 1, 0, str); err != nil {
		return err
	}
	for i, s := range sts {
		p := wtBandParams{P: s.Ptr(), Pitch: int32(s.Pitch), W: int32(s.Cols), H: int32(s.Rows), Sum: buf.Ptr + uintptr(8*i)}
		// A grid that fills the GPU a few times over, each thread many samples.
		cols := min((s.Cols+wtBX-1)/wtBX, 8)
		g := bandGrid(s, cols)
		g[1] = min(g[1], 4*core.MultiProcessors(dev)/cols+1)
		if err := dev.Launch(str, "gi_wt_sumsq", g, [3]int{wtBX, wtBY, 1}, 0, core.Struct(&p)); err != nil {
			return err
		}
	}
	host := make([]byte, 8*len(sts))
	if err := dev.Copy2D(core.Copy{DstHost: host, Src: buf, DstPitch: len(host), SrcPitch: len(host), Width: len(host), Rows: 1}, str); err != nil {
		return err
	}
	if err := str.Sync(); err != nil {
		return err
	}
	for i := range sums {
		sums[i] = math.Float64frombits(binary.LittleEndian.Uint64(host[8*i:]))
	}
	return nil
}

// thresholdCUDA thresholds a band in place (gi_wt_threshold).
func thresholdCUDA(str core.Stream, s *core.State, thr float32, hard bool) error {
	p := wtBandParams{P: s.Ptr(), Pitch: int32(s.Pitch), W: int32(s.Cols), H: int32(s.Rows), Thr: thr}
	if hard {
		p.Hard = 1
	}
	return s.Dev.Launch(str, "gi_wt_threshold", bandGrid(s, (s.Cols+wtBX-1)/wtBX), [3]int{wtBX, wtBY, 1}, 0, core.Struct(&p))
}

// haar2 says whether the step runs on the vectorised two-tap 2-D kernels: 2 taps,
// an image of even width and height (forward; coefficients of even width,
// inverse), rows 16-byte aligned where the kernel reads or writes 4 floats and
// 8-byte aligned where 2.
func (st *step) haar2() bool {
	if st.f != 2 || (st.kind != fwd2 && st.kind != inv2) {
		return false
	}
	aligned := func(s *core.State, a int) bool { return s.Ptr()%uintptr(a) == 0 && s.Pitch%a == 0 }
	wide, narrow := st.in, st.out // the image's side reads or writes 4 floats
	if st.kind == inv2 {
		wide, narrow = st.out, st.in
	}
	if wide[0].Cols%4 != 0 && st.kind == fwd2 || wide[0].Rows%2 != 0 || narrow[0].Cols%2 != 0 {
		return false
	}
	for _, s := range wide {
		if !aligned(s, 16) {
			return false
		}
	}
	for _, s := range narrow {
		if !aligned(s, 8) {
			return false
		}
	}
	return true
}
