package resample

import (
	"fmt"
	"strconv"
	"unsafe"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/devcache"
)

// polyRegs are the register kernels' branch lengths, gi_resample_r8 .. r64.
var polyRegs = []int{8, 16, 24, 32, 48, 64}

// polySmem bounds the register kernels' stage (no opt-in to larger shared memory).
const polySmem = 48 << 10

// polyLaunch is how a plan runs for outn outputs over rows rows (kernels/resample_poly.cu): the
// register kernel of the shortest branch length that holds qn taps, with blocks of
// a multiple of up threads (at least polyThreads), k outputs a thread (fewer where
// the batch would leave the device's sms idle, or the stage would not fit), or
// gi_resample_any (a thread an output) for longer branches, up past polyMaxT, or a
// stage too large.
func polyLaunch(pl *plan, outn, rows, sms int) (name string, grid, block [3]int, shmem, k, w int) {
	gy := min(rows, 65535)
	qr := 0
	for _, r := range polyRegs {
		if pl.qn <= r {
			qr = r
			break
		}
	}
	t := pl.up * ((polyThreads + pl.up - 1) / pl.up)
	if qr > 0 && t <= polyMaxT {
		stage := func(k int) int { return ((t*k-1)*pl.down+pl.up-1)/pl.up + qr }
		blocks := func(k int) int { return (outn + t*k - 1) / (t * k) }
		k = polyMaxK
		for k > 1 && (stage(k)*4 > polySmem || blocks(k)*rows < 2*sms) {
			k--
		}
		if w = stage(k); w*4 <= polySmem {
			return "gi_resample_r" + strconv.Itoa(qr), [3]int{blocks(k), gy, 1}, [3]int{t, 1, 1}, w * 4, k, w
		}
	}
	return "gi_resample_any", [3]int{(outn + polyThreads - 1) / polyThreads, gy, 1}, [3]int{polyThreads, 1, 1}, 0, 0, 0
}

// polyCUDA launches polyLaunch's kernel over d, with the plan's polyphase taps on
// the device (copied the first time, then kept: internal/devcache).
func polyCUDA(str core.Stream, d, s *core.State, pl *plan, t0 int64) error {
	size := len(pl.h) * 4
	hb := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(pl.h))), size)
	key := fmt.Sprintf("resample-poly-%d", pl.up)
	buf, err := devcache.Derived(s.Dev, str, key, [][]byte{hb}, size, func(buf *core.Buffer) error {
		return s.Dev.Copy2D(core.Copy{Dst: buf, SrcHost: hb, DstPitch: size, SrcPitch: size, Width: size, Rows: 1}, str)
	})
	if err != nil {
		return err
	}
	defer buf.Release()
	name, grid, block, shmem, k, w := polyLaunch(pl, d.Cols, s.Rows, core.MultiProcessors(s.Dev))
	p := polyParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Rows: int32(s.Rows),
		N: int32(s.Cols), Outn: int32(d.Cols), Up: int32(pl.up), Down: int32(pl.down), Qn: int32(pl.qn),
		K: int32(k), W: int32(w), T0: t0, H: buf.Ptr}
	return s.Dev.Launch(str, name, grid, block, shmem, core.Struct(&p))
}

func resizeCUDA(str core.Stream, d, s *core.State, pl *resizePlan) error {
	return fmt.Errorf("resize: no CUDA kernels yet")
}
