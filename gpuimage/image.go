package gpuimage

import (
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Image is a 2-D image of one type whose pixels live on one device. Rows are
// pitched: each starts at an aligned address (256 bytes on CUDA) so that kernels
// read and write them in whole memory transactions.
//
// The zero Image is empty and may be used as the output of any call, which then
// allocates it on the input's device, as gocv allocates an empty Mat. An Image is
// not safe for concurrent use while one of the calls is changing it.
//
// Region views share memory with their parent, as OpenCV's ROIs do; the memory is
// freed when the last image using it is closed.
//
// (Image is defined on internal/core's handle, so that the operation packages reach
// its state typed, without hooks.)
type Image core.Image

// state is the image's state, nil for a nil image.
func (im *Image) state() *core.State { return core.StateOf(im) }

// layout is the image's layout, zero for a nil image.
func (im *Image) layout() core.Layout {
	if im == nil {
		return core.Layout{}
	}
	return im.state().Layout
}

func opError(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("gpuimage: %s: %w", op, err)
}

// New returns a rows x cols image of type t on dev. Its pixels are not set.
func New(dev *Device, rows, cols int, t MatType) (*Image, error) {
	if dev == nil {
		return nil, opError("New", fmt.Errorf("nil device"))
	}
	if rows <= 0 || cols <= 0 {
		return nil, opError("New", fmt.Errorf("%w: %dx%d (rows x cols)", ErrEmpty, rows, cols))
	}
	im := &Image{}
	if err := im.state().Create(dev.b, rows, cols, core.Depth(t.Depth()), t.Channels()); err != nil {
		return nil, opError("New", err)
	}
	return im, nil
}

// NewLike returns an image of the same size, type and device as im, pixels unset.
func NewLike(im *Image) (*Image, error) {
	if err := im.state().Check(); err != nil {
		return nil, opError("NewLike", err)
	}
	return New(im.Device(), im.Rows(), im.Cols(), im.Type())
}

// Close releases the image's reference to its memory. Closing twice does nothing;
// any other use of a closed image returns ErrClosed.
func (im *Image) Close() error {
	if im == nil || im.state().Closed {
		return nil
	}
	s := im.state()
	s.Release()
	s.Closed = true
	return nil
}

// Device returns the device the image lives on (nil for an empty zero Image).
func (im *Image) Device() *Device {
	if im == nil {
		return nil
	}
	return deviceOf(im.state().Dev)
}

// Rows is the image height.
func (im *Image) Rows() int { return im.layout().Rows }

// Cols is the image width.
func (im *Image) Cols() int { return im.layout().Cols }

// Type is the image's depth and channel count.
func (im *Image) Type() MatType { l := im.layout(); return MakeType(Depth(l.Depth), max(l.Chans, 1)) }

// Depth is the element depth.
func (im *Image) Depth() Depth { return Depth(im.layout().Depth) }

// Channels is the number of channels.
func (im *Image) Channels() int { return im.layout().Chans }

// ElemSize is the size of one pixel in bytes.
func (im *Image) ElemSize() int { return im.layout().ElemSize() }

// Pitch is the number of bytes from one row to the next (OpenCV's step).
func (im *Image) Pitch() int { return im.layout().Pitch }

// Bounds is the rectangle (0,0)-(Cols,Rows).
func (im *Image) Bounds() image.Rectangle { l := im.layout(); return image.Rect(0, 0, l.Cols, l.Rows) }

// Empty reports whether the image has no pixels (a zero, closed or 0x0 image).
func (im *Image) Empty() bool { return im == nil || im.state().Buf == nil || im.state().Empty() }

// Closed reports whether Close was called.
func (im *Image) Closed() bool { return im != nil && im.state().Closed }

func (im *Image) String() string {
	if im == nil {
		return "Image(nil)"
	}
	s := im.state()
	if s.Closed {
		return "Image(closed)"
	}
	if s.Buf == nil {
		return "Image(empty)"
	}
	return fmt.Sprintf("Image(%dx%d %v on %s)", s.Rows, s.Cols, im.Type(), s.Dev.Name())
}

// Region returns a view of the pixels of r (in im's coordinates) sharing im's
// memory: writes to either show in both. Close the view when done with it.
func (im *Image) Region(r image.Rectangle) (*Image, error) {
	if err := im.state().Check(); err != nil {
		return nil, opError("Region", err)
	}
	if r.Empty() || !r.In(im.Bounds()) {
		return nil, opError("Region", fmt.Errorf("rectangle %v is empty or outside the image bounds %v", r, im.Bounds()))
	}
	v := &Image{}
	vs, s := v.state(), im.state()
	*vs = *s
	vs.Rows, vs.Cols = r.Dy(), r.Dx()
	vs.Off += r.Min.Y*s.Pitch + r.Min.X*s.ElemSize()
	vs.Buf.Retain()
	return v, nil
}

// copyAcross copies s into d, an image on another device, reallocating d there
// when its size or type differ.
func copyAcross(d, s *core.State) error {
	if err := d.Create(d.Dev, s.Rows, s.Cols, s.Depth, s.Chans); err != nil {
		return err
	}
	if s.Rows == 0 || s.Cols == 0 {
		return nil
	}
	if err := s.Dev.DefaultStream().Sync(); err != nil {
		return err
	}
	c := core.Copy{DstOff: d.Off, DstPitch: d.Pitch, SrcOff: s.Off, SrcPitch: s.Pitch, Width: s.RowBytes(), Rows: s.Rows}
	if s.Dev.IsCPU() != d.Dev.IsCPU() { // a transfer, by the GPU's side
		gpu := s.Dev
		c.Dst, c.DstHost, c.Src, c.SrcHost = d.Buf, nil, s.Buf, nil
		if s.Dev.IsCPU() {
			c.SrcHost, c.Src = s.Buf.Host, nil
			gpu = d.Dev
		} else {
			c.DstHost, c.Dst = d.Buf.Host, nil
		}
		if err := gpu.Copy2D(c, gpu.DefaultStream()); err != nil {
			return err
		}
		return gpu.DefaultStream().Sync()
	}
	pc, ok := d.Dev.(core.PeerCopier)
	if !ok {
		return fmt.Errorf("%w: %s cannot copy from %s", ErrDeviceMismatch, d.Dev.Name(), s.Dev.Name())
	}
	c.Dst, c.Src = d.Buf, s.Buf
	return pc.CopyPeer(c, s.Dev)
}

// Clone returns a copy of the image with its own memory.
func (im *Image) Clone(opts ...Option) (*Image, error) {
	out := &Image{}
	if err := im.CopyTo(out, opts...); err != nil {
		return nil, opError("Clone", err)
	}
	return out, nil
}

// CopyTo copies the pixels to dst, which is (re)allocated as im's size and type
// unless it already is (then a view dst keeps writing into its parent). An empty
// dst is allocated on im's device. A dst already on another device stays there and
// gets the pixels across devices: from one GPU to another peer to peer where they
// can reach each other (through host memory otherwise), between a GPU and the CPU
// device by a transfer. Such a copy is synchronous whatever the options: it starts
// after the work on im's device's default stream (work queued on streams must be
// finished first) and returns when the pixels are in dst.
func (im *Image) CopyTo(dst *Image, opts ...Option) error {
	s := im.state()
	if err := s.Check(); err != nil {
		return opError("CopyTo", err)
	}
	d := dst.state()
	if d == nil {
		return opError("CopyTo", ErrNil)
	}
	if d.Dev != nil && d.Dev != s.Dev && !d.Closed {
		return opError("CopyTo", copyAcross(d, s))
	}
	if core.Overlaps(s, d) && !core.SameView(s, d) {
		// Overlapping views of one parent: a 2-D copy between them is undefined, so
		// the pixels go through a new image.
		tmp := &Image{}
		defer tmp.Close()
		if err := im.CopyTo(tmp, opts...); err != nil {
			return err
		}
		return tmp.CopyTo(dst, opts...)
	}
	if err := d.Create(s.Dev, s.Rows, s.Cols, s.Depth, s.Chans); err != nil {
		return opError("CopyTo", err)
	}
	if d.Buf == s.Buf && d.Off == s.Off {
		return nil
	}
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(st core.Stream) error {
		return s.Dev.Copy2D(core.Copy{Dst: d.Buf, DstOff: d.Off, DstPitch: d.Pitch,
			Src: s.Buf, SrcOff: s.Off, SrcPitch: s.Pitch, Width: s.RowBytes(), Rows: s.Rows}, st)
	})
	return opError("CopyTo", err)
}
