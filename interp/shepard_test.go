package interp_test

import (
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
	"github.com/gpuimg/gpuimg/interp"
)

// refShepard is inverse distance weighting in float64 from the definition, every
// pixel of a cols x rows map: the points within the radius (when positive), the k
// nearest of them (when positive), a point on the pixel giving its value (the
// first listed). ambiguous marks the pixels whose choice of points rests on a
// distance within 1e-5 of the radius or of the next point's: there float32
// distances may choose otherwise.
func refShepard(pts []interp.Point, cols, rows int, o interp.ShepardOptions) (vals []float64, ambiguous []bool) {
	p := o.Power
	if p == 0 {
		p = 2
	}
	vals, ambiguous = make([]float64, cols*rows), make([]bool, cols*rows)
	type cand struct {
		i  int
		d2 float64
	}
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			at := y*cols + x
			var cs []cand
			for i, q := range pts {
				d2 := (q.X-float64(x))*(q.X-float64(x)) + (q.Y-float64(y))*(q.Y-float64(y))
				if o.Radius > 0 {
					r2 := o.Radius * o.Radius
					if math.Abs(d2-r2) <= 1e-5*r2 {
						ambiguous[at] = true
					}
					if d2 > r2 {
						continue
					}
				}
				cs = append(cs, cand{i, d2})
			}
			sort.SliceStable(cs, func(a, b int) bool { return cs[a].d2 < cs[b].d2 })
			if o.K > 0 && len(cs) > o.K {
				if cs[o.K].d2-cs[o.K-1].d2 <= 1e-5*cs[o.K].d2+1e-9 {
					ambiguous[at] = true
				}
				cs = cs[:o.K]
			}
			if len(cs) == 0 {
				vals[at] = math.NaN()
				if o.ZeroOutside {
					vals[at] = 0
				}
				continue
			}
			if cs[0].d2 == 0 {
				first := len(pts)
				for _, c := range cs {
					if c.d2 == 0 {
						first = min(first, c.i)
					}
				}
				vals[at] = pts[first].Value
				continue
			}
			var num, den float64
			for _, c := range cs {
				w := math.Pow(c.d2, -p/2)
				num += w * pts[c.i].Value
				den += w
			}
			vals[at] = num / den
		}
	}
	return vals, ambiguous
}

// randPoints are n points with random values in [-100, 100), spread over a cols x
// rows map and a margin around it; some on pixel centres.
func randPoints(r *rand.Rand, n, cols, rows int) []interp.Point {
	pts := make([]interp.Point, n)
	for i := range pts {
		x := r.Float64()*float64(cols+20) - 10
		y := r.Float64()*float64(rows+20) - 10
		if r.Intn(5) == 0 {
			x, y = math.Round(x), math.Round(y)
		}
		pts[i] = interp.Point{X: float64(float32(x)), Y: float64(float32(y)), Value: float64(float32(r.Float64()*200 - 100))}
	}
	return pts
}

// shepardCases are the option sets every test runs.
var shepardCases = []interp.ShepardOptions{
	{},
	{Power: 1},
	{Power: 3.5},
	{Power: 8},
	{Power: 30},
	{Radius: 7.5},
	{Radius: 30, Power: 3},
	{K: 1},
	{K: 8},
	{K: interp.MaxK, Power: 1.5},
	{K: 5, Radius: 12},
	{Radius: 2, ZeroOutside: true},
}

// The CPU device against the float64 definition on random points (some on pixel
// centres), maps of awkward sizes, every option set; within 1e-5 of the values'
// range, skipping only the pixels whose choice of points is a float32 tie.
func TestShepardMatchesDefinition(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 1}, {7, 1}, {1, 9}, {45, 30}, {409, 3}} {
		for _, n := range []int{1, 2, 7, 60} {
			pts := randPoints(r, n, sz[0], sz[1])
			for _, o := range shepardCases {
				name := fmt.Sprintf("%dx%d n=%d %+v", sz[0], sz[1], n, o)
				got := runShepard(t, gpuimage.CPU(), pts, sz[0], sz[1], &o)
				want, amb := refShepard(pts, sz[0], sz[1], o)
				checkMap(t, name, got, want, amb)
			}
		}
	}
}

// checkMap compares a map with the reference within 1e-5 of the values' range
// (200), NaN where the reference is NaN.
func checkMap(t *testing.T, name string, got []float32, want []float64, amb []bool) {
	t.Helper()
	bad := 0
	for i, w := range want {
		if amb != nil && amb[i] {
			continue
		}
		g := float64(got[i])
		if math.IsNaN(w) != math.IsNaN(g) || (!math.IsNaN(w) && math.Abs(g-w) > 1e-5*200) {
			if bad++; bad <= 3 {
				t.Errorf("%s: pixel %d is %v, want %v", name, i, g, w)
			}
		}
	}
}

// runShepard makes a cols x rows map of pts on dev and returns its values.
func runShepard(t *testing.T, dev *gpuimage.Device, pts []interp.Point, cols, rows int, o *interp.ShepardOptions) []float32 {
	t.Helper()
	dst := tu.Poisoned(t, dev, rows, cols, gpuimage.CV32FC1)
	defer dst.Close()
	if err := interp.Shepard(pts, dst, o); err != nil {
		t.Fatalf("%dx%d: %v", cols, rows, err)
	}
	return tu.Float32s(t, dst)
}

// A point on a pixel gives that pixel its value exactly, the first listed of
// points at one place; the others blend.
func TestShepardExactHits(t *testing.T) {
	pts := []interp.Point{{X: 1, Y: 1, Value: 10}, {X: 3, Y: 2, Value: -4}, {X: 3, Y: 2, Value: 99}, {X: 0.5, Y: 0, Value: 7}}
	for _, o := range []interp.ShepardOptions{{}, {Power: 3}, {K: 2}, {Radius: 5}} {
		got := runShepard(t, gpuimage.CPU(), pts, 5, 4, &o)
		if got[1*5+1] != 10 || got[2*5+3] != -4 {
			t.Errorf("%+v: the points' pixels are %v and %v, want 10 and -4", o, got[6], got[13])
		}
		if v := got[0]; !(v > -4 && v < 99) || v == 7 || v == 10 {
			t.Errorf("%+v: pixel (0, 0) is %v, want a blend", o, v)
		}
	}
}

// A mask leaves the pixels where it is 0 at the fill (NaN, or 0); normalised
// coordinates span the image; a view fills its own pixels only.
func TestShepardMaskNormalizedView(t *testing.T) {
	cpu := gpuimage.CPU()
	mask, err := gpuimage.NewFromData(cpu, 3, 4, gpuimage.CV8UC1, []uint8{1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer mask.Close()
	pts := []interp.Point{{X: 0, Y: 0, Value: 1}, {X: 1, Y: 1, Value: 3}}
	for _, zero := range []bool{false, true} {
		got := runShepard(t, cpu, pts, 4, 3, &interp.ShepardOptions{Mask: mask, ZeroOutside: zero, Normalized: true})
		for i, m := range []uint8{1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1} {
			fill := m == 0 && ((zero && got[i] == 0) || (!zero && math.IsNaN(float64(got[i]))))
			if (m == 0) != fill {
				t.Errorf("zero=%v: pixel %d is %v under mask %d", zero, i, got[i], m)
			}
		}
		if got[0] != 1 || got[11] != 3 {
			t.Errorf("normalised corners are %v and %v, want 1 and 3", got[0], got[11])
		}
	}
	big := tu.Poisoned(t, cpu, 20, 30, gpuimage.CV32FC1)
	defer big.Close()
	before := tu.Float32s(t, big)
	view, err := big.Region(image.Rect(5, 4, 17, 13))
	if err != nil {
		t.Fatal(err)
	}
	if err := interp.Shepard(pts, view, nil); err != nil {
		t.Fatal(err)
	}
	after := tu.Float32s(t, big)
	want, _ := refShepard(pts, 12, 9, interp.ShepardOptions{})
	for y := 0; y < 20; y++ {
		for x := 0; x < 30; x++ {
			g := after[y*30+x]
			if in := image.Pt(x, y).In(image.Rect(5, 4, 17, 13)); in {
				if w := want[(y-4)*12+x-5]; math.Abs(float64(g)-w) > 1e-5 {
					t.Errorf("view pixel (%d, %d) is %v, want %v", x, y, g, w)
				}
			} else if math.Float32bits(g) != math.Float32bits(before[y*30+x]) {
				t.Errorf("pixel (%d, %d) outside the view changed", x, y)
			}
		}
	}
}

// Bad input gets an error naming the problem.
func TestShepardErrors(t *testing.T) {
	cpu := gpuimage.CPU()
	dst, err := gpuimage.New(cpu, 4, 5, gpuimage.CV32FC1)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	gray, err := gpuimage.New(cpu, 4, 5, gpuimage.CV8UC1)
	if err != nil {
		t.Fatal(err)
	}
	defer gray.Close()
	small, err := gpuimage.New(cpu, 3, 5, gpuimage.CV8UC1)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	ok := []interp.Point{{X: 1, Y: 1, Value: 1}}
	for _, c := range []struct {
		pts  []interp.Point
		dst  *gpuimage.Image
		o    *interp.ShepardOptions
		want string
	}{
		{nil, dst, nil, "no points"},
		{[]interp.Point{{X: math.NaN(), Y: 1}}, dst, nil, "point 0"},
		{[]interp.Point{{X: 1, Y: 1}, {X: 2, Y: math.Inf(1)}}, dst, nil, "point 1"},
		{[]interp.Point{{X: 2e7, Y: 1}}, dst, nil, "within"},
		{[]interp.Point{{X: 1, Y: 1, Value: math.NaN()}}, dst, nil, "value"},
		{ok, dst, &interp.ShepardOptions{Power: -1}, "power"},
		{ok, dst, &interp.ShepardOptions{Power: 40}, "power"},
		{ok, dst, &interp.ShepardOptions{Radius: -2}, "radius"},
		{ok, dst, &interp.ShepardOptions{Radius: math.NaN()}, "radius"},
		{ok, dst, &interp.ShepardOptions{K: -1}, "k -1"},
		{ok, dst, &interp.ShepardOptions{K: interp.MaxK + 1}, "k 33"},
		{ok, gray, nil, "32FC1"},
		{ok, nil, nil, "dst"},
		{ok, &gpuimage.Image{}, nil, "dst"},
		{ok, dst, &interp.ShepardOptions{Mask: small}, "mask"},
		{ok, dst, &interp.ShepardOptions{Mask: dst}, "mask"},
	} {
		err := interp.Shepard(c.pts, c.dst, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %+v: error %v, want one naming %q", c.pts, c.o, err, c.want)
		}
	}
	if err := interp.Shepard(ok, dst, &interp.ShepardOptions{Mask: gray}); err != nil {
		t.Errorf("a mask of dst's size: %v", err)
	}
	if err := interp.Shepard(ok, &gpuimage.Image{}, nil); !errors.Is(err, gpuimage.ErrEmpty) && err == nil {
		t.Errorf("empty dst: %v", err)
	}
}

// The far-field expansion's ratio: a quarter of the distance for power 2, smaller
// for higher powers, none past 8 (those sum every point exactly).
func TestFarRatio(t *testing.T) {
	for _, c := range []struct{ p, r float64 }{{2, 0.25}, {1, 0.25}, {0.5, 0.25}, {8, 0.125}, {8.5, 0}, {30, 0}} {
		if got := interp.FarRatio(c.p); got != c.r {
			t.Errorf("power %v: ratio %v, want %v", c.p, got, c.r)
		}
	}
	for p := 0.25; p <= 8; p += 0.25 {
		if r := interp.FarRatio(p); r < 0.1 {
			t.Errorf("power %v: ratio %v (the near points would crowd the tiles)", p, r)
		}
	}
}
