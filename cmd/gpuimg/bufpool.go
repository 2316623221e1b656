package main

import (
	"io"
	"os"
	"sync"
)

// A batch reads, decodes and writes tens of megabytes an image. Fresh buffers for
// each would have the Go heap grow and the kernel fault in and zero their pages
// again and again, work that grows with the number of threads doing it; a batch
// lends its buffers out and takes them back instead.

// alloc returns a byte slice of length n whose contents are undefined; nil means
// make.
type alloc func(n int) []byte

// get calls a, or make where a is nil.
func (a alloc) get(n int) []byte {
	if a == nil {
		return make([]byte, n)
	}
	return a(n)
}

// bufPool lends byte buffers: get returns the smallest idle buffer that is large
// enough (or a new one), put takes one back. It keeps at most keep idle buffers,
// the largest, so its memory is bounded by what the batch had in flight at once.
type bufPool struct {
	mu   sync.Mutex
	keep int
	free [][]byte
}

// minPooled is the smallest buffer worth keeping.
const minPooled = 64 << 10

func (p *bufPool) get(n int) []byte {
	p.mu.Lock()
	best := -1
	for i, b := range p.free {
		if cap(b) >= n && (best < 0 || cap(b) < cap(p.free[best])) {
			best = i
		}
	}
	if best >= 0 {
		b := p.free[best]
		last := len(p.free) - 1
		p.free[best], p.free[last] = p.free[last], nil
		p.free = p.free[:last]
		p.mu.Unlock()
		return b[:n]
	}
	p.mu.Unlock()
	return make([]byte, n)
}

func (p *bufPool) put(b []byte) {
	if cap(b) < minPooled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < p.keep {
		p.free = append(p.free, b)
		return
	}
	small := -1 // full: b replaces the smallest idle buffer, if smaller than b
	for i, f := range p.free {
		if cap(f) < cap(b) && (small < 0 || cap(f) < cap(p.free[small])) {
			small = i
		}
	}
	if small >= 0 {
		p.free[small] = b
	}
}

// readFile is os.ReadFile into a buffer from get: a regular file's size is known
// before it is read, so it takes one buffer of that size.
func readFile(path string, get alloc) ([]byte, error) {
	if get == nil {
		return os.ReadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() <= 0 || int64(int(st.Size())) != st.Size() {
		return io.ReadAll(f)
	}
	b := get.get(int(st.Size()))
	n, err := io.ReadFull(f, b)
	switch err {
	case nil: // the file may have grown since: read what is there, as os.ReadFile does
		rest, err := io.ReadAll(f)
		if len(rest) > 0 {
			b = append(b, rest...)
		}
		return b, err
	case io.ErrUnexpectedEOF, io.EOF: // it shrank
		return b[:n], nil
	}
	return nil, err
}
