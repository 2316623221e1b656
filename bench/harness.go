package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Row is one measurement, written as a CSV row.
type Row struct {
	Op            string
	Width, Height int
	Type          string
	System        string // "gpuimg-cuda", "gpuimg-cpu", "npp", "opencv-cpu", ...
	Variant       string // "kernel", "pinned", "pageable", ...
	Median        time.Duration
	Bytes         int64 // bytes the operation must move (read once + written once)
	Device        string
	Driver        string
	Date          string
}

// Header is the CSV header.
var Header = []string{"op", "width", "height", "type", "system", "variant", "median_us", "gbps", "device", "driver", "date"}

// GBps is Bytes over Median in GB/s (10^9 bytes per second).
func (r Row) GBps() float64 {
	if r.Median <= 0 {
		return 0
	}
	return float64(r.Bytes) / r.Median.Seconds() / 1e9
}

func (r Row) record() []string {
	return []string{r.Op, strconv.Itoa(r.Width), strconv.Itoa(r.Height), r.Type, r.System, r.Variant,
		strconv.FormatFloat(float64(r.Median.Nanoseconds())/1e3, 'f', 2, 64),
		strconv.FormatFloat(r.GBps(), 'f', 1, 64), r.Device, r.Driver, r.Date}
}

// WriteCSV writes the header and rows.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r.record()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Median returns the median of ds (the mean of the middle two for an even count).
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Timer times an operation on a device: on CUDA with events around the work queued
// on a stream (device time only), on the CPU with the wall clock.
//
// On CUDA each timed run is queued behind a kernel that keeps the device busy for
// Hold, so the events measure the device's work and not the time the host takes to
// queue it (an idle stream would count that gap too). The host's time to queue the
// operation is kept apart: LastHost is its median for the last Median call.
type Timer struct {
	Dev    *gpuimage.Device
	Warmup int
	Reps   int
	Hold   time.Duration
	// LastHost is the median host time to queue the operation in the last Median call.
	LastHost time.Duration
	// Unheld counts timed runs whose queueing outlasted Hold (their times include a gap).
	Unheld int
	stream *gpuimage.Stream
}

// NewTimer makes a timer with its own stream.
func NewTimer(dev *gpuimage.Device, warmup, reps int) (*Timer, error) {
	s, err := dev.NewStream()
	if err != nil {
		return nil, err
	}
	return &Timer{Dev: dev, Warmup: warmup, Reps: reps, stream: s}, nil
}

// Close releases the timer's stream.
func (t *Timer) Close() error { return t.stream.Close() }

// Median runs op Warmup times untimed, then Reps times timed, and returns the median.
// op must queue its work with the option it is given.
func (t *Timer) Median(op func(on gpuimage.Option) error) (time.Duration, error) {
	on := gpuimage.OnStream(t.stream)
	for i := 0; i < t.Warmup; i++ {
		if err := op(on); err != nil {
			return 0, err
		}
	}
	if err := t.stream.Synchronize(); err != nil {
		return 0, err
	}
	times := make([]time.Duration, 0, t.Reps)
	hosts := make([]time.Duration, 0, t.Reps)
	for i := 0; i < t.Reps; i++ {
		d, h, err := t.once(op, on)
		if err != nil {
			return 0, err
		}
		times = append(times, d)
		hosts = append(hosts, h)
	}
	t.LastHost = Median(hosts)
	return Median(times), nil
}

// hold queues gi_spin (spin.cu) on the timer's stream: the device stays busy for t.Hold.
func (t *Timer) hold(on gpuimage.Option) error {
	if t.Hold <= 0 {
		return nil
	}
	s, dev := core.StreamDevOf([]gpuimage.Option{on})
	if s == nil {
		return fmt.Errorf("bench: no stream to hold")
	}
	return spin(dev, s, uint32(t.Hold.Nanoseconds()))
}

// once runs op once and returns its time and the host's time to queue it.
func (t *Timer) once(op func(gpuimage.Option) error, on gpuimage.Option) (time.Duration, time.Duration, error) {
	if !t.Dev.IsCUDA() {
		start := time.Now()
		err := op(on)
		d := time.Since(start)
		return d, d, err
	}
	if err := t.hold(on); err != nil {
		return 0, 0, err
	}
	start := time.Now()
	a, err := t.stream.Record()
	if err != nil {
		return 0, 0, err
	}
	defer a.Close()
	q := time.Now()
	if err := op(on); err != nil {
		return 0, 0, err
	}
	host := time.Since(q)
	b, err := t.stream.Record()
	if err != nil {
		return 0, 0, err
	}
	defer b.Close()
	if t.Hold > 0 && time.Since(start) >= t.Hold {
		t.Unheld++
	}
	if err := b.Synchronize(); err != nil {
		return 0, 0, err
	}
	d, err := b.Since(a)
	return d, host, err
}

// FormatTable renders rows as an aligned text table for the terminal.
func FormatTable(rows []Row) string {
	out := fmt.Sprintf("%-28s %-11s %-8s %-13s %-9s %11s %9s\n", "op", "size", "type", "system", "variant", "median_us", "GB/s")
	for _, r := range rows {
		out += fmt.Sprintf("%-28s %-11s %-8s %-13s %-9s %11.1f %9.1f\n", r.Op, fmt.Sprintf("%dx%d", r.Width, r.Height),
			r.Type, r.System, r.Variant, float64(r.Median.Nanoseconds())/1e3, r.GBps())
	}
	return out
}

// EndToEnd times, by the wall clock, uploading src's pixels from host memory, op
// into dst and downloading dst, waiting for the stream: once from page-locked
// buffers and once from ordinary Go slices. dst must already hold op's output type
// (run op once first).
func (t *Timer) EndToEnd(src, dst *gpuimage.Image, op func(src, dst *gpuimage.Image, on gpuimage.Option) error) ([]Row, error) {
	in, out := src.Rows()*src.Cols()*src.ElemSize(), dst.Rows()*dst.Cols()*dst.ElemSize()
	pin, err := t.Dev.NewHostBuffer(in + out)
	if err != nil {
		return nil, err
	}
	defer pin.Close()
	for i := range pin.Bytes()[:in] {
		pin.Bytes()[i] = byte(i * 7)
	}
	pageable := append([]byte(nil), pin.Bytes()...)
	var rows []Row
	for _, v := range []struct {
		name string
		buf  []byte
	}{{"e2e-pinned", pin.Bytes()}, {"e2e-pageable", pageable}} {
		m, err := t.MedianWall(func(on gpuimage.Option) error {
			if err := src.Upload(v.buf[:in], on); err != nil {
				return err
			}
			if err := op(src, dst, on); err != nil {
				return err
			}
			return dst.Download(v.buf[in:in+out], on)
		})
		if err != nil {
			return nil, err
		}
		rows = append(rows, Row{Variant: v.name, Median: m})
	}
	return rows, nil
}

// MedianWall is Median by the wall clock, each run ending when its stream is done.
func (t *Timer) MedianWall(op func(on gpuimage.Option) error) (time.Duration, error) {
	on := gpuimage.OnStream(t.stream)
	run := func() (time.Duration, error) {
		start := time.Now()
		if err := op(on); err != nil {
			return 0, err
		}
		err := t.stream.Synchronize()
		return time.Since(start), err
	}
	for i := 0; i < t.Warmup; i++ {
		if _, err := run(); err != nil {
			return 0, err
		}
	}
	times := make([]time.Duration, 0, t.Reps)
	for i := 0; i < t.Reps; i++ {
		d, err := run()
		if err != nil {
			return 0, err
		}
		times = append(times, d)
	}
	return Median(times), nil
}
