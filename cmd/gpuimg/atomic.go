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

// Outputs are written under their own name into a temporary folder beside the
// output (same directory, so the rename never crosses file systems), named
// ".NAME.gpuimg-tmp-*", and renamed into place, so a failed or interrupted write
// never leaves a half-written output. The folder is removed on every failure and,
// through the signal handler, on SIGINT and SIGTERM; directory inputs and patterns
// skip such names. A folder rather than a file, because the encoders (OpenCV's
// imwrite among them) create their file by name: once the signal handler has
// removed the folder, a write that had not yet created its file fails instead of
// leaving one behind.
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

// isTempPath reports whether a path is, or is in, one of gpuimg's temporary
// output folders.
func isTempPath(path string) bool {
	return isTempName(filepath.Base(path)) || isTempName(filepath.Base(filepath.Dir(path)))
}

// temps are the temporary folders being written; the signal handler removes them.
// stopping is set, under tempsMu, once it has begun: no folder is made after that.
var (
	tempsMu  sync.Mutex
	temps    = map[string]bool{}
	stopping bool
)

// makeTempDir makes and records a temporary folder for an output named base in dir.
// Once the process is stopping it blocks until the process exits.
func makeTempDir(dir, base string) (string, error) {
	tempsMu.Lock()
	if stopping {
		tempsMu.Unlock()
		select {} // the signal handler is ending the process
	}
	defer tempsMu.Unlock()
	tmp, err := os.MkdirTemp(dir, "."+base+tempMark+"*")
	if err == nil {
		temps[tmp] = true
	}
	return tmp, err
}

// dropTempDir removes a temporary folder and forgets it.
func dropTempDir(tmp string) {
	tempsMu.Lock()
	defer tempsMu.Unlock()
	os.RemoveAll(tmp)
	delete(temps, tmp)
}

// atomicWrite has write produce path's file, under path's own name (the encoders
// go by its extension), in a temporary folder beside it, then renames it into place.
func atomicWrite(path string, write func(tmp string) error) error {
	target, err := outputTarget(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmpDir, err := makeTempDir(dir, base)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: "create", Path: path, Err: pe.Err} // name the output, not the folder's pattern
		}
		return err
	}
	defer dropTempDir(tmpDir)
	tmp := filepath.Join(tmpDir, base)
	if err := write(tmp); err != nil {
		return err
	}
	mode := fs.FileMode(0o666) &^ umask()
	if st, err := os.Stat(target); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
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
		tempsMu.Lock()
		stopping = true
		for tmp := range temps {
			removeDir(tmp)
		}
		tempsMu.Unlock()
		fmt.Fprintf(os.Stderr, "gpuimg: stopped by %v\n", s)
		code := 130
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
}

// removeDir removes a temporary folder while a writer may still be creating its
// file in it: RemoveAll fails if the file appears between its listing and its
// removal of the folder, and once the folder is gone no file can appear.
func removeDir(dir string) {
	for i := 0; i < 100; i++ {
		if os.RemoveAll(dir) == nil {
			return
		}
	}
}
