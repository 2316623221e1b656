//go:build !linux

package main

import "os"

// writeBuffers writes bufs to f in order, one write each.
func writeBuffers(f *os.File, bufs [][]byte) error {
	for _, b := range bufs {
		if _, err := f.Write(b); err != nil {
			return err
		}
	}
	return nil
}
