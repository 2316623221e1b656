package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// writeBuffers writes what one write of the buffers joined would, and
// readBuffersAt reads it back: more buffers than one call takes, empty ones among
// them, and a read past the end.
func TestWriteBuffers(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), 1))
	for _, n := range []int{0, 1, 1023, 1024, 1025, 3001} {
		var bufs [][]byte
		var want []byte
		for i := 0; i < n; i++ {
			b := make([]byte, rng.IntN(40))
			for k := range b {
				b[k] = byte(rng.Uint32())
			}
			bufs = append(bufs, b)
			want = append(want, b...)
		}
		path := filepath.Join(t.TempDir(), "f")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeBuffers(f, bufs); err != nil {
			t.Fatalf("%d buffers: %v", n, err)
		}
		f.Close()
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Fatalf("%d buffers: the file has %d bytes, want %d (or different ones)", n, len(got), len(want))
		}
		// Read back through buffers of the same shapes, and past the end.
		f, _ = os.Open(path)
		back := make([][]byte, len(bufs))
		var joined []byte
		for i, b := range bufs {
			back[i] = make([]byte, len(b))
		}
		got, err := readBuffersAt(f, back, 0)
		for _, b := range back {
			joined = append(joined, b...)
		}
		if err != nil || got != int64(len(want)) || !bytes.Equal(joined, want) {
			t.Fatalf("%d buffers: read back %d bytes, err %v", n, got, err)
		}
		if len(want) >= 5 {
			tail := make([]byte, 10)
			got, err := readBuffersAt(f, [][]byte{tail[:3], tail[3:]}, int64(len(want)-5))
			if err != nil || got != 5 || !bytes.Equal(tail[:5], want[len(want)-5:]) {
				t.Fatalf("%d buffers: the last 5 bytes read as %d bytes, err %v", n, got, err)
			}
		}
		f.Close()
	}
}

// writeBMP to a file (writeBuffers) writes what it writes to a buffer, and it
// reads back; odd widths have padded rows.
func TestWriteBMPFile(t *testing.T) {
	for _, w := range []int{1, 5, 640} {
		p := pixels{rows: 7, cols: w, typ: gpuimage.CV8UC3, data: make([]byte, 7*w*3)}
		for i := range p.data {
			p.data[i] = byte(i*31 + 7)
		}
		var buf bytes.Buffer
		if err := writeBMP(&buf, p); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "a.bmp")
		f, _ := os.Create(path)
		if err := writeBMP(f, p); err != nil {
			t.Fatal(err)
		}
		f.Close()
		got, _ := os.ReadFile(path)
		if !bytes.Equal(got, buf.Bytes()) {
			t.Fatalf("width %d: the file differs from the buffer", w)
		}
		back, ok, err := readBMP(got, nil)
		if !ok || err != nil || !bytes.Equal(back.data, p.data) {
			t.Fatalf("width %d: read back %v %v", w, ok, err)
		}
	}
}

// A batch reads BMP inputs as the one-file decoder does, whichever way it takes
// them: 24-bit rows straight from the file (padded widths, bottom-up and top-down),
// 32-bit ones through memory, a PNG under a .bmp name; a truncated file fails
// alone, naming the problem.
func TestBatchReadsBMP(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	bmpOf := func(w, h, cn int, topDown bool) []byte {
		p := pixels{rows: h, cols: w, typ: gpuimage.MakeType(gpuimage.Depth8U, cn), data: make([]byte, w*h*cn)}
		for i := range p.data {
			p.data[i] = byte(i*7 + w + cn)
		}
		var buf bytes.Buffer
		if err := writeBMP(&buf, p); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		if topDown { // the same pixels, rows stored top first (a negative height)
			stride := (w*cn + 3) &^ 3
			rows := make([]byte, 0, stride*h)
			for y := h - 1; y >= 0; y-- {
				rows = append(rows, b[54+y*stride:54+(y+1)*stride]...)
			}
			copy(b[54:], rows)
			hh := int32(-h)
			b[22], b[23], b[24], b[25] = byte(hh), byte(hh>>8), byte(hh>>16), byte(hh>>24)
		}
		return b
	}
	for _, w := range []int{1, 5, 7, 640} {
		write(fmt.Sprintf("up%d.bmp", w), bmpOf(w, 3, 3, false))
		write(fmt.Sprintf("down%d.bmp", w), bmpOf(w, 4, 3, true))
	}
	write("bgra.bmp", bmpOf(6, 5, 4, false))
	png, err := os.ReadFile(filepath.Join(images, "camera.png"))
	if err != nil {
		t.Fatal(err)
	}
	write("png.bmp", png)
	write("short.bmp", bmpOf(9, 6, 3, false)[:54+27*3])
	code, _, errs := runCLI("run", dir, "-o", out+"/", "-ext", "png", "-device", "cpu", "-q", "convert")
	if code != exitFail || !strings.Contains(errs, "short.bmp") || !strings.Contains(errs, "truncated") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("exit %d, want %d with short.bmp alone failing as truncated: %s", code, exitFail, errs)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() == "short.bmp" {
			continue
		}
		ro := readOpts{maxPixels: defaultMaxPixels}
		want, err := decode(filepath.Join(dir, e.Name()), ro)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decode(filepath.Join(out, strings.TrimSuffix(e.Name(), ".bmp")+".png"), ro)
		if err != nil || got.rows != want.rows || got.cols != want.cols || got.typ != want.typ || !bytes.Equal(got.data, want.data) {
			t.Errorf("%s: the batch's pixels differ from the decoder's (%v)", e.Name(), err)
		}
	}
}
