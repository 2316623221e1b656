//go:build unix

package main

import (
	"io/fs"
	"syscall"
)

func readUmask() fs.FileMode {
	old := syscall.Umask(0)
	syscall.Umask(old)
	return fs.FileMode(old)
}
