//go:build !linux

package cpu

// hostMemory is a bound on the CPU device's allocations where the machine's RAM is
// not read.
func hostMemory() int64 { return 1 << 46 }
