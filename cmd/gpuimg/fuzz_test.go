package main

import (
	"os"
	"path/filepath"
	"testing"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Fuzz targets (go test -fuzz=FuzzX ./cmd/gpuimg). Inputs that found bugs are kept
// in testdata/fuzz/FuzzX and run as regression tests by every go test.

// FuzzParseStep: any step text is parsed or refused with an error, never a panic;
// a parsed step's operation builds.
func FuzzParseStep(f *testing.F) {
	for _, s := range []string{"cvtcolor:BGR2Lab", "gaussian:ksize=5:sigma=1.5", "filter2d:kernel=0,-1,0;-1,5,-1;0,-1,0",
		"sepfilter:kx=1,2,1:ky=1,2,1", "notch:notches=10,0,3", "blur:5x3", "sobel:1:0:3", "convert:depth=32F:alpha=0.5",
		"lowpass:cutoff=40:shape=butterworth:order=2", "gaussian:ksize=", "filter2d:kernel=;;", "blur:ksize=99999999999x2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isStep(s) {
			return
		}
		st, err := parseStep(s)
		if err == nil && st.run == nil {
			t.Errorf("%q parsed with no function", s)
		}
	})
}

// FuzzArgs: the size, point, vector, matrix, depth and border parsers on any text.
func FuzzArgs(f *testing.F) {
	for _, s := range []string{"5", "5x3", "-1,-1", "1,2,1", "0,-1,0;-1,5,-1;0,-1,0", "32F", "reflect101", "1e308x1", ";", ",", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := args{"v": s}
		a.int("v")
		a.float("v")
		a.size("v")
		a.point("v")
		a.vector("v")
		if m, err := a.matrix("v"); err == nil {
			for _, row := range m {
				if len(row) != len(m[0]) {
					t.Errorf("%q: ragged matrix accepted", s)
				}
			}
		}
		a.depth("v")
		a.border("v")
		a.shape("v")
	})
}

// FuzzDecode: the header checks and this build's decoder on any bytes: an image of
// the size the header claimed, or an error; never a panic, an abort or an
// allocation past the limit (a small one here, so that the fuzzer's claims of large
// images are refused quickly).
func FuzzDecode(f *testing.F) {
	for _, fx := range fixtures(f, tu.Rand(f)) {
		f.Add(fx.data)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "in")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, mode := range []readMode{readUnchanged, readColor, readGray} {
			ro := readOpts{mode: mode, maxPixels: 1 << 16}
			p, err := decode(path, ro)
			if err != nil {
				continue
			}
			if int64(p.rows)*int64(p.cols) > ro.maxPixels || len(p.data) != p.rows*p.cols*p.typ.Channels()*p.typ.Depth().Size() {
				t.Errorf("decoded %dx%d %v with %d bytes", p.cols, p.rows, p.typ, len(p.data))
			}
			h, herr := sniff(data)
			if herr == nil && h.format != "" && !swapped(h.orientation) && (int64(p.cols) != h.w || int64(p.rows) != h.h) && h.format != "gif" {
				t.Errorf("%s header says %dx%d, decoded %dx%d", h.format, h.w, h.h, p.cols, p.rows)
			}
		}
	})
}
