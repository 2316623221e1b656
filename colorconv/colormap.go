package colorconv

import (
	"fmt"
	"strings"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// ColormapType is one of OpenCV's colormaps (cv::ColormapTypes, the same values).
type ColormapType int

// OpenCV's colormaps (COLORMAP_AUTUMN .. COLORMAP_DEEPGREEN).
const (
	ColormapAutumn ColormapType = iota
	ColormapBone
	ColormapJet
	ColormapWinter
	ColormapRainbow
	ColormapOcean
	ColormapSummer
	ColormapSpring
	ColormapCool
	ColormapHSV
	ColormapPink
	ColormapHot
	ColormapParula
	ColormapMagma
	ColormapInferno
	ColormapPlasma
	ColormapViridis
	ColormapCividis
	ColormapTwilight
	ColormapTwilightShifted
	ColormapTurbo
	ColormapDeepGreen
	numColormaps
)

var colormapNames = [numColormaps]string{"autumn", "bone", "jet", "winter", "rainbow", "ocean", "summer", "spring",
	"cool", "hsv", "pink", "hot", "parula", "magma", "inferno", "plasma", "viridis", "cividis", "twilight",
	"twilight_shifted", "turbo", "deepgreen"}

// String is the colormap's name as OpenCV spells it after COLORMAP_, in lower case.
func (c ColormapType) String() string {
	if c < 0 || c >= numColormaps {
		return fmt.Sprintf("ColormapType(%d)", int(c))
	}
	return colormapNames[c]
}

// ParseColormap returns the colormap of a name (ColormapType's String, any case,
// with or without OpenCV's COLORMAP_ prefix).
func ParseColormap(name string) (ColormapType, error) {
	n := strings.TrimPrefix(strings.ToLower(name), "colormap_")
	for c, s := range colormapNames {
		if s == n {
			return ColormapType(c), nil
		}
	}
	return 0, fmt.Errorf("colorconv: unknown colormap %q (want one of %s)", name, strings.Join(colormapNames[:], ", "))
}

// ColormapColors returns the BGR colour a colormap gives each gray level: 256 x 3
// bytes, as ApplyColorMap writes them.
func ColormapColors(c ColormapType) ([]byte, error) {
	if c < 0 || c >= numColormaps {
		return nil, fmt.Errorf("colorconv: unknown colormap %d", int(c))
	}
	return []byte(colormapTables[c]), nil
}

// ApplyColorMap colours src by a colormap into dst, as cv::applyColorMap does: an
// 8UC1 image's gray levels (an 8UC3 image's BGR2GRAY levels) pick the map's BGR
// colours, so dst is 8UC3 of src's size. The tables are OpenCV 4.6's own. src may
// be a region view; dst is (re)allocated and may not overlap src.
func ApplyColorMap(src, dst *gpuimage.Image, c ColormapType, opts ...gpuimage.Option) error {
	const op = "colorconv.ApplyColorMap"
	if c < 0 || c >= numColormaps {
		return fmt.Errorf("%s: unknown colormap %d", op, int(c))
	}
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if s.Depth != core.Depth8U || (s.Chans != 1 && s.Chans != 3) {
		return fmt.Errorf("%s: %w: %v (it takes 8UC1 or 8UC3, as OpenCV)", op, gpuimage.ErrBadType, src.Type())
	}
	if d := core.StateOf(dst); d != nil && (src == dst || core.Overlaps(s, d)) {
		return throughNew(op, dst, opts, func(tmp *gpuimage.Image) error { return ApplyColorMap(src, tmp, c, opts...) })
	}
	if s.Chans == 3 {
		gray := &gpuimage.Image{}
		defer gray.Close()
		if err := CvtColor(src, gray, ColorBGRToGray, opts...); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		return ApplyColorMap(gray, dst, c, opts...)
	}
	d := core.StateOf(dst)
	if err := d.Create(s.Dev, s.Rows, s.Cols, core.Depth8U, 3); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			colormapCPU(d, s, colormapTables[c])
			return nil
		}
		return colormapCUDA(str, d, s, c)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
