package convolve

import (
	"slices"
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirror of the filter kernels' parameters and limits against
// kernels/filter_params.h, compiled by cgo (internal/kparams): every field of Geo
// in the same order at the same offset with the same size, the struct's size, and
// each limit the launch code sizes grids or tap arrays by.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Geo(), geo{}); err != nil {
		t.Errorf("convolve's geo and struct Geo: %v", err)
	}
	c := kparams.Structs()
	for name, g := range map[string]any{"Taps": taps{}, "SepTaps": sepTaps{}, "ISepTaps": isepTaps{}, "IPackTaps": ipackTaps{},
		"ImmaTaps": immaTaps{}, "P2DTaps": p2dTaps{}} {
		if err := kparams.Compare(c[name], g); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{{"GI_TAPS", tapsLen, kparams.Taps}, {"GI_SEP_Y", sepYOff, kparams.SepY}, {"GI_ISEP_R", isepRows, kparams.ISepR},
		{"GI_ISEP_BLOCKS", isepBlocks, kparams.ISepBlocks}, {"GI_IMMA_KR", immaKR, kparams.ImmaKR}, {"GI_IMMA_PW", immaPW, kparams.ImmaPW}} {
		if c.got != c.want {
			t.Errorf("%s is %d in the kernels, %d in Go", c.name, c.want, c.got)
		}
	}
	if want := kparams.P2DMasks(); !slices.Equal(p2dMasks, want) {
		t.Errorf("the gi_p2d_* tap masks are %#x in the kernels, %#x in Go", want, p2dMasks)
	}
	for _, k := range []int{3, 5, 7} {
		for _, c := range []int{1, 3, 4} {
			if got, want := rsepBlocks(k, c, rsepElems(k)), kparams.RSepBlocks(k, c, rsepElems(k)); got != want {
				t.Errorf("GI_RSEP_BLOCKS(%d, %d, %d) is %d in the kernels, %d in Go", k, c, rsepElems(k), want, got)
			}
		}
	}
	for _, c := range []int{1, 3, 4} {
		if got, want := ipackBlocks(c), kparams.IPackBlocks(c); got != want {
			t.Errorf("GI_IPACK_BLOCKS(%d) is %d in the kernels, %d in Go", c, want, got)
		}
		for _, k := range []int{3, 5} {
			if got, want := p2dBlocks(k, c), kparams.P2DBlocks(k, c); got != want {
				t.Errorf("GI_P2D_BLOCKS(%d, %d) is %d in the kernels, %d in Go", k, c, want, got)
			}
		}
		for _, k := range []int{3, 5} {
			for _, size := range []int{1, 2} {
				if got, want := p2dElems(k, size, c), kparams.P2DElems(k, size, c); got != want {
					t.Errorf("GI_P2D_E(%d, %d, %d) is %d in the kernels, %d in Go", k, size, c, want, got)
				}
				if got, want := p2dRows(k, size), kparams.P2DRows(k, size); got != want {
					t.Errorf("GI_P2D_R(%d, %d) is %d in the kernels, %d in Go", k, size, want, got)
				}
			}
		}
	}
}
