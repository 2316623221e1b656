package main

import (
	"os"
	"path/filepath"
)

// atomicWrite has write produce a temporary file beside path (with the same
// extension, which the encoders go by), then renames it into place, so a failed
// write never leaves a half-written output.
func atomicWrite(path string, write func(tmp string) error) error {
	dir, base := filepath.Split(path)
	f, err := os.CreateTemp(dir, "."+base+".*"+filepath.Ext(path))
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	if err := write(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	// CreateTemp makes the file private; outputs get the usual permissions.
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
