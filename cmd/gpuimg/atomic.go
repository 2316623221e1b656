package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Outputs are written to a temporary file beside the output (same directory, so
// the rename never crosses file systems), named ".NAME.gpuimg-tmp-*.EXT", and
// renamed into place, so a failed or interrupted write never leaves a half-written
// output. The temporary file is removed on every failure and, through the signal
// handler, on SIGINT and SIGTERM; directory inputs skip such files.
//
// The output's mode follows the umask, as any Unix tool's (0666 &^ umask); a file
// being replaced keeps its mode. An output that is a symbolic link is followed:
// the file it points to is replaced and the link stays, as with cp and OpenCV's
// imwrite; a link to a missing file is an error.

// tempMark is in the name of every temporary output file.
const tempMark = ".gpuimg-tmp-"

// isTempName reports whether a file name is one of gpuimg's temporary outputs.
func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMark)
}

// temps are the temporary files being written, removed if the process is stopped.
var temps sync.Map

// atomicWrite has write produce a temporary file beside path (with the same
// extension, which the encoders go by), then renames it into place.
func atomicWrite(path string, write func(tmp string) error) error {
	target, err := outputTarget(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+tempMark+"*"+filepath.Ext(target))
	if err != nil {
		return err
	}
	tmp := f.Name()
	temps.Store(tmp, true)
	defer temps.Delete(tmp)
	f.Close()
	fail := func(err error) error {
		os.Remove(tmp)
		return err
	}
	if err := write(tmp); err != nil {
		return fail(err)
	}
	mode := fs.FileMode(0o666) &^ umask()
	if st, err := os.Stat(target); err == nil {
		if st.IsDir() {
			return fail(fmt.Errorf("%s is a directory", path))
		}
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return fail(err)
	}
	return nil
}

// outputTarget follows path if it is a symbolic link.
func outputTarget(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	t, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s is a symbolic link to a missing file", path)
		}
		return "", err
	}
	return t, nil
}

var (
	umaskOnce sync.Once
	umaskVal  fs.FileMode
)

// umask reads the process's umask once (setting it back at once).
func umask() fs.FileMode {
	umaskOnce.Do(func() { umaskVal = readUmask() })
	return umaskVal
}

// removeTempsOnSignal removes the temporary files being written when SIGINT or
// SIGTERM arrives, then ends the process with 128 + the signal's number.
func removeTempsOnSignal() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-c
		temps.Range(func(k, _ any) bool {
			os.Remove(k.(string))
			return true
		})
		fmt.Fprintf(os.Stderr, "gpuimg: stopped by %v\n", s)
		code := 130
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
}
