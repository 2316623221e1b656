//go:build cuda

package dsp

import (
	"fmt"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cuda"
	"github.com/gpuimg/gpuimg/internal/cufft"
	"github.com/gpuimg/gpuimg/internal/fftplan"
)

// upolsStepCUDA filters samples seg0 .. seg0+n-1 of in, the next n samples of u's
// current block, into the same columns of outs: gi_upols_frame, one batched R2C of
// the channels' frames into the delay line's slot head, gi_upols_mac and
// gi_upols_gather for each GI_UPOLS_BANDS filters, one batched C2R between them.
func upolsStepCUDA(str core.Stream, u *partitioned, in *core.State, outs []*core.State, seg0, n int) error {
	b, ok := in.Dev.(*cuda.Backend)
	if !ok {
		return fmt.Errorf("%s is not a CUDA device", in.Dev.Name())
	}
	ptr := func(im *gpuimage.Image) uintptr { return core.StateOf(im).Ptr() }
	half := u.b + 1
	p := upolsParams{Src: in.Ptr(), Sp: int32(in.Pitch), Prev: ptr(u.blk[u.prev]), Cur: ptr(u.blk[1-u.prev]),
		Frame: ptr(u.frame), Fdl: ptr(u.fdl), Ch: int32(u.ch), B: int32(u.b), R0: int32(u.r0), Len: int32(n),
		Seg0: int32(seg0), Parts: int32(u.parts), Head: int32(u.head), Scale: 1 / float32(2*u.b)}
	block := [3]int{upolsThreads, 1, 1}
	blocks := func(v int) int { return (v + upolsThreads - 1) / upolsThreads }
	if err := b.Launch(str, "gi_upols_frame", [3]int{blocks(2 * u.b), min(u.ch, 65535), 1}, block, 0, core.Struct(&p)); err != nil {
		return err
	}
	slot := p.Fdl + uintptr(u.head*u.ch*half*8)
	if err := rfft(b, str, 2*u.b, u.ch, p.Frame, slot); err != nil {
		return err
	}
	for g := 0; g < u.bands; g += upolsBands {
		p.Bands = int32(min(upolsBands, u.bands-g))
		p.H = ptr(u.h) + uintptr(g*u.parts*half*8)
		p.Y = ptr(u.y) + uintptr(g*u.ch*half*8)
		if err := b.Launch(str, "gi_upols_mac", [3]int{blocks(half), min(u.ch, 65535), 1}, block, 0, core.Struct(&p)); err != nil {
			return err
		}
	}
	pl, err := fftplan.Get(b, str, cufft.C2R, []int{2 * u.b}, cufft.Layout{}, cufft.Layout{}, u.bands*u.ch)
	if err != nil {
		return err
	}
	if err := pl.Exec(b, str, func(c *cufft.Plan) error { return c.ExecC2R(ptr(u.y), ptr(u.oframe)) }); err != nil {
		return err
	}
	for g := 0; g < u.bands; g += upolsBands {
		p.Bands = int32(min(upolsBands, u.bands-g))
		p.Oframe = ptr(u.oframe) + uintptr(g*u.ch*2*u.b*4)
		for k := range int(p.Bands) {
			p.Out[k], p.Op[k] = outs[g+k].Ptr(), int32(outs[g+k].Pitch)
		}
		if err := b.Launch(str, "gi_upols_gather", [3]int{blocks(n), min(int(p.Bands)*u.ch, 65535), 1}, block, 0, core.Struct(&p)); err != nil {
			return err
		}
	}
	return nil
}
