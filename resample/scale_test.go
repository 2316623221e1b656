package resample_test

import (
	"encoding/json"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/resample"
)

var allFilters = []resample.Filter{resample.Box, resample.Bilinear, resample.Bicubic, resample.Lanczos3, resample.Hamming}

// Scale on the CPU device against Pillow's Image.resize (python3-pil): every
// filter, 1, 3 and 4 channels, shrinking by integer and fractional factors (the
// antialiased case), enlarging, one axis only, 1x1 and 1xN; within ±1 (Pillow's own
// arithmetic, reproduced: in practice exact).
func TestScaleMatchesPillow(t *testing.T) {
	r := tu.Rand(t)
	type pcase struct {
		W      int    `json:"w"`
		H      int    `json:"h"`
		Cn     int    `json:"cn"`
		Data   []byte `json:"data"`
		Dw     int    `json:"dw"`
		Dh     int    `json:"dh"`
		Filter string `json:"filter"`
	}
	var cases []pcase
	for _, cn := range []int{1, 3, 4} {
		for _, sz := range [][2]int{{1, 1}, {37, 1}, {1, 29}, {97, 61}, {640, 360}} {
			for _, d := range [][2]int{{1, 1}, {sz[0]/2 + 1, sz[1]/2 + 1}, {sz[0]/7 + 1, sz[1]/3 + 1}, {sz[0]*2 + 1, sz[1] + 3}, {sz[0], sz[1]/2 + 1}, {sz[0]/3 + 1, sz[1]}} {
				for _, f := range allFilters {
					if d[0] == sz[0] && d[1] == sz[1] {
						continue
					}
					cases = append(cases, pcase{sz[0], sz[1], cn, tu.RandomBytes(r, gpuimage.Depth8U, sz[0]*sz[1]*cn), d[0], d[1], f.String()})
				}
			}
		}
	}
	res := tu.SciPy(t, "testdata/pillow_ref.py", cases, len(cases))
	exact := 0
	for i, c := range cases {
		var want []byte
		if err := json.Unmarshal(res[i], &want); err != nil {
			t.Fatal(err)
		}
		src, err := gpuimage.NewFromBytes(gpuimage.CPU(), c.H, c.W, gpuimage.MakeType(gpuimage.Depth8U, c.Cn), c.Data)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := resample.ParseFilter(c.Filter)
		got := &gpuimage.Image{}
		name := fmt.Sprintf("%dx%dx%d -> %dx%d %s", c.W, c.H, c.Cn, c.Dw, c.Dh, c.Filter)
		if err := resample.Scale(src, got, image.Pt(c.Dw, c.Dh), f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d := tu.Compare(gpuimage.Depth8U, tu.Bytes(t, got), want, 1, 0)
		if d.Bad != 0 {
			t.Errorf("%s: %d of %d elements differ (max %g); %s", name, d.Bad, d.N, d.MaxAbs, d.First)
		}
		if d.Exact == d.N {
			exact++
		}
		src.Close()
		got.Close()
	}
	t.Logf("%d of %d cases equal to Pillow's", exact, len(cases))
}

func TestScaleBadInput(t *testing.T) {
	src, err := gpuimage.New(gpuimage.CPU(), 10, 20, gpuimage.CV8UC3)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := &gpuimage.Image{}
	defer dst.Close()
	for _, c := range []struct {
		err  error
		want string
	}{
		{resample.Scale(src, dst, image.Pt(0, 5), resample.Bicubic), "positive"},
		{resample.Scale(src, dst, image.Pt(5, 5), resample.Filter(42)), "unknown filter"},
		{resample.Scale(src, dst, image.Pt(1<<20, 1<<20), resample.Box), "too large"},
		{resample.Scale(nil, dst, image.Pt(5, 5), resample.Box), "nil"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%v: want an error saying %q", c.err, c.want)
		}
	}
	if _, err := resample.ParseFilter("gaussian"); err == nil {
		t.Error("ParseFilter(gaussian): no error")
	}
}

// Scale's weight tables are as wide as the most taps an output sums (Pillow's
// xmax), not Pillow's ksize, which counts one more for these factors: by 2,
// Lanczos3 12 of 13, bicubic 8 of 9, bilinear 4 of 5, box 2 of 3; by 4 and by
// 15, Lanczos3 24 of 25 and 90 of 91; enlarging by 2, Lanczos3 6 of 7.
func TestScaleTapsTrimmed(t *testing.T) {
	for _, c := range []struct {
		n, dn int
		f     resample.Filter
		want  int
	}{
		{3840, 1920, resample.Lanczos3, 12},
		{3840, 1920, resample.Bicubic, 8},
		{3840, 1920, resample.Bilinear, 4},
		{3840, 1920, resample.Box, 2},
		{3840, 960, resample.Lanczos3, 24},
		{3840, 256, resample.Lanczos3, 90},
		{1920, 3840, resample.Lanczos3, 6},
		{1, 1, resample.Box, 1},
	} {
		if got := resample.ScaleTaps(c.n, c.dn, c.f); got != c.want {
			t.Errorf("%d -> %d %v: %d taps, want %d", c.n, c.dn, c.f, got, c.want)
		}
	}
}
