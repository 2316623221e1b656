package interp

import (
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Point is one reading: Value at (X, Y). Coordinates are pixels (x to the right,
// y down, pixel (i, j)'s centre at (i, j)) unless ShepardOptions.Normalized says
// otherwise.
type Point struct {
	X, Y, Value float64
}

// ShepardOptions are Shepard's choices; nil means power 2 over every point.
type ShepardOptions struct {
	// Power is the exponent of the inverse distance (the zero value: 2); it must
	// lie in (0, 32]. Larger powers make each point's influence more local.
	Power float64
	// Radius, when positive, limits each pixel to the points within Radius pixels
	// of it; a pixel with none gets the fill (NaN, or 0 with ZeroOutside).
	Radius float64
	// K, when positive, limits each pixel to its K nearest points (of those within
	// Radius, when set), at most MaxK; ties go to the point listed first.
	K int
	// Mask, when not nil, is an 8UC1 image of dst's size on dst's device: pixels
	// where it is 0 get the fill.
	Mask *gpuimage.Image
	// ZeroOutside makes the fill 0 instead of NaN.
	ZeroOutside bool
	// Normalized says that X and Y run from 0 to 1 across the image: pixel
	// coordinates X*(cols-1) and Y*(rows-1).
	Normalized bool
}

// MaxK is the largest ShepardOptions.K.
const MaxK = shepardMaxK

// maxCoord bounds a point's pixel coordinates, so that the kernels' squared
// distances (and their products) stay within float32's normal range.
const maxCoord = 1e7

// maxRows bounds the map's rows (the kernels' grids: 65535 blocks of
// GI_SHEPARD_BY rows).
const maxRows = 65535 * shepardBY

// maxPoints bounds the points of one call (their indices travel as int32, their
// positions as float32).
const maxPoints = 1 << 24

// Shepard fills dst, a 32FC1 image (a view too), by inverse distance weighting of
// points: pixel (x, y) gets
//
//	sum(w_i * v_i) / sum(w_i),  w_i = d_i^-p,  d_i^2 = (x - x_i)^2 + (y - y_i)^2 + 1e-18
//
// over every point, or those of o.Radius and o.K, with the squared distances in
// float32 (so that both devices pick the same points). A pixel on a point (d_i^2 is
// 1e-18: within about 1e-9 pixels) takes that point's value, the first such point
// listed if several. Sums are float64 on the CPU and float32 on the GPU (within
// 1e-5 of the values' range of each other). Over every point, with many points
// and a power up to 8, the GPU sums the points far from each 64x64 tile of pixels
// through a series expansion about its centre whose dropped terms are below 5e-7
// of their weights (so a 4K map of 10,000 points takes about 1.4 ms on an H100,
// not 22 ms), the near ones exactly.
func Shepard(points []Point, dst *gpuimage.Image, o *ShepardOptions, opts ...gpuimage.Option) error {
	const op = "interp.Shepard"
	if o == nil {
		o = &ShepardOptions{}
	}
	d := core.StateOf(dst)
	if d == nil {
		return fmt.Errorf("%s: %w: dst", op, gpuimage.ErrNil)
	}
	if err := d.Check(); err != nil {
		return fmt.Errorf("%s: dst: %w", op, err)
	}
	if d.Depth != core.Depth32F || d.Chans != 1 {
		return fmt.Errorf("%s: %w: dst is %v (the map is 32FC1)", op, gpuimage.ErrBadType, dst.Type())
	}
	pl, err := newPlan(points, d.Cols, d.Rows, o)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	states := []*core.State{d}
	var m *core.State
	if o.Mask != nil {
		m = core.StateOf(o.Mask)
		if err := m.Check(); err != nil {
			return fmt.Errorf("%s: mask: %w", op, err)
		}
		if m.Depth != core.Depth8U || m.Chans != 1 || m.Rows != d.Rows || m.Cols != d.Cols {
			return fmt.Errorf("%s: %w: the mask is %dx%d %v, dst %dx%d (it must be 8UC1 of dst's size)", op,
				gpuimage.ErrBadType, m.Cols, m.Rows, o.Mask.Type(), d.Cols, d.Rows)
		}
		if m.Dev != d.Dev {
			return fmt.Errorf("%s: the mask is on %s, dst on %s", op, m.Dev.Name(), d.Dev.Name())
		}
		states = append(states, m)
	}
	err = core.Run(d.Dev, opts, states, func(str core.Stream) error {
		if d.Dev.IsCPU() {
			shepardCPU(d, m, pl)
			return nil
		}
		return shepardCUDA(str, d, m, pl)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// plan is one Shepard call's points in the kernels' form.
type plan struct {
	n            int
	x, y, v      []float32 // in the caller's order, pixel coordinates
	power        float64
	r2           float32 // the radius squared (0: none)
	k            int     // 0: all
	fill         float32
	w, h         int
	cell, gx, gy int // the grid (radius or k)
	rings        int
}

// newPlan checks the points and options for a cols x rows map.
func newPlan(points []Point, cols, rows int, o *ShepardOptions) (*plan, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("no points")
	}
	if rows > maxRows {
		return nil, fmt.Errorf("a map of %d rows: at most %d", rows, maxRows)
	}
	if len(points) > maxPoints {
		return nil, fmt.Errorf("%d points: at most %d a call", len(points), maxPoints)
	}
	pl := &plan{n: len(points), power: o.Power, k: o.K, w: cols, h: rows, fill: float32(math.NaN())}
	if pl.power == 0 {
		pl.power = 2
	}
	if !(pl.power > 0 && pl.power <= 32) {
		return nil, fmt.Errorf("power %v: it must lie in (0, 32]", o.Power)
	}
	if !(o.Radius >= 0 && o.Radius <= 4*maxCoord) {
		return nil, fmt.Errorf("radius %v: it must be 0 (none) or a positive distance in pixels up to %g", o.Radius, 4*maxCoord)
	}
	if o.K < 0 || o.K > MaxK {
		return nil, fmt.Errorf("k %d: it must lie in 0 (every point) .. %d", o.K, MaxK)
	}
	if o.ZeroOutside {
		pl.fill = 0
	}
	sx, sy := 1.0, 1.0
	if o.Normalized {
		sx, sy = float64(cols-1), float64(rows-1)
	}
	pl.x, pl.y, pl.v = make([]float32, pl.n), make([]float32, pl.n), make([]float32, pl.n)
	for i, p := range points {
		x, y := p.X*sx, p.Y*sy
		if math.IsNaN(x) || math.IsNaN(y) || math.Abs(x) > maxCoord || math.Abs(y) > maxCoord {
			return nil, fmt.Errorf("point %d at (%v, %v): coordinates must be numbers within %g pixels of the origin", i, p.X, p.Y, maxCoord)
		}
		if math.IsNaN(p.Value) || math.Abs(p.Value) > math.MaxFloat32 {
			return nil, fmt.Errorf("point %d has the value %v (values must be finite float32 numbers)", i, p.Value)
		}
		pl.x[i], pl.y[i], pl.v[i] = float32(x), float32(y), float32(p.Value)
	}
	if o.Radius > 0 {
		pl.r2 = float32(o.Radius * o.Radius)
	}
	if pl.r2 > 0 || pl.k > 0 {
		pl.grid()
	}
	return pl, nil
}

// maxCells bounds the grid.
const maxCells = 1 << 20

// grid sizes the grid of square cells the GPU searches: cells as wide as the
// radius (so one ring of cells around a pixel's holds every point within it), or
// for k alone cells that hold about k/2 points on average, coarser where the grid
// would pass maxCells; and the rings a pixel searches.
func (pl *plan) grid() {
	var c float64
	if pl.r2 > 0 {
		c = math.Sqrt(float64(pl.r2))
	} else {
		c = math.Sqrt(float64(pl.w) * float64(pl.h) * float64(pl.k) / (2 * float64(pl.n)))
	}
	c = math.Max(c, math.Sqrt(float64(pl.w)*float64(pl.h)/maxCells))
	cell := int(math.Min(math.Ceil(c), float64(max(pl.w, pl.h))))
	pl.cell = max(cell, 1)
	pl.gx, pl.gy = (pl.w+pl.cell-1)/pl.cell, (pl.h+pl.cell-1)/pl.cell
	pl.rings = max(pl.gx, pl.gy)
	if pl.r2 > 0 {
		// As far as a point whose float32 distance passes the radius test can lie.
		reach := math.Sqrt(float64(pl.r2))*(1+1e-6) + 1e-3
		pl.rings = min(pl.rings, int(math.Ceil(reach/float64(pl.cell))))
	}
}

// cellOf is the grid cell of coordinate v (floor(v / cell) clamped to 0..n-1).
func cellOf(v float32, cell, n int) int {
	c := math.Floor(float64(v) / float64(cell))
	return int(math.Max(0, math.Min(c, float64(n-1))))
}

// sorted lays the points out as the kernels read them: x, y, value and index
// (int bits) each, by grid cell where there is a grid (index order within a
// cell), with the cells' offsets.
func (pl *plan) sorted() (pts []float32, cells []int32) {
	order := make([]int, pl.n)
	if pl.gx > 0 {
		cells = make([]int32, pl.gx*pl.gy+1)
		cellIdx := make([]int, pl.n)
		for i := range order {
			cellIdx[i] = cellOf(pl.y[i], pl.cell, pl.gy)*pl.gx + cellOf(pl.x[i], pl.cell, pl.gx)
			cells[cellIdx[i]+1]++
		}
		for c := 1; c < len(cells); c++ {
			cells[c] += cells[c-1]
		}
		next := append([]int32(nil), cells[:len(cells)-1]...)
		for i := range order {
			order[next[cellIdx[i]]] = i
			next[cellIdx[i]]++
		}
	} else {
		for i := range order {
			order[i] = i
		}
	}
	pts = make([]float32, 4*pl.n)
	for j, i := range order {
		pts[4*j], pts[4*j+1], pts[4*j+2] = pl.x[i], pl.y[i], pl.v[i]
		pts[4*j+3] = math.Float32frombits(uint32(i))
	}
	return pts, cells
}
