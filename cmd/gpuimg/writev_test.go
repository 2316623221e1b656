package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// writeBuffers writes what one write of the buffers joined would: more buffers
// than one writev takes, empty ones among them.
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
