package resample

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/core"
)

// transliteration of gi_resize_reg for the kFloat path on float32 data, single channel
func TestDbgReg(t *testing.T) {
	sw, sh, dw, dh := 7, 29, 14, 58
	src := make([]float32, sw*sh)
	for i := range src {
		src[i] = float32((i * 37) % 101)
	}
	pl := newResizePlan(sw, sh, dw, dh, 1, core.Depth32F, 2, 2, InterCubic)
	K, E := 4, 4
	clampi := func(i, n int) int { return max(0, min(i, n-1)) }
	got := make([]float32, dw*dh)
	for x0 := 0; x0 < dw; x0 += E {
		var h [4][4]float32
		first := -(1 << 30)
		for y := 0; y < dh; y++ {
			sy := int(pl.y.start[y])
			d := sy - first
			if d >= K {
				first = sy - K
				d = K
			}
			for ; d > 0; d-- {
				for j := 0; j < K-1; j++ {
					for e := 0; e < E; e++ {
						h[j][e] = h[j+1][e]
					}
				}
				first++
				r := clampi(first+K-1, sh)
				for e := 0; e < E; e++ {
					x := min(x0+e, dw-1)
					st := int(pl.x.start[x])
					var acc float32
					for j := 0; j < K; j++ {
						p := float32(src[r*sw+clampi(st+j, sw)] * pl.x.w[x*K+j])
						if j == 0 {
							acc = p
						} else {
							acc = float32(acc + p)
						}
					}
					h[K-1][e] = acc
				}
			}
			for e := 0; e < E && x0+e < dw; e++ {
				var acc float32
				for j := 0; j < K; j++ {
					p := float32(h[j][e] * pl.y.w[y*K+j])
					if j == 0 {
						acc = p
					} else {
						acc = float32(acc + p)
					}
				}
				got[y*dw+x0+e] = acc
			}
		}
	}
	s := &core.State{}
	_ = s
	// reference through sepRows
	want := make([]float32, dw*dh)
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			var acc float32
			for j := 0; j < K; j++ {
				r := clampi(int(pl.y.start[y])+j, sh)
				var hacc float32
				for i := 0; i < K; i++ {
					p := float32(src[r*sw+clampi(int(pl.x.start[x])+i, sw)] * pl.x.w[x*K+i])
					if i == 0 {
						hacc = p
					} else {
						hacc = float32(hacc + p)
					}
				}
				p := float32(hacc * pl.y.w[y*K+j])
				if j == 0 {
					acc = p
				} else {
					acc = float32(acc + p)
				}
			}
			want[y*dw+x] = acc
		}
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			bad++
		}
	}
	t.Logf("bad %d of %d", bad, len(got))
}
