package dsp

import (
	"fmt"
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

// iirCUDA launches one pass of a cascade (iirStep) over the batch: gi_iir_powers
// for the state matrix's powers, the first time the filter is used on the device
// (A rides in its parameters: nothing is copied from host memory, which would wait
// for the stream; later calls find them in the cache, devcache.go), then with one
// block of samples a row gi_iir_final alone; otherwise gi_iir_local over every
// block but the last, gi_iir_carry over each row's block states and gi_iir_final.
func iirCUDA(str core.Stream, dev core.Backend, st *iirStep) error {
	c := st.c
	s := c.k * c.p
	const perBlock = iirThreads * iirL
	nb := (st.length + perBlock - 1) / perBlock
	rows := st.in.Rows
	p := iirParams{Src: st.in.Ptr(), Sp: int32(st.in.Pitch), Dst: st.out.Ptr(), Dp: int32(st.out.Pitch),
		Rows: int32(rows), N: int32(st.in.Cols), Len: int32(st.length), Pad: int32(st.pad), Opad: int32(st.opad),
		Outn: int32(st.outn), Nb: int32(nb), ZiMode: int32(st.ziMode), Sreal: int32(c.sreal)}
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
	copy(p.Tmats[:], c.tpow)
	kind := fmt.Sprintf("k%dp%d", c.k, c.p)
	ry := min(rows, 65535)
	levels := iirTLevels + iirBLevels
	pp := iirPowersParams{S: int32(s)}
	copy(pp.A[:], c.a)
	mats, err := devcache.Derived(dev, str, "iir-powers", [][]byte{f64Bytes(c.a)}, levels*s*s*8, func(buf *core.Buffer) error {
		pp.Mats = buf.Ptr
		return dev.Launch(str, "gi_iir_powers", [3]int{1, 1, 1}, [3]int{iirMaxS * iirMaxS, 1, 1}, 0, core.Struct(&pp))
	})
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

// f64Bytes is v's bytes, a cache key.
func f64Bytes(v []float64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 8*len(v))
}
