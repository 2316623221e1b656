//go:build !unix

package main

import "io/fs"

func readUmask() fs.FileMode { return 0o022 }
