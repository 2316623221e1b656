//go:build cuda

package dsp

import (
	"fmt"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cuda"
	"github.com/gpuimg/gpuimg/internal/cufft"
	"github.com/gpuimg/gpuimg/internal/devcache"
	"github.com/gpuimg/gpuimg/internal/fftplan"
)

// spectralCUDA runs the plan on the GPU (kernels/dsp_spectral.cu): every segment
// of every row cut, detrended and windowed into a frame (gi_spec_frames), one
// batched cuFFT transform of all frames (real to complex, or complex for two-sided
// spectra), then the spectra scaled and transposed into d (gi_spec_post), or
// averaged over the segments (gi_spec_welch). The window is kept on the device
// (internal/devcache).
func spectralCUDA(str core.Stream, d, s *core.State, sp *spectral, welch bool) error {
	b, ok := s.Dev.(*cuda.Backend)
	if !ok {
		return fmt.Errorf("%s is not a CUDA device", s.Dev.Name())
	}
	if _, _, err := cufft.Load(); err != nil {
		return err
	}
	win := make([]float32, len(sp.win))
	for i, v := range sp.win {
		win[i] = float32(v)
	}
	wb := f32Bytes(win)
	wbuf, err := devcache.Derived(b, str, "spec-window", [][]byte{wb}, len(wb), func(buf *core.Buffer) error {
		return b.Copy2D(core.Copy{Dst: buf, SrcHost: wb, DstPitch: len(wb), SrcPitch: len(wb), Width: len(wb), Rows: 1}, str)
	})
	if err != nil {
		return err
	}
	defer wbuf.Release()
	batch := s.Rows * sp.nseg
	cplx := 0
	frameBytes := sp.nfft * 4
	if sp.twoSided {
		cplx, frameBytes = 1, sp.nfft*8
	}
	frames, err := b.Alloc(batch * frameBytes)
	if err != nil {
		return err
	}
	frames.Touch(str)
	defer frames.Release()
	spec, err := b.Alloc(batch * sp.nfreq * 8)
	if err != nil {
		return err
	}
	spec.Touch(str)
	defer spec.Release()
	mode := 0
	if sp.stft {
		mode = 2
		if sp.mode == ModeMagnitude {
			mode = 1
		}
	}
	p := specParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Frames: frames.Ptr, Spec: spec.Ptr,
		Win: wbuf.Ptr, Rows: int32(s.Rows), N: int32(sp.n), Nperseg: int32(sp.nperseg), Step: int32(sp.step),
		Nfft: int32(sp.nfft), Pad: int32(sp.pad), Nseg: int32(sp.nseg), Nfreq: int32(sp.nfreq), Detrend: int32(sp.detrend),
		Cplx: int32(cplx), Mode: int32(mode), Scale: float32(sp.scale)}
	if sp.twoSided {
		p.TwoSided = 1
	} else if sp.nfft%2 == 0 {
		p.EvenNyq = 1
	}
	if err := b.Launch(str, "gi_spec_frames", [3]int{sp.nseg, s.Rows, 1}, [3]int{specThreads, 1, 1}, 0, core.Struct(&p)); err != nil {
		return err
	}
	if sp.twoSided {
		pl, err := fftplan.Get(b, str, cufft.C2C, []int{sp.nfft}, cufft.Layout{}, cufft.Layout{}, batch)
		if err != nil {
			return err
		}
		err = pl.Exec(b, str, func(pp *cufft.Plan) error { return pp.ExecC2C(frames.Ptr, spec.Ptr, cufft.Forward) })
		if err != nil {
			return err
		}
	} else if err := rfft(b, str, sp.nfft, batch, frames.Ptr, spec.Ptr); err != nil {
		return err
	}
	if welch {
		return b.Launch(str, "gi_spec_welch", [3]int{(sp.nfreq + specThreads - 1) / specThreads, s.Rows, 1},
			[3]int{specThreads, 1, 1}, 0, core.Struct(&p))
	}
	return b.Launch(str, "gi_spec_post", [3]int{(sp.nfreq + specTile - 1) / specTile, (sp.nseg + specTile - 1) / specTile, s.Rows},
		[3]int{specTile, specRows, 1}, 0, core.Struct(&p))
}

// levelsCUDA is SpectrogramImage's levels on the GPU: gi_spec_max's peak into a
// word on the device, then gi_spec_db.
func levelsCUDA(str core.Stream, d, s *core.State, rng float32) error {
	b, ok := s.Dev.(*cuda.Backend)
	if !ok {
		return fmt.Errorf("%s is not a CUDA device", s.Dev.Name())
	}
	peak, err := b.Alloc(4)
	if err != nil {
		return err
	}
	peak.Touch(str)
	defer peak.Release()
	if err := b.Memset2D(peak, 0, 4, 4, 1, 0, str); err != nil {
		return err
	}
	p := specImageParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), W: int32(s.Cols), H: int32(s.Rows),
		Peak: peak.Ptr, Range: rng}
	bx := (s.Cols + specThreads - 1) / specThreads
	if err := b.Launch(str, "gi_spec_max", [3]int{min(bx, 64), s.Rows, 1}, [3]int{specThreads, 1, 1}, 0, core.Struct(&p)); err != nil {
		return err
	}
	return b.Launch(str, "gi_spec_db", [3]int{bx, s.Rows, 1}, [3]int{specThreads, 1, 1}, 0, core.Struct(&p))
}
