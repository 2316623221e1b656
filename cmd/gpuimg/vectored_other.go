//go:build !linux

package main

import (
	"io"
	"os"
)

// writeBuffers writes bufs to f in order, one write each.
func writeBuffers(f *os.File, bufs [][]byte) error {
	for _, b := range bufs {
		if _, err := f.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// readBuffersAt fills bufs in order from f's bytes at off, one read each, and says
// how many bytes it read.
func readBuffersAt(f *os.File, bufs [][]byte, off int64) (int64, error) {
	var total int64
	for _, b := range bufs {
		n, err := f.ReadAt(b, off+total)
		total += int64(n)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
	return total, nil
}
