package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The pool lends the smallest idle buffer that fits, keeps at most keep of them
// (the largest), and never lends one buffer twice.
func TestBufPool(t *testing.T) {
	p := &bufPool{keep: 2}
	a, b, c := p.get(100<<10), p.get(200<<10), p.get(300<<10)
	if len(a) != 100<<10 || len(b) != 200<<10 || len(c) != 300<<10 {
		t.Fatalf("lengths %d %d %d", len(a), len(b), len(c))
	}
	p.put(a)
	p.put(b)
	p.put(c) // full: c replaces a, the smallest
	if len(p.free) != 2 {
		t.Fatalf("%d idle buffers kept, want 2", len(p.free))
	}
	got := p.get(150 << 10)
	if &got[:cap(got)][cap(got)-1] != &b[:cap(b)][cap(b)-1] || len(got) != 150<<10 {
		t.Errorf("get(150 KiB) did not lend the 200 KiB buffer, the smallest that fits")
	}
	again := p.get(150 << 10)
	if &again[:cap(again)][cap(again)-1] != &c[:cap(c)][cap(c)-1] {
		t.Errorf("the second get(150 KiB) did not lend the 300 KiB buffer")
	}
	if len(p.free) != 0 {
		t.Errorf("%d idle buffers left, want 0", len(p.free))
	}
	p.put(make([]byte, 10)) // too small to keep
	if len(p.free) != 0 {
		t.Errorf("a 10-byte buffer was kept")
	}
}

// readFile reads what os.ReadFile reads, into the buffer lent, for empty and
// non-empty files; a missing file is an error.
func TestReadFileInto(t *testing.T) {
	dir := t.TempDir()
	p := &bufPool{keep: 4}
	for _, n := range []int{0, 1, 7, 100 << 10} {
		path := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte{byte(n), 3, 5}, n)[:n]
		if err := os.WriteFile(path, want, 0o666); err != nil {
			t.Fatal(err)
		}
		p.put(bytes.Repeat([]byte{0xee}, 200<<10)) // poisoned: what is not read must not show
		got, err := readFile(path, p.get)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: read %d bytes, err %v", n, len(got), err)
		}
	}
	if _, err := readFile(filepath.Join(dir, "missing"), p.get); err == nil {
		t.Error("a missing file read without an error")
	}
}
