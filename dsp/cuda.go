package dsp

import (
	"github.com/gpuimg/gpuimg/internal/core"
)

// conv1dCUDA launches gi_conv1d_set over d (and gi_conv1d_add for each further
// conv1dTaps taps): blocks of conv1dThreads threads, each block conv1dThreads x
// conv1dR outputs of a row, the grid striding over the rows.
func conv1dCUDA(str core.Stream, d, s *core.State, g []float32, off int) error {
	const perBlock = conv1dThreads * conv1dR
	grid := [3]int{(d.Cols + perBlock - 1) / perBlock, min(s.Rows, 65535), 1}
	for c := 0; c < len(g); c += conv1dTaps {
		chunk := g[c:min(len(g), c+conv1dTaps)]
		p := conv1dParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Rows: int32(s.Rows),
			N: int32(s.Cols), Outn: int32(d.Cols), Off: int32(off + c), M8: int32((len(chunk) + conv1dR - 1) / conv1dR * conv1dR)}
		copy(p.G[:], chunk)
		name := "gi_conv1d_set"
		if c > 0 {
			name = "gi_conv1d_add"
		}
		// The block's stretch of the signal: its outputs, the taps and one more run.
		shmem := (perBlock + int(p.M8) + conv1dR) * 4
		if err := s.Dev.Launch(str, name, grid, [3]int{conv1dThreads, 1, 1}, shmem, core.Struct(&p)); err != nil {
			return err
		}
	}
	return nil
}
