package main

import (
	"math/rand"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/wavelet"
)

// Wavelet cases (package wavelet): multi-level 2-D transforms (WaveDec2,
// periodization: a level's subbands are a quarter of its input each) of a WxH
// 32FC1 image of random values; bytes count the image read and the coefficients
// written. bench/peers/gpu_peers.py times a Haar transform written in torch, as a
// user writes one, on the same cases.
func init() {
	for _, c := range []struct {
		name   string
		wname  string
		levels int
	}{
		{"wavelet haar2 1 level", "haar", 1},
		{"wavelet haar2 5 levels", "haar", 5},
		{"wavelet db4 2-D 3 levels", "db4", 3},
		{"wavelet haar2 inverse 5 levels", "haar", -5},
	} {
		cases = append(cases, benchCase{c.name, func(t *Timer, w, h int) ([]Row, error) {
			r := rand.New(rand.NewSource(1))
			v := make([]float32, w*h)
			for i := range v {
				v[i] = r.Float32()
			}
			src, err := gpuimage.NewFromData(t.Dev, h, w, gpuimage.CV32FC1, v)
			if err != nil {
				return nil, err
			}
			defer src.Close()
			wv, err := wavelet.New(c.wname)
			if err != nil {
				return nil, err
			}
			levels, inverse := c.levels, c.levels < 0
			if inverse {
				levels = -levels
			}
			levels = min(levels, max(wavelet.MaxLevel(min(w, h), wv.Len()), 1)) // small sizes (the harness test's)
			var m time.Duration
			if inverse {
				co, err := wavelet.WaveDec2(src, wv, wavelet.Periodization, levels)
				if err != nil {
					return nil, err
				}
				defer co.Close()
				dst := &gpuimage.Image{}
				defer dst.Close()
				m, err = t.Median(func(on gpuimage.Option) error { return wavelet.WaveRec2(co, dst, wv, wavelet.Periodization, on) })
				if err != nil {
					return nil, err
				}
			} else {
				var last *wavelet.Coeffs2
				m, err = t.Median(func(on gpuimage.Option) error {
					last.Close()
					var err error
					last, err = wavelet.WaveDec2(src, wv, wavelet.Periodization, levels, on)
					return err
				})
				last.Close()
				if err != nil {
					return nil, err
				}
			}
			// Each level reads its input and writes four quarters: 2 x 4 bytes a pixel
			// of the level's input.
			var bytes int64
			for l, n := 0, int64(w)*int64(h); l < levels; l, n = l+1, n/4 {
				bytes += 8 * n
			}
			rows := []Row{{Type: "32FC1", Variant: "kernel", Median: m, Bytes: bytes}}
			if t.Dev.IsCUDA() {
				rows = append(rows, Row{Type: "32FC1", Variant: "host", Median: t.LastHost})
			}
			return rows, nil
		}})
	}
}
