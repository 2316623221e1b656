package dsp

import (
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// FIR filters a batch of channels (one a row) chunk by chunk, keeping the last
// len(taps)-1 input samples of each channel on the device between chunks, so that
// any chunking gives the output of one call on the whole signal: the causal
// filter y[i] = sum over k of taps[k] x[i-k], as scipy.signal.lfilter(taps, [1]).
// Each chunk is convolved with Auto's method.
type FIR struct {
	dev    *gpuimage.Device
	taps   []float64
	rows   int
	hist   *gpuimage.Image // rows x len(taps)-1: the input before this chunk (zeros at first)
	joined gpuimage.Image  // rows x (len(taps)-1 + chunk): the history, then the chunk
}

// NewFIR makes a streaming FIR filter of taps for channels channels on dev.
func NewFIR(dev *gpuimage.Device, taps []float64, channels int) (*FIR, error) {
	f := &FIR{dev: dev, taps: append([]float64(nil), taps...), rows: channels}
	if err := checkTaps("dsp.NewFIR", taps); err != nil {
		return nil, err
	}
	if channels < 1 {
		return nil, fmt.Errorf("dsp.NewFIR: %d channels: want at least 1", channels)
	}
	if err := f.Reset(); err != nil {
		return nil, err
	}
	return f, nil
}

// Reset forgets the samples seen so far (the next chunk starts from silence).
func (f *FIR) Reset() error {
	if len(f.taps) == 1 {
		return nil
	}
	if f.hist == nil {
		h, err := gpuimage.New(f.dev, f.rows, len(f.taps)-1, gpuimage.CV32FC1)
		if err != nil {
			return fmt.Errorf("dsp.FIR: %w", err)
		}
		f.hist = h
	}
	return f.hist.SetTo(gpuimage.Scalar{})
}

// Process filters the next chunk: in is a 32FC1 image of one row a channel (any
// number of samples), out becomes its filtered samples.
func (f *FIR) Process(in, out *gpuimage.Image, opts ...gpuimage.Option) error {
	const op = "dsp.FIR.Process"
	if err := checkChunk(op, in, f.rows); err != nil {
		return err
	}
	src, err := f.join(op, in, opts)
	if err != nil {
		return err
	}
	if err := conv1d(op, src, []*gpuimage.Image{out}, [][]float64{f.taps}, Valid, Auto, true, opts, 0); err != nil {
		return err
	}
	return f.advance(op, in.Cols(), opts)
}

// join returns the history followed by in (in itself for a one-tap filter), whose
// valid convolution with the taps is in's filtered samples.
func (f *FIR) join(op string, in *gpuimage.Image, opts []gpuimage.Option) (*gpuimage.Image, error) {
	if len(f.taps) == 1 {
		return in, nil
	}
	if err := gpuimage.Hconcat([]*gpuimage.Image{f.hist, in}, &f.joined, opts...); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return &f.joined, nil
}

// advance keeps the last len(taps)-1 samples of the joined input (n of them new)
// as the next chunk's history.
func (f *FIR) advance(op string, n int, opts []gpuimage.Option) error {
	m := len(f.taps)
	if m == 1 {
		return nil
	}
	last, err := f.joined.Region(image.Rect(n, 0, n+m-1, f.rows))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer last.Close()
	if err := last.CopyTo(f.hist, opts...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// Close frees the filter's device memory.
func (f *FIR) Close() error {
	if f.hist != nil {
		f.hist.Close()
	}
	return f.joined.Close()
}

// SOSFilter filters a batch of channels chunk by chunk with second-order sections,
// keeping their state on the device between chunks (SOSFiltState's zi and zf), so
// that any chunking gives one SOSFilt call's output up to float32 rounding of the
// state.
type SOSFilter struct {
	sos   SOS
	rows  int
	state *gpuimage.Image
}

// NewSOS makes a streaming filter of the sections sos for channels channels on dev,
// from a zero state.
func NewSOS(dev *gpuimage.Device, sos SOS, channels int) (*SOSFilter, error) {
	if err := checkSOS("dsp.NewSOS", sos); err != nil {
		return nil, err
	}
	if channels < 1 {
		return nil, fmt.Errorf("dsp.NewSOS: %d channels: want at least 1", channels)
	}
	st, err := gpuimage.New(dev, len(sos), 2*channels, gpuimage.CV32FC1)
	if err != nil {
		return nil, fmt.Errorf("dsp.NewSOS: %w", err)
	}
	f := &SOSFilter{sos: append(SOS(nil), sos...), rows: channels, state: st}
	return f, f.Reset()
}

// Reset sets the state to zero.
func (f *SOSFilter) Reset() error { return f.state.SetTo(gpuimage.Scalar{}) }

// State is the filter's state in SOSFiltState's layout (len(sos) rows by 2 a
// channel), owned by the filter: set it (SOSFiltZi times a level, for one) to start
// elsewhere than from zero.
func (f *SOSFilter) State() *gpuimage.Image { return f.state }

// Process filters the next chunk of every channel (one a row of in) into out.
func (f *SOSFilter) Process(in, out *gpuimage.Image, opts ...gpuimage.Option) error {
	if err := checkChunk("dsp.SOSFilter.Process", in, f.rows); err != nil {
		return err
	}
	return SOSFiltState(in, out, f.sos, f.state, f.state, opts...)
}

// Close frees the filter's device memory.
func (f *SOSFilter) Close() error { return f.state.Close() }

// FilterBank runs K FIR filters over the same channels chunk by chunk (a
// crossover's bands), K outputs a chunk. On the GPU it convolves by uniformly
// partitioned overlap-save (see partitioned): one forward transform of the chunk,
// K products with the filters' partitioned spectra, K inverse transforms, so a
// short chunk costs little whatever the filters' length. On the CPU device it
// keeps the input's history and convolves each chunk with each filter.
type FilterBank struct {
	fir    *FIR // the history, and the first filter
	taps   [][]float64
	part   *partitioned // the GPU's state, made for the first chunk's length
	closed bool
}

// NewFilterBank makes a bank of FIR filters of equal length (Crossover designs
// them) for channels channels on dev.
func NewFilterBank(dev *gpuimage.Device, bank [][]float64, channels int) (*FilterBank, error) {
	if len(bank) == 0 {
		return nil, fmt.Errorf("dsp.NewFilterBank: no filters")
	}
	for i, t := range bank {
		if len(t) != len(bank[0]) {
			return nil, fmt.Errorf("dsp.NewFilterBank: filter %d has %d taps, filter 0 %d (they must be equally long)", i, len(t), len(bank[0]))
		}
		if err := checkTaps(fmt.Sprintf("dsp.NewFilterBank: filter %d", i), t); err != nil {
			return nil, err
		}
	}
	fir, err := NewFIR(dev, bank[0], channels)
	if err != nil {
		return nil, err
	}
	b := &FilterBank{fir: fir}
	for _, t := range bank {
		b.taps = append(b.taps, append([]float64(nil), t...))
	}
	return b, nil
}

// Process filters the next chunk (one channel a row of in) with every filter:
// outs[k] becomes filter k's output; len(outs) must be the number of filters.
func (b *FilterBank) Process(in *gpuimage.Image, outs []*gpuimage.Image, opts ...gpuimage.Option) error {
	const op = "dsp.FilterBank.Process"
	if b.closed {
		return fmt.Errorf("%s: %w (the filter bank)", op, gpuimage.ErrClosed)
	}
	if len(outs) != len(b.taps) {
		return fmt.Errorf("%s: %d outputs for %d filters", op, len(outs), len(b.taps))
	}
	for k, o := range outs {
		if o == nil {
			return fmt.Errorf("%s: %w: output %d", op, gpuimage.ErrNil, k)
		}
	}
	f := b.fir
	if err := checkChunk(op, in, f.rows); err != nil {
		return err
	}
	if dev := core.StateOf(in).Dev; !dev.IsCPU() && fftAvailable() {
		if b.part == nil {
			u, err := newPartitioned(f.dev, b.taps, f.rows, upolsBlock(in.Cols()))
			if err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
			b.part = u
		}
		return b.part.process(op, in, outs, opts)
	}
	src, err := f.join(op, in, opts)
	if err != nil {
		return err
	}
	if err := conv1d(op, src, outs, b.taps, Valid, Auto, true, opts, 0); err != nil {
		return err
	}
	return f.advance(op, in.Cols(), opts)
}

// Reset forgets the samples seen so far.
func (b *FilterBank) Reset() error {
	if b.part != nil {
		if err := b.part.reset(); err != nil {
			return err
		}
	}
	return b.fir.Reset()
}

// Close frees the bank's device memory.
func (b *FilterBank) Close() error {
	b.closed = true
	if b.part != nil {
		b.part.Close()
	}
	return b.fir.Close()
}

// checkChunk checks a chunk for a streaming filter of rows channels.
func checkChunk(op string, in *gpuimage.Image, rows int) error {
	s, err := checkSignal(op, in)
	if err != nil {
		return err
	}
	if s.Rows != rows {
		return fmt.Errorf("%s: %w: a chunk of %d channels for a filter of %d", op, gpuimage.ErrSizeMismatch, s.Rows, rows)
	}
	return nil
}
