package convolve

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/gpuimg/gpuimg/internal/core"
)

// Launch geometry shared with the filter kernels: the limits from
// kernels/filter_params.h (TestParamsMatchKernels checks them), the tile shapes
// from kernels/filter_tiled.cu.
const (
	tapsLen    = 964 // GI_TAPS: floats in the Taps kernel parameter (the 4 KiB parameter limit)
	sepYOff    = 64  // GI_SEP_Y: ky's offset in Taps for separable kernels
	isepRows   = 8   // GI_ISEP_R: output rows per lane strip of gi_isep3_u8_*
	isepBlocks = 5   // GI_ISEP_BLOCKS: its resident blocks per SM
	sepMax     = 63  // largest separable kernel extent the tiled kernel takes
	tileW      = 32  // output columns per block
	sepTileH   = 64  // output rows per block, separable kernel, one channel per block (32 for 3 or 4)
	convTileH  = 64  // output rows per block, 2-D kernel of 3x3 (twice that for larger ones)
	smemLimit  = 48 << 10
)

// ipackBlocks is GI_IPACK_BLOCKS: gi_ipack_*'s resident blocks per SM for c channels.
func ipackBlocks(c int) int {
	if c == 1 {
		return 5
	}
	return 4
}

// rsepBlocks is GI_RSEP_BLOCKS: gi_rsep_k<K>_c<C>'s resident blocks per SM with e
// elements per lane.
func rsepBlocks(k, c, e int) int {
	switch {
	case e == 4:
		return 8
	case c > 1 || k > 5:
		return 3
	case k > 3:
		return 4
	}
	return 5
}

// p2dElems is GI_P2D_E: the elements each lane of gi_p2d_k<K> takes, by the source
// element's size in bytes and the channels.
func p2dElems(k, size, c int) int {
	if size == 1 || (k == 5 && c > 1) {
		return 8
	}
	return 4
}

// p2dRows is GI_P2D_R: the output rows of each lane strip of gi_p2d_k<K>.
func p2dRows(k, size int) int {
	if k == 5 && size == 1 {
		return 4
	}
	return 8
}

// p2dMasks are the 3x3 tap patterns (bit 3*k + j: tap j of row k is not zero) for
// which one-channel 8U sources have a gi_p2d_k3_c1_u8_<out>_m<mask> kernel that
// skips the zero taps (GI_P2D_PLUS, GI_P2D_CROSS, GI_P2D_DX, GI_P2D_DY: Laplacian
// ksize 1 and 3, Sobel and Scharr along x and y).
var p2dMasks = []int{0x0BA, 0x155, 0x16D, 0x1C7}

// p2dBlocks is GI_P2D_BLOCKS: gi_p2d_k<K>_c<C>'s resident blocks per SM by its
// launch bounds (at least that many; the grid's default where the device will not
// say how many).
func p2dBlocks(k, c int) int {
	if k == 3 && c == 1 {
		return 6
	}
	return 4
}

// typeNames are the depths as the kernels' names spell them.
var typeNames = map[core.Depth]string{core.Depth8U: "u8", core.Depth16U: "u16", core.Depth16S: "s16", core.Depth32F: "f32"}

var (
	sepSizes  = []int{3, 5, 7, 9, 11, 15, 31, 63}
	convSizes = []int{3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 25, 31}
)

// bucket is the smallest size in sizes that is at least n, or 0.
func bucket(sizes []int, n int) int {
	for _, k := range sizes {
		if k >= n {
			return k
		}
	}
	return 0
}

// geo mirrors the kernels' struct Geo (kernels/filter_params.h) field for field;
// TestParamsMatchKernels checks the names, offsets and sizes against the header.
type geo struct {
	Src                  uintptr
	Sp                   int32
	Dst                  uintptr
	Dp                   int32
	Rows, Cols           int32
	Sdepth, Ddepth, Cn   int32
	Wrows, Wcols, Ox, Oy int32
	Border               int32
	Bval                 [4]float32
	Kw, Kh, Ax, Ay       int32
	Delta                float32
	Halfup               int32
	Pad_                 int32
}

// The taps structs (kernels/filter_params.h), each filter kernel's second
// parameter, mirrored field for field (TestParamsMatchKernels).
type (
	taps     struct{ V [tapsLen]float32 }
	sepTaps  struct{ X, Y [8]float32 }
	isepTaps struct {
		Kx, Ky            [3]int32
		Delta, Cval, Dvec int32
	}
	ipackTaps struct {
		Magic, K16 uint32
		Cval       [4]int32
	}
	p2dTaps struct {
		W    [25]float32
		Cval [4]int32
	}
	immaTaps struct {
		P           [immaKR * 3 * immaPW]uint32
		Scale       float32
		Lead        int32
		Cval        [4]int32
		Ntx, Ntiles int32
	}
)

// The tap pattern's shape of ImmaTaps (GI_IMMA_KR, GI_IMMA_PW).
const (
	immaKR = 7
	immaPW = 10
)

// geoArgs starts a filter kernel's arguments: the call's Geo.
func geoArgs(d, s *core.State, p *plan) []any {
	wr, wc, ox, oy := s.BorderGeometry(p.isolated)
	g := &geo{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Rows: int32(s.Rows), Cols: int32(s.Cols),
		Sdepth: int32(s.Depth), Ddepth: int32(d.Depth), Cn: int32(s.Chans), Wrows: int32(wr), Wcols: int32(wc),
		Ox: int32(ox), Oy: int32(oy), Border: int32(p.border), Kw: int32(p.kw), Kh: int32(p.kh), Ax: int32(p.ax),
		Ay: int32(p.ay), Delta: float32(p.delta), Halfup: core.Flag(p.halfUp)}
	for i, v := range p.value {
		g.Bval[i] = float32(v)
	}
	return []any{core.Struct(g)}
}

func grid(cols, rows, tw, th, z int) [3]int {
	return [3]int{(cols + tw - 1) / tw, min((rows+th-1)/th, 65535), z}
}

// regKernel names the register kernel (gi_reg_k<K>_<in>_<out>) for a centred 3x3 or
// 5x5 kernel on a one-channel 8U or 32F image, or a centred 7x7 one from 32F to 32F,
// whose rows are 4-element aligned, or returns "" when the plan needs the tiled
// kernels. (7x7 32FC1 at 4K on the H100: 36.2 us against gi_conv2d_k7_py8's 50.6.)
func regKernel(d, s *core.State, p *plan) (string, int) {
	k := p.kw
	if s.Chans != 1 || p.kh != k || (k != 3 && k != 5 && k != 7) || p.ax != k/2 || p.ay != k/2 {
		return "", 0
	}
	if k == 7 && (s.Depth != core.Depth32F || d.Depth != core.Depth32F) {
		return "", 0
	}
	vec := uintptr(4 * s.Depth.Size())
	if s.Ptr()%vec != 0 || uintptr(s.Pitch)%vec != 0 {
		return "", 0
	}
	switch {
	case s.Depth == core.Depth8U:
	case s.Depth == core.Depth32F && d.Depth == core.Depth32F:
	default:
		return "", 0
	}
	return fmt.Sprintf("gi_reg_k%d_%s_%s", k, typeNames[s.Depth], typeNames[d.Depth]), k
}

// rsepMinArea is the image area from which the streaming separable kernel beats the
// register kernel on the H100 (1920x1080: 13.0 against 11.7 us; 3840x2160: 25.5
// against 27.5; 7680x4320: 83.7 against 101); GPUIMG_RSEP_MIN_AREA moves it.
// rsepRows, from GPUIMG_RSEP_ROWS, fixes the strip height for tuning (0: sized to
// fill the GPU).

var (
	rsepMinArea = envInt("GPUIMG_RSEP_MIN_AREA", 4<<20)
	rsepRows    = envInt("GPUIMG_RSEP_ROWS", 0)
)

// rsepElems is how many elements of a row each lane of the streaming kernel for
// KxK takes (kernels/filter_rsep.cu: RSEPS).
func rsepElems(k int) int {
	if k == 5 {
		return 4
	}
	return 8
}

// rsepKernel names the streaming separable kernel (gi_rsep_k<K>_c1_<out>) for a
// centred separable kernel of odd sizes up to 7 on a large one-channel 8U image
// whose rows are 8-byte aligned (its loads), with the taps centred in K; or "".
func rsepKernel(d, s *core.State, p *plan) (string, int, *sepTaps) {
	if !p.sep || s.Depth != core.Depth8U || s.Chans != 1 || s.Rows*s.Cols < rsepMinArea ||
		p.kw%2 == 0 || p.kh%2 == 0 || p.ax != p.kw/2 || p.ay != p.kh/2 {
		return "", 0, nil
	}
	k := bucket([]int{3, 5, 7}, max(p.kw, p.kh))
	if k == 0 || s.Ptr()%8 != 0 || s.Pitch%8 != 0 {
		return "", 0, nil
	}
	out := typeNames[d.Depth]
	if out == "" {
		return "", 0, nil
	}
	t := &sepTaps{}
	for i, v := range p.kx {
		t.X[(k-p.kw)/2+i] = float32(v)
	}
	for i, v := range p.ky {
		t.Y[(k-p.kh)/2+i] = float32(v)
	}
	return fmt.Sprintf("gi_rsep_k%d_c%d_%s", k, s.Chans, out), k, t
}

// rsepGrid sizes the streaming separable kernel's grid: one block per 4 spans of
// a row across, and down as many strips as fill the GPU once (resident blocks per
// SM from the kernel's launch bounds), each strip at least 8 rows so that the K-1
// extra input rows per strip stay cheap. Blocks walk further strips when the image
// needs more.
func rsepGrid(s *core.State, k, spans int) (grid [3]int, rows int) {
	gx := (spans + 3) / 4
	gy := max(1, core.MultiProcessors(s.Dev)*rsepBlocks(k, s.Chans, rsepElems(k))/gx)
	rows = max((s.Rows+gy-1)/gy, 8)
	if rsepRows > 0 {
		rows = rsepRows
	}
	return [3]int{gx, min((s.Rows+rows-1)/rows, 65535), 1}, rows
}

// isepArgs returns the name and extra arguments of gi_isep3_u8_s16 or gi_isep3_u8_u8
// (kernels/filter_isep.cu), the integer kernels for centred 3x3 separable kernels with
// small integer taps (Sobel, Scharr) from one-channel 8U to 16S or 8U, or "" when
// the plan needs another kernel:
// taps or delta that are not integers, a constant border value that is not a byte,
// or source rows that are not 8-byte aligned (its loads).
func isepArgs(d, s *core.State, p *plan) (string, *isepTaps) {
	if isepOff || !p.sep || p.kw != 3 || p.kh != 3 || p.ax != 1 || p.ay != 1 || p.halfUp ||
		s.Depth != core.Depth8U || s.Chans != 1 || (d.Depth != core.Depth16S && d.Depth != core.Depth8U) ||
		s.Ptr()%8 != 0 || s.Pitch%8 != 0 {
		return "", nil
	}
	small := func(v float64, lim float64) bool { return v == math.Trunc(v) && math.Abs(v) <= lim }
	t := &isepTaps{}
	for i := range 3 {
		if !small(p.kx[i], 64) || !small(p.ky[i], 64) {
			return "", nil
		}
		t.Kx[i], t.Ky[i] = int32(p.kx[i]), int32(p.ky[i])
	}
	cval := float64(p.value[0])
	if !small(p.delta, 1<<20) || (p.border == BorderConstant && (!small(cval, 255) || cval < 0)) {
		return "", nil
	}
	vec, name := uintptr(16), "gi_isep3_u8_s16" // a lane's 8 results as one store
	if d.Depth == core.Depth8U {
		vec, name = 8, "gi_isep3_u8_u8"
	}
	t.Delta, t.Cval, t.Dvec = int32(p.delta), int32(cval), core.Flag(d.Ptr()%vec == 0 && uintptr(d.Pitch)%vec == 0)
	return name, t
}

// ipackArgs returns the name and extra arguments of the packed integer kernels
// (kernels/filter_ipack.cu: gi_ipack_box_k<K>_c<C>, gi_ipack_gauss_k<K>_c<C> and
// gi_ipack_<deriv>_k3_c<C>_<out>), or "" when the plan needs another kernel. They
// take the normalized 3x3 and 5x5 box filters and the fixed-point 3x3 and 5x5
// GaussianBlur with sigma 0 (taps 1 2 1 and 1 4 6 4 1), 8U to 8U, and the 3x3 Sobel
// and Scharr first derivatives with scale 1 (derivTaps), 8U to 8U or 16S; 1, 3 or
// 4 channels, centred, no delta, a constant border value that is a byte, and
// source and output rows 16-byte aligned (their loads and stores).
// Their results are exact, as the CPU device's are.
func ipackArgs(d, s *core.State, p *plan) (string, *ipackTaps) {
	k := p.kw
	if ipackOff || !p.sep || (k != 3 && k != 5) || p.kh != k || p.ax != k/2 || p.ay != k/2 || p.delta != 0 ||
		s.Depth != core.Depth8U || (s.Chans != 1 && s.Chans != 3 && s.Chans != 4) ||
		s.Ptr()%16 != 0 || s.Pitch%16 != 0 || d.Ptr()%16 != 0 || d.Pitch%16 != 0 {
		return "", nil
	}
	t := &ipackTaps{K16: 1 << 16}
	for c := range 4 {
		v := float64(p.value[c])
		if p.border == BorderConstant && c < s.Chans && (v != math.Trunc(v) || v < 0 || v > 255) {
			return "", nil
		}
		t.Cval[c] = int32(v)
	}
	if deriv := derivName(p); deriv != "" {
		// derivTaps are all 3x3, so k is 3 here.
		if d.Depth != core.Depth8U && d.Depth != core.Depth16S {
			return "", nil
		}
		return fmt.Sprintf("gi_ipack_%s_k3_c%d_%s", deriv, s.Chans, typeNames[d.Depth]), t
	}
	if d.Depth != core.Depth8U {
		return "", nil
	}
	tx, dx, okx := intTaps(p.kx)
	ty, dy, oky := intTaps(p.ky)
	if !okx || !oky {
		return "", nil
	}
	binomial := binomial5
	if k == 3 {
		binomial = binomial3
	}
	kind, den := "", dx*dy
	switch {
	case allEqual(tx, 1) && allEqual(ty, 1) && den == k*k:
		kind = "box"
	case p.halfUp && slices.Equal(tx, binomial) && slices.Equal(ty, binomial) && den == 1<<(2*(k-1)):
		kind = "gauss"
	default:
		return "", nil
	}
	t.Magic = uint32((1<<32)/den + 1)
	return fmt.Sprintf("gi_ipack_%s_k%d_c%d", kind, k, s.Chans), t
}

// derivTaps are the separable 3x3 kernels the packed integer kernels compute as
// derivatives, by name: the row taps (kx) and the column taps (ky) their
// arithmetic has built in (kernels/filter_ipack.cu's ipk_smooth and ipk_diff),
// which are DerivKernels' for Sobel's and Scharr's first derivatives along x and y
// with scale 1. Written out, not taken from DerivKernels: a plan goes to these
// kernels only if its taps are the ones they compute.
var derivTaps = []struct {
	name   string
	kx, ky []float64
}{
	{"sobelx", []float64{-1, 0, 1}, []float64{1, 2, 1}},
	{"sobely", []float64{1, 2, 1}, []float64{-1, 0, 1}},
	{"scharrx", []float64{-1, 0, 1}, []float64{3, 10, 3}},
	{"scharry", []float64{3, 10, 3}, []float64{-1, 0, 1}},
}

// derivName is the name of the plan's separable taps in derivTaps, or "".
func derivName(p *plan) string {
	for _, d := range derivTaps {
		if slices.Equal(p.kx, d.kx) && slices.Equal(p.ky, d.ky) {
			return d.name
		}
	}
	return ""
}

// The fixed-point Gaussian's taps for ksize 3 and 5 (sigma 0), in quarters and sixteenths.
var binomial3, binomial5 = []int{1, 2, 1}, []int{1, 4, 6, 4, 1}

func allEqual(v []int, x int) bool {
	for _, e := range v {
		if e != x {
			return false
		}
	}
	return true
}

// onLaunch, set by the tests, sees each launch of the packed integer, packed-row,
// integer separable and tensor-core kernels.
var onLaunch func(name string)

// intTaps returns the taps v as non-negative integers over their smallest common
// divisor (up to 256), or false.
func intTaps(v []float64) ([]int, int, bool) {
	out := make([]int, len(v))
	for den := 1; den <= 256; den++ {
		ok := true
		for i, f := range v {
			n := math.Round(f * float64(den))
			if n < 0 || math.Abs(f*float64(den)-n) > 1e-9*float64(den) {
				ok = false
				break
			}
			out[i] = int(n)
		}
		if ok {
			return out, den, true
		}
	}
	return nil, 0, false
}

// filterKind is one way to run a plan on a CUDA device: pick returns its launch
// when it takes the plan (with what it worked out to decide), else nil.
type filterKind struct {
	name string
	pick func(d, s *core.State, p *plan) func(str core.Stream) error
}

// filterKinds are tried in this order; the first that takes the plan runs it (the
// direct kernel takes any).
var filterKinds = []filterKind{
	{"packed integer (gi_ipack_*): box and Gaussian 3x3, 5x5, 8U to 8U; Sobel and Scharr 3x3, 8U to 8U or 16S", pickIPack},
	{"packed rows, zero taps skipped (gi_p2d_k3_c1_u8_*_m*): Laplacian, Sobel, Scharr on 8U", pickP2DMasked},
	{"integer 3x3 separable (gi_isep3_u8_*): Sobel-like, 8U to 16S or 8U", pickISep},
	{"packed rows (gi_p2d_*): centred 3x3, 5x5 on 8U, 16U, 16S", pickP2D},
	{"streaming separable (gi_rsep_*): centred up to 7x7, one-channel 8U", pickRSep},
	{"register (gi_reg_*): centred 3x3, 5x5 on one-channel 8U or 32F, 7x7 32F", pickReg},
	{"tiled separable (gi_sep_*): separable up to 63 taps", pickSep},
	{"tensor-core (gi_imma_*): 2-D up to 7x7, 8U to 8U", pickImma},
	{"tiled 2-D (gi_conv2d_k*): 2-D up to 31x31", pickConv2D},
	{"direct (gi_conv2d_any): any size", pickDirect},
}

// cudaFilter runs the plan with the first of filterKinds that takes it.
func cudaFilter(str core.Stream, d, s *core.State, p *plan) error {
	for _, k := range filterKinds {
		if launch := k.pick(d, s, p); launch != nil {
			return launch(str)
		}
	}
	return fmt.Errorf("convolve: no kernel takes a %dx%d kernel on %v", p.kw, p.kh, s.Depth) // unreachable: the direct kernel takes any
}

// kernel2D is the plan's 2-D kernel (a separable one as its outer product).
func kernel2D(p *plan) [][]float64 {
	if p.sep {
		return outer(p.kx, p.ky)
	}
	return p.k
}

func pickIPack(d, s *core.State, p *plan) func(core.Stream) error {
	name, t := ipackArgs(d, s, p)
	if name == "" {
		return nil
	}
	return func(str core.Stream) error {
		if onLaunch != nil {
			onLaunch(name)
		}
		// Blocks of 4 warps take one span of 30*16 bytes of a row and 4 strips of 8
		// rows; down, as many as fill the GPU once (the launch bounds: ipackBlocks).
		gx := (s.Cols*s.Chans + 479) / 480
		gy := min((s.Rows+31)/32, max(1, core.MultiProcessors(s.Dev)*ipackBlocks(s.Chans)/gx), 65535)
		return s.Dev.Launch(str, name, [3]int{gx, gy, 1}, [3]int{128, 1, 1}, 0, append(geoArgs(d, s, p), core.Struct(t))...)
	}
}

func pickISep(d, s *core.State, p *plan) func(core.Stream) error {
	name, t := isepArgs(d, s, p)
	if name == "" {
		return nil
	}
	return func(str core.Stream) error {
		if onLaunch != nil {
			onLaunch(name)
		}
		// Blocks of 256 columns by 4 strips of isepRows rows; down, as many as fill
		// the GPU once (isepBlocks per SM: its launch bounds), each walking further.
		gx := (s.Cols + 255) / 256
		strip := 4 * isepRows
		gy := min((s.Rows+strip-1)/strip, max(1, core.MultiProcessors(s.Dev)*isepBlocks/gx), 65535)
		return s.Dev.Launch(str, name, [3]int{gx, gy, 1}, [3]int{128, 1, 1}, 0, append(geoArgs(d, s, p), core.Struct(t))...)
	}
}

// p2dSpread: where the strips of rows make 1.5 waves of blocks or more, the p2d
// kernels take a block for each 4 strips rather than one wave of blocks walking
// down. On the H200 (one run, kernel medians of 30; one wave / spread), filter2D
// 3x3 8UC3 at 4K 40.4 / 36.1 µs and at 8K 159.8 / 129.3, 8UC1 at 8K 48.3 / 43.4,
// 16UC1 at 4K 16.6 / 15.7, filter2D 5x5 8UC1 at 4K 22.6 / 21.6, Laplacian 3 at 8K
// 38.0 / 35.8; under 1.5 waves spreading lost (filter2D 3x3 8UC1 at 4K, 1.18
// waves: 14.6 / 15.0). The tests turn it off to walk the strips (SetP2DSpread).
var p2dSpread = true

// p2dOff, isepOff and ipackOff, from GPUIMG_P2D=off, GPUIMG_ISEP=off and
// GPUIMG_IPACK=off, send the plans gi_p2d_*, gi_isep3_* or gi_ipack_* take to the
// kernels after them (for comparisons).
var (
	p2dOff   = os.Getenv("GPUIMG_P2D") == "off"
	isepOff  = os.Getenv("GPUIMG_ISEP") == "off"
	ipackOff = os.Getenv("GPUIMG_IPACK") == "off"
)

// p2dArgs names the packed-row kernel (gi_p2d_k<K>_c<C>_<in>_<out>) for a centred
// 3x3 or 5x5 kernel on an 8U, 16U or 16S image of 1, 3 or 4 channels whose rows are
// aligned for its loads (one lane's elements), with a BORDER_CONSTANT value the
// source's depth holds; or "". Separable 5x5 kernels on one-channel 8U images stay
// with the streaming separable kernel where it takes them (10 multiply-adds an
// output instead of 25).
func p2dArgs(d, s *core.State, p *plan) (name string, t *p2dTaps, masked bool) {
	k := p.kw
	if p2dOff || (k != 3 && k != 5) || p.kh != k || p.ax != k/2 || p.ay != k/2 ||
		(s.Chans != 1 && s.Chans != 3 && s.Chans != 4) {
		return "", nil, false
	}
	switch {
	case s.Depth == core.Depth8U:
	case (s.Depth == core.Depth16U || s.Depth == core.Depth16S) && (d.Depth == s.Depth || d.Depth == core.Depth32F):
	default:
		return "", nil, false
	}
	vec := uintptr(p2dElems(k, s.Depth.Size(), s.Chans) * s.Depth.Size())
	if s.Ptr()%vec != 0 || uintptr(s.Pitch)%vec != 0 {
		return "", nil, false
	}
	if k == 5 && p.sep {
		if name, _, _ := rsepKernel(d, s, p); name != "" {
			return "", nil, false
		}
	}
	t, mask := &p2dTaps{}, 0
	for i, row := range kernel2D(p) {
		for j, v := range row {
			t.W[i*k+j] = float32(v)
			if t.W[i*k+j] != 0 {
				mask |= 1 << (i*k + j)
			}
		}
	}
	lo, hi := 0.0, 255.0
	switch s.Depth {
	case core.Depth16U:
		hi = 65535
	case core.Depth16S:
		lo, hi = -32768, 32767
	}
	for c := range 4 {
		v := float64(p.value[c])
		if p.border == BorderConstant && c < s.Chans && (v != math.Trunc(v) || v < lo || v > hi) {
			return "", nil, false
		}
		if c < s.Chans {
			t.Cval[c] = int32(v)
		}
	}
	name = fmt.Sprintf("gi_p2d_k%d_c%d_%s_%s", k, s.Chans, typeNames[s.Depth], typeNames[d.Depth])
	if k == 3 && s.Chans == 1 && s.Depth == core.Depth8U && slices.Contains(p2dMasks, mask) {
		name += fmt.Sprintf("_m%03x", mask)
		masked = true
	}
	return name, t, masked
}

// pickP2DMasked takes the plans of the packed-row kernels that skip zero taps,
// before the integer separable kernel (on the H100 they measured faster for Sobel
// and Scharr: 8U to 16S at 1080p / 4K / 8K 6.9 / 13.4 / 42.6 us against 7.4 / 14.0 /
// 44.3; 8U to 8U 7.1 / 14.1 / 43.1 against 7.5 / 14.1 / 44.5); pickP2D takes the rest.
func pickP2DMasked(d, s *core.State, p *plan) func(core.Stream) error {
	return p2dLaunch(d, s, p, true)
}

func pickP2D(d, s *core.State, p *plan) func(core.Stream) error { return p2dLaunch(d, s, p, false) }

// p2dLaunch is the launch of the plan's packed-row kernel, or nil where there is none
// (or, maskedOnly, none that skips zero taps).
func p2dLaunch(d, s *core.State, p *plan, maskedOnly bool) func(core.Stream) error {
	name, t, masked := p2dArgs(d, s, p)
	if name == "" || maskedOnly && !masked {
		return nil
	}
	return func(str core.Stream) error {
		if onLaunch != nil {
			onLaunch(name)
		}
		// Blocks of 4 warps take one span of 30 lanes' elements of a row and 4 strips
		// of rows; down, as many as fill the GPU once, or a block for each 4 strips.
		k, size := p.kw, s.Depth.Size()
		span, strip := 30*p2dElems(k, size, s.Chans), 4*p2dRows(k, size)
		gx := (s.Cols*s.Chans + span - 1) / span
		// The blocks an SM holds as the driver counts them (7 for the 72-register
		// masked 3x3 kernels on sm_90, not the launch bounds' 6: Sobel and Scharr
		// 4K 4-8% faster on the H200).
		blocks := core.BlocksPerSM(s.Dev, name, 128, 0, p2dBlocks(k, s.Chans))
		gy, wave := (s.Rows+strip-1)/strip, max(1, core.MultiProcessors(s.Dev)*blocks/gx)
		if !p2dSpread || 2*gy < 3*wave {
			// Fewer than 1.5 waves of blocks of one strip each: one wave walking
			// down (the second wave's tail would cost more).
			gy = min(gy, wave)
		}
		gy = min(gy, 65535)
		return s.Dev.Launch(str, name, [3]int{gx, gy, 1}, [3]int{128, 1, 1}, 0, append(geoArgs(d, s, p), core.Struct(t))...)
	}
}

func pickRSep(d, s *core.State, p *plan) func(core.Stream) error {
	name, k, taps := rsepKernel(d, s, p)
	if name == "" {
		return nil
	}
	return func(str core.Stream) error {
		e := rsepElems(k)
		spans := (s.Cols*s.Chans + 30*e - 1) / (30 * e) // a warp writes 30 lanes x E elements
		grid, rows := rsepGrid(s, k, spans)
		args := append(geoArgs(d, s, p), core.Struct(taps), rows)
		return s.Dev.Launch(str, name, grid, [3]int{128, 1, 1}, 0, args...)
	}
}

func pickReg(d, s *core.State, p *plan) func(core.Stream) error {
	name, k := regKernel(d, s, p)
	if name == "" {
		return nil
	}
	return func(str core.Stream) error {
		t := kernelTaps(p, k)
		rows := 4 * 8 // outputs per block down: 4 warps of R rows (kernels/filter_reg.cu)
		if k >= 5 {
			rows = 4 * 6
		}
		args := append(geoArgs(d, s, p), core.Struct(t))
		return s.Dev.Launch(str, name, grid(s.Cols, s.Rows, 120, rows, 1), [3]int{32, 4, 1}, 0, args...)
	}
}

func pickSep(d, s *core.State, p *plan) func(core.Stream) error {
	if !p.sep || max(p.kw, p.kh) > sepMax {
		return nil
	}
	return func(str core.Stream) error {
		t := &taps{}
		for i, v := range p.kx {
			t.V[i] = float32(v)
		}
		for i, v := range p.ky {
			t.V[sepYOff+i] = float32(v)
		}
		// The kernel runs K taps each way, the taps padded with zeros after the anchor.
		k := bucket(sepSizes, max(p.kw, p.kh))
		cp, th := s.Chans, sepTileH/2
		smem := func(cp, th int) int { return cp * (th + k - 1) * (tileW + k - 1 + tileW) * 4 }
		if cp <= 2 || smem(cp, th) > smemLimit { // no 2-channel variant: one channel per block
			cp, th = 1, sepTileH
		}
		name := fmt.Sprintf("gi_sep_k%d_c%d", k, cp)
		args := append(geoArgs(d, s, p), core.Struct(t))
		return s.Dev.Launch(str, name, grid(s.Cols, s.Rows, tileW, th, s.Chans/cp), [3]int{32, 8, 1}, smem(cp, th), args...)
	}
}

// pickImma takes 2-D kernels of the 7x7 bucket from 8U to 8U where the tensor-core
// kernel does (immaArgs).
func pickImma(d, s *core.State, p *plan) func(core.Stream) error {
	if p.sep && max(p.kw, p.kh) <= sepMax || bucket(convSizes, max(p.kw, p.kh)) != 7 {
		return nil
	}
	name, t := immaArgs(d, s, p, kernel2D(p))
	if name == "" {
		return nil
	}
	return func(str core.Stream) error { return immaLaunch(str, d, s, p, name, t) }
}

func pickConv2D(d, s *core.State, p *plan) func(core.Stream) error {
	kk := bucket(convSizes, max(p.kw, p.kh))
	if kk == 0 {
		return nil
	}
	return func(str core.Stream) error {
		t := kernelTaps(p, kk)
		// Tiles of 8 rows per thread row (64) for 3x3, 16 (128) for larger kernels,
		// except 7x7 (kernels/filter_tiled.cu): 8 on one-channel images
		// (gi_conv2d_k7_py8), two columns per thread on the others, 64 by 64
		// (gi_conv2d_px2_k7; from 8U to 8U on 3 or 4 channels gi_conv2d_u8c<C>_k7,
		// one tile per block).
		name, tw, th := fmt.Sprintf("gi_conv2d_k%d", kk), tileW, convTileH
		switch {
		case kk == 7 && s.Chans == 1:
			name = "gi_conv2d_k7_py8"
		case kk == 7 && (s.Chans == 3 || s.Chans == 4) && s.Depth == core.Depth8U && d.Depth == core.Depth8U &&
			!p.halfUp && (s.Rows+convTileH-1)/convTileH <= 65535:
			name, tw = fmt.Sprintf("gi_conv2d_u8c%d_k7", s.Chans), 2*tileW
		case kk == 7:
			name, tw = "gi_conv2d_px2_k7", 2*tileW
		case kk > 3:
			th = 2 * convTileH
		}
		g := grid(s.Cols, s.Rows, tw, th, 1)
		g[0] *= s.Chans // a tile column's channels are neighbouring blocks (kernels/filter_tiled.cu)
		args := append(geoArgs(d, s, p), core.Struct(t))
		return s.Dev.Launch(str, name, g, [3]int{32, 8, 1}, 0, args...)
	}
}

// kernelTaps lays the plan's 2-D kernel out in Taps, rows k taps apart.
func kernelTaps(p *plan, k int) *taps {
	t := &taps{}
	for i, row := range kernel2D(p) {
		for j, v := range row {
			t.V[i*k+j] = float32(v)
		}
	}
	return t
}

// pickDirect takes any plan: the taps go in a device buffer.
func pickDirect(d, s *core.State, p *plan) func(core.Stream) error {
	return func(str core.Stream) error {
		host := make([]byte, 4*p.kw*p.kh)
		for i, row := range kernel2D(p) {
			for j, v := range row {
				binary.LittleEndian.PutUint32(host[4*(i*p.kw+j):], math.Float32bits(float32(v)))
			}
		}
		return core.WithUpload(s.Dev, str, host, func(taps uintptr) error {
			args := append(geoArgs(d, s, p), taps)
			return s.Dev.Launch(str, "gi_conv2d_any", grid(s.Cols, s.Rows, 32, 8, s.Chans), [3]int{32, 8, 1}, 0, args...)
		})
	}
}
