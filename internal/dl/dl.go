// Package dl is the run-time loading that internal/cufft and internal/nvjpeg
// share: dl.h (included by their cgo preambles) resolves a library's symbols with
// dlopen, and Open turns a list of candidate file names into the one loaded or an
// error that names them all.
package dl

import (
	"fmt"
	"strings"
	"unsafe"
)

// Open calls open, a package's GI_DL_OPENER function, with names as one
// NUL-separated list, and returns the name it loaded. what names the library in
// the error ("cuFFT"), where it says how to get it.
func Open(what, where string, names []string, open func(list unsafe.Pointer) unsafe.Pointer) (string, error) {
	list := []byte(strings.Join(names, "\x00") + "\x00\x00")
	got := open(unsafe.Pointer(&list[0]))
	if got == nil {
		return "", fmt.Errorf("%s not found: none of %s could be loaded (%s)", what, strings.Join(names, ", "), where)
	}
	off := uintptr(got) - uintptr(unsafe.Pointer(&list[0]))
	for _, n := range names {
		if off == 0 {
			return n, nil
		}
		off -= uintptr(len(n) + 1)
	}
	return "", fmt.Errorf("%s: the loader returned a name outside its list", what)
}
