package main

import (
	"fmt"
	"math/rand"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/interp"
)

// Scattered-point cases (package interp): Shepard's inverse distance weighting of
// n random points (fixed seed, spread over the map) onto a WxH 32FC1 map; bytes
// count the map written. bench/peers/gpu_peers.py times CuPy's elementwise IDW on
// the same cases.
func init() {
	for _, c := range []struct {
		n int
		o interp.ShepardOptions
	}{
		{64, interp.ShepardOptions{}},
		{1000, interp.ShepardOptions{}},
		{10000, interp.ShepardOptions{}},
		{10000, interp.ShepardOptions{Power: 3}},
		{10000, interp.ShepardOptions{K: 8}},
		{10000, interp.ShepardOptions{Radius: 60}},
	} {
		name := fmt.Sprintf("shepard p%g %d points", max(c.o.Power, 2), c.n)
		switch {
		case c.o.K > 0:
			name = fmt.Sprintf("shepard k%d %d points", c.o.K, c.n)
		case c.o.Radius > 0:
			name = fmt.Sprintf("shepard r%g %d points", c.o.Radius, c.n)
		}
		cases = append(cases, benchCase{name, func(t *Timer, w, h int) ([]Row, error) {
			r := rand.New(rand.NewSource(1))
			pts := make([]interp.Point, c.n)
			for i := range pts {
				pts[i] = interp.Point{X: r.Float64() * float64(w), Y: r.Float64() * float64(h), Value: r.Float64() * 100}
			}
			dst, err := gpuimage.New(t.Dev, h, w, gpuimage.CV32FC1)
			if err != nil {
				return nil, err
			}
			defer dst.Close()
			o := c.o
			m, err := t.Median(func(on gpuimage.Option) error { return interp.Shepard(pts, dst, &o, on) })
			rows := []Row{{Type: "32FC1", Variant: "kernel", Median: m, Bytes: int64(w) * int64(h) * 4}}
			if t.Dev.IsCUDA() {
				rows = append(rows, Row{Type: "32FC1", Variant: "host", Median: t.LastHost})
			}
			return rows, err
		}})
	}
}
