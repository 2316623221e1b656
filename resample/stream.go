package resample

import (
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Stream resamples a batch of channels (one a row) by up/down chunk by chunk, as a
// real-time audio host feeds it, keeping the last input samples of each channel
// and the phase on the device between chunks: any chunking gives Poly's output on
// the whole signal, Delay samples later. Each chunk's output holds every sample
// whose inputs have all arrived; Flush gives the rest.
type Stream struct {
	dev        *gpuimage.Device
	rows       int
	pl         *plan
	pre, delay int64
	hlen       int   // input samples kept between chunks
	in, out    int64 // input samples seen and output samples given, a channel
	hist       *gpuimage.Image
	joined     gpuimage.Image // the history, then the chunk
}

// NewStream makes a resampler by up/down (reduced by their greatest common
// divisor) with Poly's filter (o as Poly's; nil for SciPy's defaults) for channels
// channels on dev.
func NewStream(dev *gpuimage.Device, up, down, channels int, o *PolyOptions) (*Stream, error) {
	const op = "resample.NewStream"
	if up < 1 || down < 1 {
		return nil, fmt.Errorf("%s: up %d and down %d: both must be at least 1", op, up, down)
	}
	if channels < 1 {
		return nil, fmt.Errorf("%s: %d channels: want at least 1", op, channels)
	}
	if dev == nil {
		return nil, fmt.Errorf("%s: %w: device", op, gpuimage.ErrNil)
	}
	if o == nil {
		o = &PolyOptions{}
	}
	g := gcd(up, down)
	up, down = up/g, down/g
	pl, m, err := &plan{up: 1, down: 1, qn: 1, h: []float32{1}}, 1, error(nil)
	if up != 1 || down != 1 {
		pl, m, err = polyPlan(up, down, o)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	st := &Stream{dev: dev, rows: channels, pl: pl}
	if up != 1 || down != 1 {
		st.pre, st.delay = polyAlign(m, down)
	}
	// Enough history for every branch, and for the front padding: a chunk's
	// first output then starts at t >= 0 in the joined signal.
	st.hlen = max(pl.qn-1, int((st.pre+int64(up)-1)/int64(up)))
	if err := st.Reset(); err != nil {
		return nil, err
	}
	return st, nil
}

// Delay is how many output samples the stream lags Poly's output by: its sample
// j is Poly's sample j - Delay (the ones before are the filter's run-in).
func (st *Stream) Delay() int { return int(st.delay) }

// Reset forgets the samples seen so far (the next chunk starts from silence, at
// phase 0).
func (st *Stream) Reset() error {
	st.in, st.out = 0, 0
	if st.hlen == 0 {
		return nil
	}
	if st.hist == nil {
		h, err := gpuimage.New(st.dev, st.rows, st.hlen, gpuimage.CV32FC1)
		if err != nil {
			return fmt.Errorf("resample.Stream: %w", err)
		}
		st.hist = h
	}
	return st.hist.SetTo(gpuimage.Scalar{})
}

// Process resamples the next chunk: in is a 32FC1 image of one row a channel (any
// number of samples); out becomes the output samples whose inputs have all
// arrived, and Process returns how many a channel (out is left alone when none).
func (st *Stream) Process(in, out *gpuimage.Image, opts ...gpuimage.Option) (int, error) {
	const op = "resample.Stream.Process"
	s, err := checkSignal(op, in, out)
	if err != nil {
		return 0, err
	}
	if s.Rows != st.rows {
		return 0, fmt.Errorf("%s: %w: a chunk of %d channels for a stream of %d", op, gpuimage.ErrSizeMismatch, s.Rows, st.rows)
	}
	return st.process(op, in, out, -1, opts)
}

// Flush gives the output samples still owed for the input so far: out becomes
// them (Poly's last Delay samples, computed with silence after the input), and
// Flush returns how many a channel. The stream then starts again as new.
func (st *Stream) Flush(out *gpuimage.Image, opts ...gpuimage.Option) (int, error) {
	const op = "resample.Stream.Flush"
	if out == nil {
		return 0, fmt.Errorf("%s: %w: out", op, gpuimage.ErrNil)
	}
	up, down := int64(st.pl.up), int64(st.pl.down)
	// Poly's length for the input so far, from the stream's sample Delay on.
	target := st.delay + (st.in*up+down-1)/down
	if st.in == 0 || target <= st.out {
		return 0, st.Reset()
	}
	// The silence that makes every owed output ready.
	z := max(1, int((target*down-st.pre+up-1)/up-st.in))
	zeros, err := gpuimage.New(st.dev, st.rows, z, gpuimage.CV32FC1)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	defer zeros.Close()
	if err := zeros.SetTo(gpuimage.Scalar{}, opts...); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	n, err := st.process(op, zeros, out, target, opts)
	if err != nil {
		return 0, err
	}
	return n, st.Reset()
}

// process joins the history and in, computes the outputs that are ready (at most
// up to output limit, if not negative) into out, and keeps the new history.
func (st *Stream) process(op string, in, out *gpuimage.Image, limit int64, opts []gpuimage.Option) (int, error) {
	up, down := int64(st.pl.up), int64(st.pl.down)
	n := int64(in.Cols())
	src, err := st.join(op, in, opts)
	if err != nil {
		return 0, err
	}
	// Output j is centred on input (j*down - pre)/up: ready once that has arrived.
	j0, j1 := st.out, (((st.in+n)*up+st.pre)+down-1)/down
	if limit >= 0 {
		j1 = min(j1, limit)
	}
	count := max(0, j1-j0)
	if err := checkOut(op, st.rows, count); err != nil {
		return 0, err
	}
	if count > 0 {
		// The joined signal starts at input st.in - hlen.
		t0 := j0*down - st.pre - (st.in-int64(st.hlen))*up
		if err := compute(op, core.StateOf(src), out, st.pl, t0, int(count), opts); err != nil {
			return 0, err
		}
		st.out = j1
	}
	if err := st.advance(op, int(n), opts); err != nil {
		return 0, err
	}
	st.in += n
	return int(count), nil
}

// join returns the history followed by in (in itself without history).
func (st *Stream) join(op string, in *gpuimage.Image, opts []gpuimage.Option) (*gpuimage.Image, error) {
	if st.hlen == 0 {
		return in, nil
	}
	if err := gpuimage.Hconcat([]*gpuimage.Image{st.hist, in}, &st.joined, opts...); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return &st.joined, nil
}

// advance keeps the last hlen samples of the joined input (n of them new) as the
// next chunk's history.
func (st *Stream) advance(op string, n int, opts []gpuimage.Option) error {
	if st.hlen == 0 {
		return nil
	}
	last, err := st.joined.Region(image.Rect(n, 0, n+st.hlen, st.rows))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer last.Close()
	if err := last.CopyTo(st.hist, opts...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// Close frees the stream's device memory.
func (st *Stream) Close() error {
	if st.hist != nil {
		st.hist.Close()
	}
	return st.joined.Close()
}
