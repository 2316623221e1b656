// Command bench times gpuimg's operations and writes CSV rows
// (op,width,height,type,system,variant,median_us,gbps,device,driver,date).
//
// On a GPU host, build it with -tags cuda; kernel times come from CUDA events
// around work queued on a stream, after warm-up, as the median of -reps runs. Each
// timed run waits behind a kernel that keeps the device busy for -hold, so the
// events time the device's work; the host's time to queue each call is written as
// a separate "host" row. Inputs are random, never zeros.
//
//	bench -sizes 3840x2160 -reps 50 -o results.csv
//	bench -sizes "" -signals 1x1000000,64x1000000 -only dsp -e2e=false
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"math"
	"math/rand"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
)

func main() {
	var (
		sizes   = flag.String("sizes", "3840x2160", "comma-separated WxH image sizes")
		reps    = flag.Int("reps", 50, "timed runs per case (the median is reported)")
		warmup  = flag.Int("warmup", 5, "untimed runs before timing")
		devName = flag.String("device", "default", "device: cpu, cuda, or default")
		out     = flag.String("o", "", "CSV output file (default: standard output)")
		only    = flag.String("only", "", "run only ops whose name contains this")
		e2e     = flag.Bool("e2e", true, "on CUDA, also time upload + operation + download (page-locked and pageable)")
		prof    = flag.String("cpuprofile", "", "write a Go CPU profile of the run to this file (where the host time goes)")
		hold    = flag.Duration("hold", 500*time.Microsecond, "on CUDA, keep the device busy this long before each timed run, so that kernel times exclude the host's time to queue the work (0: time from an idle stream)")
		sweep   = flag.Bool("sweep", false, "run the sweep of filters and conversions that NPP has too (bench/sweep.go) instead of the image cases")
		signals = flag.String("signals", "1x16384,1x100000,1x1000000,1x10000000,64x16384,64x1000000", "comma-separated ROWSxSAMPLES shapes for the signal (dsp) cases; empty for none")
	)
	flag.Parse()
	endToEnd = *e2e
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	dev, err := pickDevice(*devName)
	if err != nil {
		fail(err)
	}
	t, err := NewTimer(dev, *warmup, *reps)
	if err != nil {
		fail(err)
	}
	defer t.Close()
	if dev.IsCUDA() {
		t.Hold = *hold
	}
	info, err := dev.Info()
	if err != nil {
		fail(err)
	}
	meta := Row{Device: info.Name, Date: time.Now().UTC().Format("2006-01-02")}
	if info.DriverVersion > 0 {
		meta.Driver = fmt.Sprintf("%d.%d", info.DriverVersion/1000, info.DriverVersion%1000/10)
	}
	var rows []Row
	failed := 0 // cases that returned an error: reported and skipped, the run goes on
	run := func(cs []benchCase, w, h int) {
		for _, c := range cs {
			if !strings.Contains(c.op, *only) {
				continue
			}
			got, err := c.run(t, w, h)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bench: %s %dx%d: %v (skipped)\n", c.op, w, h, err)
				failed++
				continue
			}
			for _, r := range got {
				r.Op, r.Width, r.Height = c.op, w, h
				r.Device, r.Driver, r.Date = meta.Device, meta.Driver, meta.Date
				r.System = "gpuimg-" + map[bool]string{true: "cuda", false: "cpu"}[dev.IsCUDA()]
				rows = append(rows, r)
			}
		}
	}
	imageCases := cases
	if *sweep {
		imageCases = sweepCases
	}
	for _, sz := range pairs(*sizes, "size", "WxH") {
		run(imageCases, sz[0], sz[1])
	}
	for _, sh := range pairs(*signals, "signal shape", "ROWSxSAMPLES") {
		run(signalCases, sh[1], sh[0]) // width: the samples, height: the signals
	}
	if t.Unheld > 0 {
		fmt.Fprintf(os.Stderr, "bench: warning: %d timed runs took longer than -hold=%v to queue; their kernel times include host time\n", t.Unheld, *hold)
	}
	fmt.Fprint(os.Stderr, FormatTable(rows))
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		w = f
	}
	if err := WriteCSV(w, rows); err != nil {
		fail(err)
	}
	if failed > 0 {
		fail(fmt.Errorf("%d cases failed (above); the others were written", failed))
	}
}

// pairs parses a comma-separated list of AxB pairs of positive numbers (what and
// form name them in errors); empty items are skipped.
func pairs(list, what, form string) [][2]int {
	var out [][2]int
	for _, item := range strings.Split(list, ",") {
		if item == "" {
			continue
		}
		var a, b int
		if _, err := fmt.Sscanf(item, "%dx%d", &a, &b); err != nil || a <= 0 || b <= 0 {
			fail(fmt.Errorf("bad %s %q (want %s)", what, item, form))
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

func pickDevice(name string) (*gpuimage.Device, error) {
	switch name {
	case "cpu":
		return gpuimage.CPU(), nil
	case "cuda":
		return gpuimage.CUDA(0)
	case "default":
		return gpuimage.Default()
	}
	return nil, fmt.Errorf("unknown device %q (want cpu, cuda or default)", name)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

// benchCase measures one operation at one size and returns rows with the timing
// fields set (the caller fills in the rest).
type benchCase struct {
	op  string
	run func(t *Timer, w, h int) ([]Row, error)
}

var cases = []benchCase{
	{"upload", transfer(true)},
	{"download", transfer(false)},
	{"copy", unary(gpuimage.CV8UC3, 6, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return src.CopyTo(dst, on)
	})},
	{"convertTo 8UC3->32FC3", unary(gpuimage.CV8UC3, 3*(1+4), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return src.ConvertTo(dst, gpuimage.Depth32F, 1.0/255, 0, on)
	})},
	{"convertTo 32FC3->8UC3", unary(gpuimage.CV32FC3, 3*(4+1), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return src.ConvertTo(dst, gpuimage.Depth8U, 255, 0, on)
	})},
}

// unary times op from a random WxH image of type mt into an empty output; bytes is
// what op must move per pixel (read + written).
func unary(mt gpuimage.MatType, bytes int, op func(src, dst *gpuimage.Image, on gpuimage.Option) error) func(t *Timer, w, h int) ([]Row, error) {
	return timed(mt, func(src, dst *gpuimage.Image) int64 { return int64(src.Cols() * src.Rows() * bytes) }, op)
}

// resized times op as unary does, for an output of another size than its input
// (resampling, resizing): the bytes moved are the source's and the output's.
func resized(mt gpuimage.MatType, op func(src, dst *gpuimage.Image, on gpuimage.Option) error) func(t *Timer, w, h int) ([]Row, error) {
	return timed(mt, func(src, dst *gpuimage.Image) int64 {
		return int64(src.Cols()*src.Rows()+dst.Cols()*dst.Rows()) * int64(mt.Depth().Size()*mt.Channels())
	}, op)
}

// timed times op from a random WxH image of type mt into an empty output, bytes
// giving what it moves from its source and output.
func timed(mt gpuimage.MatType, bytes func(src, dst *gpuimage.Image) int64, op func(src, dst *gpuimage.Image, on gpuimage.Option) error) func(t *Timer, w, h int) ([]Row, error) {
	return func(t *Timer, w, h int) ([]Row, error) {
		src, err := randomImage(t.Dev, w, h, mt)
		if err != nil {
			return nil, err
		}
		defer src.Close()
		var dst gpuimage.Image
		defer dst.Close()
		m, err := t.Median(func(on gpuimage.Option) error { return op(src, &dst, on) })
		typ := strings.TrimPrefix(mt.String(), "CV_")
		rows := []Row{{Type: typ, Variant: "kernel", Median: m, Bytes: bytes(src, &dst)}}
		if t.Dev.IsCUDA() {
			rows = append(rows, Row{Type: typ, Variant: "host", Median: t.LastHost})
		}
		if err != nil || !t.Dev.IsCUDA() || !endToEnd {
			return rows, err
		}
		e2e, err := t.EndToEnd(src, &dst, op)
		for _, r := range e2e {
			r.Type, r.Bytes = typ, bytes(src, &dst)
			rows = append(rows, r)
		}
		return rows, err
	}
}

// endToEnd adds the end-to-end rows (the -e2e flag).
var endToEnd = true

// colour cases: the conversions the colour issue compares with NPP and OpenCV,
// then the other families for coverage.
func init() {
	for _, c := range []struct {
		code  colorconv.Code
		mt    gpuimage.MatType
		bytes int // per pixel, read + written
	}{
		{colorconv.ColorBGRToGray, gpuimage.CV8UC3, 4},
		{colorconv.ColorBGRToLab, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToHSV, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToYCrCb, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToXYZ, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToLab, gpuimage.CV32FC3, 24},
		{colorconv.ColorBGRToHLS, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToLuv, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToYUV, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToRGB, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToBGRA, gpuimage.CV8UC3, 7},
		{colorconv.ColorGrayToBGR, gpuimage.CV8UC1, 4},
		{colorconv.ColorLabToBGR, gpuimage.CV8UC3, 6},
		{colorconv.ColorLuvToBGR, gpuimage.CV8UC3, 6},
		{colorconv.ColorBGRToHSV, gpuimage.CV32FC3, 24},
	} {
		code := c.code
		cases = append(cases, benchCase{"cvtColor " + code.String(), unary(c.mt, c.bytes,
			func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return colorconv.CvtColor(src, dst, code, on)
			})})
	}
	cases = append(cases, benchCase{"applyColorMap viridis", unary(gpuimage.CV8UC1, 4, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return colorconv.ApplyColorMap(src, dst, colorconv.ColormapViridis, on)
	})})
}

// filter cases: the ones the convolve issue compares with NPP and OpenCV, all with
// BORDER_REPLICATE (the border NPP's filters support). Filter2D kernels are random
// (not separable).
func init() {
	rk := func(n int) [][]float64 {
		r := rand.New(rand.NewSource(int64(n)))
		k := make([][]float64, n)
		for i := range k {
			k[i] = make([]float64, n)
			for j := range k[i] {
				k[i][j] = r.Float64()/float64(n*n) + 0.001*float64(i*j%7)
			}
		}
		return k
	}
	b := convolve.BorderReplicate
	c := image.Pt(-1, -1)
	add := func(op string, mt gpuimage.MatType, bytes int, f func(src, dst *gpuimage.Image, on gpuimage.Option) error) {
		cases = append(cases, benchCase{op, unary(mt, bytes, f)})
	}
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3} {
		add("gaussian 5x5", mt, 2*mt.Channels(), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.GaussianBlur(src, dst, image.Pt(5, 5), 0, 0, b, on)
		})
	}
	add("box 5x5", gpuimage.CV8UC1, 2, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return convolve.BoxFilter(src, dst, convolve.SameDepth, image.Pt(5, 5), c, true, b, on)
	})
	add("sobel 3x3 dx 8U->16S", gpuimage.CV8UC1, 3, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return convolve.Sobel(src, dst, gpuimage.Depth16S, 1, 0, 3, 1, 0, b, on)
	})
	for _, n := range []int{3, 7, 15, 31} {
		k := rk(n)
		add(fmt.Sprintf("filter2D %dx%d", n, n), gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Filter2D(src, dst, convolve.SameDepth, k, c, 0, b, on)
		})
	}
	k7 := rk(7)
	add("filter2D 7x7", gpuimage.CV8UC3, 6, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return convolve.Filter2D(src, dst, convolve.SameDepth, k7, c, 0, b, on)
	})
}

// transfer times uploads (or downloads) of a WxH 8UC3 image from page-locked and
// from ordinary (pageable) host memory.
func transfer(up bool) func(t *Timer, w, h int) ([]Row, error) {
	return func(t *Timer, w, h int) ([]Row, error) {
		im, err := randomImage(t.Dev, w, h, gpuimage.CV8UC3)
		if err != nil {
			return nil, err
		}
		defer im.Close()
		n := w * h * 3
		pinned, err := t.Dev.NewHostBuffer(n)
		if err != nil {
			return nil, err
		}
		defer pinned.Close()
		rand.New(rand.NewSource(1)).Read(pinned.Bytes())
		pageable := append([]byte(nil), pinned.Bytes()...)
		var rows []Row
		for _, v := range []struct {
			name string
			buf  []byte
		}{{"pinned", pinned.Bytes()}, {"pageable", pageable}} {
			hold := t.Hold
			if v.name == "pageable" {
				t.Hold = 0 // the host copies pageable memory itself: there is no queueing gap to hide
			}
			m, err := t.Median(func(on gpuimage.Option) error {
				if up {
					return im.Upload(v.buf, on)
				}
				return im.Download(v.buf, on)
			})
			t.Hold = hold
			if err != nil {
				return nil, err
			}
			rows = append(rows, Row{Type: "8UC3", Variant: v.name, Median: m, Bytes: int64(n)})
		}
		return rows, nil
	}
}

// randomImage makes a WxH image of random pixels (32F: uniform in 0..1).
func randomImage(dev *gpuimage.Device, w, h int, mt gpuimage.MatType) (*gpuimage.Image, error) {
	r := rand.New(rand.NewSource(int64(w * h)))
	data := make([]byte, w*h*mt.Channels()*mt.Depth().Size())
	r.Read(data)
	if mt.Depth() == gpuimage.Depth32F {
		for i := 0; i < len(data); i += 4 {
			binary.LittleEndian.PutUint32(data[i:], math.Float32bits(r.Float32()))
		}
	}
	return gpuimage.NewFromBytes(dev, h, w, mt, data)
}

// FFT cases: the forward DFT (with cuFFT's own R2C time beside it on CUDA), the
// Gaussian low-pass filter call, and direct against frequency-domain convolution
// for growing kernels (the crossover convolve's large-kernel route uses; run the
// bench with GPUIMG_CONV_FFT=off so that "conv direct" stays direct).
func init() {
	cases = append(cases,
		benchCase{"dft forward CCS", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.DFT(src, dst, fftfilter.DFTForward, on)
		})},
		benchCase{"dft forward complex", unary(gpuimage.CV32FC1, 12, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.DFT(src, dst, fftfilter.DFTComplexOutput, on)
		})},
		benchCase{"cufft R2C alone", cufftAlone},
	)
	for _, mt := range []gpuimage.MatType{gpuimage.CV32FC1, gpuimage.CV8UC1, gpuimage.CV8UC3} {
		cases = append(cases, benchCase{"lowpass gaussian", unary(mt, 2*mt.Channels()*mt.Depth().Size(), func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.LowPass(src, dst, fftfilter.Gaussian, 100, 0, on)
		})})
	}
	for _, n := range []int{15, 21, 25, 31, 41, 63} {
		r := rand.New(rand.NewSource(int64(n)))
		k := make([][]float64, n)
		for i := range k {
			k[i] = make([]float64, n)
			for j := range k[i] {
				k[i][j] = r.Float64() / float64(n*n)
			}
		}
		b, c := convolve.BorderReplicate, image.Pt(-1, -1)
		fits := func(run func(t *Timer, w, h int) ([]Row, error)) func(t *Timer, w, h int) ([]Row, error) {
			return func(t *Timer, w, h int) ([]Row, error) {
				if n > w && n > h { // kernels larger than the image are not what this case measures
					return nil, nil
				}
				return run(t, w, h)
			}
		}
		cases = append(cases,
			benchCase{fmt.Sprintf("conv direct %dx%d", n, n), fits(unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.Filter2D(src, dst, convolve.SameDepth, k, c, 0, b, on)
			}))},
			benchCase{fmt.Sprintf("conv fft %dx%d", n, n), fits(unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return fftfilter.Convolve(src, dst, -1, k, c, 0, b, on)
			}))})
	}
}

// Pipeline cases: the same 1, 3 or 5 operations on 8UC3 chained on the device,
// as kernels alone and end to end with the transfers counted once (upload, the
// chain, download), against the CPU doing the chain.
var chainOps = []struct {
	name string
	run  func(src, dst *gpuimage.Image, on gpuimage.Option) error
}{
	{"gaussian 5x5", func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return convolve.GaussianBlur(src, dst, image.Pt(5, 5), 0, 0, convolve.BorderDefault, on)
	}},
	{"cvtColor BGR2Lab", func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return colorconv.CvtColor(src, dst, colorconv.ColorBGRToLab, on)
	}},
	{"cvtColor Lab2BGR", func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return colorconv.CvtColor(src, dst, colorconv.ColorLabToBGR, on)
	}},
	{"filter2D 3x3 sharpen", func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return convolve.Filter2D(src, dst, convolve.SameDepth, [][]float64{{0, -1, 0}, {-1, 5, -1}, {0, -1, 0}}, image.Pt(-1, -1), 0, convolve.BorderDefault, on)
	}},
	{"box 5x5", func(src, dst *gpuimage.Image, on gpuimage.Option) error {
		return convolve.Blur(src, dst, image.Pt(5, 5), image.Pt(-1, -1), convolve.BorderDefault, on)
	}},
}

func init() {
	for _, n := range []int{1, 3, 5} {
		n := n
		cases = append(cases, benchCase{fmt.Sprintf("pipeline %d ops", n), func(t *Timer, w, h int) ([]Row, error) {
			imgs := make([]*gpuimage.Image, n)
			for i := range imgs {
				imgs[i] = &gpuimage.Image{}
				defer imgs[i].Close()
			}
			chain := func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				cur := src
				for i := 0; i < n; i++ {
					out := imgs[i]
					if i == n-1 {
						out = dst
					}
					if err := chainOps[i].run(cur, out, on); err != nil {
						return err
					}
					cur = out
				}
				return nil
			}
			return unary(gpuimage.CV8UC3, 6, chain)(t, w, h)
		}})
	}
}

// Coverage cases: the rest of the shipped operations, so that the tables show every
// one (the peers time the ones they have).
func init() {
	m := [][]float64{{0.5, 0.3, 0.2, 1}, {0.1, 0.8, 0.1, 2}, {0.2, 0.2, 0.6, 3}}
	b := convolve.BorderReplicate
	cases = append(cases,
		benchCase{"setTo", unary(gpuimage.CV8UC3, 3, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			if dst.Empty() { // the first (untimed) run makes the output; the others only set it
				if err := src.CopyTo(dst, on); err != nil {
					return err
				}
			}
			return dst.SetTo(gpuimage.NewScalar(1, 2, 3, 0), on)
		})},
		benchCase{"transform 3x4", unary(gpuimage.CV8UC3, 6, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return colorconv.Transform(src, dst, m, on)
		})},
		benchCase{"scharr dx 8U->16S", unary(gpuimage.CV8UC1, 3, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Scharr(src, dst, gpuimage.Depth16S, 1, 0, 1, 0, b, on)
		})},
		benchCase{"laplacian 3x3 8U->16S", unary(gpuimage.CV8UC1, 3, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Laplacian(src, dst, gpuimage.Depth16S, 3, 1, 0, b, on)
		})},
		benchCase{"sobel 3x3 dx 32F", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.Sobel(src, dst, gpuimage.Depth32F, 1, 0, 3, 1, 0, b, on)
		})},
		benchCase{"idft CCS to real", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.IDFT(src, dst, fftfilter.DFTScale, on)
		})},
		benchCase{"mulSpectrums CCS", unary(gpuimage.CV32FC1, 12, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.MulSpectrums(src, src, dst, 0, true, on)
		})},
		benchCase{"magnitude", unary(gpuimage.CV32FC1, 12, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.Magnitude(src, src, dst, on)
		})},
		benchCase{"phase", unary(gpuimage.CV32FC1, 12, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.Phase(src, src, dst, false, on)
		})},
		benchCase{"spectrum", unary(gpuimage.CV8UC1, 2, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.Spectrum(src, dst, on)
		})},
		benchCase{"highpass butterworth", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.HighPass(src, dst, fftfilter.Butterworth, 30, 2, on)
		})},
		benchCase{"notch reject", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.NotchReject(src, dst, fftfilter.Gaussian, []fftfilter.Notch{{U: 64, V: 0, Radius: 4}, {U: 0, V: 48, Radius: 4}}, 0, on)
		})},
		benchCase{"bandpass ideal", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.BandPass(src, dst, fftfilter.Ideal, 100, 40, 0, on)
		})},
		benchCase{"applyMask", unary(gpuimage.CV32FC1, 12, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			// The mask (a random 32FC1 image of src's size) is made by the untimed first run.
			if mask == nil || mask.Rows() != src.Rows() || mask.Cols() != src.Cols() {
				mask.Close()
				var err error
				if mask, err = randomImage(src.Device(), src.Cols(), src.Rows(), gpuimage.CV32FC1); err != nil {
					return err
				}
			}
			return fftfilter.ApplyMask(src, dst, mask, on)
		})},
		benchCase{"padToOptimal", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return fftfilter.PadToOptimal(src, dst, on)
		})},
		benchCase{"sepFilter2D 9x9", unary(gpuimage.CV32FC1, 8, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			return convolve.SepFilter2D(src, dst, convolve.SameDepth, kx9, ky9, image.Pt(-1, -1), 0, b, on)
		})},
		benchCase{"merge 3x8UC1->8UC3", unary(gpuimage.CV8UC3, 6, func(src, dst *gpuimage.Image, on gpuimage.Option) error {
			// The planes (Split of src, which allocates them) come from the untimed first run.
			if planes == nil || planes[0].Rows() != src.Rows() || planes[0].Cols() != src.Cols() {
				for _, p := range planes {
					p.Close()
				}
				var err error
				if planes, err = gpuimage.Split(src, on); err != nil {
					return err
				}
			}
			return gpuimage.Merge(planes, dst, on)
		})},
	)
}

// State the coverage cases keep between runs (made by their untimed first runs).
var (
	mask     *gpuimage.Image
	planes   []*gpuimage.Image
	kx9, ky9 = []float64{1, 3, 7, 12, 15, 12, 7, 3, 1}, []float64{0.02, 0.05, 0.1, 0.15, 0.36, 0.15, 0.1, 0.05, 0.02}
)
