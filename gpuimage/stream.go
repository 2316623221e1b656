package gpuimage

import (
	"errors"
	"time"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Stream is an ordered queue of work on one device. Calls given OnStream(s) return
// as soon as their work is queued; work on different streams may overlap (an upload
// on one, a kernel on another). Call Synchronize before reading results on the host
// or reusing host memory a queued transfer reads or writes.
//
// Without OnStream every call is synchronous. On the CPU device work runs at once.
// A Stream may be used from several goroutines; work they queue runs in the order
// the calls were made.
type Stream struct {
	dev *Device
	s   core.Stream
}

// NewStream makes a stream on the device.
func (d *Device) NewStream() (*Stream, error) {
	s, err := d.b.NewStream()
	if err != nil {
		return nil, err
	}
	return &Stream{dev: d, s: s}, nil
}

// Device returns the stream's device.
func (s *Stream) Device() *Device { return s.dev }

// Synchronize waits for all work queued on the stream.
func (s *Stream) Synchronize() error { return s.s.Sync() }

// Close waits for the stream's work and releases it; closing twice does nothing.
func (s *Stream) Close() error { return s.s.Close() }

// Record places an event in the stream: it completes when the work queued before it
// does. Two events of a stream time the work between them.
func (s *Stream) Record() (*Event, error) {
	ev, err := s.s.Record()
	if err != nil {
		return nil, err
	}
	return &Event{ev: ev}, nil
}

// Event marks a point in a stream, for timing and waiting.
type Event struct{ ev core.Event }

// Synchronize waits until the event has completed.
func (e *Event) Synchronize() error { return e.ev.Sync() }

// Since returns the device time from start to e; both must have completed.
func (e *Event) Since(start *Event) (time.Duration, error) {
	if start == nil {
		return 0, errors.New("gpuimage: Event.Since: nil start event")
	}
	return e.ev.Since(start.ev)
}

// Close releases the event.
func (e *Event) Close() error { return e.ev.Close() }

// Option changes how a call runs: OnStream, BorderValue.
type Option = core.Option

// OnStream queues the call's work on s and returns without waiting for it.
func OnStream(s *Stream) Option {
	if s == nil {
		return Option{}
	}
	return core.OnStream(s.s, s.dev.b)
}

// BorderValue sets the value of the pixels outside the image for calls that take a
// border type and are given BORDER_CONSTANT (OpenCV's borderValue; the default is 0).
func BorderValue(v Scalar) Option { return core.WithBorderValue(v.array()) }
