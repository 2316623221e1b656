package colorconv

import (
	"fmt"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// Transform applies a matrix to every pixel, as OpenCV's cv::transform:
//
//	dst(x,y)[c] = saturate(sum_k m[c][k]*src(x,y)[k] + m[c][scn])
//
// m has one row per output channel (1, 3 or 4 rows) and scn or scn+1 columns (the
// last one an offset). It is computed in float32; any supported depth works.
func Transform(src, dst *gpuimage.Image, m [][]float64, opts ...gpuimage.Option) error {
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("colorconv.Transform: %w", err)
	}
	if d := core.StateOf(dst); d != nil && (src == dst || core.Overlaps(s, d)) {
		return throughNew("colorconv.Transform", dst, opts, func(tmp *gpuimage.Image) error { return Transform(src, tmp, m, opts...) })
	}
	dcn := len(m)
	if s.Chans == 2 {
		return fmt.Errorf("colorconv.Transform: %w: 2-channel input (want 1, 3 or 4 channels)", gpuimage.ErrBadType)
	}
	if dcn != 1 && dcn != 3 && dcn != 4 {
		return fmt.Errorf("colorconv.Transform: %w: matrix has %d rows (want 1, 3 or 4 output channels)", gpuimage.ErrBadType, dcn)
	}
	var mat [4 * 5]float32 // row c: 4 coefficients then the offset
	for c, row := range m {
		if len(row) != s.Chans && len(row) != s.Chans+1 {
			return fmt.Errorf("colorconv.Transform: %w: matrix row %d has %d entries for a %d-channel image (want %d or %d)",
				gpuimage.ErrSizeMismatch, c, len(row), s.Chans, s.Chans, s.Chans+1)
		}
		for k := 0; k < s.Chans; k++ {
			mat[c*5+k] = float32(row[k])
		}
		if len(row) > s.Chans {
			mat[c*5+4] = float32(row[s.Chans])
		}
	}
	d := core.StateOf(dst)
	if err := d.Create(s.Dev, s.Rows, s.Cols, s.Depth, dcn); err != nil {
		return fmt.Errorf("colorconv.Transform: %w", err)
	}
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			transformCPU(d, s, &mat)
			return nil
		}
		return transformCUDA(str, d, s, &mat)
	})
	if err != nil {
		return fmt.Errorf("colorconv.Transform: %w", err)
	}
	return nil
}

func transformCPU(d, s *core.State, m *[20]float32) {
	switch s.Depth {
	case core.Depth8U:
		perPixel(d, s, xform[uint8](m, s.Chans, d.Chans))
	case core.Depth16U:
		perPixel(d, s, xform[uint16](m, s.Chans, d.Chans))
	case core.Depth16S:
		perPixel(d, s, xform[int16](m, s.Chans, d.Chans))
	case core.Depth32F:
		perPixel(d, s, xform[float32](m, s.Chans, d.Chans))
	}
}

func xform[T cpu.Elem](m *[20]float32, scn, dcn int) pixFunc[T] {
	return func(s, d []T) {
		for c := 0; c < dcn; c++ {
			acc := m[c*5+4]
			for k := 0; k < scn; k++ {
				acc = m[c*5+k]*float32(s[k]) + acc
			}
			d[c] = cpu.Saturate[T](acc)
		}
	}
}
