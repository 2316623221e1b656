package colorconv

import (
	"fmt"
	"strings"
)

// Code is a colour conversion, numbered as OpenCV's COLOR_* constants and named as
// gocv's ColorConversionCode values, so colorconv.Code(gocv.ColorBGRToGray) works.
type Code int

// The supported conversions. RGB-order aliases share their BGR twin's number
// where OpenCV's do.
const (
	ColorBGRToBGRA    Code = 0
	ColorRGBToRGBA    Code = 0
	ColorBGRAToBGR    Code = 1
	ColorRGBAToRGB    Code = 1
	ColorBGRToRGBA    Code = 2
	ColorRGBToBGRA    Code = 2
	ColorRGBAToBGR    Code = 3
	ColorBGRAToRGB    Code = 3
	ColorBGRToRGB     Code = 4
	ColorRGBToBGR     Code = 4
	ColorBGRAToRGBA   Code = 5
	ColorRGBAToBGRA   Code = 5
	ColorBGRToGray    Code = 6
	ColorRGBToGray    Code = 7
	ColorGrayToBGR    Code = 8
	ColorGrayToRGB    Code = 8
	ColorGrayToBGRA   Code = 9
	ColorGrayToRGBA   Code = 9
	ColorBGRAToGray   Code = 10
	ColorRGBAToGray   Code = 11
	ColorBGRToXYZ     Code = 32
	ColorRGBToXYZ     Code = 33
	ColorXYZToBGR     Code = 34
	ColorXYZToRGB     Code = 35
	ColorBGRToYCrCb   Code = 36
	ColorRGBToYCrCb   Code = 37
	ColorYCrCbToBGR   Code = 38
	ColorYCrCbToRGB   Code = 39
	ColorBGRToHSV     Code = 40
	ColorRGBToHSV     Code = 41
	ColorBGRToLab     Code = 44
	ColorRGBToLab     Code = 45
	ColorBGRToLuv     Code = 50
	ColorRGBToLuv     Code = 51
	ColorBGRToHLS     Code = 52
	ColorRGBToHLS     Code = 53
	ColorHSVToBGR     Code = 54
	ColorHSVToRGB     Code = 55
	ColorLabToBGR     Code = 56
	ColorLabToRGB     Code = 57
	ColorLuvToBGR     Code = 58
	ColorLuvToRGB     Code = 59
	ColorHLSToBGR     Code = 60
	ColorHLSToRGB     Code = 61
	ColorBGRToHSVFull Code = 66
	ColorRGBToHSVFull Code = 67
	ColorBGRToHLSFull Code = 68
	ColorRGBToHLSFull Code = 69
	ColorHSVToBGRFull Code = 70
	ColorHSVToRGBFull Code = 71
	ColorHLSToBGRFull Code = 72
	ColorHLSToRGBFull Code = 73
	ColorLBGRToLab    Code = 74
	ColorLRGBToLab    Code = 75
	ColorLBGRToLuv    Code = 76
	ColorLRGBToLuv    Code = 77
	ColorLabToLBGR    Code = 78
	ColorLabToLRGB    Code = 79
	ColorLuvToLBGR    Code = 80
	ColorLuvToLRGB    Code = 81
	ColorBGRToYUV     Code = 82
	ColorRGBToYUV     Code = 83
	ColorYUVToBGR     Code = 84
	ColorYUVToRGB     Code = 85
)

// family is a group of conversions computed by one kernel family.
type family string

// spec says how a code converts: its kernel family, the source channel counts it
// accepts, the output channels, the channel order and the family's parameter.
type spec struct {
	name   string
	fam    family
	scn    []int // accepted source channel counts
	dcn    int
	bidx   int // 0: BGR order, 2: RGB order
	param  int // hue range, YUV flag, sRGB flag
	floatP int // param for 32F images where it differs (hue range 360)
	depths string
}

const (
	intDepths   = "8U 16U 32F"
	floatDepths = "8U 32F"
)

var bgr34 = []int{3, 4}

var specs = map[Code]spec{
	ColorBGRToBGRA:    {"BGR2BGRA", "rgb", bgr34, 4, 0, 0, 0, intDepths},
	ColorBGRAToBGR:    {"BGRA2BGR", "rgb", bgr34, 3, 0, 0, 0, intDepths},
	ColorBGRToRGBA:    {"BGR2RGBA", "rgb", bgr34, 4, 2, 0, 0, intDepths},
	ColorRGBAToBGR:    {"RGBA2BGR", "rgb", bgr34, 3, 2, 0, 0, intDepths},
	ColorBGRToRGB:     {"BGR2RGB", "rgb", bgr34, 3, 2, 0, 0, intDepths},
	ColorBGRAToRGBA:   {"BGRA2RGBA", "rgb", bgr34, 4, 2, 0, 0, intDepths},
	ColorBGRToGray:    {"BGR2GRAY", "gray", bgr34, 1, 0, 0, 0, intDepths},
	ColorRGBToGray:    {"RGB2GRAY", "gray", bgr34, 1, 2, 0, 0, intDepths},
	ColorGrayToBGR:    {"GRAY2BGR", "fromgray", []int{1}, 3, 0, 0, 0, intDepths},
	ColorGrayToBGRA:   {"GRAY2BGRA", "fromgray", []int{1}, 4, 0, 0, 0, intDepths},
	ColorBGRAToGray:   {"BGRA2GRAY", "gray", bgr34, 1, 0, 0, 0, intDepths},
	ColorRGBAToGray:   {"RGBA2GRAY", "gray", bgr34, 1, 2, 0, 0, intDepths},
	ColorBGRToXYZ:     {"BGR2XYZ", "xyz", bgr34, 3, 0, 0, 0, intDepths},
	ColorRGBToXYZ:     {"RGB2XYZ", "xyz", bgr34, 3, 2, 0, 0, intDepths},
	ColorXYZToBGR:     {"XYZ2BGR", "fromxyz", []int{3}, 3, 0, 0, 0, intDepths},
	ColorXYZToRGB:     {"XYZ2RGB", "fromxyz", []int{3}, 3, 2, 0, 0, intDepths},
	ColorBGRToYCrCb:   {"BGR2YCrCb", "ycc", bgr34, 3, 0, 0, 0, intDepths},
	ColorRGBToYCrCb:   {"RGB2YCrCb", "ycc", bgr34, 3, 2, 0, 0, intDepths},
	ColorYCrCbToBGR:   {"YCrCb2BGR", "fromycc", []int{3}, 3, 0, 0, 0, intDepths},
	ColorYCrCbToRGB:   {"YCrCb2RGB", "fromycc", []int{3}, 3, 2, 0, 0, intDepths},
	ColorBGRToYUV:     {"BGR2YUV", "ycc", bgr34, 3, 0, 1, 1, intDepths},
	ColorRGBToYUV:     {"RGB2YUV", "ycc", bgr34, 3, 2, 1, 1, intDepths},
	ColorYUVToBGR:     {"YUV2BGR", "fromycc", []int{3}, 3, 0, 1, 1, intDepths},
	ColorYUVToRGB:     {"YUV2RGB", "fromycc", []int{3}, 3, 2, 1, 1, intDepths},
	ColorBGRToHSV:     {"BGR2HSV", "hsv", bgr34, 3, 0, 180, 360, floatDepths},
	ColorRGBToHSV:     {"RGB2HSV", "hsv", bgr34, 3, 2, 180, 360, floatDepths},
	ColorBGRToHSVFull: {"BGR2HSV_FULL", "hsv", bgr34, 3, 0, 256, 360, floatDepths},
	ColorRGBToHSVFull: {"RGB2HSV_FULL", "hsv", bgr34, 3, 2, 256, 360, floatDepths},
	ColorHSVToBGR:     {"HSV2BGR", "fromhsv", []int{3}, 3, 0, 180, 360, floatDepths},
	ColorHSVToRGB:     {"HSV2RGB", "fromhsv", []int{3}, 3, 2, 180, 360, floatDepths},
	ColorHSVToBGRFull: {"HSV2BGR_FULL", "fromhsv", []int{3}, 3, 0, 255, 360, floatDepths},
	ColorHSVToRGBFull: {"HSV2RGB_FULL", "fromhsv", []int{3}, 3, 2, 255, 360, floatDepths},
	ColorBGRToHLS:     {"BGR2HLS", "hls", bgr34, 3, 0, 180, 360, floatDepths},
	ColorRGBToHLS:     {"RGB2HLS", "hls", bgr34, 3, 2, 180, 360, floatDepths},
	ColorBGRToHLSFull: {"BGR2HLS_FULL", "hls", bgr34, 3, 0, 256, 360, floatDepths},
	ColorRGBToHLSFull: {"RGB2HLS_FULL", "hls", bgr34, 3, 2, 256, 360, floatDepths},
	ColorHLSToBGR:     {"HLS2BGR", "fromhls", []int{3}, 3, 0, 180, 360, floatDepths},
	ColorHLSToRGB:     {"HLS2RGB", "fromhls", []int{3}, 3, 2, 180, 360, floatDepths},
	ColorHLSToBGRFull: {"HLS2BGR_FULL", "fromhls", []int{3}, 3, 0, 255, 360, floatDepths},
	ColorHLSToRGBFull: {"HLS2RGB_FULL", "fromhls", []int{3}, 3, 2, 255, 360, floatDepths},
	ColorBGRToLab:     {"BGR2Lab", "lab", bgr34, 3, 0, 1, 1, floatDepths},
	ColorRGBToLab:     {"RGB2Lab", "lab", bgr34, 3, 2, 1, 1, floatDepths},
	ColorLBGRToLab:    {"LBGR2Lab", "lab", bgr34, 3, 0, 0, 0, floatDepths},
	ColorLRGBToLab:    {"LRGB2Lab", "lab", bgr34, 3, 2, 0, 0, floatDepths},
	ColorLabToBGR:     {"Lab2BGR", "fromlab", []int{3}, 3, 0, 1, 1, floatDepths},
	ColorLabToRGB:     {"Lab2RGB", "fromlab", []int{3}, 3, 2, 1, 1, floatDepths},
	ColorLabToLBGR:    {"Lab2LBGR", "fromlab", []int{3}, 3, 0, 0, 0, floatDepths},
	ColorLabToLRGB:    {"Lab2LRGB", "fromlab", []int{3}, 3, 2, 0, 0, floatDepths},
	ColorBGRToLuv:     {"BGR2Luv", "luv", bgr34, 3, 0, 1, 1, floatDepths},
	ColorRGBToLuv:     {"RGB2Luv", "luv", bgr34, 3, 2, 1, 1, floatDepths},
	ColorLBGRToLuv:    {"LBGR2Luv", "luv", bgr34, 3, 0, 0, 0, floatDepths},
	ColorLRGBToLuv:    {"LRGB2Luv", "luv", bgr34, 3, 2, 0, 0, floatDepths},
	ColorLuvToBGR:     {"Luv2BGR", "fromluv", []int{3}, 3, 0, 1, 1, floatDepths},
	ColorLuvToRGB:     {"Luv2RGB", "fromluv", []int{3}, 3, 2, 1, 1, floatDepths},
	ColorLuvToLBGR:    {"Luv2LBGR", "fromluv", []int{3}, 3, 0, 0, 0, floatDepths},
	ColorLuvToLRGB:    {"Luv2LRGB", "fromluv", []int{3}, 3, 2, 0, 0, floatDepths},
}

// Codes returns every supported code, in increasing order.
func Codes() []Code {
	out := make([]Code, 0, len(specs))
	for c := Code(0); c < 100; c++ {
		if _, ok := specs[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// String is OpenCV's name without the COLOR_ prefix, e.g. "BGR2Lab".
func (c Code) String() string {
	if s, ok := specs[c]; ok {
		return s.name
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// ParseCode returns the code named name, as String names codes ("BGR2Lab"), with or
// without OpenCV's "COLOR_" prefix, in any letter case.
func ParseCode(name string) (Code, error) {
	n := strings.TrimPrefix(strings.ToUpper(name), "COLOR_")
	for _, c := range Codes() {
		if strings.ToUpper(specs[c].name) == n {
			return c, nil
		}
	}
	return 0, fmt.Errorf("colorconv: unknown colour conversion %q (for example BGR2GRAY, BGR2Lab, HSV2BGR)", name)
}
