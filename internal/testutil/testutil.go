// Package testutil has the helpers gpuimg's tests share: random inputs of awkward
// sizes, poisoned outputs and element-wise comparison with a tolerance.
package testutil

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// Sizes are the (rows, cols) every operation is tested on: 1x1, one row, one
// column, an odd-sized image (451 wide, 300 high) and thin ones both ways.
var Sizes = [][2]int{{1, 1}, {1, 37}, {37, 1}, {300, 451}, {4097, 3}, {3, 4097}}

// Types are every supported image type.
var Types = []gpuimage.MatType{
	gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV8UC4,
	gpuimage.CV16UC1, gpuimage.CV16UC3, gpuimage.CV16UC4,
	gpuimage.CV16SC1, gpuimage.CV16SC3, gpuimage.CV16SC4,
	gpuimage.CV32FC1, gpuimage.CV32FC3, gpuimage.CV32FC4,
}

// Depths are every supported depth.
var Depths = []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F}

// Rand returns a generator seeded from the test's name and a fresh seed, logged so
// a failure can be replayed with GPUIMG_SEED.
func Rand(t testing.TB) *rand.Rand {
	seed := rand.Int63()
	if v := os.Getenv("GPUIMG_SEED"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("GPUIMG_SEED=%q: %v", v, err)
		}
		seed = n
	}
	t.Logf("seed %d", seed)
	return rand.New(rand.NewSource(seed))
}

// RandomBytes returns n elements of depth d as bytes: integers over the whole range,
// floats in [-300, 600) so conversions saturate both ways.
func RandomBytes(r *rand.Rand, d gpuimage.Depth, n int) []byte {
	b := make([]byte, n*d.Size())
	switch d {
	case gpuimage.Depth32F:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(r.Float64()*900-300)))
		}
	default:
		r.Read(b)
	}
	return b
}

// SpecialFloats sets about a third of the float32s in b (little-endian) to NaN,
// infinities, the largest, huge, tiny, denormal and negative-zero values, and
// integers past float32's exact range; the rest stay as they are.
func SpecialFloats(r *rand.Rand, b []byte) {
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32,
		-math.MaxFloat32, 1e30, -1e30, math.SmallestNonzeroFloat32, float32(math.Copysign(0, -1)), 1e-30, 16777217, -1e9}
	for i := 0; i+4 <= len(b); i += 4 {
		if r.Intn(3) == 0 {
			binary.LittleEndian.PutUint32(b[i:], math.Float32bits(special[r.Intn(len(special))]))
		}
	}
}

// SumAbs is the sum of |taps| of a 2-D kernel (the scale of a filter's rounding error).
func SumAbs(k [][]float64) float64 {
	s := 0.0
	for _, row := range k {
		for _, v := range row {
			s += math.Abs(v)
		}
	}
	return s
}

// InputMax is the largest magnitude RandomBytes gives for depth d.
func InputMax(d gpuimage.Depth) float64 {
	switch d {
	case gpuimage.Depth8U:
		return 255
	case gpuimage.Depth16U, gpuimage.Depth16S:
		return 65535
	}
	return 600
}

// CUDA returns CUDA device 0, failing the test when it cannot be opened.
func CUDA(t testing.TB) *gpuimage.Device {
	t.Helper()
	d, err := gpuimage.CUDA(0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Random returns a rows x cols image of type t on dev with random pixels, and the bytes.
func Random(t testing.TB, r *rand.Rand, dev *gpuimage.Device, rows, cols int, mt gpuimage.MatType) (*gpuimage.Image, []byte) {
	t.Helper()
	data := RandomBytes(r, mt.Depth(), rows*cols*mt.Channels())
	im, err := gpuimage.New(dev, rows, cols, mt)
	if err != nil {
		t.Fatal(err)
	}
	if err := im.Upload(data); err != nil {
		t.Fatal(err)
	}
	return im, data
}

// PoisonByte is the byte Poisoned fills images with (a NaN-free pattern no
// operation produces by chance across a whole image): what a caller finds where
// an operation wrote nothing.
const PoisonByte = 0xCD

// Poisoned returns a rows x cols image of type mt filled with PoisonByte.
func Poisoned(t testing.TB, dev *gpuimage.Device, rows, cols int, mt gpuimage.MatType) *gpuimage.Image {
	t.Helper()
	im, err := gpuimage.New(dev, rows, cols, mt)
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, rows*cols*mt.Channels()*mt.Depth().Size())
	for i := range p {
		p[i] = PoisonByte
	}
	if err := im.Upload(p); err != nil {
		t.Fatal(err)
	}
	return im
}

// Bytes downloads an image.
func Bytes(t testing.TB, im *gpuimage.Image) []byte {
	t.Helper()
	b := make([]byte, im.Rows()*im.Cols()*im.ElemSize())
	if err := im.Download(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// Values decodes elements of depth d.
func Values(d gpuimage.Depth, b []byte) []float64 {
	n := len(b) / d.Size()
	v := make([]float64, n)
	for i := range v {
		switch d {
		case gpuimage.Depth8U:
			v[i] = float64(b[i])
		case gpuimage.Depth16U:
			v[i] = float64(binary.LittleEndian.Uint16(b[2*i:]))
		case gpuimage.Depth16S:
			v[i] = float64(int16(binary.LittleEndian.Uint16(b[2*i:])))
		case gpuimage.Depth32F:
			v[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		}
	}
	return v
}

// Tolerance is the default allowed difference: ±1 for integer depths, 1e-5 relative
// (with a 1e-6 absolute floor) for 32F.
func Tolerance(d gpuimage.Depth) (abs, rel float64) {
	if d == gpuimage.Depth32F {
		return 1e-6, 1e-5
	}
	return 1, 0
}

// Diff describes how far got is from want.
type Diff struct {
	N, Bad, Exact int
	MaxAbs        float64
	First         string
}

// Compare compares elements of depth d and returns the statistics; an element is
// bad when |got-want| > abs + rel*|want| or exactly one of them is NaN.
func Compare(d gpuimage.Depth, got, want []byte, abs, rel float64) Diff {
	g, w := Values(d, got), Values(d, want)
	var r Diff
	if len(g) != len(w) {
		r.Bad = -1
		r.First = fmt.Sprintf("lengths differ: %d vs %d", len(g), len(w))
		return r
	}
	r.N = len(g)
	for i := range g {
		diff := math.Abs(g[i] - w[i])
		if g[i] == w[i] || (math.IsNaN(g[i]) && math.IsNaN(w[i])) {
			r.Exact++
			continue
		}
		if diff > r.MaxAbs || math.IsNaN(diff) {
			r.MaxAbs = diff
		}
		if !(diff <= abs+rel*math.Abs(w[i])) {
			if r.Bad == 0 {
				r.First = fmt.Sprintf("element %d: got %v, want %v", i, g[i], w[i])
			}
			r.Bad++
		}
	}
	return r
}

// Check fails the test when got and want differ beyond the default tolerance.
func Check(t testing.TB, what string, d gpuimage.Depth, got, want []byte) {
	t.Helper()
	abs, rel := Tolerance(d)
	r := Compare(d, got, want, abs, rel)
	if r.Bad != 0 {
		t.Errorf("%s: %d of %d elements out of tolerance (max diff %g); %s", what, r.Bad, r.N, r.MaxAbs, r.First)
	}
}

// Bench runs op as a benchmark on every device this build has (the CPU, and CUDA
// device 0 in cuda builds), on a random rows x cols image of type mt into one
// reused output, with b.SetBytes(rows*cols*bytesPerPixel): the wall-clock time of
// whole calls. The bench command times kernels alone with device events.
func Bench(b *testing.B, mt gpuimage.MatType, rows, cols, bytesPerPixel int, op func(src, dst *gpuimage.Image) error) {
	devs := []*gpuimage.Device{gpuimage.CPU()}
	if gpuimage.CUDAEnabled {
		devs = append(devs, CUDA(b))
	}
	for _, dev := range devs {
		b.Run(dev.Name(), func(b *testing.B) {
			src, _ := Random(b, rand.New(rand.NewSource(1)), dev, rows, cols, mt)
			defer src.Close()
			dst := &gpuimage.Image{}
			defer dst.Close()
			b.SetBytes(int64(rows * cols * bytesPerPixel))
			for i := 0; i < b.N; i++ {
				if err := op(src, dst); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// F32Bytes is float32 values as the bytes of a 32F image (little-endian).
func F32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Float32s downloads a 32F image's elements.
func Float32s(t testing.TB, im *gpuimage.Image) []float32 {
	t.Helper()
	b := Bytes(t, im)
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// EventMedian runs op once (a warm-up), then b.N times between two CUDA events on
// s, and reports the median time between them as us-kernel. op queues its work
// on s.
func EventMedian(b *testing.B, s *gpuimage.Stream, op func() error) {
	if err := op(); err != nil {
		b.Fatal(err)
	}
	s.Synchronize()
	ts := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e0, _ := s.Record()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		e1, _ := s.Record()
		e1.Synchronize()
		d, _ := e1.Since(e0)
		ts = append(ts, d)
		e0.Close()
		e1.Close()
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	b.ReportMetric(float64(ts[len(ts)/2].Nanoseconds())/1e3, "us-kernel")
}

// SciPy runs the Python script (a path relative to the test's package, e.g.
// testdata/scipy_ref.py) with Debian's python3 on cases, which it reads as JSON on
// stdin, and returns its JSON list of results, one a case. Without python3-scipy
// (make deps installs it) the test is skipped, or fails under CI.
func SciPy(t *testing.T, script string, cases any, n int) []json.RawMessage {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := fmt.Sprintf("SciPy reference (python3-scipy, installed by make deps): %v: %s", err, stderr.String())
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var res []json.RawMessage
	if err := json.Unmarshal(out, &res); err != nil || len(res) != n {
		t.Fatalf("SciPy reference: %v (%d results for %d cases)", err, len(res), n)
	}
	return res
}

// Rows reads a 32FC1 image as rows of float64 values.
func Rows(t testing.TB, im *gpuimage.Image) [][]float64 {
	t.Helper()
	v := Float32s(t, im)
	out := make([][]float64, im.Rows())
	for y := range out {
		out[y] = make([]float64, im.Cols())
		for i := range out[y] {
			out[y][i] = float64(v[y*im.Cols()+i])
		}
	}
	return out
}

// UploadRows is vals (rows of equal length) as a 32FC1 image on dev.
func UploadRows(t testing.TB, dev *gpuimage.Device, vals [][]float32) *gpuimage.Image {
	t.Helper()
	flat := make([]float32, 0, len(vals)*len(vals[0]))
	for _, v := range vals {
		flat = append(flat, v...)
	}
	im, err := gpuimage.New(dev, len(vals), len(vals[0]), gpuimage.CV32FC1)
	if err != nil {
		t.Fatal(err)
	}
	if err := im.Upload(F32Bytes(flat)); err != nil {
		t.Fatal(err)
	}
	return im
}

// NoPanic runs fn and fails t if it panics (naming what, with the panic) or does
// not return within limit (fatally: the call is still running).
func NoPanic(t testing.TB, what string, limit time.Duration, fn func()) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		fn()
	}()
	select {
	case p := <-done:
		if p != nil {
			t.Errorf("%s: panic: %v", what, p)
		}
	case <-time.After(limit):
		t.Fatalf("%s: no return within %v", what, limit)
	}
}
