//go:build cuda

// Package fftplan caches cuFFT plans (internal/cufft) for the CUDA device, with
// their work areas from the device's allocator: one plan a transform shape, layout
// and stream, shared by fftfilter and dsp.
package fftplan

import (
	"errors"
	"fmt"
	"sync"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cuda"
	"github.com/gpuimg/gpuimg/internal/cufft"
)

// planKey identifies a cuFFT plan: transform, sizes, layouts and stream.
type planKey struct {
	dev     *cuda.Backend
	str     core.Stream
	typ     cufft.Type
	rank    int
	n0, n1  int
	batch   int
	in, out [4]int // embed[0], embed[1], stride, dist
}

// Plan is a cached cuFFT plan with its work area.
type Plan struct {
	mu   sync.Mutex // one Exec at a time: SetStream and Exec are a pair
	p    *cufft.Plan
	work *core.Buffer
	key  planKey
}

// maxPlans bounds the cache; the oldest plan goes first.
const maxPlans = 32

var (
	planMu sync.Mutex
	plans  = map[planKey]*Plan{}
	order  []planKey
)

func layoutKey(l cufft.Layout) [4]int {
	var k [4]int
	copy(k[:2], l.Embed)
	k[2], k[3] = l.Stride, l.Dist
	return k
}

// Get returns the cached plan for a transform on str, making it (and its work
// area, from the device's allocator) on first use. Plans made for a stream are
// freed when the stream is closed; at most maxPlans are kept, the oldest freed first.
func Get(b *cuda.Backend, str core.Stream, typ cufft.Type, n []int, in, out cufft.Layout, batch int) (*Plan, error) {
	key := planKey{dev: b, str: str, typ: typ, rank: len(n), n0: n[0], batch: batch, in: layoutKey(in), out: layoutKey(out)}
	if len(n) > 1 {
		key.n1 = n[1]
	}
	planMu.Lock()
	defer planMu.Unlock()
	if p, ok := plans[key]; ok {
		return p, nil
	}
	p := &Plan{key: key}
	err := b.Do(func() error {
		var err error
		p.p, err = cufft.NewPlan(n, in, out, typ, batch)
		return err
	})
	if err != nil {
		return nil, err
	}
	if p.p.WorkSize > 0 {
		if p.work, err = b.Alloc(p.p.WorkSize); err != nil {
			b.Do(p.p.Destroy)
			return nil, fmt.Errorf("cuFFT work area for a %v transform: %w", n, err)
		}
		if err := b.Do(func() error { return p.p.SetWorkArea(p.work.Ptr) }); err != nil {
			p.free(b)
			return nil, err
		}
	}
	plans[key] = p
	order = append(order, key)
	if str != b.DefaultStream() {
		if c, ok := str.(interface{ OnClose(func()) }); ok {
			c.OnClose(func() { dropStream(str) })
		}
	}
	for len(order) > maxPlans {
		old := plans[order[0]]
		delete(plans, order[0])
		order = order[1:]
		old.key.str.Sync()
		old.free(old.key.dev)
	}
	return p, nil
}

func (p *Plan) free(b *cuda.Backend) error {
	err := b.Do(p.p.Destroy)
	if p.work != nil {
		p.work.Release()
	}
	return err
}

// dropStream frees the plans made for a stream that is being closed.
func dropStream(str core.Stream) {
	planMu.Lock()
	defer planMu.Unlock()
	keep := order[:0]
	for _, k := range order {
		if k.str == str {
			plans[k].free(k.dev)
			delete(plans, k)
			continue
		}
		keep = append(keep, k)
	}
	order = keep
}

// FreeAll waits for the streams that used cached plans and frees them all, with
// their work areas.
func FreeAll() error {
	planMu.Lock()
	defer planMu.Unlock()
	var errs []error
	for _, k := range order {
		errs = append(errs, k.str.Sync(), plans[k].free(k.dev))
		delete(plans, k)
	}
	order = nil
	return errors.Join(errs...)
}

// Exec runs fn with the cuFFT plan set to run on str, one caller at a time.
func (p *Plan) Exec(b *cuda.Backend, str core.Stream, fn func(*cufft.Plan) error) error {
	h, err := b.StreamHandle(str)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.work != nil {
		p.work.Touch(str)
	}
	return b.Do(func() error {
		if err := p.p.SetStream(h); err != nil {
			return err
		}
		return fn(p.p)
	})
}
