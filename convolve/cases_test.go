package convolve_test

import (
	"fmt"
	"image"
	"math"
	"math/rand"

	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// filterCase is one call, run the same way on every device and, in the gocv tests,
// through OpenCV.
type filterCase struct {
	name   string
	kind   string // filter2D, sep, gauss, box, sobel, laplacian
	ddepth gpuimage.Depth
	kw, kh int
	sumAbs float64 // sum of |taps| of the effective 2-D kernel, for float tolerances

	k            [][]float64
	kx, ky       []float64
	anchor       image.Point
	delta, scale float64
	ksize        image.Point
	sx, sy       float64
	norm         bool
	dx, dy, ksz  int
}

func (c filterCase) run(src, dst *gpuimage.Image, b convolve.BorderType, opts ...gpuimage.Option) error {
	switch c.kind {
	case "filter2D":
		return convolve.Filter2D(src, dst, c.ddepth, c.k, c.anchor, c.delta, b, opts...)
	case "sep":
		return convolve.SepFilter2D(src, dst, c.ddepth, c.kx, c.ky, c.anchor, c.delta, b, opts...)
	case "gauss":
		return convolve.GaussianBlur(src, dst, c.ksize, c.sx, c.sy, b, opts...)
	case "box":
		return convolve.BoxFilter(src, dst, c.ddepth, c.ksize, c.anchor, c.norm, b, opts...)
	case "sobel":
		if c.ksz == convolve.FilterScharr {
			return convolve.Scharr(src, dst, c.ddepth, c.dx, c.dy, c.scale, c.delta, b, opts...)
		}
		return convolve.Sobel(src, dst, c.ddepth, c.dx, c.dy, c.ksz, c.scale, c.delta, b, opts...)
	case "laplacian":
		return convolve.Laplacian(src, dst, c.ddepth, c.ksz, c.scale, c.delta, b, opts...)
	}
	panic("unknown case kind " + c.kind)
}

func randKernel(r *rand.Rand, kh, kw int) [][]float64 {
	k := make([][]float64, kh)
	for i := range k {
		k[i] = make([]float64, kw)
		for j := range k[i] {
			k[i][j] = r.Float64()*2 - 1
		}
	}
	// Keep it non-separable: a rank-one kernel would take the separable path.
	if kh > 1 && kw > 1 {
		k[0][0] += 0.5
	}
	return k
}

// softKernel is randKernel with every tap moved to (tap + add) / div: mostly
// positive, small taps, so filtered 8-bit images stay mostly inside 0..255.
func softKernel(r *rand.Rand, kh, kw int, add, div float64) [][]float64 {
	k := randKernel(r, kh, kw)
	for _, row := range k {
		for j := range row {
			row[j] = (row[j] + add) / div
		}
	}
	return k
}

func sumAbsSep(kx, ky []float64) float64 {
	a, b := 0.0, 0.0
	for _, v := range kx {
		a += math.Abs(v)
	}
	for _, v := range ky {
		b += math.Abs(v)
	}
	return a * b
}

// cases returns the calls tested on inputs of depth d: every function, kernel sizes
// 1 to 31, even sizes, off-centre anchors and each allowed output depth.
func cases(r *rand.Rand, d gpuimage.Depth) []filterCase {
	var cs []filterCase
	f2d := func(name string, dd gpuimage.Depth, k [][]float64, anchor image.Point, delta float64) {
		cs = append(cs, filterCase{name: name, kind: "filter2D", ddepth: dd, kw: len(k[0]), kh: len(k), sumAbs: tu.SumAbs(k),
			k: k, anchor: anchor, delta: delta})
	}
	wider := gpuimage.Depth32F
	if d == gpuimage.Depth8U {
		wider = gpuimage.Depth16S
	}
	f2d("filter2D 1x1", convolve.SameDepth, [][]float64{{1.5}}, image.Pt(-1, -1), 3)
	f2d("filter2D 3x3", convolve.SameDepth, randKernel(r, 3, 3), image.Pt(-1, -1), 0)
	f2d("filter2D 5x5 delta", wider, randKernel(r, 5, 5), image.Pt(-1, -1), 7.25)
	f2d("filter2D 7x7", gpuimage.Depth32F, randKernel(r, 7, 7), image.Pt(-1, -1), 0)
	// 7x7 to the same depth (on CUDA, 8U images take gi_imma_k7_* where aligned,
	// else gi_conv2d_u8c<C>_k7 or k7_py8),
	// with a blur-like kernel whose results mostly stay inside 0..255.
	f2d("filter2D 7x7 same depth", convolve.SameDepth, softKernel(r, 7, 7, 0.6, 40), image.Pt(-1, -1), 0.5)
	f2d("filter2D 7x6 anchor(1,5)", convolve.SameDepth, randKernel(r, 6, 7), image.Pt(1, 5), -2)
	// An even anchor column (the 8U kernel's shared-memory rows are laid out by its parity).
	f2d("filter2D 6x7 anchor(2,4)", convolve.SameDepth, softKernel(r, 7, 6, 0.5, 30), image.Pt(2, 4), 0.25)
	f2d("filter2D 15x15", convolve.SameDepth, randKernel(r, 15, 15), image.Pt(-1, -1), 0)
	f2d("filter2D 31x31", gpuimage.Depth32F, randKernel(r, 31, 31), image.Pt(-1, -1), 0)
	f2d("filter2D 35x33", gpuimage.Depth32F, randKernel(r, 33, 35), image.Pt(-1, -1), 0)
	f2d("filter2D 4x4 anchor(0,3)", convolve.SameDepth, randKernel(r, 4, 4), image.Pt(0, 3), 0)
	f2d("filter2D 6x2 anchor(5,1)", gpuimage.Depth32F, randKernel(r, 2, 6), image.Pt(5, 1), 0)
	f2d("filter2D 3x5 rank one", convolve.SameDepth, [][]float64{{1, 2, 1}, {2, 4, 2}, {0, 0, 0}, {-2, -4, -2}, {-1, -2, -1}}, image.Pt(-1, -1), 0)

	sep := func(name string, dd gpuimage.Depth, kx, ky []float64, anchor image.Point, delta float64) {
		cs = append(cs, filterCase{name: name, kind: "sep", ddepth: dd, kw: len(kx), kh: len(ky), sumAbs: sumAbsSep(kx, ky),
			kx: kx, ky: ky, anchor: anchor, delta: delta})
	}
	rv := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.Float64()*2 - 1
		}
		return v
	}
	sep("sepFilter2D 5x3", convolve.SameDepth, rv(5), rv(3), image.Pt(-1, -1), 1)
	sep("sepFilter2D 1x9 anchor(0,2)", gpuimage.Depth32F, rv(1), rv(9), image.Pt(0, 2), 0)
	sep("sepFilter2D 21x17", convolve.SameDepth, rv(21), rv(17), image.Pt(-1, -1), 0)

	gauss := func(name string, ksize image.Point, sx, sy float64) {
		kw, kh := ksize.X, ksize.Y
		if kw == 0 {
			kw, kh = 11, 11 // at most, from the sigma
		}
		cs = append(cs, filterCase{name: name, kind: "gauss", ddepth: convolve.SameDepth, kw: kw, kh: kh, sumAbs: 1,
			ksize: ksize, sx: sx, sy: sy})
	}
	gauss("gaussian 5x5", image.Pt(5, 5), 0, 0)
	gauss("gaussian 7x3 sigma 1.5,0.8", image.Pt(7, 3), 1.5, 0.8)
	gauss("gaussian ksize from sigma 1.2", image.Pt(0, 0), 1.2, 0)

	box := func(name string, dd gpuimage.Depth, ksize, anchor image.Point, norm bool) {
		s := float64(ksize.X * ksize.Y)
		if norm {
			s = 1
		}
		cs = append(cs, filterCase{name: name, kind: "box", ddepth: dd, kw: ksize.X, kh: ksize.Y, sumAbs: s,
			ksize: ksize, anchor: anchor, norm: norm})
	}
	box("box 5x5", convolve.SameDepth, image.Pt(5, 5), image.Pt(-1, -1), true)
	box("box 4x2 anchor(1,0)", convolve.SameDepth, image.Pt(4, 2), image.Pt(1, 0), true)
	box("box 3x3 sum", gpuimage.Depth32F, image.Pt(3, 3), image.Pt(-1, -1), false)

	sobel := func(name string, dd gpuimage.Depth, dx, dy, ksize int, scale, delta float64) {
		kx, ky, _ := convolve.DerivKernels(dx, dy, ksize)
		cs = append(cs, filterCase{name: name, kind: "sobel", ddepth: dd, kw: len(kx), kh: len(ky), sumAbs: sumAbsSep(kx, ky) * scale,
			dx: dx, dy: dy, ksz: ksize, scale: scale, delta: delta})
	}
	sobel("sobel dx 3", wider, 1, 0, 3, 1, 0)
	sobel("sobel dy 3 delta", wider, 0, 1, 3, 1, 3)
	sobel("sobel dy 5 scale", gpuimage.Depth32F, 0, 1, 5, 0.5, 2)
	sobel("sobel dxdy 1", wider, 1, 1, 1, 1, 0)
	sobel("sobel dx2 7", gpuimage.Depth32F, 2, 0, 7, 1, 0)
	sobel("scharr dy", wider, 0, 1, convolve.FilterScharr, 1, 0)

	lap := func(name string, dd gpuimage.Depth, ksize int, scale, delta float64) {
		w := map[int]float64{1: 8, 3: 16, 5: 256, 7: 4096}[ksize]
		cs = append(cs, filterCase{name: name, kind: "laplacian", ddepth: dd, kw: max(ksize, 3), kh: max(ksize, 3), sumAbs: w * scale,
			ksz: ksize, scale: scale, delta: delta})
	}
	lap("laplacian 1", wider, 1, 1, 0)
	lap("laplacian 3", wider, 3, 1, 0)
	lap("laplacian 5", gpuimage.Depth32F, 5, 1, 0)
	lap("laplacian 7 scale", gpuimage.Depth32F, 7, 0.25, 1)
	return cs
}

// borders are every border type, and one isolated one.
var borders = []convolve.BorderType{convolve.BorderConstant, convolve.BorderReplicate, convolve.BorderReflect,
	convolve.BorderWrap, convolve.BorderReflect101, convolve.BorderReflect | convolve.BorderIsolated}

// tolerance for a case's output: ±1 for integers; for floats 1e-5 relative plus an
// absolute term for the float32 rounding of the sum (the taps' weight times the
// input's magnitude), since derivative kernels cancel to near zero. Kernels of
// thousands of taps (summed in a different order by the direct CUDA kernel) get
// 1e-7*sqrt(taps) more relative room.
func tolerance(c filterCase, dd gpuimage.Depth, inMax float64) (abs, rel float64) {
	if dd != gpuimage.Depth32F {
		return 1, 0
	}
	if c.kw*c.kh >= convolve.FFTMinArea() || max(c.kw, c.kh) > 31 {
		// Through the frequency domain on CUDA: float32 transform error scales with
		// the image's magnitude, not each output's.
		return 1e-5*c.sumAbs*inMax + 1e-6, 1e-5
	}
	return 1e-6*c.sumAbs*inMax + 1e-6, 1e-5 + 1e-7*math.Sqrt(float64(c.kw*c.kh))
}

// smallSizes are images smaller than most kernels (rows, cols): 1x1, 1xN, Nx1, 2x2,
// 3x2 and 7x5 (width x height).
var smallSizes = [][2]int{{1, 1}, {1, 6}, {6, 1}, {2, 2}, {2, 3}, {5, 7}}

// smallCases are kernels from 3x3 to 41x41 for the small images.
func smallCases(r *rand.Rand) []filterCase {
	var cs []filterCase
	for _, n := range []int{3, 9, 15} {
		cs = append(cs, filterCase{name: fmt.Sprintf("gauss %dx%d", n, n), kind: "gauss", ddepth: convolve.SameDepth, kw: n, kh: n,
			ksize: image.Pt(n, n), sumAbs: 1})
	}
	cs = append(cs, filterCase{name: "gauss sigma 3", kind: "gauss", ddepth: convolve.SameDepth, kw: 19, kh: 19, sx: 3, sumAbs: 1})
	for _, n := range [][2]int{{9, 9}, {41, 41}, {5, 31}} {
		k := randKernel(r, n[1], n[0])
		cs = append(cs, filterCase{name: fmt.Sprintf("filter2D %dx%d", n[0], n[1]), kind: "filter2D", ddepth: gpuimage.Depth32F,
			kw: n[0], kh: n[1], k: k, anchor: image.Pt(-1, -1), sumAbs: tu.SumAbs(k)})
	}
	kx, ky := randKernel(r, 1, 41)[0], randKernel(r, 1, 9)[0]
	cs = append(cs,
		filterCase{name: "sep 41x9", kind: "sep", ddepth: gpuimage.Depth32F, kw: 41, kh: 9, kx: kx, ky: ky, anchor: image.Pt(-1, -1), sumAbs: sumAbsSep(kx, ky)},
		filterCase{name: "box 11x11", kind: "box", ddepth: convolve.SameDepth, kw: 11, kh: 11, ksize: image.Pt(11, 11), anchor: image.Pt(-1, -1), norm: true, sumAbs: 1},
		filterCase{name: "sobel 7", kind: "sobel", ddepth: gpuimage.Depth32F, kw: 7, kh: 7, dx: 1, dy: 1, ksz: 7, scale: 1e-3, sumAbs: 1},
		filterCase{name: "laplacian 5", kind: "laplacian", ddepth: gpuimage.Depth32F, kw: 5, kh: 5, ksz: 5, scale: 0.05, sumAbs: 1})
	return cs
}
