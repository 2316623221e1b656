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

// fftAvailable says whether cuFFT loads (Auto convolves directly without it).
func fftAvailable() bool {
	_, _, err := cufft.Load()
	return err == nil
}

// fftConvCUDA is the FFT method on the GPU for the filters gs (equally long): the
// fused overlap-save (fusedConvCUDA) where its frame fits the taps and the
// device's shared memory, else cuFFT's (cufftConvCUDA) filter by filter.
func fftConvCUDA(str core.Stream, ds []*core.State, s *core.State, gs [][]float32, off int) error {
	b, ok := s.Dev.(*cuda.Backend)
	if !ok {
		return fmt.Errorf("%s is not a CUDA device", s.Dev.Name())
	}
	n := fusedFrame(len(gs[0]), ds[0].Cols, core.MaxSharedOptin(b))
	if f := fftSizeOverride; f > 0 {
		n = 0
		if f >= fusedMin && f <= fusedMax && f&(f-1) == 0 && f >= len(gs[0]) && fusedSmem(f) <= core.MaxSharedOptin(b) {
			n = f
		}
	}
	if n > 0 && !fusedOff {
		for k0 := 0; k0 < len(gs); k0 += fftfBands {
			k1 := min(k0+fftfBands, len(gs))
			if err := fusedConvCUDA(str, b, ds[k0:k1], s, gs[k0:k1], off, n); err != nil {
				return err
			}
		}
		return nil
	}
	for k, g := range gs {
		if err := cufftConvCUDA(str, b, ds[k], s, g, off); err != nil {
			return err
		}
	}
	return nil
}

// fusedKernels names gi_fftconv_fN by N.
var fusedKernels = map[int]string{1024: "gi_fftconv_f1024", 2048: "gi_fftconv_f2048", 4096: "gi_fftconv_f4096",
	8192: "gi_fftconv_f8192", 16384: "gi_fftconv_f16384"}

// fusedConvCUDA runs up to fftfBands filters gs over s into ds by the fused
// overlap-save with frames of n points (fused.go): the filters' spectra are made
// on the host the first time (cached, devcache.go); several filters over frames
// of 16384 points keep the spectrum in a scratch slot a block (from the device's
// allocator), one filter needs none.
func fusedConvCUDA(str core.Stream, b *cuda.Backend, ds []*core.State, s *core.State, gs [][]float32, off, n int) error {
	m, outn, rows := len(gs[0]), ds[0].Cols, s.Rows
	hop := n - m + 1
	frames := (outn + hop - 1) / hop
	grid := fusedGrid(n, (rows*frames+1)/2, core.MultiProcessors(b))
	key := make([][]byte, len(gs))
	for k, g := range gs {
		key[k] = core.HostBytes(g)
	}
	size := 8 * n * len(gs)
	hs, err := devcache.Derived(b, str, fmt.Sprintf("fftfused-%d-%d", n, len(gs)), key, size, func(buf *core.Buffer) error {
		spec := core.HostBytes(fusedSpectra(gs, n))
		return b.Copy2D(core.Copy{Dst: buf, SrcHost: spec, DstPitch: size, SrcPitch: size, Width: size, Rows: 1}, str)
	})
	if err != nil {
		return err
	}
	defer hs.Release()
	p := fftFusedParams{Src: s.Ptr(), Sp: int32(s.Pitch), Rows: int32(rows), N: int32(s.Cols), Outn: int32(outn),
		Hop: int32(hop), Frames: int32(frames), Start: int32(off), Nf: int32(len(gs)), H: hs.Ptr}
	for k, d := range ds {
		p.Dst[k], p.Dp[k] = d.Ptr(), int32(d.Pitch)
	}
	if len(gs) > 1 && n/fusedThreads(n) > 16 {
		scratch, err := b.Alloc(grid * n * 8)
		if err != nil {
			return err
		}
		scratch.Touch(str)
		defer scratch.Release()
		p.Scratch = scratch.Ptr
	}
	return b.Launch(str, fusedKernels[n], [3]int{grid, 1, 1}, [3]int{fusedThreads(n), 1, 1}, fusedSmem(n), core.Struct(&p))
}

// cufftConvCUDA is the FFT method by cuFFT's overlap-save, for filters too long
// for the fused kernel: the taps' spectrum
// (their reversal zero-padded to nfft, one R2C; cached), gi_fftconv_frames cutting every
// row into frames, one batched R2C over all frames of all rows, gi_fftconv_mul,
// one batched C2R back into the frames, and gi_fftconv_gather keeping each frame's
// last hop samples. The work buffers come from the device's allocator.
func cufftConvCUDA(str core.Stream, b *cuda.Backend, d, s *core.State, g []float32, off int) error {
	if _, _, err := cufft.Load(); err != nil {
		return err
	}
	m, outn, rows := len(g), d.Cols, s.Rows
	nfft, hop := fftSize(rows, m, outn, true)
	frames := (outn + hop - 1) / hop
	half := nfft/2 + 1
	var bufs []*core.Buffer
	defer func() {
		for _, buf := range bufs {
			buf.Release()
		}
	}()
	alloc := func(n int) (*core.Buffer, error) {
		buf, err := b.Alloc(n)
		if err != nil {
			return nil, err
		}
		buf.Touch(str)
		bufs = append(bufs, buf)
		return buf, nil
	}
	// The taps' spectrum, made the first time the taps are used with this frame
	// (devcache.go): the taps reversed through launches' parameters (a copy from
	// host memory would wait for the stream), zero-padded to nfft, one R2C.
	hs, err := devcache.Derived(b, str, fmt.Sprintf("fftconv-%d", nfft), [][]byte{core.HostBytes(g)}, half*8, func(spec *core.Buffer) error {
		hpad, err := alloc(nfft * 4)
		if err != nil {
			return err
		}
		if err := b.Memset2D(hpad, 0, nfft*4, nfft*4, 1, 0, str); err != nil {
			return err
		}
		for q0 := 0; q0 < m; q0 += fftConvTaps {
			tp := fftTapsParams{Dst: hpad.Ptr + uintptr(4*q0), Count: int32(min(fftConvTaps, m-q0))}
			for i := range int(tp.Count) {
				tp.G[i] = g[m-1-q0-i]
			}
			if err := b.Launch(str, "gi_fftconv_taps", [3]int{(int(tp.Count) + fftConvThreads - 1) / fftConvThreads, 1, 1},
				[3]int{fftConvThreads, 1, 1}, 0, core.Struct(&tp)); err != nil {
				return err
			}
		}
		return rfft(b, str, nfft, 1, hpad.Ptr, spec.Ptr)
	})
	if err != nil {
		return err
	}
	defer hs.Release()
	hspec := hs.Ptr
	batch := rows * frames
	buf, err := alloc(batch * nfft * 4)
	if err != nil {
		return err
	}
	spec, err := alloc(batch * half * 8)
	if err != nil {
		return err
	}
	p := fftConvParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Buf: buf.Ptr, Spec: spec.Ptr,
		H: hspec, Rows: int32(rows), N: int32(s.Cols), Outn: int32(outn), M: int32(m), Nfft: int32(nfft),
		Hop: int32(hop), Frames: int32(frames), F0: int32(off + m - 1), Scale: 1 / float32(nfft)}
	block := [3]int{fftConvThreads, 1, 1}
	blocks := func(n int) int { return min((n+fftConvThreads-1)/fftConvThreads, 1<<20) }
	if err := b.Launch(str, "gi_fftconv_frames", [3]int{blocks(nfft), min(batch, 65535), 1}, block, 0, core.Struct(&p)); err != nil {
		return err
	}
	if err := rfft(b, str, nfft, batch, buf.Ptr, spec.Ptr); err != nil {
		return err
	}
	if err := b.Launch(str, "gi_fftconv_mul", [3]int{blocks(half), min(batch, 65535), 1}, block, 0, core.Struct(&p)); err != nil {
		return err
	}
	pl, err := fftplan.Get(b, str, cufft.C2R, []int{nfft}, cufft.Layout{}, cufft.Layout{}, batch)
	if err != nil {
		return err
	}
	if err := pl.Exec(b, str, func(p *cufft.Plan) error { return p.ExecC2R(spec.Ptr, buf.Ptr) }); err != nil {
		return err
	}
	return b.Launch(str, "gi_fftconv_gather", [3]int{blocks(outn), min(rows, 65535), 1}, block, 0, core.Struct(&p))
}

// rfft runs batch packed real transforms of nfft samples at in into half spectra at out.
func rfft(b *cuda.Backend, str core.Stream, nfft, batch int, in, out uintptr) error {
	pl, err := fftplan.Get(b, str, cufft.R2C, []int{nfft}, cufft.Layout{}, cufft.Layout{}, batch)
	if err != nil {
		return err
	}
	return pl.Exec(b, str, func(p *cufft.Plan) error { return p.ExecR2C(in, out) })
}
