package gpuimage

import (
	"errors"
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// SetTo sets every pixel to s (channel values beyond the image's channels are
// ignored), each saturated to the depth as OpenCV's Mat::setTo.
func (im *Image) SetTo(s Scalar, opts ...Option) error {
	st := im.state()
	if err := st.Check(); err != nil {
		return opError("SetTo", err)
	}
	v := s.array()
	err := core.Run(st.Dev, opts, []*core.State{st}, func(str core.Stream) error {
		if st.Dev.IsCPU() {
			cpu.SetTo(cpu.HostView(st), v)
			return nil
		}
		n := st.Cols * st.Chans
		return st.Dev.Launch(str, "gi_setto_"+core.KernelSuffix(st.Depth), core.Grid((n+3)/4, st.Rows, 256), [3]int{256, 1, 1}, 0,
			core.Struct(&setToParams{Dst: st.Ptr(), Dp: int32(st.Pitch), Rows: int32(st.Rows), N: int32(n), Cn: int32(st.Chans),
				V: [4]float32{cpu.ScalarValue(st.Depth, v[0]), cpu.ScalarValue(st.Depth, v[1]), cpu.ScalarValue(st.Depth, v[2]), cpu.ScalarValue(st.Depth, v[3])}}))
	})
	return opError("SetTo", err)
}

// ConvertTo writes saturate(pixel*alpha + beta) to dst with depth d (a negative d
// keeps im's depth), computed in float32 and rounded half to even, as OpenCV's
// convertTo. dst is (re)allocated as needed and may be im itself.
func (im *Image) ConvertTo(dst *Image, d Depth, alpha, beta float64, opts ...Option) error {
	s := im.state()
	if err := s.Check(); err != nil {
		return opError("ConvertTo", err)
	}
	if d < 0 {
		d = Depth(s.Depth)
	}
	if !core.Depth(d).Valid() {
		return opError("ConvertTo", fmt.Errorf("%w: depth %v (want 8U, 16U, 16S or 32F)", ErrBadType, d))
	}
	return opError("ConvertTo", intoDst(im, dst, func(out *core.State) error {
		if err := out.Create(s.Dev, s.Rows, s.Cols, core.Depth(d), s.Chans); err != nil {
			return err
		}
		a, b := float32(alpha), float32(beta)
		return core.Run(s.Dev, opts, []*core.State{s, out}, func(str core.Stream) error {
			if s.Dev.IsCPU() {
				cpu.ConvertTo(cpu.HostView(out), cpu.HostView(s), a, b)
				return nil
			}
			vec := "s"
			if s.Aligned(8*s.Depth.Size()) && out.Aligned(8*out.Depth.Size()) {
				vec = "v"
			}
			n := s.Cols * s.Chans
			name := "gi_convert_" + core.KernelSuffix(s.Depth) + "_" + core.KernelSuffix(out.Depth) + "_" + vec
			return s.Dev.Launch(str, name, core.Grid((n+7)/8, s.Rows, 256), [3]int{256, 1, 1}, 0,
				core.Struct(&convertParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: out.Ptr(), Dp: int32(out.Pitch), Rows: int32(s.Rows), N: int32(n), A: a, B: b}))
		})
	}, opts...))
}

// intoDst runs fn on dst's state, or, when dst shares memory with src (src itself
// or an overlapping view of one parent), on a new image: when dst is src it then
// replaces dst's contents, else it is copied into dst (a view of the right size and
// type keeps writing into its parent).
func intoDst(src, dst *Image, fn func(out *core.State) error, opts ...Option) error {
	if dst == nil {
		return ErrNil
	}
	if dst != src && !core.Overlaps(dst.state(), src.state()) {
		return fn(dst.state())
	}
	tmp := &Image{}
	if err := fn(tmp.state()); err != nil {
		tmp.Close()
		return err
	}
	if dst == src {
		dst.state().Release()
		*dst.state() = *tmp.state()
		return nil
	}
	defer tmp.Close()
	return tmp.CopyTo(dst, opts...)
}

// shuffle builds each channel c of dst (dcn channels) from src channel m[c], or from
// fill where m[c] < 0.
func shuffle(op string, src, dst *Image, dcn int, m [4]int, fill float32, opts []Option) error {
	s := src.state()
	if err := s.Check(); err != nil {
		return opError(op, err)
	}
	return opError(op, intoDst(src, dst, func(out *core.State) error {
		if err := out.Create(s.Dev, s.Rows, s.Cols, s.Depth, dcn); err != nil {
			return err
		}
		return core.Run(s.Dev, opts, []*core.State{s, out}, func(str core.Stream) error {
			if s.Dev.IsCPU() {
				cpu.Shuffle(cpu.HostView(out), cpu.HostView(s), m, fill)
				return nil
			}
			var packed uint32
			for c := 3; c >= 0; c-- {
				b := uint32(0xff)
				if m[c] >= 0 {
					b = uint32(m[c])
				}
				packed = packed<<8 | b
			}
			return s.Dev.Launch(str, "gi_shuffle_"+core.KernelSuffix(s.Depth), core.Grid(s.Cols, s.Rows, 128), [3]int{128, 1, 1}, 0,
				core.Struct(&shuffleParams{Src: s.Ptr(), Sp: int32(s.Pitch), Scn: int32(s.Chans), Dst: out.Ptr(), Dp: int32(out.Pitch), Dcn: int32(dcn),
					Rows: int32(s.Rows), Cols: int32(s.Cols), Map: packed, Fill: fill}))
		})
	}, opts...))
}

// AddAlpha writes im (3 channels) to dst with a fourth, opaque channel: 255, 65535,
// 32767 or 1.0 by depth (OpenCV's BGR2BGRA).
func (im *Image) AddAlpha(dst *Image, opts ...Option) error {
	if c := im.Channels(); im.state().Check() == nil && c != 3 {
		return opError("AddAlpha", fmt.Errorf("%w: %d channels (want 3)", ErrBadType, c))
	}
	return shuffle("AddAlpha", im, dst, 4, [4]int{0, 1, 2, -1}, cpu.MaxValue(core.Depth(im.Depth())), opts)
}

// RemoveAlpha writes the first three channels of im (4 channels) to dst.
func (im *Image) RemoveAlpha(dst *Image, opts ...Option) error {
	if c := im.Channels(); im.state().Check() == nil && c != 4 {
		return opError("RemoveAlpha", fmt.Errorf("%w: %d channels (want 4)", ErrBadType, c))
	}
	return shuffle("RemoveAlpha", im, dst, 3, [4]int{0, 1, 2, -1}, 0, opts)
}

// ExtractChannel writes channel c of im to dst, a one-channel image.
func (im *Image) ExtractChannel(dst *Image, c int, opts ...Option) error {
	if n := im.Channels(); im.state().Check() == nil && (c < 0 || c >= n) {
		return opError("ExtractChannel", fmt.Errorf("channel %d of a %d-channel image", c, n))
	}
	return shuffle("ExtractChannel", im, dst, 1, [4]int{c, -1, -1, -1}, 0, opts)
}

// Split returns each channel of im as a one-channel image, as gocv.Split.
func Split(im *Image, opts ...Option) ([]*Image, error) {
	if err := im.state().Check(); err != nil {
		return nil, opError("Split", err)
	}
	out := make([]*Image, im.Channels())
	for c := range out {
		out[c] = &Image{}
		if err := im.ExtractChannel(out[c], c, opts...); err != nil {
			for _, o := range out[:c+1] {
				o.Close()
			}
			return nil, opError("Split", err)
		}
	}
	return out, nil
}

// Merge interleaves one-channel images of one size, depth and device into dst, which
// gets len(srcs) channels (1 to 4), as gocv.Merge.
func Merge(srcs []*Image, dst *Image, opts ...Option) error {
	if len(srcs) == 0 || !core.ValidChannels(len(srcs)) {
		return opError("Merge", fmt.Errorf("%w: %d planes (want 1 to 4)", ErrBadType, len(srcs)))
	}
	states := make([]*core.State, len(srcs))
	views := make([]cpu.View, len(srcs))
	first := srcs[0].state()
	for i, im := range srcs {
		s := im.state()
		if err := s.Check(); err != nil {
			return opError("Merge", fmt.Errorf("plane %d: %w", i, err))
		}
		switch {
		case s.Chans != 1:
			return opError("Merge", fmt.Errorf("%w: plane %d has %d channels", ErrBadType, i, s.Chans))
		case s.Dev != first.Dev:
			return opError("Merge", fmt.Errorf("%w: plane %d", ErrDeviceMismatch, i))
		case !core.SameSize(s, first):
			return opError("Merge", fmt.Errorf("%w: plane %d is %dx%d, plane 0 %dx%d", ErrSizeMismatch, i, s.Rows, s.Cols, first.Rows, first.Cols))
		case s.Depth != first.Depth:
			return opError("Merge", fmt.Errorf("%w: plane %d is %v, plane 0 %v", ErrTypeMismatch, i, s.Depth, first.Depth))
		}
		states[i] = s
	}
	if dst == nil {
		return opError("Merge", ErrNil)
	}
	for _, s := range states {
		if s == dst.state() || core.Overlaps(s, dst.state()) { // merge into a new image, then copy
			tmp := &Image{}
			defer tmp.Close()
			if err := Merge(srcs, tmp, opts...); err != nil {
				return err
			}
			return opError("Merge", tmp.CopyTo(dst, opts...))
		}
	}
	d := dst.state()
	if err := d.Create(first.Dev, first.Rows, first.Cols, first.Depth, len(srcs)); err != nil {
		return opError("Merge", err)
	}
	err := core.Run(first.Dev, opts, append(states, d), func(str core.Stream) error {
		if first.Dev.IsCPU() {
			for i, s := range states {
				views[i] = cpu.HostView(s)
			}
			cpu.Merge(cpu.HostView(d), views)
			return nil
		}
		p := &mergeParams{Dst: d.Ptr(), Dp: int32(d.Pitch), Cn: int32(d.Chans), Rows: int32(d.Rows), Cols: int32(d.Cols)}
		srcs := [4]struct {
			ptr   *uintptr
			pitch *int32
		}{{&p.S0, &p.P0}, {&p.S1, &p.P1}, {&p.S2, &p.P2}, {&p.S3, &p.P3}}
		for i, at := range srcs {
			s := states[min(i, len(states)-1)]
			*at.ptr, *at.pitch = s.Ptr(), int32(s.Pitch)
		}
		return first.Dev.Launch(str, "gi_merge_"+core.KernelSuffix(first.Depth), core.Grid(d.Cols, d.Rows, 128), [3]int{128, 1, 1}, 0, core.Struct(p))
	})
	return opError("Merge", err)
}

// Hconcat places images of one height, type and device side by side into dst, as
// gocv.Hconcat (cv::hconcat) of any number of them: dst gets their columns in
// order. Any of them may be dst itself or share its memory.
func Hconcat(srcs []*Image, dst *Image, opts ...Option) error {
	if len(srcs) == 0 {
		return opError("Hconcat", errors.New("no images"))
	}
	first := srcs[0].state()
	cols := 0
	for i, im := range srcs {
		s := im.state()
		if err := s.Check(); err != nil {
			return opError("Hconcat", fmt.Errorf("image %d: %w", i, err))
		}
		switch {
		case s.Dev != first.Dev:
			return opError("Hconcat", fmt.Errorf("%w: image %d", ErrDeviceMismatch, i))
		case s.Rows != first.Rows:
			return opError("Hconcat", fmt.Errorf("%w: image %d has %d rows, image 0 %d", ErrSizeMismatch, i, s.Rows, first.Rows))
		case s.Depth != first.Depth || s.Chans != first.Chans:
			return opError("Hconcat", fmt.Errorf("%w: image %d is %v, image 0 %v", ErrTypeMismatch, i, im.Type(), srcs[0].Type()))
		}
		cols += s.Cols
	}
	if dst == nil {
		return opError("Hconcat", ErrNil)
	}
	for _, im := range srcs {
		if s := im.state(); s == dst.state() || core.Overlaps(s, dst.state()) { // into a new image, then copy
			tmp := &Image{}
			defer tmp.Close()
			if err := Hconcat(srcs, tmp, opts...); err != nil {
				return err
			}
			return opError("Hconcat", tmp.CopyTo(dst, opts...))
		}
	}
	if err := dst.state().Create(first.Dev, first.Rows, cols, first.Depth, first.Chans); err != nil {
		return opError("Hconcat", err)
	}
	x := 0
	for _, im := range srcs {
		part, err := dst.Region(image.Rect(x, 0, x+im.Cols(), first.Rows))
		if err != nil {
			return opError("Hconcat", err)
		}
		err = im.CopyTo(part, opts...)
		part.Close()
		if err != nil {
			return opError("Hconcat", err)
		}
		x += im.Cols()
	}
	return nil
}
