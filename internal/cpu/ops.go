package cpu

import (
	"math"
	"unsafe"

	"github.com/gpuimg/gpuimg/internal/core"
)

// View is an image's pixels in host memory: Buf holds the whole buffer and Layout
// says where the pixels are in it.
type View struct {
	Buf []byte
	core.Layout
}

// Elem is the Go type of one element of a supported depth.
type Elem interface {
	~uint8 | ~uint16 | ~int16 | ~float32
}

// Row returns row y of v as a slice of T (Cols*Chans elements).
func Row[T Elem](v View, y int) []T {
	n := v.Cols * v.Chans
	if n == 0 {
		return nil
	}
	off := v.Off + y*v.Pitch
	return unsafe.Slice((*T)(unsafe.Pointer(&v.Buf[off])), n)
}

// Saturate converts f to T as OpenCV's saturate_cast does: round half to even
// (cvRound), then clamp to T's range; NaN becomes 0. Float32 passes through.
func Saturate[T Elem](f float32) T {
	var z T
	switch any(z).(type) {
	case float32:
		return T(f)
	case uint8:
		return T(clampRound(f, 0, math.MaxUint8))
	case uint16:
		return T(clampRound(f, 0, math.MaxUint16))
	case int16:
		return T(int16(clampRound(f, math.MinInt16, math.MaxInt16)))
	}
	panic("unreachable")
}

func clampRound(f float32, lo, hi float64) int64 {
	if f != f {
		return 0
	}
	r := math.RoundToEven(float64(f))
	if r < lo {
		r = lo
	} else if r > hi {
		r = hi
	}
	return int64(r)
}

// MaxValue is the value OpenCV gives an opaque alpha channel of depth d.
func MaxValue(d core.Depth) float32 {
	switch d {
	case core.Depth8U:
		return math.MaxUint8
	case core.Depth16U:
		return math.MaxUint16
	case core.Depth16S:
		return math.MaxInt16
	}
	return 1
}

// ConvertTo computes dst = saturate(src*alpha + beta) element by element, in float32
// as OpenCV does for these depths. src and dst have the same size and channels.
func ConvertTo(dst, src View, alpha, beta float32) {
	switch src.Depth {
	case core.Depth8U:
		convertFrom[uint8](dst, src, alpha, beta)
	case core.Depth16U:
		convertFrom[uint16](dst, src, alpha, beta)
	case core.Depth16S:
		convertFrom[int16](dst, src, alpha, beta)
	case core.Depth32F:
		convertFrom[float32](dst, src, alpha, beta)
	}
}

func convertFrom[S Elem](dst, src View, a, b float32) {
	switch dst.Depth {
	case core.Depth8U:
		convert[S, uint8](dst, src, a, b)
	case core.Depth16U:
		convert[S, uint16](dst, src, a, b)
	case core.Depth16S:
		convert[S, int16](dst, src, a, b)
	case core.Depth32F:
		convert[S, float32](dst, src, a, b)
	}
}

func convert[S, D Elem](dst, src View, a, b float32) {
	fa, fb := float64(a), float64(b)
	ParallelRows(src.Rows, src.RowBytes()+dst.RowBytes(), func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			s, d := Row[S](src, y), Row[D](dst, y)
			for i, v := range s {
				d[i] = Saturate[D](float32(math.FMA(float64(v), fa, fb)))
			}
		}
	})
}

// SetTo sets every pixel of dst to the scalar, each channel saturated to the depth.
func SetTo(dst View, val [4]float64) {
	px := make([]byte, dst.ElemSize())
	pv := View{Buf: px, Layout: core.Layout{Rows: 1, Cols: 1, Depth: dst.Depth, Chans: dst.Chans, Pitch: len(px)}}
	switch dst.Depth {
	case core.Depth8U:
		setPixel[uint8](pv, val)
	case core.Depth16U:
		setPixel[uint16](pv, val)
	case core.Depth16S:
		setPixel[int16](pv, val)
	case core.Depth32F:
		setPixel[float32](pv, val)
	}
	ParallelRows(dst.Rows, dst.RowBytes(), func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			row := dst.Buf[dst.Off+y*dst.Pitch : dst.Off+y*dst.Pitch+dst.RowBytes()]
			for i := 0; i < len(row); i += len(px) {
				copy(row[i:], px)
			}
		}
	})
}

func setPixel[T Elem](pv View, val [4]float64) {
	p := Row[T](pv, 0)
	for c := range p {
		p[c] = saturate64[T](val[c])
	}
}

// saturate64 is Saturate for a float64 value, as OpenCV converts a Scalar.
func saturate64[T Elem](f float64) T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(float32(f))
	}
	if f != f {
		return 0
	}
	r := math.RoundToEven(f)
	switch any(z).(type) {
	case uint8:
		return T(math.Max(0, math.Min(r, math.MaxUint8)))
	case uint16:
		return T(math.Max(0, math.Min(r, math.MaxUint16)))
	}
	return T(int16(math.Max(math.MinInt16, math.Min(r, math.MaxInt16))))
}

// Shuffle builds each dst channel c from src channel m[c], or from fill where m[c] < 0.
// src and dst have the same size and depth.
func Shuffle(dst, src View, m [4]int, fill float32) {
	switch src.Depth {
	case core.Depth8U:
		shuffle[uint8](dst, src, m, fill)
	case core.Depth16U:
		shuffle[uint16](dst, src, m, fill)
	case core.Depth16S:
		shuffle[int16](dst, src, m, fill)
	case core.Depth32F:
		shuffle[float32](dst, src, m, fill)
	}
}

func shuffle[T Elem](dst, src View, m [4]int, fill float32) {
	f := Saturate[T](fill)
	scn, dcn := src.Chans, dst.Chans
	ParallelRows(src.Rows, src.RowBytes()+dst.RowBytes(), func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			s, d := Row[T](src, y), Row[T](dst, y)
			for x := 0; x < src.Cols; x++ {
				for c := 0; c < dcn; c++ {
					if m[c] >= 0 {
						d[x*dcn+c] = s[x*scn+m[c]]
					} else {
						d[x*dcn+c] = f
					}
				}
			}
		}
	})
}

// Merge interleaves single-channel srcs into dst, which has len(srcs) channels.
func Merge(dst View, srcs []View) {
	switch dst.Depth {
	case core.Depth8U:
		merge[uint8](dst, srcs)
	case core.Depth16U:
		merge[uint16](dst, srcs)
	case core.Depth16S:
		merge[int16](dst, srcs)
	case core.Depth32F:
		merge[float32](dst, srcs)
	}
}

func merge[T Elem](dst View, srcs []View) {
	cn := dst.Chans
	ParallelRows(dst.Rows, 2*dst.RowBytes(), func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			d := Row[T](dst, y)
			for c, sv := range srcs {
				s := Row[T](sv, y)
				for x, v := range s {
					d[x*cn+c] = v
				}
			}
		}
	})
}

// ScalarValue is v saturated to depth d as OpenCV converts a Scalar for that depth,
// returned as a float32 (exact for the integer depths).
func ScalarValue(d core.Depth, v float64) float32 {
	switch d {
	case core.Depth8U:
		return float32(saturate64[uint8](v))
	case core.Depth16U:
		return float32(saturate64[uint16](v))
	case core.Depth16S:
		return float32(saturate64[int16](v))
	}
	return float32(v)
}

// HostView is the host view of an image state on the CPU device.
func HostView(s *core.State) View { return View{Buf: s.Buf.Host, Layout: s.Layout} }

// BorderMap maps coordinate p of a line of n pixels to the pixel that stands in for
// it under border rule b (OpenCV's borderInterpolate, b numbered as cv::BorderTypes
// without BORDER_ISOLATED); -1 means the constant value. The CUDA kernels use the same
// function (bmap in kernels/border.cuh).
func BorderMap(p, n, b int) int {
	const (
		replicate  = 1
		reflect    = 2
		wrap       = 3
		reflect101 = 4
	)
	if p >= 0 && p < n {
		return p
	}
	switch b {
	case replicate:
		if p < 0 {
			return 0
		}
		return n - 1
	case reflect, reflect101:
		if n == 1 {
			return 0
		}
		delta := 0
		if b == reflect101 {
			delta = 1
		}
		for p < 0 || p >= n {
			if p < 0 {
				p = -p - 1 + delta
			} else {
				p = n - 1 - (p - n) - delta
			}
		}
		return p
	case wrap:
		if p < 0 {
			p -= ((p - n + 1) / n) * n
		}
		if p >= n {
			p %= n
		}
		return p
	}
	return -1
}

// ReadElem reads the element of depth d at byte offset off of a host buffer (in the
// host's byte order, as Row does).
func ReadElem(b []byte, off int, d core.Depth) float32 {
	p := unsafe.Pointer(&b[off])
	switch d {
	case core.Depth8U:
		return float32(*(*uint8)(p))
	case core.Depth16U:
		return float32(*(*uint16)(p))
	case core.Depth16S:
		return float32(*(*int16)(p))
	}
	return *(*float32)(p)
}

// WriteElem stores v at byte offset off, rounded and saturated to depth d as Saturate.
func WriteElem(b []byte, off int, d core.Depth, v float32) {
	p := unsafe.Pointer(&b[off])
	switch d {
	case core.Depth8U:
		*(*uint8)(p) = Saturate[uint8](v)
	case core.Depth16U:
		*(*uint16)(p) = Saturate[uint16](v)
	case core.Depth16S:
		*(*int16)(p) = Saturate[int16](v)
	default:
		*(*float32)(p) = v
	}
}
