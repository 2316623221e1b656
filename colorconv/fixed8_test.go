package colorconv_test

import "github.com/gpuimg/gpuimg/colorconv"

// fixed8Codes are the codes whose 8U results come from OpenCV's integer
// algorithms (fixed8.go, lab8.go), tested over all 2^24 inputs.
var fixed8Codes = []colorconv.Code{
	colorconv.ColorLabToBGR, colorconv.ColorLabToRGB, colorconv.ColorLabToLBGR, colorconv.ColorLabToLRGB,
	colorconv.ColorLuvToBGR, colorconv.ColorLuvToRGB, colorconv.ColorLuvToLBGR, colorconv.ColorLuvToLRGB,
	colorconv.ColorBGRToLab, colorconv.ColorRGBToLab, colorconv.ColorLBGRToLab, colorconv.ColorLRGBToLab,
}
