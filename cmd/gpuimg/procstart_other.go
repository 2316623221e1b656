//go:build !linux

package main

import "time"

// processAge is how long ago the process started; false: this system's is not read.
func processAge() (time.Duration, bool) { return 0, false }
