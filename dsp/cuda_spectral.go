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

// specFused are the fused spectrogram kernels by nfft, their blocks, and their
// blocks an SM (the registers' limit; blocks stride over the segment groups):
// gi_spec_warp_1024 (a warp's transform in registers, static shared memory) and
// gi_spec_fused_N (a block's transform in dynamic shared memory, 4-5 blocks an SM
// on the H100).
//
// min is the fewest segments a call (rows x nseg) that the kernel takes. Below
// 4096, gi_spec_fused_N's long blocks (GI_SPEC_FS segments each, in sequence)
// leave the GPU idle and the three-pass path is faster (H100, nfft 1024, hop 256:
// 1e5 samples 26 against 12 us; 1e7, 267 against 345; 64 x 1e6, 1,620 against
// 3,527). gi_spec_warp_1024 is faster at every size (H100, hop 256, against the
// three-pass path: 16384 samples 9.1 against 11.4 us, 1e5 9.3 against 12.6, 4 x
// 1e5 10.2 against 21.1, 1e6 14.4 against 39.5).
var specFused = map[int]struct {
	name                string
	threads, perSM, min int
}{1024: {"gi_spec_warp_1024", 128, 4, 1}, 2048: {"gi_spec_fused_2048", 128, 5, 4096}, 4096: {"gi_spec_fused_4096", 256, 5, 4096}}

// specFusedSmem is the fused kernel's dynamic shared memory for nfft n:
// gi_spec_fused_N's block FFT and GI_SPEC_FS staged spectra; none for
// gi_spec_warp_1024, whose shared memory is static (under 48 KB).
func specFusedSmem(n int) int {
	if n == 1024 {
		return 0
	}
	return 2*(n+n/32)*4 + n/16*8 + (n/2+1)*specFS*4
}

// specSetup is what every spectral launch needs: s's CUDA device, cuFFT loaded,
// and the plan's window on the device (kept: internal/devcache), which the caller
// releases once its work is queued.
func specSetup(str core.Stream, s *core.State, sp *spectral) (*cuda.Backend, *core.Buffer, error) {
	b, ok := s.Dev.(*cuda.Backend)
	if !ok {
		return nil, nil, fmt.Errorf("%s is not a CUDA device", s.Dev.Name())
	}
	if _, _, err := cufft.Load(); err != nil {
		return nil, nil, err
	}
	win := make([]float32, len(sp.win))
	for i, v := range sp.win {
		win[i] = float32(v)
	}
	wb := core.HostBytes(win)
	wbuf, err := devcache.Derived(b, str, "spec-window", [][]byte{wb}, len(wb), func(buf *core.Buffer) error {
		return b.Copy2D(core.Copy{Dst: buf, SrcHost: wb, DstPitch: len(wb), SrcPitch: len(wb), Width: len(wb), Rows: 1}, str)
	})
	return b, wbuf, err
}

// spectralCUDA runs the plan on the GPU (kernels/dsp_spectral.cu): for large
// one-sided PSDs with nfft 1024, 2048 or 4096, gi_spec_warp_1024 or gi_spec_fused_N in one pass; else every segment
// of every row cut, detrended and windowed into a frame (gi_spec_frames), one
// batched cuFFT transform of all frames (real to complex, or complex for two-sided
// spectra), then the spectra scaled and transposed into d (gi_spec_post), or
// averaged over the segments (gi_spec_welch; gi_spec_welch_median for their median). The window is kept on the device
// (internal/devcache).
func spectralCUDA(str core.Stream, d, s *core.State, sp *spectral, welch bool) error {
	b, wbuf, err := specSetup(str, s, sp)
	if err != nil {
		return err
	}
	defer wbuf.Release()
	batch := s.Rows * sp.nseg
	if k, ok := specFused[sp.nfft]; ok && !welch && !sp.twoSided && !sp.stft && batch >= k.min &&
		specFusedSmem(sp.nfft) <= core.MaxSharedOptin(b) {
		// One pass, no frames or spectra in memory (gi_spec_warp_1024, gi_spec_fused_N).
		p := specParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Win: wbuf.Ptr, Rows: int32(s.Rows),
			N: int32(sp.n), Nperseg: int32(sp.nperseg), Step: int32(sp.step), Nfft: int32(sp.nfft), Pad: int32(sp.pad),
			Nseg: int32(sp.nseg), Nfreq: int32(sp.nfreq), Detrend: int32(sp.detrend), EvenNyq: 1, Scale: float32(sp.scale)}
		groups := s.Rows * ((sp.nseg + specFS - 1) / specFS)
		grid := min(groups, k.perSM*core.MultiProcessors(b))
		return b.Launch(str, k.name, [3]int{grid, 1, 1}, [3]int{k.threads, 1, 1}, specFusedSmem(sp.nfft), core.Struct(&p))
	}
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
		Nfft: int32(sp.nfft), Pad: int32(sp.pad), Ext: int32(sp.ext), Nseg: int32(sp.nseg), Nfreq: int32(sp.nfreq), Detrend: int32(sp.detrend),
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
		name := "gi_spec_welch"
		if sp.median {
			// The median by radix selection (gi_spec_welch_median); the bias divides
			// the scale (the median of scaled values is the scaled median).
			name, p.Scale = "gi_spec_welch_median", float32(sp.scale/medianBias(sp.nseg))
		}
		return b.Launch(str, name, [3]int{(sp.nfreq + specThreads - 1) / specThreads, s.Rows, 1},
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

// istftCUDA runs ISTFT on the GPU: gi_spec_unpost (STFT's output back to a
// spectrum a segment, scaled by sp.scale/nfft: cuFFT's inverse is unnormalised),
// one batched complex-to-real cuFFT transform, gi_spec_ola.
func istftCUDA(str core.Stream, d, s *core.State, sp *spectral) error {
	b, wbuf, err := specSetup(str, s, sp)
	if err != nil {
		return err
	}
	defer wbuf.Release()
	rows := d.Rows
	batch := rows * sp.nseg
	spec, err := b.Alloc(batch * sp.nfreq * 8)
	if err != nil {
		return err
	}
	spec.Touch(str)
	defer spec.Release()
	frameBytes := sp.nfft * 4
	if sp.twoSided {
		frameBytes = sp.nfft * 8
	}
	frames, err := b.Alloc(batch * frameBytes)
	if err != nil {
		return err
	}
	frames.Touch(str)
	defer frames.Release()
	p := specParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Frames: frames.Ptr, Spec: spec.Ptr,
		Win: wbuf.Ptr, Rows: int32(rows), N: int32(sp.n), Nperseg: int32(sp.nperseg), Step: int32(sp.step),
		Nfft: int32(sp.nfft), Pad: int32(sp.pad), Nseg: int32(sp.nseg), Nfreq: int32(sp.nfreq),
		Scale: float32(sp.scale / float64(sp.nfft))}
	if sp.nfft%2 == 0 {
		p.EvenNyq = 1
	}
	if sp.twoSided {
		p.TwoSided, p.Cplx = 1, 1
	}
	if err := b.Launch(str, "gi_spec_unpost", [3]int{(sp.nseg + specTile - 1) / specTile, (sp.nfreq + specTile - 1) / specTile, rows},
		[3]int{specTile, specRows, 1}, 0, core.Struct(&p)); err != nil {
		return err
	}
	kind, exec := cufft.C2R, func(pp *cufft.Plan) error { return pp.ExecC2R(spec.Ptr, frames.Ptr) }
	if sp.twoSided {
		kind, exec = cufft.C2C, func(pp *cufft.Plan) error { return pp.ExecC2C(spec.Ptr, frames.Ptr, cufft.Inverse) }
	}
	pl, err := fftplan.Get(b, str, kind, []int{sp.nfft}, cufft.Layout{}, cufft.Layout{}, batch)
	if err != nil {
		return err
	}
	if err := pl.Exec(b, str, exec); err != nil {
		return err
	}
	return b.Launch(str, "gi_spec_ola", [3]int{(sp.n + specThreads - 1) / specThreads, rows, 1}, [3]int{specThreads, 1, 1}, 0, core.Struct(&p))
}
