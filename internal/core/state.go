package core

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"
)

// Errors shared by every package; gpuimage exports them.
var (
	ErrClosed         = errors.New("image is closed")
	ErrNil            = errors.New("image is nil")
	ErrEmpty          = errors.New("image is empty")
	ErrDeviceMismatch = errors.New("images are on different devices")
	ErrSizeMismatch   = errors.New("image sizes differ")
	ErrTypeMismatch   = errors.New("image types differ")
	ErrBadType        = errors.New("unsupported image type")
)

// State is everything an image is: an Image holds one.
type State struct {
	Dev    Backend
	Buf    *Buffer
	Closed bool
	Layout
}

// Image is an image's handle: gpuimage.Image is defined on it (type Image
// core.Image), so the packages below gpuimage reach its State through StateOf,
// typed, while users see none of it.
type Image struct {
	st State
}

// StateOf returns the state of an image (a *gpuimage.Image), nil for a nil one.
// I's underlying type is Image's (the constraint says so; Go converts *I to *Image
// only through unsafe.Pointer in a generic function), so the layouts are one.
func StateOf[I ~struct{ st State }](im *I) *State {
	if im == nil {
		return nil
	}
	return &(*Image)(unsafe.Pointer(im)).st
}

// Check reports whether s is an open image with pixels.
func (s *State) Check() error {
	switch {
	case s == nil:
		return ErrNil
	case s.Closed:
		return ErrClosed
	case s.Buf == nil || s.Empty():
		return ErrEmpty
	}
	return nil
}

// CheckDst reports whether s can be used as an output: open, maybe empty, and on dev
// if it already lives on a device.
func (s *State) CheckDst(dev Backend) error {
	switch {
	case s == nil:
		return ErrNil
	case s.Closed:
		return ErrClosed
	case s.Dev != nil && s.Dev != dev:
		return fmt.Errorf("%w: output on %s, input on %s", ErrDeviceMismatch, s.Dev.Name(), dev.Name())
	}
	return nil
}

// CheckType reports whether depth d with cn channels is supported.
func CheckType(d Depth, cn int) error {
	if !d.Valid() {
		return fmt.Errorf("%w: depth %v (want 8U, 16U, 16S or 32F)", ErrBadType, d)
	}
	if !ValidChannels(cn) {
		return fmt.Errorf("%w: %d channels (want 1 to 4)", ErrBadType, cn)
	}
	return nil
}

// MaxDim is the largest number of rows or columns an image may have.
const MaxDim = 1 << 30

// Create makes s a rows x cols image of depth d and cn channels on dev. Like
// OpenCV's Mat::create it keeps the memory (a view stays a view) when s already has
// that size and type, and otherwise releases it and allocates anew.
func (s *State) Create(dev Backend, rows, cols int, d Depth, cn int) error {
	if err := s.CheckDst(dev); err != nil {
		return err
	}
	if err := CheckType(d, cn); err != nil {
		return err
	}
	if rows < 0 || cols < 0 || rows > MaxDim || cols > MaxDim {
		return fmt.Errorf("invalid image size %dx%d (rows x cols)", rows, cols)
	}
	if s.Buf != nil && s.Rows == rows && s.Cols == cols && s.Depth == d && s.Chans == cn {
		return nil
	}
	s.Release()
	lay := Layout{Rows: rows, Cols: cols, Depth: d, Chans: cn, WholeRows: rows, WholeCols: cols}
	rowBytes := cols * lay.ElemSize()
	a := dev.PitchAlign()
	lay.Pitch = (rowBytes + a - 1) / a * a
	if lay.Pitch > math.MaxInt32 {
		return fmt.Errorf("invalid image size: a row of %d bytes is too long", rowBytes)
	}
	if rows > 0 && lay.Pitch > math.MaxInt/rows {
		return fmt.Errorf("invalid image size %dx%d: too many bytes", rows, cols)
	}
	s.Dev, s.Layout = dev, lay
	if lay.Empty() {
		return nil
	}
	buf, err := dev.Alloc(lay.Pitch * rows)
	if err != nil {
		return err
	}
	s.Buf = buf
	return nil
}

// Release drops the image's memory reference; the image stays usable as an output.
func (s *State) Release() {
	if s.Buf != nil {
		s.Buf.Release()
		s.Buf = nil
	}
	s.Layout = Layout{}
}

// Ptr is the device address of pixel (0,0).
func (s *State) Ptr() uintptr { return s.Buf.Ptr + uintptr(s.Off) }

// SameSize reports whether a and b have the same rows and cols.
func SameSize(a, b *State) bool { return a.Rows == b.Rows && a.Cols == b.Cols }

// Touch records work queued on a user stream (nil: the synchronous one) on every image.
func Touch(s Stream, imgs ...*State) {
	if s == nil {
		return
	}
	for _, im := range imgs {
		if im.Buf != nil {
			im.Buf.Touch(s)
		}
	}
}

// Grid returns the launch grid for n threads across each of rows rows (blocks of
// bx threads in x; at most 65535 rows, the kernels loop over the rest).
func Grid(n, rows, bx int) [3]int {
	return [3]int{max(1, (n+bx-1)/bx), max(1, min(rows, 65535)), 1}
}

// Option changes how a call runs: gpuimage.Option is an alias of it, made by
// gpuimage.OnStream and gpuimage.BorderValue.
type Option struct {
	stream Stream
	dev    Backend
	border *[4]float64
}

// OnStream is the option that queues a call's work on s, a stream of dev.
func OnStream(s Stream, dev Backend) Option { return Option{stream: s, dev: dev} }

// WithBorderValue is the option that sets BORDER_CONSTANT's value.
func WithBorderValue(v [4]float64) Option { return Option{border: &v} }

// BorderValueOf returns the border value set in opts (the last one), zeros when none is.
func BorderValueOf(opts []Option) [4]float64 {
	var v [4]float64
	for _, o := range opts {
		if o.border != nil {
			v = *o.border
		}
	}
	return v
}

// Run runs fn, which queues work for dev on the stream it is given. With a stream in
// opts the work stays queued there and the images are marked as used on it;
// otherwise it runs on the device's synchronous stream and Run waits.
func Run(dev Backend, opts []Option, imgs []*State, fn func(s Stream) error) error {
	if s, sdev := StreamDevOf(opts); s != nil {
		if sdev != dev {
			return fmt.Errorf("%w: stream on %s, images on %s", ErrDeviceMismatch, sdev.Name(), dev.Name())
		}
		Touch(s, imgs...)
		return fn(s)
	}
	s := dev.DefaultStream()
	if err := fn(s); err != nil {
		return err
	}
	return s.Sync()
}

// StreamOf returns the stream named in opts (the first), or nil.
func StreamOf(opts []Option) Stream {
	s, _ := StreamDevOf(opts)
	return s
}

// StreamDevOf returns the stream named in opts (the first) and its device, or nils.
func StreamDevOf(opts []Option) (Stream, Backend) {
	for _, o := range opts {
		if o.stream != nil {
			return o.stream, o.dev
		}
	}
	return nil, nil
}

var devInfos sync.Map // Backend -> Info

// cachedInfo is dev.Info() from its first successful call (the fixed fields only
// are read from it).
func cachedInfo(dev Backend) (Info, bool) {
	if in, ok := devInfos.Load(dev); ok {
		return in.(Info), true
	}
	in, err := dev.Info()
	if err != nil {
		return in, false
	}
	devInfos.Store(dev, in)
	return in, true
}

// MultiProcessors is dev's SM count (cached per device; 132 when the device will not
// say), for sizing grids that should fill the GPU once.
func MultiProcessors(dev Backend) int {
	if in, ok := cachedInfo(dev); ok && in.MultiProcessors > 0 {
		return in.MultiProcessors
	}
	return 132
}

// Preparer is a Backend whose first operation waits for a start-up (CUDA: loading
// the kernel module) that Prepare does ahead of time.
type Preparer interface {
	Prepare() error
}

// Occupier is a Backend that can say how many blocks of one of its kernels fit on a
// multiprocessor at once (CUDA: cuOccupancyMaxActiveBlocksPerMultiprocessor).
type Occupier interface {
	BlocksPerSM(kernel string, block, shmem int) (int, error)
}

// BlocksPerSM is how many blocks of block threads and shmem bytes of dynamic
// shared memory of the named kernel fit on one of dev's multiprocessors at once,
// for grids that should fill the GPU exactly once; def when the device will not
// say.
func BlocksPerSM(dev Backend, kernel string, block, shmem, def int) int {
	if o, ok := dev.(Occupier); ok {
		if n, err := o.BlocksPerSM(kernel, block, shmem); err == nil && n > 0 {
			return n
		}
	}
	return def
}

// MaxSharedOptin is the most shared memory a block on dev may ask for (0 when the
// device will not say).
func MaxSharedOptin(dev Backend) int {
	in, _ := cachedInfo(dev)
	return in.MaxSharedOptin
}

// ComputeCapability is dev's compute capability, major and minor (cached per device;
// 0, 0 when the device will not say).
func ComputeCapability(dev Backend) (int, int) {
	in, _ := cachedInfo(dev)
	return in.ComputeCapability[0], in.ComputeCapability[1]
}

// Overlaps reports whether a and b are images whose pixel bytes may share memory:
// the same buffer and intersecting byte ranges (views of one parent side by side in
// the same rows count as overlapping: conservative, never wrong).
func Overlaps(a, b *State) bool {
	if a == nil || b == nil || a.Buf == nil || a.Buf != b.Buf || a.Empty() || b.Empty() {
		return false
	}
	end := func(s *State) int { return s.Off + (s.Rows-1)*s.Pitch + s.RowBytes() }
	return a.Off < end(b) && b.Off < end(a)
}

// PartlyOverlaps reports whether a and b share pixel memory without being the same
// view: an element-by-element operation may write an input in place, but not an
// output shifted against it.
func PartlyOverlaps(a, b *State) bool {
	return Overlaps(a, b) && (a.Off != b.Off || a.Pitch != b.Pitch || a.Rows != b.Rows || a.RowBytes() != b.RowBytes())
}

// SameView reports whether a and b are the same pixels of the same buffer.
func SameView(a, b *State) bool {
	return a.Buf != nil && a.Buf == b.Buf && a.Layout == b.Layout
}
