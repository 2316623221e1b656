//go:build cuda

package cuda

import (
	"errors"
	"fmt"
	"sync"

	"gorgonia.org/cu"

	"github.com/gpuimg/gpuimg/internal/core"
)

// pitchAlign is the alignment of every allocation and of image rows: 256 bytes keeps
// each row start aligned for 16-byte vector accesses and full 128-byte lines.
const pitchAlign = 256

// allocator caches freed device blocks by rounded size so that a pipeline of calls
// does not pay cuMemAlloc/cuMemFree each time. A block freed while user streams may
// still use it carries events on those streams and is reused only once they complete.
//
// The cache is bounded: it holds at most limit bytes (by default the smaller of
// 1 GiB and a tenth of the device's memory; GPUIMG_CACHE_LIMIT or SetCacheLimit
// change it), giving back the blocks freed longest ago first; a block larger than
// the limit is freed at once. A request takes a cached block of its own size class
// or, failing that, the smallest ready one up to twice its size, so images of
// varying sizes reuse memory instead of each size class keeping its own.
type allocator struct {
	b       *Backend
	mu      sync.Mutex
	free    map[int][]*block // by size class, oldest first
	seq     uint64           // order of frees, for eviction
	cached  int64
	inUse   int64
	peak    int64
	limit   int64
	limitOK bool // limit has been set (from the default, the variable or a call)
}

type block struct {
	ptr    cu.DevicePtr
	size   int
	seq    uint64
	events []cu.Event
}

// roundSize picks the size class: 512-byte steps up to 1 MiB, then 2 MiB steps.
func roundSize(n int) int {
	if n <= 0 {
		n = 1
	}
	step := 512
	if n > 1<<20 {
		step = 2 << 20
	}
	return (n + step - 1) / step * step
}

// Alloc implements core.Backend.
func (b *Backend) Alloc(size int) (*core.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("%s: negative allocation size %d", b.name, size)
	}
	blk, err := b.alloc.get(roundSize(size), size)
	if err != nil {
		return nil, err
	}
	buf := core.NewBuffer(b, size, b.alloc.put)
	buf.Ptr = uintptr(blk.ptr)
	buf.Impl = blk
	return buf, nil
}

// defaultLimit is the cache limit unless GPUIMG_CACHE_LIMIT or SetCacheLimit says
// otherwise. Called with a.mu held.
func (a *allocator) ensureLimit() {
	if a.limitOK {
		return
	}
	a.limitOK = true
	a.limit = 1 << 30
	_ = a.b.do(func() error {
		if _, total, err := cu.MemInfo(); err == nil && total/10 < a.limit {
			a.limit = total / 10
		}
		return nil
	})
	if n, ok, _ := core.CacheLimitFromEnv(); ok {
		a.limit = n
	}
}

func (a *allocator) get(sz, asked int) (*block, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ensureLimit()
	if blk := a.take(sz); blk != nil {
		a.inUse += int64(blk.size)
		return blk, nil
	}
	var ptr cu.DevicePtr
	err := a.b.do(func() error {
		var err error
		ptr, err = cu.MemAlloc(int64(sz))
		if errors.Is(err, cu.OutOfMemory) && a.cached > 0 {
			// Give the cache back and try once more.
			if err := cu.Synchronize(); err != nil {
				return err
			}
			a.releaseAll()
			ptr, err = cu.MemAlloc(int64(sz))
		}
		return err
	})
	if errors.Is(err, cu.OutOfMemory) {
		oom := &core.OutOfMemoryError{Device: a.b.name, Bytes: int64(asked)}
		_ = a.b.do(func() error {
			oom.Free, oom.Total, _ = cu.MemInfo()
			return nil
		})
		return nil, oom
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cuMemAlloc(%d bytes): %w", a.b.name, sz, err)
	}
	a.inUse += int64(sz)
	a.peak = max(a.peak, a.inUse+a.cached)
	return &block{ptr: ptr, size: sz}, nil
}

// take removes and returns a ready cached block for a request of size class sz: of
// that class, else the smallest class up to 2*sz. Called with a.mu held.
func (a *allocator) take(sz int) *block {
	if blk := a.takeClass(sz); blk != nil {
		return blk
	}
	best := 0
	for c, list := range a.free {
		if c > sz && c <= 2*sz && len(list) > 0 && (best == 0 || c < best) {
			best = c
		}
	}
	if best == 0 {
		return nil
	}
	return a.takeClass(best)
}

func (a *allocator) takeClass(sz int) *block {
	list := a.free[sz]
	for i, blk := range list {
		if !a.ready(blk) {
			continue
		}
		a.free[sz] = append(list[:i:i], list[i+1:]...)
		if len(a.free[sz]) == 0 {
			delete(a.free, sz)
		}
		a.cached -= int64(sz)
		return blk
	}
	return nil
}

// ready reports whether the work that last used blk has completed, dropping its
// events once it has. Called with a.mu held.
func (a *allocator) ready(blk *block) bool {
	if len(blk.events) == 0 {
		return true
	}
	done := true
	_ = a.b.do(func() error {
		for _, ev := range blk.events {
			if ev.Query() != nil {
				done = false
				return nil
			}
		}
		for i := range blk.events {
			_ = cu.DestroyEvent(&blk.events[i])
		}
		return nil
	})
	if done {
		blk.events = nil
	}
	return done
}

// put is the buffers' release function: the block goes back to the cache, which
// then gives back its oldest blocks while it holds more than the limit.
func (a *allocator) put(buf *core.Buffer) {
	blk := buf.Impl.(*block)
	streams := buf.Streams()
	if len(streams) > 0 {
		_ = a.b.do(func() error {
			for _, s := range streams {
				st, ok := s.(*stream)
				if !ok || st.closed {
					continue // a closed stream was synchronized when it closed
				}
				ev, err := cu.MakeEvent(cu.DisableTiming)
				if err != nil {
					return cu.Synchronize() // cannot track: wait instead
				}
				if err := ev.Record(st.s); err != nil {
					_ = cu.DestroyEvent(&ev)
					return cu.Synchronize()
				}
				blk.events = append(blk.events, ev)
			}
			return nil
		})
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ensureLimit()
	a.inUse -= int64(blk.size)
	if int64(blk.size) > a.limit { // larger than the whole cache: give it back now
		a.freeBlock(blk)
		return
	}
	if a.free == nil {
		a.free = map[int][]*block{}
	}
	a.seq++
	blk.seq = a.seq
	a.free[blk.size] = append(a.free[blk.size], blk)
	a.cached += int64(blk.size)
	a.trim(a.limit)
}

// trim frees cached blocks, the longest cached first, until at most limit bytes are
// cached. A block still in use by queued work is waited for before it is freed.
// Called with a.mu held.
func (a *allocator) trim(limit int64) {
	for a.cached > limit {
		var oldest *block
		for _, list := range a.free {
			if len(list) > 0 && (oldest == nil || list[0].seq < oldest.seq) {
				oldest = list[0]
			}
		}
		if oldest == nil {
			return
		}
		list := a.free[oldest.size]
		a.free[oldest.size] = list[1:]
		if len(list) == 1 {
			delete(a.free, oldest.size)
		}
		a.cached -= int64(oldest.size)
		a.freeBlock(oldest)
	}
}

// freeBlock waits for the work that used blk, then frees it.
func (a *allocator) freeBlock(blk *block) {
	_ = a.b.do(func() error {
		for i := range blk.events {
			_ = blk.events[i].Synchronize()
			_ = cu.DestroyEvent(&blk.events[i])
		}
		blk.events = nil
		return cu.MemFree(blk.ptr)
	})
}

// releaseAll frees every cached block; called with a.mu held and the context current
// after a synchronize.
func (a *allocator) releaseAll() {
	for sz, list := range a.free {
		for _, blk := range list {
			for i := range blk.events {
				_ = cu.DestroyEvent(&blk.events[i])
			}
			_ = cu.MemFree(blk.ptr)
		}
		delete(a.free, sz)
	}
	a.cached = 0
}

// ReleaseCache frees the device memory the allocator holds for reuse.
func (b *Backend) ReleaseCache() error {
	b.alloc.mu.Lock()
	defer b.alloc.mu.Unlock()
	return b.do(func() error {
		if err := cu.Synchronize(); err != nil {
			return err
		}
		b.alloc.releaseAll()
		return nil
	})
}

// SetCacheLimit bounds the memory cached for reuse to n bytes (0: nothing is
// cached), giving back at once what is over it.
func (b *Backend) SetCacheLimit(n int64) error {
	if n < 0 {
		return fmt.Errorf("%s: negative cache limit %d", b.name, n)
	}
	b.alloc.mu.Lock()
	defer b.alloc.mu.Unlock()
	b.alloc.limitOK, b.alloc.limit = true, n
	b.alloc.trim(n)
	return nil
}

// MemoryStats implements core.Backend.
func (b *Backend) MemoryStats() core.MemoryStats {
	b.alloc.mu.Lock()
	defer b.alloc.mu.Unlock()
	b.alloc.ensureLimit()
	return core.MemoryStats{InUse: b.alloc.inUse, Cached: b.alloc.cached, Peak: b.alloc.peak, CacheLimit: b.alloc.limit}
}

// CachedBytes is the device memory held for reuse.
func (b *Backend) CachedBytes() int64 {
	b.alloc.mu.Lock()
	defer b.alloc.mu.Unlock()
	return b.alloc.cached
}

// PitchAlign implements core.Backend.
func (b *Backend) PitchAlign() int { return pitchAlign }
