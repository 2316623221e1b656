package resample

import (
	"fmt"
	"math"
	"os"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/devcache"
)

// InterArea's 8-bit shrinks by other than whole factors on the GPU, the
// vertical pass first (kernels/resample_areaf.cu's gi_resize_areaf_u8cN). Along
// each axis OpenCV's area weights are a partial first tap, equal inner taps and
// a partial last one, so the kernel sums the inner rows' bytes as integers
// (exact) and weighs each column once a row, then sums each output's columns: a
// few integer operations a source byte instead of a product and a sum a byte
// and source row. The sums run in another order than OpenCV's (which sums each
// source row's columns first), so a result may differ from OpenCV's (and the
// CPU device's) by one where OpenCV's float sum lies within rounding of a half
// (TestAreafEmulated: 2e-5 of the elements near 1x, 1e-3 at 34x, where OpenCV's
// float sums run over more pixels): the quality bar's ±1 for OpenCV's float
// arithmetic.
//
// It takes the shrinks whose rows it sums many of, by default: 2.5 source rows
// an output row or more (areafVertical). Measured on the H100 (2026-12-07
// 21:08Z, bench, µs, against gi_resize_tile_f_*, which keeps OpenCV's order):
// 8UC3 4K->224x224 19.2 -> 11.0, 8K->224x224 77.9 -> 40.7, 1080p->224x224
// 10.6 -> 7.0, 4K by 0.3 24.6 -> 20.3, by 0.4 28.6 -> 24.9; but by 2/3 (1.5
// rows an output) 44.3 -> 49.2, so milder shrinks stay on the tile kernel.
// GPUIMG_AREAF=off keeps every plan on the tile kernel (OpenCV's results
// exactly); GPUIMG_AREAF=on sends every plan the kernel can take to it (the
// tests use it for the mild shrinks).

// areafMode is GPUIMG_AREAF: "off", "on", or anything else for the default.
var areafMode = os.Getenv("GPUIMG_AREAF")

// areafVertical is the fewest source rows an output row (sh/dh) of the plans
// the kernel takes by default.
const areafVertical = 2.5

// areafTakes reports whether the plan runs on the kernel (by GPUIMG_AREAF and
// the plan's shape) where the image allows it: its tables, or nil.
func (pl *resizePlan) areafTakes() *areafTables {
	switch {
	case areafMode == "off":
		return nil
	case areafMode != "on" && float64(pl.sh) < areafVertical*float64(pl.dh):
		return nil
	}
	return pl.areaf()
}

// areaRun is an output's taps along an axis as the kernel reads them (its
// AreaRun, 32 bytes): n source indices from start, the first weighted w0, the
// last wl (0 where n is 1), those between wi.
type areaRun struct {
	start, n            int32
	w0, wi, wl, _, _, _ float32
}

// areafMaxInner is the most inner rows the kernel sums in 16-bit halves
// (257 * 255 < 2^16).
const areafMaxInner = 257

// areafVecs is the 16-byte vectors a strip of the kernel reads a row: one a
// thread of its block.
const areafVecs = resizeRT

// areafTables are a plan's runs along x and y, the output pixels of a block's
// strip (areafStrip) and the runs' devcache.Sum.
type areafTables struct {
	x, y []areaRun
	tw   int
	sum  uint64
}

// areaRuns is an area axis as runs: it reports false where an output's taps are
// not a first, equal inner ones and a last, in the source (n pixels), or have
// more than maxInner inner ones.
func areaRuns(a axis, n, maxInner int) ([]areaRun, bool) {
	runs := make([]areaRun, len(a.start))
	for i := range runs {
		w := a.w[i*a.n : (i+1)*a.n]
		m := len(w)
		for m > 0 && w[m-1] == 0 {
			m--
		}
		s := int(a.start[i])
		if m == 0 || s < 0 || s+m > n || m-2 > maxInner {
			return nil, false
		}
		r := areaRun{start: int32(s), n: int32(m), w0: w[0]}
		if m > 1 {
			r.wl = w[m-1]
		}
		if m > 2 {
			r.wi = w[1]
			for _, v := range w[1 : m-1] {
				if v != r.wi {
					return nil, false
				}
			}
		}
		runs[i] = r
	}
	return runs, true
}

// areaf is the plan's runs, built on first use; nil where the kernel cannot
// take the plan (not one of InterArea's fractional 8-bit shrinks of 1, 3 or 4
// channels, or its runs or strips do not fit the kernel).
func (pl *resizePlan) areaf() *areafTables {
	pl.areafOnce.Do(func() {
		if !pl.area || pl.depth != core.Depth8U || (pl.cn != 1 && pl.cn != 3 && pl.cn != 4) {
			return
		}
		x, okx := areaRuns(pl.x, pl.sw, areafMaxInner)
		y, oky := areaRuns(pl.y, pl.sh, areafMaxInner)
		if !okx || !oky {
			return
		}
		t := &areafTables{x: x, y: y, tw: areafStrip(x, pl.cn)}
		if t.tw == 0 {
			return
		}
		t.sum = devcache.Sum(t.pieces())
		pl.areafTabs = t
	})
	return pl.areafTabs
}

// pieces is the tables as the device holds them.
func (t *areafTables) pieces() [][]byte {
	return [][]byte{core.HostBytes(t.x), core.HostBytes(t.y)}
}

// areafStrip is the output pixels a block of the kernel takes a row: the most,
// for strips as even as they come, whose columns (cn channels, from the first
// one's 16-byte vector) lie within areafVecs vectors; 0 where a pixel's do not.
func areafStrip(runs []areaRun, cn int) int {
	fits := func(tw int) bool {
		for x0 := 0; x0 < len(runs); x0 += tw {
			last := min(x0+tw, len(runs)) - 1
			v0 := int(runs[x0].start) * cn &^ 15
			if (int(runs[last].start+runs[last].n)*cn-v0+15)/16 > areafVecs {
				return false
			}
		}
		return true
	}
	tw := min(len(runs), areafVecs*16)
	for tw > 0 && !fits(tw) {
		tw--
	}
	if tw == 0 {
		return 0
	}
	// As even as they come: the same number of strips, each as wide as the widest
	// needs.
	g := (len(runs) + tw - 1) / tw
	if e := (len(runs) + g - 1) / g; fits(e) {
		tw = e
	}
	return tw
}

// resizeAreaf runs the plan on gi_resize_areaf_u8cN where it can, reporting
// whether it did: areafTakes says so, the source's address
// and rows are multiples of 16 bytes and its vectors lie in its allocation
// (tileReadable).
func resizeAreaf(str core.Stream, s *core.State, pl *resizePlan, p resizeParams) (bool, error) {
	if !s.Aligned(16) || !tileReadable(s) {
		return false, nil
	}
	t := pl.areafTakes()
	if t == nil {
		return false, nil
	}
	buf, at, err := uploadTables(s, str, "resample-areaf", t.pieces(), t.sum)
	if err != nil {
		return true, err
	}
	defer buf.Release()
	p.Xstart, p.Ystart, p.Th = at(0), at(1), int32(t.tw)
	// A block a strip of a row (walking the rows gridDim.y apart where there are
	// more than 65535).
	grid := [3]int{(pl.dw + t.tw - 1) / t.tw, min(pl.dh, 65535), 1}
	return true, s.Dev.Launch(str, fmt.Sprintf("gi_resize_areaf_u8c%d", pl.cn), grid, [3]int{resizeRT, 1, 1}, 0, core.Struct(&p))
}

// areafEmulate is the kernel on the CPU for an 8-bit image of cn channels
// (rows of pitch bytes, with room for the vectors read past a row's end: at
// least 16 bytes more than its pixels), block by block and thread by thread as
// gi_resize_areaf_u8cN indexes them (the strips of t.tw pixels, the vectors
// from each strip's first one, a thread's 16 columns in its block's shared
// array of areafVecs*16), for the tests. It reports false where an index
// leaves the block's vectors.
func areafEmulate(src []byte, pitch, cn int, t *areafTables) ([]byte, bool) {
	dw, dh := len(t.x), len(t.y)
	out := make([]byte, dw*dh*cn)
	col := make([]float32, areafVecs*16)
	fl := func(x float64) float32 { return float32(x) }
	for px0 := 0; px0 < dw; px0 += t.tw { // blockIdx.x
		npx := min(t.tw, dw-px0)
		v0 := int(t.x[px0].start) * cn &^ 15
		last := t.x[px0+npx-1]
		nv := (int(last.start+last.n)*cn - v0 + 15) >> 4
		if nv > areafVecs {
			return nil, false
		}
		for y, ry := range t.y { // the rows a block walks
			for th := 0; th < nv; th++ {
				for b := 0; b < 16; b++ {
					o := v0 + 16*th + b
					v0b := float32(src[int(ry.start)*pitch+o])
					vlb := float32(src[int(ry.start+ry.n-1)*pitch+o])
					var s int
					for j := 1; j < int(ry.n)-1; j++ {
						s += int(src[int(ry.start+int32(j))*pitch+o])
					}
					// Each product rounded once (the kernel's fused multiply-adds),
					// then the two sums.
					p0, ps, pl := fl(float64(v0b)*float64(ry.w0)), fl(float64(s)*float64(ry.wi)), fl(float64(vlb)*float64(ry.wl))
					col[16*th+b] = float32(p0+ps) + pl
				}
			}
			for e := 0; e < npx*cn; e++ {
				px, c := e/cn, e%cn
				rx := t.x[px0+px]
				base := int(rx.start)*cn + c - v0
				if base < 0 || base+int(rx.n-1)*cn >= 16*nv {
					return nil, false
				}
				var inner float32
				for j := 1; j < int(rx.n)-1; j++ {
					inner += col[base+j*cn]
				}
				r := float32(float32(col[base]*rx.w0)+float32(inner*rx.wi)) + float32(col[base+int(rx.n-1)*cn]*rx.wl)
				out[(y*dw+px0+px)*cn+c] = byte(math.RoundToEven(math.Max(0, math.Min(255, float64(r)))))
			}
		}
	}
	return out, true
}
