//go:build cuda

package fftfilter_test

import (
	"fmt"
	"image"
	"math/rand"
	"testing"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CUDA device against the CPU device: the same calls on the same random inputs,
// whole images and views at odd offsets, into poisoned outputs.

// twin is one input on both devices (a view inside a larger image when roi).
type twin struct {
	cpu, gpu *gpuimage.Image
	all      []*gpuimage.Image
}

func (w *twin) close() {
	for _, im := range w.all {
		im.Close()
	}
}

func newTwin(t *testing.T, gpu *gpuimage.Device, rows, cols int, mt gpuimage.MatType, data []byte, roi bool) *twin {
	t.Helper()
	w := &twin{}
	prow, pcol, rect := rows, cols, image.Rect(0, 0, cols, rows)
	if roi {
		prow, pcol, rect = rows+3, cols+5, image.Rect(3, 1, 3+cols, 1+rows)
		big := make([]byte, prow*pcol*mt.Channels()*mt.Depth().Size())
		rowBytes, esz := cols*mt.Channels()*mt.Depth().Size(), mt.Channels()*mt.Depth().Size()
		for y := 0; y < rows; y++ {
			copy(big[((y+1)*pcol+3)*esz:], data[y*rowBytes:(y+1)*rowBytes])
		}
		data = big
	}
	for i, dev := range []*gpuimage.Device{gpuimage.CPU(), gpu} {
		full := newImage(t, dev, prow, pcol, mt, data)
		v, err := full.Region(rect)
		if err != nil {
			t.Fatal(err)
		}
		w.all = append(w.all, full, v)
		if i == 0 {
			w.cpu = v
		} else {
			w.gpu = v
		}
	}
	return w
}

// poisoned returns an output image on the GPU, already of the type the call makes,
// so the call writes into poisoned memory.
func poisoned(t *testing.T, gpu *gpuimage.Device, like *gpuimage.Image) *gpuimage.Image {
	return tu.Poisoned(t, gpu, like.Rows(), like.Cols(), like.Type())
}

// compare runs call on both devices and compares the outputs.
func compare(t *testing.T, gpu *gpuimage.Device, name string, call func(dev int, out *gpuimage.Image) error, check func(got, want []byte, d gpuimage.Depth)) {
	t.Helper()
	want := &gpuimage.Image{}
	defer want.Close()
	if err := call(0, want); err != nil {
		t.Fatalf("%s on the CPU: %v", name, err)
	}
	got := poisoned(t, gpu, want)
	defer got.Close()
	if err := call(1, got); err != nil {
		t.Fatalf("%s on CUDA: %v", name, err)
	}
	if got.Type() != want.Type() {
		t.Fatalf("%s: CUDA type %v, CPU %v", name, got.Type(), want.Type())
	}
	check(tu.Bytes(t, got), tu.Bytes(t, want), want.Depth())
	// Into an output the call allocates itself (which may be laid out its own way,
	// as CCS spectra are), poisoned and then written again.
	own := &gpuimage.Image{}
	defer own.Close()
	if err := call(1, own); err != nil {
		t.Fatalf("%s on CUDA, new output: %v", name, err)
	}
	if err := own.SetTo(gpuimage.NewScalar(-1234.5, -1234.5, -1234.5, -1234.5)); err != nil {
		t.Fatal(err)
	}
	if err := call(1, own); err != nil {
		t.Fatalf("%s on CUDA, own output: %v", name, err)
	}
	check(tu.Bytes(t, own), tu.Bytes(t, want), want.Depth())
}

func randFloats(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.Float64()*2 - 1
	}
	return v
}

func TestCUDADFT(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, sz := range append(sizes, [2]int{2160, 3840}) {
		for _, c := range dftCases {
			for _, roi := range []bool{false, true} {
				rows, cols := sz[0], sz[1]
				big := rows*cols > 1<<20 // the CPU reference takes seconds there
				if big && (roi || testing.Short() || (c.flags != 0 && c.flags != fftfilter.DFTComplexOutput && c.flags != fftfilter.DFTInverse)) {
					continue
				}
				name := fmt.Sprintf("%dx%d/C%d/flags%d/roi=%v", rows, cols, c.cn, c.flags, roi)
				mt := gpuimage.MakeType(gpuimage.Depth32F, c.cn)
				data := encode(randFloats(r, rows*cols*c.cn))
				if c.cn == 2 && c.flags&fftfilter.DFTRealOutput != 0 {
					data = spectrumOf(t, rows, cols, data[:4*rows*cols], c.flags&fftfilter.DFTRows)
				}
				w := newTwin(t, gpu, rows, cols, mt, data, roi)
				compare(t, gpu, name, func(dev int, out *gpuimage.Image) error {
					return fftfilter.DFT([]*gpuimage.Image{w.cpu, w.gpu}[dev], out, c.flags)
				}, func(got, want []byte, _ gpuimage.Depth) { closeEnough(t, name, got, want, 1e-4, 1e-5) })
				w.close()
			}
		}
	}
}

// spectrumOf is the whole spectrum of a real image (the CPU device's), a valid input
// for an inverse transform to a real image.
func spectrumOf(t *testing.T, rows, cols int, real []byte, rowsFlag fftfilter.Flags) []byte {
	t.Helper()
	x := newImage(t, gpuimage.CPU(), rows, cols, gpuimage.CV32FC1, real)
	defer x.Close()
	s := &gpuimage.Image{}
	defer s.Close()
	if err := fftfilter.DFT(x, s, fftfilter.DFTComplexOutput|rowsFlag); err != nil {
		t.Fatal(err)
	}
	return tu.Bytes(t, s)
}

func TestCUDAMulSpectrumsAndPolar(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, sz := range sizes {
		for _, cn := range []int{1, 2} {
			for _, flags := range []fftfilter.Flags{0, fftfilter.DFTRows} {
				for _, conj := range []bool{false, true} {
					rows, cols := sz[0], sz[1]
					name := fmt.Sprintf("%dx%d/C%d/flags%d/conj=%v", rows, cols, cn, flags, conj)
					mt := gpuimage.MakeType(gpuimage.Depth32F, cn)
					a := newTwin(t, gpu, rows, cols, mt, encode(randFloats(r, rows*cols*cn)), true)
					b := newTwin(t, gpu, rows, cols, mt, encode(randFloats(r, rows*cols*cn)), false)
					compare(t, gpu, name, func(dev int, out *gpuimage.Image) error {
						return fftfilter.MulSpectrums([]*gpuimage.Image{a.cpu, a.gpu}[dev], []*gpuimage.Image{b.cpu, b.gpu}[dev], out, flags, conj)
					}, func(got, want []byte, _ gpuimage.Depth) { closeEnough(t, name, got, want, 1e-6, 1e-7) })
					if flags == 0 && !conj {
						for mode, call := range []func(x, y, out *gpuimage.Image) error{
							func(x, y, out *gpuimage.Image) error { return fftfilter.Magnitude(x, y, out) },
							func(x, y, out *gpuimage.Image) error { return fftfilter.Phase(x, y, out, false) },
							func(x, y, out *gpuimage.Image) error { return fftfilter.Phase(x, y, out, true) },
						} {
							compare(t, gpu, fmt.Sprintf("%s/polar%d", name, mode), func(dev int, out *gpuimage.Image) error {
								return call([]*gpuimage.Image{a.cpu, a.gpu}[dev], []*gpuimage.Image{b.cpu, b.gpu}[dev], out)
							}, func(got, want []byte, _ gpuimage.Depth) { closeEnough(t, name, got, want, 1e-6, 1e-7) })
						}
					}
					// In place: dst is a.
					want := &gpuimage.Image{}
					if err := fftfilter.MulSpectrums(a.cpu, b.cpu, want, flags, conj); err != nil {
						t.Fatal(err)
					}
					if err := fftfilter.MulSpectrums(a.gpu, b.gpu, a.gpu, flags, conj); err != nil {
						t.Fatal(err)
					}
					closeEnough(t, name+"/in place", tu.Bytes(t, a.gpu), tu.Bytes(t, want), 1e-6, 1e-7)
					want.Close()
					a.close()
					b.close()
				}
			}
		}
	}
}

func TestCUDAFilters(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 1}, {1, 37}, {29, 1}, {61, 45}, {300, 451}, {2160, 3840}} {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV16UC1, gpuimage.CV16SC4, gpuimage.CV32FC1, gpuimage.CV32FC3} {
			rows, cols := sz[0], sz[1]
			big := rows*cols > 1<<20
			if big && (testing.Short() || (mt != gpuimage.CV32FC1 && mt != gpuimage.CV8UC3)) {
				continue
			}
			for _, roi := range []bool{false, true} {
				if big && roi {
					continue
				}
				w := newTwin(t, gpu, rows, cols, mt, tu.RandomBytes(r, mt.Depth(), rows*cols*mt.Channels()), roi)
				for fi, f := range filters {
					if big && fi%3 != 0 {
						continue
					}
					name := fmt.Sprintf("%dx%d/%v/roi=%v/filter%d", rows, cols, mt, roi, fi)
					compare(t, gpu, name, func(dev int, out *gpuimage.Image) error {
						return fftfilter.Apply([]*gpuimage.Image{w.cpu, w.gpu}[dev], out, f)
					}, func(got, want []byte, d gpuimage.Depth) { checkFiltered(t, name, d, got, want) })
				}
				if mt.Channels() == 1 && !big {
					name := fmt.Sprintf("%dx%d/%v/roi=%v/spectrum", rows, cols, mt, roi)
					compare(t, gpu, name, func(dev int, out *gpuimage.Image) error {
						return fftfilter.Spectrum([]*gpuimage.Image{w.cpu, w.gpu}[dev], out)
					}, func(got, want []byte, d gpuimage.Depth) { tu.Check(t, name, d, got, want) })
					gains := make([]float64, rows*cols) // a mask's gains lie in 0..1
					for i := range gains {
						gains[i] = r.Float64()
					}
					m := newTwin(t, gpu, rows, cols, gpuimage.CV32FC1, encode(gains), false)
					compare(t, gpu, name+"/mask", func(dev int, out *gpuimage.Image) error {
						return fftfilter.ApplyMask([]*gpuimage.Image{w.cpu, w.gpu}[dev], out, []*gpuimage.Image{m.cpu, m.gpu}[dev])
					}, func(got, want []byte, d gpuimage.Depth) { checkFiltered(t, name+"/mask", d, got, want) })
					m.close()
				}
				w.close()
			}
		}
	}
}

func TestCUDAConvolve(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	borders := []gpuimage.BorderType{gpuimage.BorderConstant, gpuimage.BorderReplicate, gpuimage.BorderReflect,
		gpuimage.BorderWrap, gpuimage.BorderReflect101, gpuimage.BorderReflect101 | gpuimage.BorderIsolated}
	for _, sz := range [][2]int{{1, 1}, {1, 40}, {33, 1}, {45, 61}, {300, 451}} {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV16UC4, gpuimage.CV32FC1} {
			for _, k := range []struct{ w, h int }{{1, 1}, {3, 3}, {8, 5}, {31, 31}} {
				for bi, b := range borders {
					rows, cols := sz[0], sz[1]
					roi := bi%2 == 1
					name := fmt.Sprintf("%dx%d/%v/k%dx%d/%v/roi=%v", rows, cols, mt, k.w, k.h, b, roi)
					kern := make([][]float64, k.h)
					for i := range kern {
						kern[i] = randFloats(r, k.w)
					}
					anchor := image.Pt(r.Intn(k.w), r.Intn(k.h))
					w := newTwin(t, gpu, rows, cols, mt, tu.RandomBytes(r, mt.Depth(), rows*cols*mt.Channels()), roi)
					dd := gpuimage.Depth(-1)
					if mt.Depth() == gpuimage.Depth8U {
						dd = gpuimage.Depth32F
					}
					compare(t, gpu, name, func(dev int, out *gpuimage.Image) error {
						return fftfilter.Convolve([]*gpuimage.Image{w.cpu, w.gpu}[dev], out, dd, kern, anchor, 2.5, b,
							gpuimage.BorderValue(gpuimage.NewScalar(7, 8, 9, 10)))
					}, func(got, want []byte, d gpuimage.Depth) {
						if d != gpuimage.Depth32F {
							tu.Check(t, name, d, got, want)
							return
						}
						// float32 transforms err by a few 1e-7 of the inputs' scale
						// (largest input times the kernel's absolute sum), however
						// small the output.
						closeAbs(t, name, got, want, 1e-4, 2e-6*tu.InputMax(mt.Depth())*tu.SumAbs(kern))
					})
					w.close()
				}
			}
		}
	}
}

// Plans made for a stream are freed when it closes; calls on streams work.
func TestCUDAStreams(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	src, _ := tu.Random(t, r, gpu, 64, 96, gpuimage.CV32FC1)
	defer src.Close()
	want := &gpuimage.Image{}
	defer want.Close()
	if err := fftfilter.LowPass(src, want, fftfilter.Butterworth, 6, 2); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		s, err := gpu.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		got := &gpuimage.Image{}
		if err := fftfilter.LowPass(src, got, fftfilter.Butterworth, 6, 2, gpuimage.OnStream(s)); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, "LowPass on a stream", gpuimage.Depth32F, tu.Bytes(t, got), tu.Bytes(t, want))
		got.Close()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := fftfilter.FreePlans(); err != nil {
		t.Fatal(err)
	}
}
