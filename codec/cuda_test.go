//go:build cuda

package codec_test

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// nvJPEG (with gi_jpeg_ycc_bgr's libjpeg-turbo upsampling and colour) against the
// Go decoder (libjpeg-turbo's conversions) on every file, into poisoned images: the
// same size and type, the pixels within the IDCTs' rounding (at most 6, under 0.5%
// beyond ±3; logged for the closing note); encoding on the GPU round trips within
// the usual JPEG error.
func TestCUDAMatchesCPU(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	t.Logf("%s", codec.JPEGBackend(gpu))
	for name, data := range jpegs(t, r) {
		want, cn, err := codec.DecodeJPEGPixels(data)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := codec.ParseJPEG(data)
		got := tu.Poisoned(t, gpu, info.Height, info.Width, gpuimage.MakeType(gpuimage.Depth8U, cn))
		if err := codec.DecodeJPEG(gpu, data, got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pix := tu.Bytes(t, got)
		maxd, over := 0, 0
		for i := range pix {
			d := int(pix[i]) - int(want[i])
			d = max(d, -d)
			maxd = max(maxd, d)
			if d > 3 {
				over++
			}
		}
		t.Logf("%-45s %v %dx%d: nvJPEG against Go: max diff %d, %.3f%% beyond ±3", name, got.Type(), got.Cols(), got.Rows(), maxd, 100*float64(over)/float64(len(pix)))
		if maxd > 6 || over*200 > len(pix) {
			t.Errorf("%s: nvJPEG differs from the Go decoder by up to %d (%d values beyond ±3)", name, maxd, over)
		}
		enc, err := codec.EncodeJPEG(got, 95)
		if err != nil {
			t.Fatalf("%s: EncodeJPEG: %v", name, err)
		}
		back, _, err := codec.DecodeJPEGPixels(enc)
		if err != nil {
			t.Fatalf("%s: nvJPEG's file does not decode in Go: %v", name, err)
		}
		if p := psnr(pix, back); p < 25 {
			t.Errorf("%s: nvJPEG round trip at quality 95: PSNR %.1f dB", name, p)
		}
		got.Close()
	}
}

// Workers decoding and encoding at once on their own streams, with states that
// WarmJPEG readied, get the same bytes as one at a time.
func TestCUDAConcurrent(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	data := encodeGo(t, photo(r, 640, 480), 90)
	ref := &gpuimage.Image{}
	defer ref.Close()
	if err := codec.DecodeJPEG(gpu, data, ref); err != nil {
		t.Fatal(err)
	}
	want := tu.Bytes(t, ref)
	if err := codec.WarmJPEG(gpu, 8, data); err != nil { // the workers then take warmed states
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := gpu.NewStream()
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			im := &gpuimage.Image{}
			defer im.Close()
			for i := 0; i < 20; i++ {
				if err := codec.DecodeJPEG(gpu, data, im, gpuimage.OnStream(s)); err != nil {
					errs <- err
					return
				}
				if _, err := codec.EncodeJPEG(im, 90, gpuimage.OnStream(s)); err != nil {
					errs <- err
					return
				}
				s.Synchronize()
				if got := tu.Bytes(t, im); string(got) != string(want) {
					errs <- fmt.Errorf("decode %d differs", i)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// 4K photo-like JPEGs decoded and encoded by 16 goroutines, each on its own stream:
// images/s is ops/s (ns/op over 16 workers). GPUIMG_BENCH_JPEG=FILE uses that file
// instead (to time the same file as a peer).
func BenchmarkCUDADecodeJPEG4K(b *testing.B) { benchJPEG(b, true) }
func BenchmarkCUDAEncodeJPEG4K(b *testing.B) { benchJPEG(b, false) }

// benchFile is the benchmarks' JPEG: a 4K photo-like file at quality 90, or the
// file GPUIMG_BENCH_JPEG names.
func benchFile(b *testing.B) []byte {
	if f := os.Getenv("GPUIMG_BENCH_JPEG"); f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	return encodeGo(b, photo(tu.Rand(b), 3840, 2160), 90)
}

func benchJPEG(b *testing.B, decode bool) {
	gpu := tu.CUDA(b)
	data := benchFile(b)
	b.SetBytes(3840 * 2160 * 3)
	b.ResetTimer()
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		s, _ := gpu.NewStream()
		defer s.Close()
		im := &gpuimage.Image{}
		defer im.Close()
		on := gpuimage.OnStream(s)
		if err := codec.DecodeJPEG(gpu, data, im, on); err != nil {
			b.Error(err)
			return
		}
		for pb.Next() {
			var err error
			if decode {
				err = codec.DecodeJPEG(gpu, data, im, on)
				s.Synchronize()
			} else {
				_, err = codec.EncodeJPEG(im, 90, on)
			}
			if err != nil {
				mu.Lock()
				b.Error(err)
				mu.Unlock()
				return
			}
		}
	})
}

// TestCUDAJPEGStartup logs what starting nvJPEG costs (GPUIMG_PROBE=1 only): the
// first decode and encode, then 16 goroutines' first calls at once, then their
// steady rate. It asserts nothing (speed lives in benchmarks).
func TestCUDAJPEGStartup(t *testing.T) {
	if os.Getenv("GPUIMG_PROBE") == "" {
		t.Skip("GPUIMG_PROBE=1 runs it")
	}
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	data := encodeGo(t, photo(r, 3840, 2160), 90)
	im := &gpuimage.Image{}
	defer im.Close()
	t0 := time.Now()
	one, err := gpuimage.New(gpu, 1, 1, gpuimage.CV8UC1)
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if err := one.SetTo(gpuimage.Scalar{Val1: 1}); err != nil {
		t.Fatal(err)
	}
	t.Logf("first kernel (loads gpuimg's module): %v", time.Since(t0))
	for _, n := range []int{1, 16} {
		t0 := time.Now()
		if err := codec.WarmJPEG(gpu, n, data); err != nil {
			t.Fatal(err)
		}
		t.Logf("WarmJPEG(%d): %v", n, time.Since(t0))
	}
	if err := codec.DecodeJPEG(gpu, data, im); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{16, 4, 8, 16, 32} {
		for _, dec := range []bool{true, false} {
			for _, reps := range []int{1, 10} {
				var wg sync.WaitGroup
				t0 := time.Now()
				for g := 0; g < n; g++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						s, _ := gpu.NewStream()
						defer s.Close()
						dst := &gpuimage.Image{}
						defer dst.Close()
						on := gpuimage.OnStream(s)
						for k := 0; k < reps; k++ {
							if dec {
								codec.DecodeJPEG(gpu, data, dst, on)
							} else {
								codec.EncodeJPEG(im, 90, on)
							}
						}
						s.Synchronize()
					}()
				}
				wg.Wait()
				el := time.Since(t0)
				t.Logf("%2d goroutines x %2d %s: %v, %.0f images/s", n, reps, map[bool]string{true: "decodes", false: "encodes"}[dec], el, float64(n*reps)/el.Seconds())
			}
		}
	}
}

// DecodeJPEGs on the GPU: small batches and one of several chunks for the JPEG
// decode engines (where the GPU has them), with CPU workers decoding at once.
func TestCUDADecodeJPEGs(t *testing.T) {
	gpu := tu.CUDA(t)
	for _, n := range []int{0, 3, 60} {
		d := checkDecodeJPEGs(t, gpu, n)
		t.Logf("%d more photos: DecodeJPEGs against DecodeJPEG file by file: max diff %d", n, d)
	}
}

// BenchmarkCUDADecodeJPEGs4K decodes batches of 100 4K photo-like files in one
// call (as torchvision's decode_jpeg of a list does), reporting images/s.
func BenchmarkCUDADecodeJPEGs4K(b *testing.B) {
	gpu := tu.CUDA(b)
	data := benchFile(b)
	const n = 100
	datas := make([][]byte, n)
	dsts := make([]*gpuimage.Image, n)
	for i := range datas {
		datas[i], dsts[i] = data, &gpuimage.Image{}
		defer dsts[i].Close()
	}
	if err := codec.DecodeJPEGs(gpu, datas, dsts); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(n * 3840 * 2160 * 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := codec.DecodeJPEGs(gpu, datas, dsts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "images/s")
}
