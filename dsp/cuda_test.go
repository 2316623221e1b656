//go:build cuda

package dsp_test

import (
	"fmt"
	"image"
	"math"
	"sync"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Convolve and Correlate on the GPU, direct and by FFT (the fused kernel, and
// cuFFT's path with it off), against the CPU device's
// direct sums on fresh random signals:
// lengths 1 to 1e5, taps 1 to 8191 (one launch up to 512, several past it), every
// mode, batches, into poisoned outputs; within 1e-5 of the output's RMS, or of the
// RMS the filter gives noise of the input's where that is larger (one-sample
// signals whose products cancel: termErr). The GPU sums in float32, the CPU in
// float64. Logged: the largest difference per case.
func TestCUDAConvolveMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	worst := map[dsp.Method]float64{}
	for _, n := range []int{1, 7, 4097, 100000} {
		for _, m := range []int{1, 7, 8, 9, 512, 513, 960, 2000, 8191, 9000} {
			for _, rows := range []int{1, 3} {
				if n == 100000 && rows > 1 && m > 1000 || n == 100000 && m > 8192 || testing.Short() && (n > 4097 || m > 961) {
					continue // -short: the cases compute-sanitizer runs
				}
				for _, mode := range []dsp.Mode{dsp.Full, dsp.Same, dsp.Valid} {
					for _, corr := range []bool{false, true} {
						name := fmt.Sprintf("%dx%d m=%d %v corr=%v", rows, n, m, mode, corr)
						h := randTaps(r, m)
						cs, vals := signals(t, r, gpuimage.CPU(), rows, n)
						flat := make([]float32, 0, rows*n)
						for _, v := range vals {
							flat = append(flat, v...)
						}
						gs, err := gpuimage.New(gpu, rows, n, gpuimage.CV32FC1)
						if err != nil {
							t.Fatal(err)
						}
						gs.Upload(tu.F32Bytes(flat))
						f := dsp.Convolve
						if corr {
							f = dsp.Correlate
						}
						want := &gpuimage.Image{}
						if err := f(cs, want, h, mode, dsp.Direct); err != nil {
							t.Fatal(err)
						}
						for _, meth := range []dsp.Method{dsp.Direct, dsp.FFT, cufftPath} {
							got := tu.Poisoned(t, gpu, want.Rows(), want.Cols(), gpuimage.CV32FC1)
							dsp.SetFused(meth != cufftPath)
							if meth == cufftPath {
								meth = dsp.FFT
							}
							err := f(gs, got, h, mode, meth)
							dsp.SetFused(true)
							if err != nil {
								t.Fatalf("%s %v: %v", name, meth, err)
							}
							e := termErr(f64(tu.Float32s(t, got)), f64(tu.Float32s(t, want)), flat, h)
							worst[meth] = math.Max(worst[meth], e)
							if e > 1e-5 || got.Cols() != want.Cols() || got.Rows() != want.Rows() {
								t.Errorf("%s %v: GPU %dx%d off the CPU's %dx%d by %.3g of the RMS", name, meth, got.Cols(), got.Rows(), want.Cols(), want.Rows(), e)
							}
							got.Close()
						}
						for _, im := range []*gpuimage.Image{cs, gs, want} {
							im.Close()
						}
					}
				}
			}
		}
	}
	t.Logf("largest GPU-CPU difference: direct %.3g, FFT %.3g (fused; cuFFT's path where it runs) of the output's RMS", worst[dsp.Direct], worst[dsp.FFT])
}

// cufftPath stands for the FFT method on cuFFT's path (the fused kernel off) in
// the tests' method lists.
const cufftPath = dsp.Method(-1)

// ConvolveBank on the GPU (the fused kernel's filters share each frame's
// transform; eight a launch, so nine take two; 8191 taps keep the spectrum in
// scratch) against the CPU device's, on fresh random signals, into poisoned
// outputs, from a view; within 1e-5 of each output's RMS.
func TestCUDAConvolveBankMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	worst := 0.0
	for _, c := range []struct{ rows, n, m, k int }{
		{1, 1, 7, 3}, {3, 4097, 7, 9}, {2, 4097, 512, 4}, {1, 30001, 4000, 2}, {2, 30001, 8191, 4}, {1, 100000, 8191, 4}, {3, 20000, 600, 1},
	} {
		if testing.Short() && c.n*c.m*c.rows > 4097*512*2 {
			continue
		}
		bank := make([][]float64, c.k)
		for k := range bank {
			bank[k] = randTaps(r, c.m)
		}
		cs, vals := signals(t, r, gpuimage.CPU(), c.rows+1, c.n+5)
		flat := make([]float32, 0, (c.rows+1)*(c.n+5))
		for _, v := range vals {
			flat = append(flat, v...)
		}
		gs, _ := gpuimage.New(gpu, c.rows+1, c.n+5, gpuimage.CV32FC1)
		gs.Upload(tu.F32Bytes(flat))
		rect := image.Rect(5, 1, c.n+5, c.rows+1)
		cv, _ := cs.Region(rect)
		gv, _ := gs.Region(rect)
		for _, mode := range []dsp.Mode{dsp.Full, dsp.Same, dsp.Valid} {
			name := fmt.Sprintf("%dx%d m=%d k=%d %v", c.rows, c.n, c.m, c.k, mode)
			got, wants := make([]*gpuimage.Image, c.k), make([]*gpuimage.Image, c.k)
			for k := range got {
				wants[k] = &gpuimage.Image{}
				defer wants[k].Close()
				if err := dsp.Convolve(cv, wants[k], bank[k], mode, dsp.Direct); err != nil {
					t.Fatal(err)
				}
				got[k] = tu.Poisoned(t, gpu, wants[k].Rows(), wants[k].Cols(), gpuimage.CV32FC1)
				defer got[k].Close()
			}
			if err := dsp.ConvolveBank(gv, got, bank, mode, dsp.FFT); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for k, want := range wants {
				e := termErr(f64(tu.Float32s(t, got[k])), f64(tu.Float32s(t, want)), flat, bank[k])
				worst = math.Max(worst, e)
				if e > 1e-5 || got[k].Cols() != want.Cols() || got[k].Rows() != want.Rows() {
					t.Errorf("%s: band %d: GPU %dx%d off the CPU's %dx%d by %.3g of the RMS", name, k, got[k].Cols(), got[k].Rows(), want.Cols(), want.Rows(), e)
				}
			}
		}
		for _, im := range []*gpuimage.Image{cs, gs} {
			im.Close()
		}
	}
	t.Logf("largest GPU-CPU difference: %.3g of the output's RMS", worst)
}

// A view of a batch on the GPU, and four goroutines on their own streams at once,
// give the CPU device's results.
func TestCUDAConvolveViewsAndStreams(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	cs, vals := signals(t, r, gpuimage.CPU(), 6, 5000)
	defer cs.Close()
	flat := make([]float32, 0, 6*5000)
	for _, v := range vals {
		flat = append(flat, v...)
	}
	gs, _ := gpuimage.New(gpu, 6, 5000, gpuimage.CV32FC1)
	defer gs.Close()
	gs.Upload(tu.F32Bytes(flat))
	rect := image.Rect(123, 1, 4321, 5)
	cv, _ := cs.Region(rect)
	gv, _ := gs.Region(rect)
	onStreams(t, gpu, func(g int, s *gpuimage.Stream) error {
		h := randTapsSeeded(int64(g), 100+300*g)
		want, got := &gpuimage.Image{}, &gpuimage.Image{}
		defer want.Close()
		defer got.Close()
		if err := dsp.Correlate(cv, want, h, dsp.Same, dsp.Direct); err != nil {
			return err
		}
		for k := 0; k < 5; k++ {
			if err := dsp.Correlate(gv, got, h, dsp.Same, []dsp.Method{dsp.Direct, dsp.FFT}[g%2], gpuimage.OnStream(s)); err != nil {
				return err
			}
		}
		s.Synchronize()
		if e := rmsErr(f64(tu.Float32s(t, got)), f64(tu.Float32s(t, want))); e > 1e-5 {
			return fmt.Errorf("off by %.3g of the RMS", e)
		}
		return nil
	})
}

// onStreams runs check in four goroutines at once, each with a stream of its own
// (closed when check returns), and reports each goroutine's error.
func onStreams(t *testing.T, gpu *gpuimage.Device, check func(g int, s *gpuimage.Stream) error) {
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			s, err := gpu.NewStream()
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			if err := check(g, s); err != nil {
				errs <- fmt.Errorf("goroutine %d: %w", g, err)
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// BenchmarkCUDAConvolve times both methods (the crossover Auto uses) by CUDA events (median of the
// iterations, after a warm-up), on random signals and taps.
func BenchmarkCUDAConvolve(b *testing.B) {
	gpu := tu.CUDA(b)
	r := tu.Rand(b)
	var cases []struct {
		rows, n, m int
		meth       dsp.Method
	}
	for _, rows := range []int{1, 64} {
		for _, n := range []int{16384, 100000, 1000000} {
			for _, m := range []int{16, 32, 63, 128, 256, 512, 1024, 8192} {
				for _, meth := range []dsp.Method{dsp.Direct, dsp.FFT} {
					cases = append(cases, struct {
						rows, n, m int
						meth       dsp.Method
					}{rows, n, m, meth})
				}
			}
		}
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%dx%d/taps=%d/%v", c.rows, c.n, c.m, c.meth), func(b *testing.B) {
			src, _ := signals(b, r, gpu, c.rows, c.n)
			defer src.Close()
			dst := &gpuimage.Image{}
			defer dst.Close()
			h := randTaps(r, c.m)
			s, _ := gpu.NewStream()
			defer s.Close()
			on := gpuimage.OnStream(s)
			b.SetBytes(int64(c.rows * c.n * 4))
			tu.EventMedian(b, s, func() error { return dsp.Convolve(src, dst, h, dsp.Same, c.meth, on) })
		})
	}
}
