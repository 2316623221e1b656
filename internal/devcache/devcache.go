// Package devcache keeps what an operation derives from a filter alone on the GPU
// (the taps' spectrum, an IIR filter's state-matrix powers, a resampler's polyphase
// taps) for later calls with the same filter on the same device, as the driver
// keeps a loaded kernel: a filter applied chunk after chunk or file after file pays
// for it once. dsp, resample and interp (Shepard's points, for maps redrawn from
// the same readings) share it.
package devcache

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/gpuimg/gpuimg/internal/core"
)

// The cache is bounded (cacheEntries buffers, cacheBytes in all; the oldest goes
// first) and Release empties it.
const (
	cacheEntries = 32
	cacheBytes   = 64 << 20
)

type cacheKey struct {
	dev  core.Backend
	kind string
	size int
	sum  uint64
}

var (
	cacheMu    sync.Mutex
	cacheBufs  = map[cacheKey]*core.Buffer{}
	cacheOrder []cacheKey
	cacheTotal int
	cacheSeed  = maphash.MakeSeed()
)

// Derived returns a device buffer of size bytes that build fills (queued on str)
// from the filter described by kind and data (its pieces, in order), built on the
// first call for them and shared after that. The caller releases the buffer when its work is queued.
func Derived(dev core.Backend, str core.Stream, kind string, data [][]byte, size int, build func(buf *core.Buffer) error) (*core.Buffer, error) {
	return DerivedSum(dev, str, kind, Sum(data), size, build)
}

// Sum is the digest of data (its pieces, in order) that Derived keys its buffers
// by, for callers that keep it with the data (DerivedSum).
func Sum(data [][]byte) uint64 {
	var h maphash.Hash
	h.SetSeed(cacheSeed)
	for _, d := range data {
		// Each piece's length first: pieces that concatenate to the same bytes
		// but split differently describe different filters.
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(d)))
		h.Write(n[:])
		h.Write(d)
	}
	return h.Sum64()
}

// DerivedSum is Derived for data whose Sum the caller kept (a plan reused call
// after call need not hash its tables again).
func DerivedSum(dev core.Backend, str core.Stream, kind string, sum uint64, size int, build func(buf *core.Buffer) error) (*core.Buffer, error) {
	key := cacheKey{dev: dev, kind: kind, size: size, sum: sum}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if buf, ok := cacheBufs[key]; ok {
		buf.Retain()
		buf.Touch(str)
		return buf, nil
	}
	buf, err := dev.Alloc(size)
	if err != nil {
		return nil, err
	}
	buf.Touch(str)
	if err := build(buf); err != nil {
		buf.Release()
		return nil, err
	}
	if size <= cacheBytes/4 {
		buf.Retain()
		cacheBufs[key] = buf
		cacheOrder = append(cacheOrder, key)
		cacheTotal += size
		for len(cacheOrder) > cacheEntries || cacheTotal > cacheBytes {
			old := cacheOrder[0]
			cacheOrder = cacheOrder[1:]
			cacheTotal -= old.size
			cacheBufs[old].Release()
			delete(cacheBufs, old)
		}
	}
	return buf, nil
}

// Release frees the device memory kept for filters used before; later calls make
// them again. Memory is freed once the work queued on it is done.
func Release() error {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	for _, k := range cacheOrder {
		cacheBufs[k].Release()
		delete(cacheBufs, k)
	}
	cacheOrder, cacheTotal = nil, 0
	return nil
}
