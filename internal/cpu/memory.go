//go:build linux

package cpu

import (
	"sync"
	"syscall"
)

var (
	memOnce  sync.Once
	memTotal int64
)

// hostMemory is the machine's RAM: the CPU device refuses larger allocations with an
// error instead of letting the Go runtime end the process.
func hostMemory() int64 {
	memOnce.Do(func() {
		memTotal = 1 << 46
		var si syscall.Sysinfo_t
		if syscall.Sysinfo(&si) == nil && si.Totalram > 0 {
			memTotal = int64(si.Totalram) * int64(si.Unit)
		}
	})
	return memTotal
}
