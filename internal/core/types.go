// Package core holds what gpuimage and the operation packages share but users
// never see: pixel layouts, device buffers with their owners, and the backend
// interface that the CPU and CUDA devices implement.
package core

import "fmt"

// Depth is the element type of an image, numbered as OpenCV's CV_8U... constants.
type Depth int

// The depths gpuimg supports, with OpenCV's numbers.
const (
	Depth8U  Depth = 0
	Depth16U Depth = 2
	Depth16S Depth = 3
	Depth32F Depth = 5
)

// Size is the number of bytes one element of depth d takes, 0 for an unknown depth.
func (d Depth) Size() int {
	switch d {
	case Depth8U:
		return 1
	case Depth16U, Depth16S:
		return 2
	case Depth32F:
		return 4
	}
	return 0
}

// Valid reports whether d is one of the supported depths.
func (d Depth) Valid() bool { return d.Size() != 0 }

func (d Depth) String() string {
	switch d {
	case Depth8U:
		return "8U"
	case Depth16U:
		return "16U"
	case Depth16S:
		return "16S"
	case Depth32F:
		return "32F"
	case 1, 4, 6, 7: // OpenCV's other depths, which images here do not have
		return [...]string{1: "8S", 4: "32S", 6: "64F", 7: "16F"}[d]
	}
	return fmt.Sprintf("Depth(%d)", int(d))
}

// ValidChannels reports whether an image may have cn channels: 1 to 4 (two channels
// hold complex numbers, as OpenCV's CV_32FC2 spectra).
func ValidChannels(cn int) bool { return cn >= 1 && cn <= 4 }

// Layout describes the pixels of a 2-D image or view in a buffer: the first pixel is
// Off bytes into the buffer, and row y starts Pitch bytes after row y-1.
type Layout struct {
	Rows, Cols int
	Depth      Depth
	Chans      int
	Off        int // byte offset of pixel (0,0) in the buffer
	Pitch      int // bytes from one row to the next

	// WholeRows and WholeCols are the size of the image this one is a view of (its
	// own size when it is not a view), as OpenCV's Mat::locateROI reports.
	WholeRows, WholeCols int

	// Lead is the number of bytes before the whole image's pixel (0,0) that belong
	// to no pixel (fftfilter lays CCS spectra out so that cuFFT can write them in
	// place); Ofs does not count them.
	Lead int
}

// Ofs is the position of pixel (0,0) in the whole image (OpenCV's locateROI ofs):
// the whole image starts Lead bytes into the buffer.
func (l Layout) Ofs() (x, y int) {
	if l.Pitch == 0 || l.ElemSize() == 0 {
		return 0, 0
	}
	off := l.Off - l.Lead
	return off % l.Pitch / l.ElemSize(), off / l.Pitch
}

// ElemSize is the size in bytes of one pixel.
func (l Layout) ElemSize() int { return l.Depth.Size() * l.Chans }

// RowBytes is the number of bytes of pixel data in one row (without padding).
func (l Layout) RowBytes() int { return l.Cols * l.ElemSize() }

// Empty reports whether the layout holds no pixels.
func (l Layout) Empty() bool { return l.Rows == 0 || l.Cols == 0 }

// Packed reports whether the rows follow each other with no padding.
func (l Layout) Packed() bool { return l.Rows <= 1 || l.Pitch == l.RowBytes() }

// FilterDepth applies OpenCV's output-depth rules for linear filters (no 64F): dd < 0
// means sd; 8U gives 8U, 16U, 16S or 32F; 16U and 16S give themselves or 32F; 32F
// gives 32F.
func FilterDepth(sd Depth, dd int) (Depth, bool) {
	if dd < 0 {
		return sd, true
	}
	d := Depth(dd)
	ok := d == sd || d == Depth32F
	if sd == Depth8U {
		ok = ok || d == Depth16U || d == Depth16S
	}
	return d, ok && d.Valid()
}

// FilterDepths lists the output depths FilterDepth allows for sd.
func FilterDepths(sd Depth) string {
	switch sd {
	case Depth8U:
		return "8U, 16U, 16S, 32F"
	case Depth32F:
		return "32F"
	}
	return sd.String() + ", 32F"
}

// BorderGeometry is the image that border rules apply to, as OpenCV's locateROI
// finds it: the whole image a view belongs to and the view's offset in it, or the
// view itself when isolated.
func (l Layout) BorderGeometry(isolated bool) (wrows, wcols, ox, oy int) {
	if isolated {
		return l.Rows, l.Cols, 0, 0
	}
	ox, oy = l.Ofs()
	return max(l.WholeRows, oy+l.Rows), max(l.WholeCols, ox+l.Cols), ox, oy
}
