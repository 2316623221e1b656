package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/wavelet"
)

// dwt writes WaveDec2's coefficients in pywt.coeffs_to_array's layout (floats to
// .npy and .tiff, a picture to 8-bit formats); denoise is wavelet.Denoise; bad
// flags are usage errors that name the problem.
func TestDWTAndDenoise(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(images, "camera.png")
	p, err := decode(in, readOpts{mode: readGray, maxPixels: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	g8, _ := gpuimage.NewFromData(gpuimage.CPU(), p.rows, p.cols, gpuimage.CV8UC1, p.data)
	defer g8.Close()
	f := &gpuimage.Image{}
	defer f.Close()
	g8.ConvertTo(f, gpuimage.Depth32F, 1, 0)
	w, _ := wavelet.New("db2")
	c, err := wavelet.WaveDec2(f, w, wavelet.Periodization, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	npy := filepath.Join(dir, "c.npy")
	if code, _, e := runCLI("dwt", in, "-o", npy, "-wavelet", "db2", "-levels", "2", "-mode", "periodization", "-device", "cpu"); code != 0 {
		t.Fatalf("npy: exit %d: %s", code, e)
	}
	s, err := readSignal(npy)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := gpuimage.ToData[float32](c.A)
	fine, _ := gpuimage.ToData[float32](c.Details[1].D)
	ar, ac := c.A.Rows(), c.A.Cols()
	dr, dc := c.Details[1].D.Rows(), c.Details[1].D.Cols()
	if s.rows != ar+c.Details[0].H.Rows()+dr || s.n != ac+c.Details[0].H.Cols()+dc {
		t.Fatalf("mosaic %dx%d", s.n, s.rows)
	}
	// The approximation top left, the finest diagonal details bottom right.
	for _, at := range [][2]int{{0, 0}, {ar - 1, ac - 1}, {3, 5}} {
		if got, want := s.data[at[0]*s.n+at[1]], a[at[0]*ac+at[1]]; got != want {
			t.Errorf("A[%v] = %v, want %v", at, got, want)
		}
	}
	for _, at := range [][2]int{{0, 0}, {dr - 1, dc - 1}, {7, 2}} {
		y, x := s.rows-dr+at[0], s.n-dc+at[1]
		if got, want := s.data[y*s.n+x], fine[at[0]*dc+at[1]]; got != want {
			t.Errorf("D1[%v] = %v, want %v", at, got, want)
		}
	}
	png := filepath.Join(dir, "c.png")
	if code, _, e := runCLI("dwt", in, "-o", png, "-device", "cpu"); code != 0 {
		t.Fatalf("png: exit %d: %s", code, e)
	}
	if q, err := decode(png, readOpts{mode: readUnchanged, maxPixels: 1 << 30}); err != nil || q.typ != gpuimage.CV8UC1 || q.rows != p.rows {
		t.Fatalf("png: %v %dx%d %v", q.typ, q.cols, q.rows, err)
	}
	// denoise through the CLI is wavelet.Denoise.
	out := filepath.Join(dir, "d.png")
	if code, _, e := runCLI("denoise", in, "-o", out, "-wavelet", "db4", "-levels", "3", "-method", "visu", "-device", "cpu"); code != 0 {
		t.Fatalf("denoise: exit %d: %s", code, e)
	}
	q, err := decode(out, readOpts{mode: readUnchanged, maxPixels: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	src, _ := gpuimage.NewFromData(gpuimage.CPU(), p.rows, p.cols, gpuimage.CV8UC1, p.data)
	defer src.Close()
	want := &gpuimage.Image{}
	defer want.Close()
	db4, _ := wavelet.New("db4")
	if err := wavelet.Denoise(src, want, &wavelet.DenoiseOptions{Wavelet: db4, Levels: 3, Method: wavelet.VisuShrink}); err != nil {
		t.Fatal(err)
	}
	wb, _ := gpuimage.ToData[uint8](want)
	diff := 0
	for i := range wb {
		if wb[i] != q.data[i] {
			diff++
		}
	}
	if diff != 0 {
		t.Errorf("denoise: %d of %d pixels differ from wavelet.Denoise", diff, len(wb))
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dwt", in, "-o", npy, "-wavelet", "db42"}, "unknown wavelet"},
		{[]string{"dwt", in, "-o", npy, "-mode", "mirror"}, "unknown mode"},
		{[]string{"dwt", in, "-o", npy, "-levels", "40"}, "too deep"},
		{[]string{"dwt", in}, "-o OUT is required"},
		{[]string{"denoise", in, "-o", out, "-method", "sure"}, "bayes or visu"},
		{[]string{"denoise", in, "-o", out, "-levels", "30"}, "levels"},
	} {
		code, _, e := runCLI(append(c.args, "-device", "cpu")...)
		if code == 0 || !strings.Contains(e, c.want) {
			t.Errorf("%v: exit %d, %q (want an error naming %q)", c.args, code, e, c.want)
		}
	}
}
