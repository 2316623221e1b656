//go:build cuda

package apitest

import (
	"image"
	"os"
	"strconv"
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Long-running use does not grow device memory: 10,000 rounds of ordinary calls on
// images of varying sizes (GPUIMG_MEM_ROUNDS changes the count) end with the
// device's free memory within the cache limit of where it was after the first 500,
// and the cache never holds more than its limit.
func TestCUDAMemoryBounded(t *testing.T) {
	gpu := tu.CUDA(t)
	r := tu.Rand(t)
	rounds := 10000
	if n, err := strconv.Atoi(os.Getenv("GPUIMG_MEM_ROUNDS")); err == nil && n > 500 {
		rounds = n
	}
	const maxRows, maxCols = 1200, 1600
	data := tu.RandomBytes(r, gpuimage.Depth8U, maxRows*maxCols*3)
	k7 := make([][]float64, 7)
	for i := range k7 {
		k7[i] = []float64{0.01, 0.02, 0.03, 0.1, 0.03, 0.02, 0.01}
	}
	k7[0][0] = 0.05
	limit := gpu.MemoryStats().CacheLimit
	var free0, inUse0 int64
	for i := 0; i < rounds; i++ {
		rows, cols := 16+r.Intn(maxRows-16), 16+r.Intn(maxCols-16)
		src, err := gpuimage.NewFromBytes(gpu, rows, cols, gpuimage.CV8UC3, data[:rows*cols*3])
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		var gray, blur, f32, conv, low gpuimage.Image
		roi, _ := src.Region(image.Rect(3, 2, cols-5, rows-1))
		steps := []error{
			colorconv.CvtColor(roi, &gray, colorconv.ColorBGRToGray),
			convolve.GaussianBlur(src, &blur, image.Pt(5, 5), 0, 0, convolve.BorderDefault),
			gray.ConvertTo(&f32, gpuimage.Depth32F, 1.0/255, 0),
			convolve.Filter2D(&f32, &conv, -1, k7, image.Pt(-1, -1), 0, convolve.BorderReplicate),
			fftfilter.LowPass(&gray, &low, fftfilter.Gaussian, 20, 0),
		}
		for _, err := range steps {
			if err != nil {
				t.Fatalf("round %d (%dx%d): %v", i, cols, rows, err)
			}
		}
		for _, im := range []*gpuimage.Image{src, roi, &gray, &blur, &f32, &conv, &low} {
			im.Close()
		}
		if err := fftfilter.FreePlans(); err != nil {
			t.Fatal(err)
		}
		st := gpu.MemoryStats()
		if st.Cached > st.CacheLimit || i > 499 && st.InUse > inUse0 {
			t.Fatalf("round %d: %v (want at most the limit cached, and no more in use than after 500 rounds: %d)", i, st, inUse0)
		}
		if i == 499 {
			inUse0 = st.InUse
			in, err := gpu.Info()
			if err != nil {
				t.Fatal(err)
			}
			free0 = in.FreeMemory
		}
	}
	in, err := gpu.Info()
	if err != nil {
		t.Fatal(err)
	}
	st := gpu.MemoryStats()
	t.Logf("%d rounds: free device memory %d MiB after 500 rounds, %d MiB at the end (%+d MiB); cache limit %d MiB; %v",
		rounds, free0>>20, in.FreeMemory>>20, (in.FreeMemory-free0)>>20, limit>>20, st)
	if free0-in.FreeMemory > limit {
		t.Errorf("free memory fell by %d MiB, more than the cache limit (%d MiB)", (free0-in.FreeMemory)>>20, limit>>20)
	}
	// The cache gives memory back when asked.
	if err := gpu.SetCacheLimit(64 << 20); err != nil || gpu.MemoryStats().Cached > 64<<20 {
		t.Errorf("SetCacheLimit(64 MiB): %v, %v", err, gpu.MemoryStats())
	}
	if err := gpu.ReleaseCache(); err != nil || gpu.MemoryStats().Cached != 0 {
		t.Errorf("ReleaseCache: %v, %v", err, gpu.MemoryStats())
	}
	if err := gpu.SetCacheLimit(-1); err == nil {
		t.Errorf("SetCacheLimit(-1) succeeded")
	}
	gpu.SetCacheLimit(limit)
}
