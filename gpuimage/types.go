package gpuimage

import (
	"fmt"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Depth is the type of each element of an image, numbered as OpenCV's CV_8U ...
// (one type, shared with the packages below gpuimage). Size gives its bytes per
// element, Valid whether gpuimg supports it.
type Depth = core.Depth

// The supported depths (OpenCV's CV_8U, CV_16U, CV_16S, CV_32F).
const (
	Depth8U  = core.Depth8U
	Depth16U = core.Depth16U
	Depth16S = core.Depth16S
	Depth32F = core.Depth32F
)

// MatType is a depth and a channel count, encoded as OpenCV (and gocv) encode
// CV_8UC3 and friends: depth + (channels-1)*8.
type MatType int

// The image types gpuimg supports, named as gocv names them.
const (
	CV8UC1  MatType = 0
	CV8UC2  MatType = 8
	CV8UC3  MatType = 16
	CV8UC4  MatType = 24
	CV16UC1 MatType = 2
	CV16UC2 MatType = 10
	CV16UC3 MatType = 18
	CV16UC4 MatType = 26
	CV16SC1 MatType = 3
	CV16SC2 MatType = 11
	CV16SC3 MatType = 19
	CV16SC4 MatType = 27
	CV32FC1 MatType = 5
	CV32FC2 MatType = 13 // complex numbers (re, im), as DFT spectra
	CV32FC3 MatType = 21
	CV32FC4 MatType = 29
)

// MakeType returns the type of depth d with cn channels, as OpenCV's CV_MAKETYPE.
func MakeType(d Depth, cn int) MatType { return MatType(int(d) + (cn-1)<<3) }

// Depth returns the element depth of t.
func (t MatType) Depth() Depth { return Depth(t & 7) }

// Channels returns the number of channels of t.
func (t MatType) Channels() int { return int(t>>3) + 1 }

func (t MatType) String() string { return fmt.Sprintf("CV_%vC%d", t.Depth(), t.Channels()) }

// Scalar is up to four channel values, as gocv's Scalar.
type Scalar struct {
	Val1, Val2, Val3, Val4 float64
}

// NewScalar returns a Scalar with the given channel values.
func NewScalar(v1, v2, v3, v4 float64) Scalar { return Scalar{v1, v2, v3, v4} }

func (s Scalar) array() [4]float64 { return [4]float64{s.Val1, s.Val2, s.Val3, s.Val4} }

// Errors returned (wrapped, with the call's name) for bad input; test with errors.Is.
var (
	ErrClosed         = core.ErrClosed
	ErrNil            = core.ErrNil
	ErrEmpty          = core.ErrEmpty
	ErrDeviceMismatch = core.ErrDeviceMismatch
	ErrSizeMismatch   = core.ErrSizeMismatch
	ErrTypeMismatch   = core.ErrTypeMismatch
	ErrBadType        = core.ErrBadType
)

// OutOfMemoryError reports an allocation a device could not satisfy, with the bytes
// asked for.
type OutOfMemoryError = core.OutOfMemoryError

// BorderType says how pixels outside an image are made up when an operation reads
// past its edges, numbered as OpenCV's cv::BorderTypes (and gocv's BorderType).
type BorderType int

// Border types. BorderIsolated may be or-ed with any of the others.
const (
	BorderConstant   BorderType = 0 // iiiiii|abcdefgh|iiiiiii, i from the BorderValue option (default 0)
	BorderReplicate  BorderType = 1 // aaaaaa|abcdefgh|hhhhhhh
	BorderReflect    BorderType = 2 // fedcba|abcdefgh|hgfedcb
	BorderWrap       BorderType = 3 // cdefgh|abcdefgh|abcdefg
	BorderReflect101 BorderType = 4 // gfedcb|abcdefgh|gfedcba
	BorderDefault    BorderType = BorderReflect101
	BorderIsolated   BorderType = 16 // do not look outside a view into its parent image
)

func (b BorderType) String() string {
	names := []string{"BORDER_CONSTANT", "BORDER_REPLICATE", "BORDER_REFLECT", "BORDER_WRAP", "BORDER_REFLECT_101"}
	base := b &^ BorderIsolated
	s := fmt.Sprintf("BorderType(%d)", int(base))
	if base >= 0 && int(base) < len(names) {
		s = names[base]
	}
	if b&BorderIsolated != 0 {
		s += "|BORDER_ISOLATED"
	}
	return s
}
