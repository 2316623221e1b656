package dsp

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/devcache"
)

// conv1dCUDA launches gi_conv1d_set over d (and gi_conv1d_add for each further
// conv1dTaps taps): blocks of conv1dThreads threads, each block conv1dThreads x
// conv1dR outputs of a row, the grid striding over the rows.
func conv1dCUDA(str core.Stream, d, s *core.State, g []float32, off int) error {
	const perBlock = conv1dThreads * conv1dR
	grid := [3]int{(d.Cols + perBlock - 1) / perBlock, min(s.Rows, 65535), 1}
	for c := 0; c < len(g); c += conv1dTaps {
		chunk := g[c:min(len(g), c+conv1dTaps)]
		p := conv1dParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Rows: int32(s.Rows),
			N: int32(s.Cols), Outn: int32(d.Cols), Off: int32(off + c), M8: int32((len(chunk) + conv1dR - 1) / conv1dR * conv1dR)}
		copy(p.G[:], chunk)
		name := "gi_conv1d_set"
		if c > 0 {
			name = "gi_conv1d_add"
		}
		// The block's stretch of the signal: its outputs, the taps and one more run.
		shmem := (perBlock + int(p.M8) + conv1dR) * 4
		if err := s.Dev.Launch(str, name, grid, [3]int{conv1dThreads, 1, 1}, shmem, core.Struct(&p)); err != nil {
			return err
		}
	}
	return nil
}

// iirCUDA launches one pass of a cascade (iirStep) over the batch: by
// gi_iir_warm where iirWarmShape takes the step (warm.go), else by the
// single-pass kernel (iirScanCUDA) where iirOnePass says, otherwise by three:
// gi_iir_powers for the state matrix's powers, the first time the filter is used
// on the device (A rides in its parameters: nothing is copied from host memory,
// which would wait for the stream; later calls find them in the cache,
// devcache.go), then with one block of samples a row gi_iir_final alone;
// otherwise gi_iir_local over every block but the last, gi_iir_carry over each
// row's block states and gi_iir_final.
func iirCUDA(str core.Stream, dev core.Backend, st *iirStep) error {
	c := st.c
	s := c.k * c.p
	rows := st.in.Rows
	p := iirBaseParams(st)
	if warm, run, nb, ok := iirWarmShape(st, core.MultiProcessors(dev)); ok {
		p.Warm, p.Run, p.Nb = int32(warm), int32(run), int32(nb)
		blocks := (rows*nb + iirWarmWarps - 1) / iirWarmWarps
		return dev.Launch(str, fmt.Sprintf("gi_iir_warm_k%dp%d", c.k, c.p), [3]int{blocks, 1, 1}, [3]int{32 * iirWarmWarps, 1, 1}, 0, core.Struct(&p))
	}
	if iirOnePass(dev, rows) {
		return iirScanCUDA(str, dev, st, p)
	}
	const perBlock = iirThreads * iirL
	nb := (st.length + perBlock - 1) / perBlock
	p.Nb = int32(nb)
	copy(p.Tmats[:], c.tpow)
	kind := fmt.Sprintf("k%dp%d", c.k, c.p)
	ry := min(rows, 65535)
	mats, err := iirPowers(str, dev, c, "gi_iir_powers", (iirTLevels+iirBLevels)*s*s)
	if err != nil {
		return err
	}
	defer mats.Release()
	p.Mats = mats.Ptr
	// gi_iir_carry's dynamic shared memory: the powers its scan stages, and states
	// (gi_iir_local and gi_iir_final take theirs from the parameters: none).
	bsh := iirBLevels*s*s*8 + iirCarry*(s+1)*8
	if nb > 1 {
		agg, err := dev.Alloc(rows * (nb - 1) * s * 8)
		if err != nil {
			return err
		}
		defer agg.Release()
		agg.Touch(str)
		p.Agg, p.AggRow = agg.Ptr, int32((nb-1)*s)
		if err := dev.Launch(str, "gi_iir_local_"+kind, [3]int{nb - 1, ry, 1}, [3]int{iirThreads, 1, 1}, 0, core.Struct(&p)); err != nil {
			return err
		}
		if err := dev.Launch(str, "gi_iir_carry_"+kind, [3]int{ry, 1, 1}, [3]int{iirCarry, 1, 1}, bsh, core.Struct(&p)); err != nil {
			return err
		}
	}
	return dev.Launch(str, "gi_iir_final_"+kind, [3]int{nb, ry, 1}, [3]int{iirThreads, 1, 1}, 0, core.Struct(&p))
}

// iirBaseParams is the parameters of st's launches but the kernel family's own:
// Nb and Tmats.
func iirBaseParams(st *iirStep) iirParams {
	c := st.c
	p := iirParams{Src: st.in.Ptr(), Sp: int32(st.in.Pitch), Dst: st.out.Ptr(), Dp: int32(st.out.Pitch),
		Rows: int32(st.in.Rows), N: int32(st.in.Cols), Len: int32(st.length), Pad: int32(st.pad), Opad: int32(st.opad),
		Outn: int32(st.outn), ZiMode: int32(st.ziMode), Sreal: int32(c.sreal)}
	if st.rev {
		p.Rev = 1
	}
	if st.zi.st != nil {
		p.Zi, p.ZiRow, p.ZiPair = st.zi.st.Ptr()+uintptr(st.zi.off), int32(st.zi.row), int32(st.zi.pair)
	}
	if st.zf.st != nil {
		p.Zf, p.ZfRow, p.ZfPair = st.zf.st.Ptr()+uintptr(st.zf.off), int32(st.zf.row), int32(st.zf.pair)
	}
	if st.x0in != nil {
		p.X0in = st.x0in.Ptr()
	}
	if st.x0out != nil {
		p.X0out = st.x0out.Ptr()
	}
	for i, v := range c.zi {
		p.Ziv[i] = float32(v)
	}
	for i, v := range c.coef {
		p.Coef[i] = float32(v)
	}
	return p
}

// iirOnePass says whether gi_iir_scan filters a batch of rows: where the rows are
// many enough that the tiles on the GPU at once (5 an SM) are at most about three
// look-back windows a row, a tile finds one before it done or nearly. A few long
// rows have all their tiles on the GPU at once, each waiting for the window
// before it; the three kernels, which read the samples twice, are faster there.
// On an H200 (µs, sosfilt of an order-8 Butterworth, single pass against three
// kernels, forced, before the single pass's blocks looped over the tiles;
// bench/results/iir-h200.md): 64 x 1e6 279 / 417, 16 x 1e6 93 / 130, 8 x 1e6 74 /
// 77, 1 x 1e6 54 / 27, 1 x 1e7 487 / 121. Since then 8 x 1e6 takes 75 by the single
// pass (the crossover was not measured again).
func iirOnePass(dev core.Backend, rows int) bool {
	return iirOnePassOn(rows, core.MultiProcessors(dev))
}

// iirOnePassOn is iirOnePass on a GPU of sms multiprocessors.
func iirOnePassOn(rows, sms int) bool { return rows*iirScanWindow*3 >= iirScanBlocks*sms }

// iirScanCUDA runs gi_iir_scan, one pass over the samples: the blocks take the
// rows' tiles in turn, until none is left, and find each tile's starting state in
// the states the tiles before it publish (in agg, with their flags, zeroed first).
// Its powers of A come from gi_iir_scan_powers (cached like gi_iir_powers'), its
// state responses and A^G in the parameters' Tmats.
func iirScanCUDA(str core.Stream, dev core.Backend, st *iirStep, p iirParams) error {
	c := st.c
	s := c.k * c.p
	const perTile = iirScanThreads * iirScanL
	nb := (st.length + perTile - 1) / perTile
	rows := st.in.Rows
	tiles := rows * nb
	if tiles == 0 {
		return nil
	}
	if int64(rows)*int64(nb) >= math.MaxInt32 {
		return fmt.Errorf("%d rows of %d samples: more tiles than one launch counts", rows, st.length)
	}
	p.Nb = int32(nb)
	g := unsafe.Slice((*float32)(unsafe.Pointer(&p.Tmats[0])), iirScanG*iirMaxS)
	for i, v := range c.g {
		g[i] = float32(v)
	}
	copy(p.Tmats[iirScanG*iirMaxS/2:], c.ag)
	mats, err := iirPowers(str, dev, c, "gi_iir_scan_powers", (iirScanThreads+iirScanWindow)*s*s)
	if err != nil {
		return err
	}
	defer mats.Release()
	p.Mats = mats.Ptr
	// The flags (and the tile counter after them), then the tiles' states.
	flagBytes := (tiles + 2) / 2 * 8
	scratch, err := dev.Alloc(flagBytes + tiles*2*s*8)
	if err != nil {
		return err
	}
	defer scratch.Release()
	scratch.Touch(str)
	if err := dev.Memset2D(scratch, 0, flagBytes, flagBytes, 1, 0, str); err != nil {
		return err
	}
	p.Flags, p.Agg = scratch.Ptr, scratch.Ptr+uintptr(flagBytes)
	// The blocks loop over the tiles: as many as fit on the GPU at once (more would
	// wait for those to finish, and find no tile left).
	grid := min(tiles, iirScanBlocks*core.MultiProcessors(dev))
	return dev.Launch(str, fmt.Sprintf("gi_iir_scan_k%dp%d", c.k, c.p), [3]int{grid, 1, 1}, [3]int{iirScanThreads, 1, 1}, 0, core.Struct(&p))
}

// iirPowers is the powers of c's state matrix that kernel (gi_iir_powers or
// gi_iir_scan_powers) makes, n doubles, from the device's cache or made there now
// (A rides in the launch's parameters: nothing is copied from host memory). The
// caller releases it.
func iirPowers(str core.Stream, dev core.Backend, c *cascade, kernel string, n int) (*core.Buffer, error) {
	pp := iirPowersParams{S: int32(c.k * c.p)}
	copy(pp.A[:], c.a)
	return devcache.Derived(dev, str, kernel, [][]byte{core.HostBytes(c.a)}, n*8, func(buf *core.Buffer) error {
		pp.Mats = buf.Ptr
		return dev.Launch(str, kernel, [3]int{1, 1, 1}, [3]int{iirMaxS * iirMaxS, 1, 1}, 0, core.Struct(&pp))
	})
}
