//go:build cuda

package main

import (
	"errors"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cuda"
	"github.com/gpuimg/gpuimg/internal/cufft"
)

// cufftAlone times cuFFT's own 2-D real-to-complex transform of a WxH 32F image
// into a packed half spectrum: the floor fftfilter.DFT is compared with.
func cufftAlone(t *Timer, w, h int) ([]Row, error) {
	if !t.Dev.IsCUDA() {
		return nil, nil
	}
	src, err := randomImage(t.Dev, w, h, gpuimage.CV32FC1)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	s := core.StateOf(src)
	b, ok := s.Dev.(*cuda.Backend)
	if !ok || s.Pitch != 4*w {
		return nil, errors.New("cufft R2C alone: want a packed image on a CUDA device")
	}
	out, err := b.Alloc(8 * h * (w/2 + 1))
	if err != nil {
		return nil, err
	}
	defer out.Release()
	var p *cufft.Plan
	if err := b.Do(func() error {
		p, err = cufft.NewPlan([]int{h, w}, cufft.Layout{}, cufft.Layout{}, cufft.R2C, 1)
		return err
	}); err != nil {
		return nil, err
	}
	defer b.Do(p.Destroy)
	work, err := b.Alloc(max(p.WorkSize, 1))
	if err != nil {
		return nil, err
	}
	defer work.Release()
	if err := b.Do(func() error { return p.SetWorkArea(work.Ptr) }); err != nil {
		return nil, err
	}
	m, err := t.Median(func(on gpuimage.Option) error {
		str := core.StreamOf([]gpuimage.Option{on})
		if str == nil {
			str = b.DefaultStream()
		}
		hs, err := b.StreamHandle(str)
		if err != nil {
			return err
		}
		return b.Do(func() error {
			if err := p.SetStream(hs); err != nil {
				return err
			}
			return p.ExecR2C(s.Ptr(), out.Ptr)
		})
	})
	return []Row{{Type: "32FC1", Variant: "kernel", Median: m, Bytes: int64(w * h * 12)}}, err
}
