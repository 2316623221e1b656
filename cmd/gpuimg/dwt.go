package main

import (
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/wavelet"
)

const dwtUsage = `Usage: gpuimg dwt IN -o OUT [flags]

The multi-level 2-D discrete wavelet transform of an image read as gray
(wavelet.WaveDec2, PyWavelets' wavedec2 of its 0-255 values), written as one
mosaic in pywt.coeffs_to_array's layout: the deepest approximation top left, each
level's details around what precedes it (vertical to the right, horizontal below,
diagonal on the diagonal), finer levels further out.
OUT: .tiff or .npy keep the coefficients as 32-bit floats; other formats get a
picture of them: the approximation stretched to 0..255, each detail subband's
magnitudes scaled by its own largest.

Flags:
`

// cmdDWT is the dwt command: an image's wavelet coefficients as a mosaic.
func cmdDWT(argv []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dwt", flag.ContinueOnError)
	helpTo(fs, argv, stdout, stderr)
	var o runOpts
	commonFlags(fs, &o)
	var (
		wname  = fs.String("wavelet", "haar", "the wavelet: haar, db1-db10, sym2-sym10, coif1-coif5, bior*, rbio*")
		levels = fs.Int("levels", 0, "levels (0: the deepest the image's shorter side allows)")
		mname  = fs.String("mode", "symmetric", "signal extension: symmetric, periodization, zero, reflect, periodic, constant, smooth, antisymmetric")
	)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), dwtUsage)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\nExample:\n  gpuimg dwt photo.png -o coeffs.png -wavelet db4 -levels 3\n")
	}
	words, err := splitArgs(fs, argv)
	if err != nil {
		return flagExit(err)
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gpuimg dwt: "+format+"\n", a...)
		return exitUsage
	}
	if err := finishFlags(&o); err != nil {
		return usageErr("%v", err)
	}
	if len(words) != 1 {
		return usageErr("want one input image, got %d arguments (see gpuimg help dwt)", len(words))
	}
	if o.out == "" {
		return usageErr("-o OUT is required")
	}
	w, err := wavelet.New(*wname)
	if err != nil {
		return usageErr("-wavelet: %v", err)
	}
	m, err := wavelet.ParseMode(*mname)
	if err != nil {
		return usageErr("-mode: %v", err)
	}
	if *levels < 0 {
		return usageErr("-levels %d: 0 or more", *levels)
	}
	floats := extOf(o.out) == ".npy" || extOf(o.out) == ".tif" || extOf(o.out) == ".tiff"
	if !floats {
		if err := checkWritable(o.out); err != nil {
			return usageErr("%v", err)
		}
	}
	dev, err := pickDevice(o.device)
	if err != nil {
		return usageErr("%v", err)
	}
	if err := dwtFile(dev, words[0], w, m, *levels, o, floats); err != nil {
		fmt.Fprintf(stderr, "gpuimg dwt: %v\n", err)
		return exitFail
	}
	return exitOK
}

// dwtFile transforms the image at path on dev and writes the mosaic.
func dwtFile(dev *gpuimage.Device, path string, w *wavelet.Wavelet, m wavelet.Mode, levels int, o runOpts, floats bool) error {
	ro := o.read
	ro.mode = readGray
	p, err := decode(path, ro)
	if err != nil {
		return err
	}
	g8, err := gpuimage.NewFromData(dev, p.rows, p.cols, gpuimage.CV8UC1, p.data)
	if err != nil {
		return err
	}
	defer g8.Close()
	f := &gpuimage.Image{}
	defer f.Close()
	if err := g8.ConvertTo(f, gpuimage.Depth32F, 1, 0); err != nil {
		return err
	}
	c, err := wavelet.WaveDec2(f, w, m, levels)
	if err != nil {
		return err
	}
	defer c.Close()
	mo, err := mosaic(c, !floats)
	if err != nil {
		return err
	}
	if floats {
		if extOf(o.out) == ".npy" {
			return writeSignal(o.out, &sigBatch{rows: mo.rows, n: mo.cols, data: mo.v})
		}
		return encode(o.out, pixels{rows: mo.rows, cols: mo.cols, typ: gpuimage.CV32FC1, data: f32Bytes(mo.v)}, o.write)
	}
	b := make([]byte, len(mo.v))
	for i, v := range mo.v {
		b[i] = uint8(math.Round(math.Max(0, math.Min(255, float64(v)))))
	}
	return encode(o.out, pixels{rows: mo.rows, cols: mo.cols, typ: gpuimage.CV8UC1, data: b}, o.write)
}

// floatMosaic is a rows x cols float32 picture, row after row.
type floatMosaic struct {
	rows, cols int
	v          []float32
}

// mosaic lays c out as pywt.coeffs_to_array does; scaled, with each subband
// mapped to 0..255 for a picture (the approximation by its range, details by
// their largest magnitude).
func mosaic(c *wavelet.Coeffs2, scaled bool) (*floatMosaic, error) {
	// pywt: a level's details sit after the extent so far.
	rows, cols := c.A.Rows(), c.A.Cols()
	for _, d := range c.Details {
		rows, cols = rows+d.V.Rows(), cols+d.H.Cols()
	}
	mo := &floatMosaic{rows: rows, cols: cols, v: make([]float32, rows*cols)}
	put := func(im *gpuimage.Image, r0, c0 int, approx bool) error {
		v, err := gpuimage.ToData[float32](im)
		if err != nil {
			return err
		}
		if scaled {
			lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
			for _, x := range v {
				if !approx {
					x = float32(math.Abs(float64(x)))
				}
				lo, hi = min(lo, x), max(hi, x)
			}
			if !approx {
				lo = 0
			}
			k := float32(0)
			if hi > lo {
				k = 255 / (hi - lo)
			}
			for i, x := range v {
				if !approx {
					x = float32(math.Abs(float64(x)))
				}
				v[i] = (x - lo) * k
			}
		}
		for y := 0; y < im.Rows(); y++ {
			copy(mo.v[(r0+y)*cols+c0:], v[y*im.Cols():(y+1)*im.Cols()])
		}
		return nil
	}
	if err := put(c.A, 0, 0, true); err != nil {
		return nil, err
	}
	ar, ac := c.A.Rows(), c.A.Cols()
	for _, d := range c.Details {
		if err := put(d.V, 0, ac, false); err != nil { // 'ad': rows of the approximation, columns after
			return nil, err
		}
		if err := put(d.H, ar, 0, false); err != nil { // 'da'
			return nil, err
		}
		if err := put(d.D, ar, ac, false); err != nil {
			return nil, err
		}
		ar, ac = ar+d.H.Rows(), ac+d.H.Cols()
	}
	return mo, nil
}
