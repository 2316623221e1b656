package core

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Backend is a device that holds image memory and runs operations: the pure-Go CPU
// device or a CUDA GPU. Every method is safe for use by several goroutines.
type Backend interface {
	// Name is a short name such as "cpu" or "cuda:0".
	Name() string
	// PitchAlign is the alignment of rows in images the device allocates.
	PitchAlign() int
	// IsCPU reports whether pixels live in host memory and ops run in Go.
	IsCPU() bool
	// Info describes the device; memory figures are read at the time of the call.
	Info() (Info, error)

	// Alloc returns a buffer of at least size bytes holding one reference.
	Alloc(size int) (*Buffer, error)
	// AllocHost returns host memory of size bytes that transfers at full speed
	// (page-locked on CUDA) and a function that frees it.
	AllocHost(size int) ([]byte, func() error, error)

	// Copy2D copies rows of width bytes between host slices and buffers; exactly one
	// of dst/dstHost and one of src/srcHost is set.
	Copy2D(c Copy, s Stream) error
	// Fill2D sets every byte of rows of width bytes to v.
	Memset2D(dst *Buffer, off, pitch, width, rows int, v byte, s Stream) error

	// NewStream makes an ordered queue of work.
	NewStream() (Stream, error)
	// DefaultStream is the device's own stream for synchronous calls.
	DefaultStream() Stream
	// Launch runs the named kernel of the embedded module (CUDA only).
	Launch(s Stream, kernel string, grid, block [3]int, shmem int, args ...any) error

	// MemoryStats reports the image memory the device holds.
	MemoryStats() MemoryStats
	// ReleaseCache gives back the memory kept for reuse.
	ReleaseCache() error
	// SetCacheLimit bounds the memory kept for reuse to n bytes.
	SetCacheLimit(n int64) error
}

// Params is a kernel parameter struct mirrored in Go (a kernels/*_params.h struct):
// Launch copies its bytes as they are, aligned to align.
type Params interface {
	ParamBytes() (b []byte, align int)
}

// Struct passes *p, a Go mirror of a kernel's parameter struct, to Launch as its
// memory (the mirror's fields match the C struct's offsets: TestParamsMatchKernels).
func Struct[T any](p *T) Params { return structParams[T]{p} }

type structParams[T any] struct{ p *T }

// HostBytes is the memory of v's elements as bytes (as a kernel reads it on a
// little-endian host), without a copy: for uploads of tables and for cache
// keys (internal/devcache). T must hold no pointers.
func HostBytes[T any](v []T) []byte {
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(z)))
}

func (s structParams[T]) ParamBytes() ([]byte, int) {
	return unsafe.Slice((*byte)(unsafe.Pointer(s.p)), unsafe.Sizeof(*s.p)), int(unsafe.Alignof(*s.p))
}

// MemoryStats is a device's image memory as gpuimg holds it, in bytes.
type MemoryStats struct {
	InUse      int64 // held by live images and buffers
	Cached     int64 // freed and kept for reuse (CUDA)
	Peak       int64 // the most held at once, in use and cached
	CacheLimit int64 // the most that may be cached
}

// CacheLimitEnv names the variable that sets the CUDA devices' cache limit.
const CacheLimitEnv = "GPUIMG_CACHE_LIMIT"

// CacheLimitFromEnv reads GPUIMG_CACHE_LIMIT: bytes, or a number with a K, M or G
// suffix (powers of 1024). ok is false when it is unset or malformed.
func CacheLimitFromEnv() (n int64, ok bool, err error) {
	v := strings.TrimSpace(os.Getenv(CacheLimitEnv))
	if v == "" {
		return 0, false, nil
	}
	n, err = ParseBytes(v)
	if err != nil {
		return 0, false, fmt.Errorf("%s=%q: %v", CacheLimitEnv, v, err)
	}
	return n, true, nil
}

// ParseBytes reads a size such as 512M, 1G, 1.5G or 4096.
func ParseBytes(v string) (int64, error) {
	if v == "" {
		return 0, fmt.Errorf("not a size in bytes (such as 512M or 1G)")
	}
	mult := 1.0
	switch strings.ToUpper(v[len(v)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult != 1 {
		v = v[:len(v)-1]
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f < 0 || f*mult > 1<<62 || f != f {
		return 0, fmt.Errorf("not a size in bytes (such as 512M or 1G)")
	}
	return int64(f * mult), nil
}

// Info describes a device.
type Info struct {
	Name              string
	Backend           string
	ComputeCapability [2]int
	TotalMemory       int64
	FreeMemory        int64
	MultiProcessors   int
	DriverVersion     int
	MaxSharedPerBlock int
	// MaxSharedOptin is the shared memory a block may have when its kernel asks for
	// more than MaxSharedPerBlock (the launch sets the attribute).
	MaxSharedOptin int
	PitchAlignment int
}

// Copy describes a 2-D copy between host memory and device buffers.
type Copy struct {
	Dst      *Buffer
	DstHost  []byte
	DstOff   int
	DstPitch int
	Src      *Buffer
	SrcHost  []byte
	SrcOff   int
	SrcPitch int
	Width    int // bytes per row
	Rows     int
}

// PeerCopier is a device that copies another device's buffers into its own (the
// CUDA device, from another GPU), waiting for the copy.
type PeerCopier interface {
	CopyPeer(c Copy, from Backend) error
}

// Stream is an ordered queue of device work. On the CPU device work runs at once
// and Sync returns immediately.
type Stream interface {
	Sync() error
	Close() error
	// Record places an event in the stream; it completes when the work before it does.
	Record() (Event, error)
}

// Event marks a point in a stream.
type Event interface {
	Sync() error
	// Since returns the time between start and this event; both must have completed.
	Since(start Event) (time.Duration, error)
	Close() error
}

// Buffer is one allocation on a device, shared by an image and every view of it.
// It is freed when the last holder calls Release.
type Buffer struct {
	Dev  Backend
	Host []byte  // CPU device memory
	Ptr  uintptr // CUDA device address
	Size int

	// Impl is the backend's own bookkeeping (the CUDA allocator's block).
	Impl any

	refs    atomic.Int32
	release func(*Buffer)

	mu      sync.Mutex
	streams []Stream // user streams that queued work on the buffer, for safe reuse
}

// Touch records that work on the buffer was queued on s, a stream other than the
// device's synchronous one, so the memory is not reused before that work ends.
func (b *Buffer) Touch(s Stream) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range b.streams {
		if t == s {
			return
		}
	}
	b.streams = append(b.streams, s)
}

// Streams returns the streams recorded by Touch.
func (b *Buffer) Streams() []Stream {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Stream(nil), b.streams...)
}

// NewBuffer returns a buffer holding one reference; release is called once, when the
// last reference goes.
func NewBuffer(dev Backend, size int, release func(*Buffer)) *Buffer {
	b := &Buffer{Dev: dev, Size: size, release: release}
	b.refs.Store(1)
	return b
}

// Retain adds a reference.
func (b *Buffer) Retain() { b.refs.Add(1) }

// Release drops a reference and frees the memory with the last one.
func (b *Buffer) Release() {
	switch n := b.refs.Add(-1); {
	case n == 0:
		if b.release != nil {
			b.release(b)
		}
	case n < 0:
		panic("core: buffer released more often than retained")
	}
}

// ErrNoKernels is returned by the CPU device's Launch.
var ErrNoKernels = errors.New("the CPU device runs no CUDA kernels")

// OutOfMemoryError reports an allocation the device could not satisfy.
type OutOfMemoryError struct {
	Device      string
	Bytes       int64
	Free, Total int64
}

func (e *OutOfMemoryError) Error() string {
	if e.Total > 0 {
		return fmt.Sprintf("out of memory on %s: cannot allocate %d bytes (%s; %s free of %s)",
			e.Device, e.Bytes, HumanBytes(e.Bytes), HumanBytes(e.Free), HumanBytes(e.Total))
	}
	return fmt.Sprintf("out of memory on %s: cannot allocate %d bytes (%s)", e.Device, e.Bytes, HumanBytes(e.Bytes))
}

// HumanBytes formats n as KiB/MiB/GiB.
func HumanBytes(n int64) string {
	const k = 1024
	switch {
	case n >= k*k*k:
		return fmt.Sprintf("%.1f GiB", float64(n)/(k*k*k))
	case n >= k*k:
		return fmt.Sprintf("%.1f MiB", float64(n)/(k*k))
	case n >= k:
		return fmt.Sprintf("%.1f KiB", float64(n)/k)
	}
	return fmt.Sprintf("%d B", n)
}

// WithUpload copies host (taps, a matrix: anything small a kernel reads and the
// call builds; constant tables go through Resident) into a new device buffer and
// calls run with its address. The buffer is released when run returns, safely: its
// memory is not reused before the work queued on s is done.
func WithUpload(dev Backend, s Stream, host []byte, run func(ptr uintptr) error) error {
	buf, err := dev.Alloc(len(host))
	if err != nil {
		return err
	}
	defer buf.Release()
	buf.Touch(s)
	if err := copyIn(dev, buf, host, s); err != nil {
		return err
	}
	return run(buf.Ptr)
}

// copyIn queues a copy of host into the start of buf on s.
func copyIn(dev Backend, buf *Buffer, host []byte, s Stream) error {
	return dev.Copy2D(Copy{Dst: buf, DstPitch: len(host), SrcHost: host, SrcPitch: len(host), Width: len(host), Rows: 1}, s)
}

var (
	residentMu sync.Mutex
	resident   = map[residentKey]*Buffer{}
)

type residentKey struct {
	dev Backend
	key string
}

// Resident returns the device address of a constant table (a lookup table, spline
// coefficients) that stays in dev's memory for the life of the process, as the
// device's loaded kernels do: host builds it and it is uploaded on the first call
// for key, and every later call gets the same address without a copy.
func Resident(dev Backend, key string, host func() []byte) (uintptr, error) {
	residentMu.Lock()
	defer residentMu.Unlock()
	if buf, ok := resident[residentKey{dev, key}]; ok {
		return buf.Ptr, nil
	}
	data := host()
	buf, err := dev.Alloc(len(data))
	if err != nil {
		return 0, err
	}
	s := dev.DefaultStream()
	err = copyIn(dev, buf, data, s)
	if err == nil {
		err = s.Sync()
	}
	if err != nil {
		buf.Release()
		return 0, fmt.Errorf("uploading %s (%s): %w", key, HumanBytes(int64(len(data))), err)
	}
	resident[residentKey{dev, key}] = buf
	return buf.Ptr, nil
}
