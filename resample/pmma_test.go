package resample

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The tensor-core passes' tables, checked without a GPU: an emulation of
// gi_resize_mma_p_KS's mma (the PTX ISA's fragment layouts, the kernel's byte
// order pi) from the tables gives Pillow's two passes, computed here directly,
// for every filter, 1 to 4 channels, shrinks, enlargements and odd sizes, and
// every source offset from a multiple of 8.
func TestPMMATablesEmulated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, uint64(rand.Int64())))
	shapes := [][4]int{{451, 300, 225, 151}, {3840, 64, 1920, 32}, {37, 5, 17, 2}, {90, 70, 200, 150}, {1, 9, 3, 4},
		{4097, 3, 1000, 2}, {64, 64, 7, 5}}
	for _, sh := range shapes {
		for cn := 1; cn <= 4; cn++ {
			for f := Box; f <= Hamming; f++ {
				sw, shh, dw, dh := sh[0], sh[1], sh[2], sh[3]
				pl := scalePlan(sw, shh, dw, dh, cn, 0, f)
				off := r.IntN(8)
				tabs := pl.pmma(off)
				name := fmt.Sprintf("%dx%d -> %dx%d c%d %v off %d", sw, shh, dw, dh, cn, f, off)
				if tabs == nil {
					t.Logf("%s: not taken (spans more than %d steps)", name, pmmaMaxKS)
					continue
				}
				rowLen := off + sw*cn
				src := make([][]byte, shh)
				for y := range src {
					src[y] = make([]byte, rowLen)
					for i := range src[y] {
						src[y][i] = byte(r.IntN(256))
					}
				}
				mid := emulatePMMA(tabs.h, src, dw*cn) // mid[m][y]
				got := emulatePMMA(tabs.v, mid, dh)    // got[y][m]
				want := pillowPasses(pl, src, off)
				bad := 0
				for y := range want {
					for x := range want[y] {
						if got[y][x] != want[y][x] {
							if bad == 0 {
								t.Errorf("%s: (%d, %d) = %d, want %d", name, x, y, got[y][x], want[y][x])
							}
							bad++
						}
					}
				}
				if bad > 0 {
					t.Errorf("%s: %d differ", name, bad)
				}
			}
		}
	}
}

// emulatePMMA is a pass of the kernel over the byte matrix x (rows of X): out[m][n]
// for m < outs, each tile's A fragments read back from the tables as the PTX ISA
// lays out m16n8k32's A (lane 4g + t, register reg: row g + 8 (reg & 1), columns
// 4t + 16 (reg >> 1) + i from byte i), times B[k][n], the bytes of row n of x
// that lane t loads for those columns (pmmaSlot's order; lane t holds columns
// 4t..4t+3 and 16+4t..16+4t+3 of B as of A).
func emulatePMMA(p pmmaPass, x [][]byte, outs int) [][]byte {
	out := make([][]byte, outs)
	for m := range out {
		out[m] = make([]byte, len(x))
	}
	// byteOf is pmmaSlot's inverse, as the kernel loads: the span's byte of
	// k-step s's column col for lane 4g + t.
	byteOf := map[[3]int]int{}
	for k := range 32 * p.ks {
		s, t, hi, i := pmmaSlot(k)
		byteOf[[3]int{s, t, 16*hi + i}] = k
	}
	for tile := range p.a0 {
		a := [16][3][]int8{}
		for m := range 16 {
			for d := range 3 {
				a[m][d] = make([]int8, 32*p.ks)
			}
		}
		for s := range p.ks {
			for d := range 3 {
				for lane := range 32 {
					g, t := lane/4, lane%4
					for reg := range 4 {
						w := p.frags[((tile*p.ks+s)*3+d)*128+lane*4+reg]
						for i := range 4 {
							a[g+8*(reg&1)][d][byteOf[[3]int{s, t, 16*(reg>>1) + i}]] = int8(w >> (8 * i))
						}
					}
				}
			}
		}
		for mm := range 16 {
			m := tile*16 + mm
			if m >= outs {
				break
			}
			for n, row := range x {
				var c [3]int32
				for k := range 32 * p.ks {
					b := int(p.a0[tile]) + k
					v := int32(0)
					if b < len(row) {
						v = int32(row[b])
					}
					for d := range 3 {
						c[d] += int32(a[mm][d][k]) * v
					}
				}
				acc := int32(uint32(c[0]) + uint32(c[1])<<8 + uint32(c[2])<<16 + 1<<21)
				out[m][n] = byte(max(0, min(255, acc>>22)))
			}
		}
	}
	return out
}

// pillowPasses is Pillow's two 8-bit passes over src (rows of off bytes, then
// the pixels), straight from the plan's tables.
func pillowPasses(pl *resizePlan, src [][]byte, off int) [][]byte {
	pass := func(a axis, i int, at func(j int) int64) byte {
		acc := int64(1 << (pillowBits - 1))
		for j := 0; j < a.n; j++ {
			if w := int64(a.w[i*a.n+j]); w != 0 {
				acc += w * at(int(a.start[i])+j)
			}
		}
		return byte(satU8(acc >> pillowBits))
	}
	cn := pl.cn
	mid := make([][]byte, pl.sh)
	for y := range mid {
		mid[y] = make([]byte, pl.dw*cn)
		for x := range mid[y] {
			mid[y][x] = pass(pl.x, x/cn, func(j int) int64 { return int64(src[y][off+j*cn+x%cn]) })
		}
	}
	out := make([][]byte, pl.dh)
	for y := range out {
		out[y] = make([]byte, pl.dw*cn)
		for x := range out[y] {
			out[y][x] = pass(pl.y, y, func(j int) int64 { return int64(mid[j][x]) })
		}
	}
	return out
}
