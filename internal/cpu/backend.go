// Package cpu is the pure-Go device: image memory is ordinary Go memory and every
// operation runs as Go code, rows split across goroutines. It is the readable
// reference the CUDA device is tested against.
package cpu

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Backend is the CPU device.
type Backend struct {
	inUse, peak atomic.Int64 // bytes of live image buffers, and their most
}

var the = &Backend{}

// Get returns the CPU device.
func Get() *Backend { return the }

// Name implements core.Backend.
func (*Backend) Name() string { return "cpu" }

// IsCPU implements core.Backend.
func (*Backend) IsCPU() bool { return true }

// Info implements core.Backend.
func (*Backend) Info() (core.Info, error) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return core.Info{
		Name:            fmt.Sprintf("Go %s on %s/%s, %d threads", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0)),
		Backend:         "cpu",
		MultiProcessors: runtime.GOMAXPROCS(0),
		PitchAlignment:  1,
	}, nil
}

// Alloc implements core.Backend. Rows of CPU images are packed, so views aside,
// pitch equals the row size.
func (b *Backend) Alloc(size int) (buf *core.Buffer, err error) {
	if size < 0 {
		return nil, fmt.Errorf("cpu: negative allocation size %d", size)
	}
	if int64(size) > hostMemory() {
		return nil, &core.OutOfMemoryError{Device: "cpu", Bytes: int64(size), Total: hostMemory()}
	}
	defer func() {
		// make panics with "out of memory" or "len out of range" for absurd sizes;
		// the runtime aborts outright for real exhaustion, which no code can catch.
		if r := recover(); r != nil {
			buf, err = nil, &core.OutOfMemoryError{Device: "cpu", Bytes: int64(size)}
		}
	}()
	buf = core.NewBuffer(b, size, b.release)
	buf.Host = make([]byte, size)
	n := b.inUse.Add(int64(size))
	for p := b.peak.Load(); n > p && !b.peak.CompareAndSwap(p, n); p = b.peak.Load() {
	}
	return buf, nil
}

func (b *Backend) release(buf *core.Buffer) { b.inUse.Add(-int64(buf.Size)) }

// MemoryStats implements core.Backend: Go memory held by images (the Go runtime
// frees it; nothing is cached).
func (b *Backend) MemoryStats() core.MemoryStats {
	return core.MemoryStats{InUse: b.inUse.Load(), Peak: b.peak.Load()}
}

// ReleaseCache implements core.Backend: the CPU device caches nothing.
func (*Backend) ReleaseCache() error { return nil }

// SetCacheLimit implements core.Backend: the CPU device caches nothing.
func (*Backend) SetCacheLimit(n int64) error {
	if n < 0 {
		return fmt.Errorf("cpu: negative cache limit %d", n)
	}
	return nil
}

// AllocHost implements core.Backend: ordinary Go memory on the CPU device.
func (b *Backend) AllocHost(size int) ([]byte, func() error, error) {
	if size <= 0 {
		return nil, nil, fmt.Errorf("cpu: host buffer of %d bytes", size)
	}
	buf, err := b.Alloc(size)
	if err != nil {
		return nil, nil, err
	}
	return buf.Host, func() error { return nil }, nil
}

// Copy2D implements core.Backend.
func (*Backend) Copy2D(c core.Copy, _ core.Stream) error {
	dst, src := c.DstHost, c.SrcHost
	if c.Dst != nil {
		dst = c.Dst.Host
	}
	if c.Src != nil {
		src = c.Src.Host
	}
	if c.Width == c.DstPitch && c.Width == c.SrcPitch {
		n := c.Width * c.Rows
		copy(dst[c.DstOff:c.DstOff+n], src[c.SrcOff:c.SrcOff+n])
		return nil
	}
	ParallelRows(c.Rows, c.Width, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			d := c.DstOff + y*c.DstPitch
			s := c.SrcOff + y*c.SrcPitch
			copy(dst[d:d+c.Width], src[s:s+c.Width])
		}
	})
	return nil
}

// Memset2D implements core.Backend.
func (*Backend) Memset2D(dst *core.Buffer, off, pitch, width, rows int, v byte, _ core.Stream) error {
	ParallelRows(rows, width, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			row := dst.Host[off+y*pitch : off+y*pitch+width]
			for i := range row {
				row[i] = v
			}
		}
	})
	return nil
}

// NewStream implements core.Backend: CPU work runs when it is queued.
func (*Backend) NewStream() (core.Stream, error) { return stream{}, nil }

// DefaultStream implements core.Backend.
func (*Backend) DefaultStream() core.Stream { return stream{} }

// Launch implements core.Backend.
func (*Backend) Launch(core.Stream, string, [3]int, [3]int, int, ...any) error {
	return core.ErrNoKernels
}

type stream struct{}

func (stream) Sync() error  { return nil }
func (stream) Close() error { return nil }
func (stream) Record() (core.Event, error) {
	return event(time.Now()), nil
}

type event time.Time

func (event) Sync() error  { return nil }
func (event) Close() error { return nil }
func (e event) Since(start core.Event) (time.Duration, error) {
	s, ok := start.(event)
	if !ok {
		return 0, fmt.Errorf("cpu: event from another device")
	}
	return time.Time(e).Sub(time.Time(s)), nil
}

// ParallelRows calls fn on disjoint row ranges covering [0, rows), in parallel when
// there is enough work (rowBytes is the work per row) to pay for goroutines.
func ParallelRows(rows, rowBytes int, fn func(y0, y1 int)) {
	const minBytesPerTask = 64 << 10
	workers := runtime.GOMAXPROCS(0)
	total := rows * rowBytes
	if n := total / minBytesPerTask; n < workers {
		workers = n
	}
	if workers > rows {
		workers = rows
	}
	if workers <= 1 {
		fn(0, rows)
		return
	}
	var wg sync.WaitGroup
	chunk := (rows + workers - 1) / workers
	for y := 0; y < rows; y += chunk {
		y1 := min(y+chunk, rows)
		wg.Add(1)
		go func(y0, y1 int) {
			defer wg.Done()
			fn(y0, y1)
		}(y, y1)
	}
	wg.Wait()
}

// PitchAlign implements core.Backend: CPU images are packed.
func (*Backend) PitchAlign() int { return 1 }
