package dsp

import (
	"fmt"

	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// partitioned is a FilterBank's state on the GPU: uniformly partitioned
// overlap-save (kernels/dsp_upols.cu). The taps are cut into parts partitions of
// b taps; the spectra of the last parts input blocks of b samples stay on the
// device (the frequency-domain delay line), so a chunk costs one forward
// transform, the products with every partition's spectrum and one inverse
// transform a filter, however long the filters: a 1024-sample chunk does not wait
// for 8192 samples.
//
// b is fixed by the first chunk (its length, or the next power of two where twice
// its length is not a product of 2, 3, 5 and 7, at least 64). A chunk of another
// length is filtered in steps along the blocks: a block's samples are filtered as
// they come (the block's spectrum is made again, zero past the samples seen,
// until it is full), so any chunking gives the same output.
type partitioned struct {
	b, parts, bands, ch int
	h                   *gpuimage.Image // bands x parts half spectra (b+1 complex values): the partitions'
	fdl                 *gpuimage.Image // parts slots of ch half spectra: the last input blocks'
	blk                 [2]*gpuimage.Image
	prev                int             // blk[prev] is the last full block, blk[1-prev] the current one
	frame               *gpuimage.Image // ch x 2b: the frames cuFFT transforms
	y                   *gpuimage.Image // bands x ch half spectra: the products' sums
	oframe              *gpuimage.Image // bands x ch x 2b: their inverse transforms
	head, r0            int             // the current block's slot, and its samples so far
}

// upolsBlock is the block length for chunks of n samples.
func upolsBlock(n int) int {
	smooth := func(v int) bool {
		for _, p := range []int{2, 3, 5, 7} {
			for v%p == 0 {
				v /= p
			}
		}
		return v == 1
	}
	if n >= 64 && smooth(2*n) {
		return n
	}
	b := 64
	for b < n {
		b *= 2
	}
	return b
}

// newPartitioned prepares bank's partitioned convolution for ch channels on dev,
// in blocks of b samples.
func newPartitioned(dev *gpuimage.Device, bank [][]float64, ch, b int) (u *partitioned, err error) {
	m := len(bank[0])
	u = &partitioned{b: b, parts: (m + b - 1) / b, bands: len(bank), ch: ch}
	defer func() {
		if err != nil {
			u.Close()
		}
	}()
	half := b + 1
	flat := func(floats int) (*gpuimage.Image, error) { return gpuimage.New(dev, 1, floats, gpuimage.CV32FC1) }
	for _, a := range []struct {
		im     **gpuimage.Image
		floats int
	}{
		{&u.h, 2 * u.bands * u.parts * half}, {&u.fdl, 2 * u.parts * ch * half}, {&u.blk[0], ch * b}, {&u.blk[1], ch * b},
		{&u.frame, 2 * ch * b}, {&u.y, 2 * u.bands * ch * half}, {&u.oframe, 2 * u.bands * ch * b},
	} {
		if *a.im, err = flat(a.floats); err != nil {
			return nil, err
		}
	}
	// The partitions' spectra, made on the host once.
	hs := make([]float32, 0, 2*u.bands*u.parts*half)
	fft := fourier.NewFFT(2 * b)
	seq, coef := make([]float64, 2*b), make([]complex128, half)
	for _, taps := range bank {
		for q := 0; q < u.parts; q++ {
			clear(seq)
			copy(seq, taps[q*b:min(m, (q+1)*b)])
			for _, c := range fft.Coefficients(coef, seq) {
				hs = append(hs, float32(real(c)), float32(imag(c)))
			}
		}
	}
	if err := gpuimage.UploadData(u.h, hs); err != nil {
		return nil, err
	}
	return u, u.reset()
}

// reset starts from silence.
func (u *partitioned) reset() error {
	u.head, u.r0, u.prev = 0, 0, 0
	for _, im := range []*gpuimage.Image{u.fdl, u.blk[0]} {
		if err := im.SetTo(gpuimage.Scalar{}); err != nil {
			return err
		}
	}
	return nil
}

// process filters the next chunk into outs (created here), block step by block step.
func (u *partitioned) process(op string, in *gpuimage.Image, outs []*gpuimage.Image, opts []gpuimage.Option) error {
	s := core.StateOf(in)
	if dev := core.StateOf(u.fdl).Dev; s.Dev != dev {
		return fmt.Errorf("%s: %w: a chunk on %s for a filter bank on %s", op, gpuimage.ErrDeviceMismatch, s.Dev.Name(), dev.Name())
	}
	states := []*core.State{s}
	for _, im := range []*gpuimage.Image{u.h, u.fdl, u.blk[0], u.blk[1], u.frame, u.y, u.oframe} {
		states = append(states, core.StateOf(im))
	}
	for _, o := range outs {
		d := core.StateOf(o)
		if err := d.Create(s.Dev, u.ch, s.Cols, core.Depth32F, 1); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		states = append(states, d)
	}
	err := core.Run(s.Dev, opts, states, func(str core.Stream) error {
		for seg0 := 0; seg0 < s.Cols; {
			n := min(u.b-u.r0, s.Cols-seg0)
			if err := upolsStepCUDA(str, u, s, states[len(states)-len(outs):], seg0, n); err != nil {
				return err
			}
			seg0 += n
			if u.r0 += n; u.r0 == u.b { // the block is full: its spectrum stays in its slot
				u.r0, u.prev, u.head = 0, 1-u.prev, (u.head+1)%u.parts
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// Close frees the device memory.
func (u *partitioned) Close() error {
	for _, im := range []*gpuimage.Image{u.h, u.fdl, u.blk[0], u.blk[1], u.frame, u.y, u.oframe} {
		if im != nil {
			im.Close()
		}
	}
	return nil
}
