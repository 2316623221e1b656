//go:build cuda

package interp_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/interp"
)

// Shepard on the GPU against the CPU device: random points (some on pixel centres,
// some outside the map, several tiles' worth), maps of awkward sizes, every option
// set, masks, views, into poisoned outputs; within 1e-5 of the values' range (the
// GPU sums in float32, the CPU in float64; both pick the same points).
func TestCUDAShepardMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	sizes := [][2]int{{1, 1}, {7, 1}, {1, 9}, {451, 300}, {4097, 3}, {130, 37}}
	for _, sz := range sizes {
		for _, n := range []int{1, 7, 257, 600} {
			if testing.Short() && sz[0]*sz[1]*n > 30_000_000 {
				continue
			}
			pts := randPoints(r, n, sz[0], sz[1])
			for _, o := range shepardCases {
				matchCPU(t, gpu, fmt.Sprintf("%dx%d n=%d %+v", sz[0], sz[1], n, o), pts, sz[0], sz[1], &o)
			}
		}
	}
	// A mask, a view of a larger image, normalised coordinates.
	cols, rows := 90, 61
	mb := make([]uint8, cols*rows)
	for i := range mb {
		mb[i] = uint8(r.Intn(2))
	}
	pts := randPoints(r, 40, cols, rows)
	norm := make([]interp.Point, len(pts))
	for i, p := range pts {
		norm[i] = interp.Point{X: p.X / float64(cols-1), Y: p.Y / float64(rows-1), Value: p.Value}
	}
	maskedViews(t, gpu, "mask and view", mb, cols, rows, image.Pt(7, 3), norm,
		[]interp.ShepardOptions{{Normalized: true}, {K: 3, Normalized: true, ZeroOutside: true}})
}

// The far-field kernels (every point, from tileMin points on) against the CPU
// device's exact sums, forced onto small point sets too: points inside the map
// and far outside it (every tile has near and far ones), some on pixel centres,
// awkward sizes, the powers the expansion takes, a mask on a view; within 1e-5
// of the values' range.
func TestCUDAShepardTilesMatchCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	defer interp.SetTileMin(1)()
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 1}, {7, 1}, {1, 9}, {65, 64}, {451, 300}, {4097, 3}, {130, 37}} {
		for _, n := range []int{1, 7, 300, 1500} {
			if testing.Short() && sz[0]*sz[1]*n > 30_000_000 {
				continue
			}
			pts := randPoints(r, n, sz[0], sz[1])
			for i := range pts[:n/2] {
				// Half of them anywhere within three maps' widths.
				pts[i].X = float64(float32(r.Float64()*float64(3*sz[0]+200) - float64(sz[0]+100)))
				pts[i].Y = float64(float32(r.Float64()*float64(3*sz[1]+200) - float64(sz[1]+100)))
			}
			for _, o := range []interp.ShepardOptions{{}, {Power: 1}, {Power: 3.5}, {Power: 8}, {Power: 0.5, ZeroOutside: true}} {
				matchCPU(t, gpu, fmt.Sprintf("tiles %dx%d n=%d %+v", sz[0], sz[1], n, o), pts, sz[0], sz[1], &o)
			}
		}
	}
	// A mask on a view: the tiles start at the view's corner.
	cols, rows := 150, 131
	mb := make([]uint8, cols*rows)
	for i := range mb {
		mb[i] = uint8(r.Intn(2))
	}
	pts := randPoints(r, 900, cols, rows)
	maskedViews(t, gpu, "tiles, mask and view", mb, cols, rows, image.Pt(13, 5), pts, []interp.ShepardOptions{{}})
}

// matchCPU makes the map of pts on the CPU device and on gpu and compares them
// (checkMap: within 1e-5 of the values' range).
func matchCPU(t *testing.T, gpu *gpuimage.Device, name string, pts []interp.Point, cols, rows int, o *interp.ShepardOptions) {
	t.Helper()
	want := runShepard(t, gpuimage.CPU(), pts, cols, rows, o)
	got := runShepard(t, gpu, pts, cols, rows, o)
	w64 := make([]float64, len(want))
	for i, v := range want {
		w64[i] = float64(v)
	}
	checkMap(t, name, got, w64, nil)
}

// maskedViews makes the maps of pts with each of opts and the mask mb into a
// cols x rows view at 'at' of a larger poisoned image, on the CPU device and on
// gpu, and compares the whole images: the same bits (fills, the poison around the
// view) or within 2e-3.
func maskedViews(t *testing.T, gpu *gpuimage.Device, name string, mb []uint8, cols, rows int, at image.Point, pts []interp.Point, opts []interp.ShepardOptions) {
	t.Helper()
	var maps [2][]float32
	for d, dev := range []*gpuimage.Device{gpuimage.CPU(), gpu} {
		mask, err := gpuimage.NewFromData(dev, rows, cols, gpuimage.CV8UC1, mb)
		if err != nil {
			t.Fatal(err)
		}
		big := tu.Poisoned(t, dev, rows+10, cols+20, gpuimage.CV32FC1)
		view, err := big.Region(image.Rect(at.X, at.Y, at.X+cols, at.Y+rows))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range opts {
			o.Mask = mask
			if err := interp.Shepard(pts, view, &o); err != nil {
				t.Fatal(err)
			}
			maps[d] = append(maps[d], tu.Float32s(t, big)...)
		}
		mask.Close()
		big.Close()
	}
	for i := range maps[0] {
		c, g := maps[0][i], maps[1][i]
		same := math.Float32bits(c) == math.Float32bits(g) || (c == c && g == g && math.Abs(float64(c-g)) <= 2e-3)
		if !same {
			t.Fatalf("%s: element %d is %v on the GPU, %v on the CPU", name, i, g, c)
		}
	}
}

// Shepard over every point by both kernels (each point at every pixel, and the
// tiles' far-field expansion), for the crossover tileMin records: kernel time by
// events, median; bytes count the map written.
func BenchmarkCUDAShepard(b *testing.B) {
	gpu := tu.CUDA(b)
	r := tu.Rand(b)
	for _, sz := range [][2]int{{512, 512}, {3840, 2160}} {
		for _, n := range []int{64, 128, 256, 512, 1024, 10000} {
			pts := make([]interp.Point, n)
			for i := range pts {
				pts[i] = interp.Point{X: r.Float64() * float64(sz[0]), Y: r.Float64() * float64(sz[1]), Value: r.Float64() * 100}
			}
			for _, tiles := range []bool{false, true} {
				b.Run(fmt.Sprintf("%dx%d/n=%d/tiles=%v", sz[0], sz[1], n, tiles), func(b *testing.B) {
					min := 1 << 30
					if tiles {
						min = 1
					}
					defer interp.SetTileMin(min)()
					dst, err := gpuimage.New(gpu, sz[1], sz[0], gpuimage.CV32FC1)
					if err != nil {
						b.Fatal(err)
					}
					defer dst.Close()
					s, _ := gpu.NewStream()
					defer s.Close()
					on := gpuimage.OnStream(s)
					b.SetBytes(int64(sz[0] * sz[1] * 4))
					tu.EventMedian(b, s, func() error { return interp.Shepard(pts, dst, nil, on) })
				})
			}
		}
	}
}
