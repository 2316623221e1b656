package resample

import (
	"fmt"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// The vertical-first area kernel's tables, indexing and arithmetic, checked
// without a GPU: areafEmulate (gi_resize_areaf_*'s blocks, threads and
// arithmetic from the runs, reading rows padded with noise) against the
// CPU device's Resize (OpenCV's order) on fresh random images, for 1, 3 and 4
// channels, steep and mild fractional shrinks, one axis kept, 1xN and Nx1:
// every element within one, and at most one in a hundred not equal (they run
// from about 2e-5 near 1x to 1e-3 at 34x: OpenCV's float sums over more
// pixels).
func TestAreafEmulated(t *testing.T) {
	r := rand.New(rand.NewPCG(2, uint64(rand.Int64())))
	shapes := [][4]int{{3840, 216, 224, 22}, {451, 300, 26, 31}, {451, 300, 300, 200}, {1920, 108, 1280, 72},
		{97, 1, 13, 1}, {1, 77, 1, 9}, {4097, 3, 1000, 2}, {64, 64, 63, 5}, {300, 200, 7, 3},
		{7680, 40, 224, 4}, {2000, 30, 1999, 29}}
	var diff, all int
	for _, sh := range shapes {
		for _, cn := range []int{1, 3, 4} {
			sw, shh, dw, dh := sh[0], sh[1], sh[2], sh[3]
			name := fmt.Sprintf("%dx%d -> %dx%d c%d", sw, shh, dw, dh, cn)
			pl := newResizePlan(sw, shh, dw, dh, cn, core.Depth8U, float64(dw)/float64(sw), float64(dh)/float64(shh), InterArea)
			if !pl.area {
				t.Fatalf("%s: not an area plan", name)
			}
			tabs := pl.areaf()
			if tabs == nil {
				t.Fatalf("%s: the kernel does not take it", name)
			}
			src := make([]byte, sw*shh*cn)
			for i := range src {
				src[i] = byte(r.IntN(256))
			}
			in, err := gpuimage.NewFromBytes(gpuimage.CPU(), shh, sw, gpuimage.MakeType(gpuimage.Depth8U, cn), src)
			if err != nil {
				t.Fatal(err)
			}
			out := &gpuimage.Image{}
			if err := Resize(in, out, image.Pt(dw, dh), 0, 0, InterArea); err != nil {
				t.Fatal(err)
			}
			want := make([]byte, dw*dh*cn)
			if err := out.Download(want); err != nil {
				t.Fatal(err)
			}
			in.Close()
			out.Close()
			// The rows padded as the kernel may read them (to a 16-byte vector
			// past each row's last byte).
			pitch := (sw*cn+15)/16*16 + 16
			padded := make([]byte, shh*pitch)
			for y := 0; y < shh; y++ {
				copy(padded[y*pitch:], src[y*sw*cn:(y+1)*sw*cn])
				for i := sw * cn; i < pitch; i++ {
					padded[y*pitch+i] = byte(r.IntN(256))
				}
			}
			got, ok := areafEmulate(padded, pitch, cn, tabs)
			if !ok {
				t.Fatalf("%s: an index leaves the block's vectors", name)
			}
			off := 0
			for i := range want {
				if d := int(got[i]) - int(want[i]); d != 0 {
					if d < -1 || d > 1 {
						t.Fatalf("%s: element %d = %d, want %d", name, i, got[i], want[i])
					}
					off++
				}
			}
			if off > 0 {
				t.Logf("%s: %d of %d elements differ by one", name, off, len(want))
			}
			diff += off
			all += len(want)
		}
	}
	t.Logf("%d of %d elements differ by one", diff, all)
	if diff*100 > all {
		t.Errorf("%d of %d elements differ by one: more than one in a hundred", diff, all)
	}
}

// The strips a block of the kernel takes: their columns within its vectors, as
// even as they come.
func TestAreafStrip(t *testing.T) {
	for _, c := range []struct{ sw, dw, cn, want int }{{3840, 224, 3, 38}, {3840, 2560, 3, 427}, {7680, 224, 3, 19}, {3840, 224, 1, 112}} {
		pl := newResizePlan(c.sw, 100, c.dw, 50, c.cn, core.Depth8U, float64(c.dw)/float64(c.sw), 0.5, InterArea)
		tabs := pl.areaf()
		if tabs == nil {
			t.Errorf("%d -> %d c%d: the kernel does not take it", c.sw, c.dw, c.cn)
			continue
		}
		if got := tabs.tw; got != c.want {
			t.Errorf("%d -> %d c%d: %d pixels a strip, want %d", c.sw, c.dw, c.cn, got, c.want)
		}
	}
}
