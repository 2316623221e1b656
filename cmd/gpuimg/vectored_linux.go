package main

import (
	"os"
	"syscall"
	"unsafe"
)

// maxIovecs is how many buffers one writev or preadv takes (Linux's UIO_MAXIOV).
const maxIovecs = 1024

// writeBuffers writes bufs to f in order with writev, up to 1024 buffers a call,
// instead of copying them into one buffer first: an image's rows go from where
// they are (its page-locked download buffer) straight to the file.
func writeBuffers(f *os.File, bufs [][]byte) error {
	_, err := vectored(f, bufs, syscall.SYS_WRITEV, 0)
	return err
}

// readBuffersAt fills bufs in order from f's bytes at off with preadv, up to 1024
// buffers a call, and says how many bytes it read: fewer than the buffers hold
// where the file ends first.
func readBuffersAt(f *os.File, bufs [][]byte, off int64) (int64, error) {
	return vectored(f, bufs, syscall.SYS_PREADV, off)
}

// vectored moves bufs through writev (trap SYS_WRITEV, at the file's offset) or
// preadv (SYS_PREADV, from off), as many calls as it takes, and returns the bytes
// moved; a read stops at the end of the file.
func vectored(f *os.File, bufs [][]byte, trap uintptr, off int64) (int64, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	op, read := "write", trap == syscall.SYS_PREADV
	if read {
		op = "read"
	}
	var total int64
	iov := make([]syscall.Iovec, 0, maxIovecs)
	for len(bufs) > 0 {
		iov = iov[:0]
		for _, b := range bufs {
			if len(iov) == maxIovecs {
				break
			}
			if len(b) > 0 {
				v := syscall.Iovec{Base: &b[0]}
				v.SetLen(len(b))
				iov = append(iov, v)
			}
		}
		if len(iov) == 0 {
			return total, nil
		}
		var n int
		var errno syscall.Errno
		call := func(fd uintptr) bool {
			r, _, e := syscall.Syscall6(trap, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(len(iov)), uintptr(off), uintptr(off>>32), 0)
			n, errno = int(r), e
			return e != syscall.EAGAIN
		}
		if read {
			err = rc.Read(call)
		} else {
			err = rc.Write(call)
		}
		switch {
		case err != nil:
			return total, err
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			return total, &os.PathError{Op: op, Path: f.Name(), Err: errno}
		case n == 0 && read:
			return total, nil // the end of the file
		case n == 0:
			return total, &os.PathError{Op: op, Path: f.Name(), Err: syscall.EIO}
		}
		total += int64(n)
		off += int64(n)
		for n > 0 { // past what was moved, also part of a buffer
			if len(bufs[0]) <= n {
				n -= len(bufs[0])
				bufs = bufs[1:]
				continue
			}
			bufs[0] = bufs[0][n:]
			n = 0
		}
		for len(bufs) > 0 && len(bufs[0]) == 0 {
			bufs = bufs[1:]
		}
	}
	return total, nil
}
