//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// processAge is how long ago the process started (to /proc's 10 ms), for the batch
// summary's start-up figure; false where /proc does not say.
func processAge() (time.Duration, bool) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	up, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) may hold spaces: the fields after it follow its ')'.
	rest := string(stat)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+1:]
	}
	f := strings.Fields(rest)
	if len(f) < 20 {
		return 0, false
	}
	ticks, err := strconv.ParseInt(f[19], 10, 64) // field 22, starttime, in USER_HZ (100) ticks since boot
	if err != nil {
		return 0, false
	}
	uf := strings.Fields(string(up))
	if len(uf) == 0 {
		return 0, false
	}
	secs, err := strconv.ParseFloat(uf[0], 64)
	if err != nil {
		return 0, false
	}
	age := time.Duration(secs*float64(time.Second)) - time.Duration(ticks)*10*time.Millisecond
	return max(age, 0), true
}
