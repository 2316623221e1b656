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
type allocator struct {
	b      *Backend
	mu     sync.Mutex
	free   map[int][]*block
	cached int64
}

type block struct {
	ptr    cu.DevicePtr
	size   int
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

func (a *allocator) get(sz, asked int) (*block, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.free == nil {
		a.free = map[int][]*block{}
	}
	list := a.free[sz]
	for i, blk := range list {
		if !a.ready(blk) {
			continue
		}
		a.free[sz] = append(list[:i], list[i+1:]...)
		a.cached -= int64(sz)
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
	return &block{ptr: ptr, size: sz}, nil
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

// put is the buffers' release function: the block goes back to the cache.
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
	if a.free == nil {
		a.free = map[int][]*block{}
	}
	a.free[blk.size] = append(a.free[blk.size], blk)
	a.cached += int64(blk.size)
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

// CachedBytes is the device memory held for reuse.
func (b *Backend) CachedBytes() int64 {
	b.alloc.mu.Lock()
	defer b.alloc.mu.Unlock()
	return b.alloc.cached
}

// PitchAlign implements core.Backend.
func (b *Backend) PitchAlign() int { return pitchAlign }
