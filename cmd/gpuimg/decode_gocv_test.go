//go:build !noopencv

package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// OpenCV-written files the pure-Go encoders cannot make: JPEG with 4:4:4 and 4:2:2
// chroma, progressive, with restart markers; OpenCV's own (LZW) TIFF.
func opencvFixtures(t *testing.T, r *rand.Rand, dir string) []fixture {
	photoMat := func(w, h int) gocv.Mat {
		p := photo(r, w, h, false)
		m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := p.NRGBAAt(x, y)
				m.SetUCharAt(y, 3*x, c.B)
				m.SetUCharAt(y, 3*x+1, c.G)
				m.SetUCharAt(y, 3*x+2, c.R)
			}
		}
		return m
	}
	const samplingFactor = 7 // cv::IMWRITE_JPEG_SAMPLING_FACTOR (OpenCV 4.5.5+)
	var fs []fixture
	for _, c := range []struct {
		name   string
		w, h   int
		params []int
		typ    gpuimage.MatType
	}{
		{"cv444.jpg", 45, 31, []int{samplingFactor, 0x111111}, gpuimage.CV8UC3},
		{"cv422.jpg", 45, 31, []int{samplingFactor, 0x211111}, gpuimage.CV8UC3},
		{"cv420.jpg", 451, 300, []int{samplingFactor, 0x221111}, gpuimage.CV8UC3},
		{"cv420-odd.jpg", 7, 5, nil, gpuimage.CV8UC3},
		{"cv-progressive.jpg", 63, 47, []int{gocv.IMWriteJpegProgressive, 1}, gpuimage.CV8UC3},
		{"cv-restart.jpg", 63, 47, []int{gocv.IMWriteJpegRstInterval, 2}, gpuimage.CV8UC3},
		{"cv-lzw.tiff", 33, 21, nil, gpuimage.CV8UC3},
	} {
		m := photoMat(c.w, c.h)
		path := filepath.Join(dir, c.name)
		if c.params == nil {
			c.params = []int{gocv.IMWriteJpegQuality, 90}
		}
		if !gocv.IMWriteWithParams(path, m, c.params) {
			t.Fatalf("OpenCV cannot write %s", c.name)
		}
		m.Close()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, fixture{name: c.name, data: data, typ: c.typ})
	}
	return fs
}

// maxDiff is the largest difference between two images' elements, or -1 when
// their sizes or types differ, and the share of elements that differ by more than 1.
func maxDiff(a, b pixels) (float64, float64) {
	if a.rows != b.rows || a.cols != b.cols || a.typ != b.typ || len(a.data) != len(b.data) {
		return -1, 1
	}
	va, vb := tu.Values(a.typ.Depth(), a.data), tu.Values(b.typ.Depth(), b.data)
	d, over := 0.0, 0
	for i := range va {
		e := abs(va[i] - vb[i])
		d = max(d, e)
		if e > 1 {
			over++
		}
	}
	return d, float64(over) / float64(max(1, len(va)))
}

// Both builds' decoders on every generated file, the repository's photos and
// OpenCV-written JPEG and TIFF variants, in each -read mode: the same type and
// size, the same pixels (JPEG within ±1: the IDCTs round differently), or both
// fail. The table goes to the log (go test -v).
func TestDecodersAgree(t *testing.T) {
	r := tu.Rand(t)
	fs := fixtures(t, r)
	fs = append(fs, opencvFixtures(t, r, t.TempDir())...)
	for _, d := range []string{images, "../../testdata/decode"} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if readable[extOf(e.Name())] {
				data, _ := os.ReadFile(filepath.Join(d, e.Name()))
				fs = append(fs, fixture{name: "testdata-" + e.Name(), data: data})
			}
		}
	}
	dir := writeFixtures(t, fs)
	ro := readOpts{maxPixels: defaultMaxPixels}
	var table []string
	for _, f := range fs {
		path := filepath.Join(dir, filepath.Base(f.name))
		for _, mode := range []readMode{readUnchanged, readColor, readGray} {
			ro.mode = mode
			cv, errCV := decode(path, ro)
			var pure pixels
			data, h, errGo := readChecked(path, ro)
			if errGo == nil {
				pure, errGo = decodeGo(data, h, mode)
			}
			row := fmt.Sprintf("%-28s %-9v", f.name, &mode)
			switch {
			case errCV != nil && errGo != nil:
				table = append(table, row+" both fail: "+firstLine(errGo.Error()))
				if f.fail == "" && !(f.typ.Depth() == gpuimage.Depth32F && mode != readUnchanged) {
					t.Errorf("%s -read %v: both fail: %v", f.name, &mode, errGo)
				}
				continue
			case errCV != nil || errGo != nil:
				t.Errorf("%s -read %v: OpenCV build: %v; pure-Go build: %v", f.name, &mode, errCV, errGo)
				continue
			}
			d, over := maxDiff(cv, pure)
			table = append(table, fmt.Sprintf("%s %-8v %5dx%-5d max diff %g, %.3f%% beyond ±1", row, cv.typ, cv.cols, cv.rows, d, 100*over))
			// Exact but for JPEG: Go's IDCT rounds differently from libjpeg-turbo's
			// (±1 in each plane: gray and luma are held to ±1); through YCbCr → BGR (or CMYK) a chroma unit becomes up to
			// 1.8 units, so colour is held to ±3 with at most 2% (or, in small images, 48 values) beyond ±1.
			// The differences come in clusters (one chroma sample's rounding reaches several pixels and all
			// three channels): in 480 random 21x11 photos the count beyond ±1 was 0-20, once 25.
			tol, share := 0.0, 0.0
			switch {
			case h.format == "jpeg" && cv.typ.Channels() == 1 && h.components != 4:
				tol, share = 1, 0
			case h.format == "jpeg":
				tol, share = 3, 0.02
			}
			n := float64(len(cv.data)) / float64(cv.typ.Depth().Size())
			if d < 0 || d > tol || over*n > max(share*n, min(share*n*100, 48)) {
				t.Errorf("%s -read %v: OpenCV %v %dx%d, pure Go %v %dx%d, max diff %g (allowed %g)",
					f.name, &mode, cv.typ, cv.cols, cv.rows, pure.typ, pure.cols, pure.rows, d, tol)
			}
			if mode == readUnchanged && f.typ != 0 && cv.typ != f.typ {
				t.Errorf("%s: OpenCV reads %v, the fixture says %v", f.name, cv.typ, f.typ)
			}
		}
	}
	sort.Strings(table)
	t.Logf("decode agreement (%d files x 3 modes):\n%s", len(fs), strings.Join(table, "\n"))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
