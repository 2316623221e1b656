package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/interp"
)

// idw writes interp.Shepard's map: as floats to .npy and .tiff (NaN outside the
// radius), as colours or gray to 8-bit formats (black outside the mask); errors
// name the problem.
func TestIDW(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "pts.csv")
	os.WriteFile(csvPath, []byte("x, y, value\n# three readings\n3,4,10\n30.5,10,-2\n12,25,7.5\n"), 0o644)
	pts := []interp.Point{{X: 3, Y: 4, Value: 10}, {X: 30.5, Y: 10, Value: -2}, {X: 12, Y: 25, Value: 7.5}}
	want := func(o interp.ShepardOptions) []float32 {
		m, _ := gpuimage.New(gpuimage.CPU(), 27, 40, gpuimage.CV32FC1)
		defer m.Close()
		if err := interp.Shepard(pts, m, &o); err != nil {
			t.Fatal(err)
		}
		v, _ := gpuimage.ToData[float32](m)
		return v
	}
	same := func(name string, got, want []float32) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
		}
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s: value %d is %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	npy := filepath.Join(dir, "m.npy")
	if code, _, e := runCLI("idw", csvPath, "-o", npy, "-size", "40x27", "-radius", "12", "-device", "cpu"); code != 0 {
		t.Fatalf("npy: exit %d: %s", code, e)
	}
	s, err := readSignal(npy)
	if err != nil {
		t.Fatal(err)
	}
	same("npy", s.data, want(interp.ShepardOptions{Radius: 12}))
	tif := filepath.Join(dir, "m.tiff")
	if code, _, e := runCLI("idw", csvPath, "-o", tif, "-size", "40x27", "-power", "3", "-k", "2", "-device", "cpu"); code != 0 {
		t.Fatalf("tiff: exit %d: %s", code, e)
	}
	p, err := decode(tif, readOpts{mode: readUnchanged, maxPixels: 1 << 30})
	if err != nil || p.typ != gpuimage.CV32FC1 {
		t.Fatalf("tiff: %v %v", p.typ, err)
	}
	same("tiff", bytesF32(p.data), want(interp.ShepardOptions{Power: 3, K: 2}))
	for _, c := range []struct {
		args []string
		cn   int
	}{{[]string{"-colormap", "magma", "-mask", "circle"}, 3}, {[]string{"-colormap", "gray", "-range", "-2,10"}, 1}} {
		png := filepath.Join(dir, "m.png")
		if code, _, e := runCLI(append([]string{"idw", csvPath, "-o", png, "-size", "40x27", "-device", "cpu"}, c.args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, e)
		}
		p, err := decode(png, readOpts{mode: readUnchanged, maxPixels: 1 << 30})
		if err != nil || p.cols != 40 || p.rows != 27 || p.typ.Channels() != c.cn {
			t.Fatalf("%v: %dx%d %v %v", c.args, p.cols, p.rows, p.typ, err)
		}
		if c.cn == 1 && (p.data[4*40+3] != 255 || p.data[10*40+30] > 10) {
			t.Errorf("gray: the readings' pixels are %d and %d, want 255 and about 0", p.data[4*40+3], p.data[10*40+30])
		}
		if c.cn == 3 && (p.data[0] != 0 || p.data[(13*40+20)*3] == 0 && p.data[(13*40+20)*3+1] == 0) {
			t.Errorf("magma in a circle: the corner is %v, the centre %v", p.data[:3], p.data[(13*40+20)*3:][:3])
		}
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("1,2,3\n4,five,6\n"), 0o644)
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, []byte("x,y,v\n"), 0o644)
	out := filepath.Join(dir, "x.png")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{csvPath, "-o", out}, 2, "-size"},
		{[]string{csvPath, "-o", out, "-size", "40x"}, 2, "-size"},
		{[]string{csvPath, "-size", "4x4"}, 2, "-o"},
		{[]string{csvPath, "-o", out, "-size", "4x4", "-colormap", "nope"}, 2, "nope"},
		{[]string{csvPath, "-o", out, "-size", "4x4", "-range", "5,1"}, 2, "-range"},
		{[]string{csvPath, "-o", filepath.Join(dir, "x.wav"), "-size", "4x4"}, 2, "wav"},
		{[]string{bad, "-o", out, "-size", "4x4"}, 1, "bad.csv:2"},
		{[]string{empty, "-o", out, "-size", "4x4"}, 1, "no points"},
		{[]string{filepath.Join(dir, "missing.csv"), "-o", out, "-size", "4x4"}, 1, "missing.csv"},
		{[]string{csvPath, "-o", out, "-size", "4x4", "-k", "99"}, 1, "k 99"},
		{[]string{csvPath, "-o", out, "-size", "4x4", "-mask", tif}, 1, "-mask"},
	} {
		code, _, e := runCLI(append([]string{"idw", "-device", "cpu"}, c.args...)...)
		if code != c.code || !strings.Contains(e, c.want) {
			t.Errorf("%v: exit %d (%q), want %d naming %q", c.args, code, e, c.code, c.want)
		}
	}
}

func bytesF32(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
	}
	return v
}
