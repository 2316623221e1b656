package main

import (
	"fmt"
	"image"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
	"github.com/gpuimg/gpuimg/wavelet"
)

// stepFunc runs one operation from src into dst on the stream on names.
type stepFunc func(src, dst *gpuimage.Image, on gpuimage.Option) error

// param is one parameter of an operation, named after OpenCV's.
type param struct {
	name, def, doc string
}

// opSpec is an operation the CLI offers as a subcommand and as a pipeline step.
type opSpec struct {
	name, summary string
	params        []param
	example       string
	build         func(p args) (stepFunc, error)
	more          func() string // more help, printed before the example
}

// args are an operation's parameter values (defaults filled in) by name.
type args map[string]string

func (a args) int(name string) (int, error) {
	v, err := strconv.Atoi(a[name])
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", name, a[name])
	}
	return v, nil
}

func (a args) float(name string) (float64, error) {
	v, err := strconv.ParseFloat(a[name], 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a number", name, a[name])
	}
	return v, nil
}

// size parses "5" (5x5) or "5x3" (width x height).
func (a args) size(name string) (image.Point, error) {
	w, h, ok := strings.Cut(a[name], "x")
	if !ok {
		h = w
	}
	x, err1 := strconv.Atoi(w)
	y, err2 := strconv.Atoi(h)
	if err1 != nil || err2 != nil {
		return image.Point{}, fmt.Errorf("%s=%q is not a size (5 or 5x3)", name, a[name])
	}
	return image.Pt(x, y), nil
}

// point parses "x,y".
func (a args) point(name string) (image.Point, error) {
	x, y, ok := strings.Cut(a[name], ",")
	px, err1 := strconv.Atoi(x)
	py, err2 := strconv.Atoi(y)
	if !ok || err1 != nil || err2 != nil {
		return image.Point{}, fmt.Errorf("%s=%q is not a point (x,y)", name, a[name])
	}
	return image.Pt(px, py), nil
}

// vector parses "1,2,1".
func (a args) vector(name string) ([]float64, error) {
	var v []float64
	for _, f := range strings.Split(a[name], ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %q is not a number (want comma-separated numbers)", name, a[name], f)
		}
		v = append(v, x)
	}
	return v, nil
}

// matrix parses rows separated by ';' of comma-separated numbers: "0,-1,0;-1,5,-1;0,-1,0".
func (a args) matrix(name string) ([][]float64, error) {
	if a[name] == "" {
		return nil, fmt.Errorf("%s is required (rows of comma-separated numbers, separated by ';')", name)
	}
	var m [][]float64
	for i, row := range strings.Split(a[name], ";") {
		v, err := (args{"row": row}).vector("row")
		if err != nil {
			return nil, fmt.Errorf("%s row %d: %v", name, i, err)
		}
		if len(m) > 0 && len(v) != len(m[0]) {
			return nil, fmt.Errorf("%s row %d has %d numbers, row 0 has %d", name, i, len(v), len(m[0]))
		}
		m = append(m, v)
	}
	return m, nil
}

func (a args) depth(name string) (gpuimage.Depth, error) {
	if s := a[name]; s == "" || strings.EqualFold(s, "same") || s == "-1" {
		return convolve.SameDepth, nil
	}
	return parseDepth(a[name])
}

var borders = map[string]gpuimage.BorderType{
	"constant": gpuimage.BorderConstant, "replicate": gpuimage.BorderReplicate, "reflect": gpuimage.BorderReflect,
	"wrap": gpuimage.BorderWrap, "reflect101": gpuimage.BorderReflect101, "reflect_101": gpuimage.BorderReflect101,
	"default": gpuimage.BorderDefault,
}

func (a args) border(name string) (gpuimage.BorderType, error) {
	s := strings.ToLower(strings.TrimPrefix(strings.ToUpper(a[name]), "BORDER_"))
	b, ok := borders[s]
	if !ok {
		return 0, fmt.Errorf("%s=%q is not a border (constant, replicate, reflect, wrap, reflect101)", name, a[name])
	}
	return b, nil
}

func (a args) shape(name string) (fftfilter.Shape, error) {
	switch strings.ToLower(a[name]) {
	case "ideal":
		return fftfilter.Ideal, nil
	case "butterworth":
		return fftfilter.Butterworth, nil
	case "gaussian":
		return fftfilter.Gaussian, nil
	}
	return 0, fmt.Errorf("%s=%q is not a shape (ideal, butterworth, gaussian)", name, a[name])
}

// first returns the first error of errs.
func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

var (
	pBorder = param{"border", "reflect101", "border type: constant, replicate, reflect, wrap, reflect101"}
	pDdepth = param{"ddepth", "same", "output depth: same, 8U, 16U, 16S or 32F"}
	pScale  = param{"scale", "1", "factor applied to the result"}
	pDelta  = param{"delta", "0", "value added to the result"}
	pAnchor = param{"anchor", "-1,-1", "kernel anchor x,y (-1,-1: the centre)"}
	pShape  = param{"shape", "gaussian", "response: ideal, butterworth or gaussian"}
	pOrder  = param{"order", "2", "Butterworth order"}
)

// ops are the operations, by name.
var ops = map[string]*opSpec{}

func addOp(o *opSpec) { ops[o.name] = o }

func init() {
	addOp(&opSpec{name: "convert", summary: "convert the depth: saturate(pixel*alpha + beta) (OpenCV's convertTo)",
		params:  []param{{"depth", "8U", "output depth: 8U, 16U, 16S or 32F"}, {"alpha", "1", "scale"}, {"beta", "0", "offset added after scaling"}},
		example: "gpuimg convert in.png -o out.png -depth 16U -alpha 257",
		build: func(a args) (stepFunc, error) {
			d, err1 := parseDepth(a["depth"])
			al, err2 := a.float("alpha")
			be, err3 := a.float("beta")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return src.ConvertTo(dst, d, al, be, on) }, first(err1, err2, err3)
		}})
	addOp(&opSpec{name: "cvtcolor", summary: "convert colours (OpenCV's cvtColor), e.g. BGR2GRAY, BGR2Lab, BGR2HSV, Lab2BGR",
		params:  []param{{"code", "", "conversion, as OpenCV's COLOR_* names without the prefix"}},
		example: "gpuimg cvtcolor in.png -o gray.png -code BGR2GRAY",
		more:    codeList,
		build: func(a args) (stepFunc, error) {
			c, err := colorconv.ParseCode(a["code"])
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return colorconv.CvtColor(src, dst, c, on) }, err
		}})
	addOp(&opSpec{name: "gaussian", summary: "Gaussian blur (OpenCV's GaussianBlur)",
		params:  []param{{"ksize", "5", "kernel size, odd: 5 or WxH (0: from sigma)"}, {"sigma", "0", "sigma X (0: from ksize)"}, {"sigmay", "0", "sigma Y (0: sigma)"}, pBorder},
		example: "gpuimg gaussian in.png -o out.png -ksize 7 -sigma 1.5",
		build: func(a args) (stepFunc, error) {
			k, err1 := a.size("ksize")
			sx, err2 := a.float("sigma")
			sy, err3 := a.float("sigmay")
			b, err4 := a.border("border")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.GaussianBlur(src, dst, k, sx, sy, b, on)
			}, first(err1, err2, err3, err4)
		}})
	addOp(&opSpec{name: "resize", summary: "resize (OpenCV's resize): to -size, or by -fx and -fy",
		params: []param{{"size", "0", "output size WxH (0: from fx and fy)"}, {"fx", "0", "horizontal scale factor (with no size)"},
			{"fy", "0", "vertical scale factor (0: fx)"},
			{"interp", "linear", "interpolation: nearest, linear, cubic, area, lanczos4, linear-exact, nearest-exact"}},
		example: "gpuimg resize in.png -o out.png -size 1920x1080 -interp area",
		build: func(a args) (stepFunc, error) {
			sz, err1 := a.size("size")
			fx, err2 := a.float("fx")
			fy, err3 := a.float("fy")
			in, err4 := resample.ParseInterpolation(a["interp"])
			if fy == 0 {
				fy = fx
			}
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return resample.Resize(src, dst, sz, fx, fy, in, on)
			}, first(err1, err2, err3, err4)
		}})
	addOp(&opSpec{name: "scale", summary: "antialiased resize to -size (Pillow's Image.resize filters)",
		params:  []param{{"size", "", "output size WxH"}, {"filter", "lanczos3", "filter: box, bilinear, bicubic, lanczos3, hamming"}},
		example: "gpuimg scale in.png -o out.png -size 1920x1080 -filter lanczos3",
		build: func(a args) (stepFunc, error) {
			sz, err1 := a.size("size")
			f, err2 := resample.ParseFilter(a["filter"])
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return resample.Scale(src, dst, sz, f, on)
			}, first(err1, err2)
		}})
	addOp(&opSpec{name: "thumbnail", summary: "antialiased thumbnails: the image shrunk to fit in -size, its aspect kept (-fit=false: exactly -size)",
		params: []param{{"size", "256x256", "the box WxH"}, {"fit", "true", "keep the aspect ratio, fitting inside the box (never enlarging)"},
			{"filter", "lanczos3", "filter: box, bilinear, bicubic, lanczos3, hamming"}},
		example: "gpuimg thumbnail *.jpg -o thumbs/ -size 256x256",
		build: func(a args) (stepFunc, error) {
			sz, err1 := a.size("size")
			fit, err2 := strconv.ParseBool(a["fit"])
			f, err3 := resample.ParseFilter(a["filter"])
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				out := sz
				if fit {
					out = fitInside(src.Cols(), src.Rows(), sz)
				}
				return resample.Scale(src, dst, out, f, on)
			}, first(err1, err2, err3)
		}})
	addOp(&opSpec{name: "denoise", summary: "wavelet denoising (scikit-image's denoise_wavelet): details thresholded, BayesShrink or VisuShrink",
		params: []param{{"wavelet", "db1", "the wavelet: haar, db1-db10, sym2-sym10, coif1-coif5, bior*, rbio*"},
			{"levels", "0", "levels of the transform (0: the deepest less 3, at least 1)"},
			{"method", "bayes", "thresholds: bayes (BayesShrink, one a subband) or visu (VisuShrink, universal)"},
			{"hard", "false", "hard thresholding instead of soft"},
			{"sigma", "0", "the noise's standard deviation in pixel units, every channel (0: estimated from the finest details)"},
			{"ycbcr", "false", "denoise a colour image's luma and chroma instead of B, G and R"}},
		example: "gpuimg denoise noisy.png -o clean.png -wavelet db4 -levels 3",
		build: func(a args) (stepFunc, error) {
			w, err1 := wavelet.New(a["wavelet"])
			lv, err2 := a.int("levels")
			hard, err3 := strconv.ParseBool(a["hard"])
			sg, err4 := a.float("sigma")
			ycc, err5 := strconv.ParseBool(a["ycbcr"])
			var m wavelet.ShrinkMethod
			var err6 error
			switch strings.ToLower(a["method"]) {
			case "bayes", "bayesshrink":
				m = wavelet.BayesShrink
			case "visu", "visushrink":
				m = wavelet.VisuShrink
			default:
				err6 = fmt.Errorf("method=%q: bayes or visu", a["method"])
			}
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				o := &wavelet.DenoiseOptions{Wavelet: w, Levels: lv, Method: m, Hard: hard, YCbCr: ycc}
				if sg != 0 {
					o.Sigma = make([]float64, src.Channels())
					for i := range o.Sigma {
						o.Sigma[i] = sg
					}
				}
				return wavelet.Denoise(src, dst, o, on)
			}, first(err1, err2, err3, err4, err5, err6)
		}})
	addOp(&opSpec{name: "pyrdown", summary: "blur and halve (OpenCV's pyrDown)",
		params:  []param{{"size", "0", "output size WxH (0: half, rounded up)"}, pBorder},
		example: "gpuimg pyrdown in.png -o half.png",
		build: func(a args) (stepFunc, error) {
			sz, err1 := a.size("size")
			b, err2 := a.border("border")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return resample.PyrDown(src, dst, sz, b, on)
			}, first(err1, err2)
		}})
	addOp(&opSpec{name: "pyrup", summary: "double and blur (OpenCV's pyrUp)",
		params:  []param{{"size", "0", "output size WxH (0: twice the input)"}},
		example: "gpuimg pyrup in.png -o double.png",
		build: func(a args) (stepFunc, error) {
			sz, err := a.size("size")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return resample.PyrUp(src, dst, sz, gpuimage.BorderDefault, on)
			}, err
		}})
	addOp(&opSpec{name: "blur", summary: "normalized box filter (OpenCV's blur)",
		params:  []param{{"ksize", "3", "kernel size: 3 or WxH"}, pAnchor, pBorder},
		example: "gpuimg blur in.png -o out.png -ksize 5",
		build: func(a args) (stepFunc, error) {
			k, err1 := a.size("ksize")
			an, err2 := a.point("anchor")
			b, err3 := a.border("border")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.Blur(src, dst, k, an, b, on)
			}, first(err1, err2, err3)
		}})
	deriv := func(name, summary string, scharr bool) {
		ps := []param{{"dx", "1", "order of the x derivative"}, {"dy", "0", "order of the y derivative"}}
		if !scharr {
			ps = append(ps, param{"ksize", "3", "aperture: 1, 3, 5, 7 (-1: Scharr)"})
		}
		ps = append(ps, param{"ddepth", "16S", pDdepth.doc}, pScale, pDelta, pBorder)
		addOp(&opSpec{name: name, summary: summary, params: ps,
			example: "gpuimg " + name + " in.png -o dx.tiff -dx 1 -dy 0 -ddepth 32F",
			build: func(a args) (stepFunc, error) {
				dx, err1 := a.int("dx")
				dy, err2 := a.int("dy")
				ks := convolve.FilterScharr
				var err3 error
				if !scharr {
					ks, err3 = a.int("ksize")
				}
				dd, err4 := a.depth("ddepth")
				sc, err5 := a.float("scale")
				de, err6 := a.float("delta")
				b, err7 := a.border("border")
				return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
					return convolve.Sobel(src, dst, dd, dx, dy, ks, sc, de, b, on)
				}, first(err1, err2, err3, err4, err5, err6, err7)
			}})
	}
	deriv("sobel", "Sobel derivative (OpenCV's Sobel)", false)
	deriv("scharr", "Scharr derivative (OpenCV's Scharr)", true)
	addOp(&opSpec{name: "laplacian", summary: "Laplacian (OpenCV's Laplacian)",
		params:  []param{{"ksize", "1", "aperture: 1, 3, 5 ... 31"}, {"ddepth", "16S", pDdepth.doc}, pScale, pDelta, pBorder},
		example: "gpuimg laplacian in.png -o lap.png -ksize 3 -ddepth 8U",
		build: func(a args) (stepFunc, error) {
			ks, err1 := a.int("ksize")
			dd, err2 := a.depth("ddepth")
			sc, err3 := a.float("scale")
			de, err4 := a.float("delta")
			b, err5 := a.border("border")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.Laplacian(src, dst, dd, ks, sc, de, b, on)
			}, first(err1, err2, err3, err4, err5)
		}})
	addOp(&opSpec{name: "filter2d", summary: "convolve with a kernel (OpenCV's filter2D; kernels over 31 taps go through the FFT on CUDA)",
		params:  []param{{"kernel", "", "rows of comma-separated taps separated by ';'"}, pDdepth, pAnchor, pDelta, pBorder},
		example: "gpuimg filter2d in.png -o sharp.png -kernel '0,-1,0;-1,5,-1;0,-1,0'",
		build: func(a args) (stepFunc, error) {
			k, err1 := a.matrix("kernel")
			dd, err2 := a.depth("ddepth")
			an, err3 := a.point("anchor")
			de, err4 := a.float("delta")
			b, err5 := a.border("border")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.Filter2D(src, dst, dd, k, an, de, b, on)
			}, first(err1, err2, err3, err4, err5)
		}})
	addOp(&opSpec{name: "sepfilter", summary: "separable filter: kernelx along rows, then kernely down columns (OpenCV's sepFilter2D)",
		params:  []param{{"kernelx", "", "comma-separated taps"}, {"kernely", "", "comma-separated taps"}, pDdepth, pAnchor, pDelta, pBorder},
		example: "gpuimg sepfilter in.png -o out.png -kernelx 1,2,1 -kernely 0.25,0.5,0.25",
		build: func(a args) (stepFunc, error) {
			kx, err1 := a.vector("kernelx")
			ky, err2 := a.vector("kernely")
			dd, err3 := a.depth("ddepth")
			an, err4 := a.point("anchor")
			de, err5 := a.float("delta")
			b, err6 := a.border("border")
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error {
				return convolve.SepFilter2D(src, dst, dd, kx, ky, an, de, b, on)
			}, first(err1, err2, err3, err4, err5, err6)
		}})
	addOp(&opSpec{name: "dft", summary: "discrete Fourier transform of a 32F image (OpenCV's dft): the whole complex spectrum, 32FC2",
		params:  []param{{"rows", "false", "one 1-D transform per row"}, {"scale", "false", "divide by the number of elements"}},
		example: "gpuimg run in.png -o back.png convert:depth=32F dft idft convert:depth=8U",
		build: func(a args) (stepFunc, error) {
			f, err := dftFlags(a, fftfilter.DFTComplexOutput)
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return fftfilter.DFT(src, dst, f, on) }, err
		}})
	addOp(&opSpec{name: "idft", summary: "inverse DFT of a spectrum to a real 32F image, scaled (OpenCV's idft with DFT_SCALE|DFT_REAL_OUTPUT)",
		params:  []param{{"rows", "false", "one 1-D transform per row"}, {"scale", "true", "divide by the number of elements"}},
		example: "gpuimg run in.png -o back.png convert:depth=32F dft idft convert:depth=8U",
		build: func(a args) (stepFunc, error) {
			f, err := dftFlags(a, fftfilter.DFTInverse|fftfilter.DFTRealOutput)
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return fftfilter.DFT(src, dst, f, on) }, err
		}})
	addOp(&opSpec{name: "spectrum", summary: "centred log-magnitude spectrum of a 1-channel image, as 8U",
		example: "gpuimg run in.png -o spectrum.png cvtcolor:BGR2GRAY spectrum",
		build: func(a args) (stepFunc, error) {
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return fftfilter.Spectrum(src, dst, on) }, nil
		}})
	pass := func(name, summary string, kind fftfilter.Kind) {
		addOp(&opSpec{name: name, summary: summary + " in the frequency domain (cutoff in cycles per image)",
			params:  []param{{"cutoff", "30", "cutoff frequency D0, cycles per image"}, pShape, pOrder},
			example: "gpuimg " + name + " in.png -o out.png -cutoff 40 -shape butterworth -order 2",
			build: func(a args) (stepFunc, error) {
				c, err1 := a.float("cutoff")
				s, err2 := a.shape("shape")
				o, err3 := a.int("order")
				f := fftfilter.Filter{Kind: kind, Shape: s, Cutoff: c, Order: o}
				return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return fftfilter.Apply(src, dst, f, on) }, first(err1, err2, err3)
			}})
	}
	pass("lowpass", "low-pass filter", fftfilter.LowPassKind)
	pass("highpass", "high-pass filter", fftfilter.HighPassKind)
	band := func(name, summary string, kind fftfilter.Kind) {
		addOp(&opSpec{name: name, summary: summary + " in the frequency domain",
			params:  []param{{"center", "40", "band centre, cycles per image"}, {"width", "10", "band width"}, pShape, pOrder},
			example: "gpuimg " + name + " in.png -o out.png -center 60 -width 20",
			build: func(a args) (stepFunc, error) {
				c, err1 := a.float("center")
				w, err2 := a.float("width")
				s, err3 := a.shape("shape")
				o, err4 := a.int("order")
				f := fftfilter.Filter{Kind: kind, Shape: s, Cutoff: c, Width: w, Order: o}
				return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return fftfilter.Apply(src, dst, f, on) }, first(err1, err2, err3, err4)
			}})
	}
	band("bandpass", "band-pass filter", fftfilter.BandPassKind)
	band("bandreject", "band-reject filter", fftfilter.BandRejectKind)
	addOp(&opSpec{name: "notch", summary: "notch filter: rejects (or passes) frequencies and their mirror images, as for periodic noise",
		params:  []param{{"notches", "", "u,v,radius;u,v,radius... (cycles per image across, down)"}, {"pass", "false", "keep only the notches"}, pShape, pOrder},
		example: "gpuimg notch in.png -o clean.png -notches '64,0,4;0,48,4' -shape butterworth",
		build: func(a args) (stepFunc, error) {
			m, err1 := a.matrix("notches")
			s, err2 := a.shape("shape")
			o, err3 := a.int("order")
			p, err4 := strconv.ParseBool(a["pass"])
			f := fftfilter.Filter{Kind: fftfilter.NotchRejectKind, Shape: s, Order: o}
			if p {
				f.Kind = fftfilter.NotchPassKind
			}
			for i, row := range m {
				if len(row) != 3 {
					return nil, fmt.Errorf("notches: notch %d has %d numbers (want u,v,radius)", i, len(row))
				}
				f.Notches = append(f.Notches, fftfilter.Notch{U: row[0], V: row[1], Radius: row[2]})
			}
			return func(src, dst *gpuimage.Image, on gpuimage.Option) error { return fftfilter.Apply(src, dst, f, on) }, first(err1, err2, err3, err4)
		}})
}

func dftFlags(a args, f fftfilter.Flags) (fftfilter.Flags, error) {
	rows, err1 := strconv.ParseBool(a["rows"])
	scale, err2 := strconv.ParseBool(a["scale"])
	if rows {
		f |= fftfilter.DFTRows
	}
	if scale {
		f |= fftfilter.DFTScale
	}
	if err := first(err1, err2); err != nil {
		return 0, fmt.Errorf("rows and scale are true or false: %v", err)
	}
	return f, nil
}

// opNames lists the operations in order.
func opNames() []string {
	var n []string
	for k := range ops {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// step is one parsed pipeline step.
type step struct {
	text string // as given
	op   *opSpec
	run  stepFunc
}

// parseStep parses NAME[:VALUE|:KEY=VALUE]...: values without a key fill the
// operation's parameters in order ("cvtcolor:BGR2Lab", "gaussian:ksize=5:sigma=1.2").
func parseStep(text string) (step, error) {
	parts := strings.Split(text, ":")
	op, ok := ops[strings.ToLower(parts[0])]
	if !ok {
		return step{}, fmt.Errorf("step %q: unknown operation %q (operations: %s)", text, parts[0], strings.Join(opNames(), ", "))
	}
	a := args{}
	for _, p := range op.params {
		a[p.name] = p.def
	}
	for i, kv := range parts[1:] {
		k, v, hasKey := strings.Cut(kv, "=")
		if !hasKey {
			if i >= len(op.params) {
				return step{}, fmt.Errorf("step %q: %s takes %d parameters, %q is one too many", text, op.name, len(op.params), kv)
			}
			k, v = op.params[i].name, kv
		}
		if _, known := a[k]; !known {
			return step{}, fmt.Errorf("step %q: %s has no parameter %q (it has %s)", text, op.name, k, paramNames(op))
		}
		a[k] = v
	}
	return buildStep(text, op, a)
}

func buildStep(text string, op *opSpec, a args) (step, error) {
	run, err := op.build(a)
	if err != nil {
		return step{}, fmt.Errorf("step %q: %v", text, err)
	}
	return step{text: text, op: op, run: run}, nil
}

func paramNames(op *opSpec) string {
	if len(op.params) == 0 {
		return "none"
	}
	var n []string
	for _, p := range op.params {
		n = append(n, p.name)
	}
	return strings.Join(n, ", ")
}

// isStep reports whether a command-line word is a pipeline step rather than a file.
func isStep(word string) bool {
	name, _, _ := strings.Cut(word, ":")
	_, ok := ops[strings.ToLower(name)]
	return ok
}

// codeList is cvtcolor's help text: every code, wrapped.
func codeList() string {
	var b strings.Builder
	b.WriteString("Codes:\n")
	line := " "
	for _, c := range colorconv.Codes() {
		if len(line)+len(c.String())+1 > 80 {
			b.WriteString(line + "\n")
			line = " "
		}
		line += " " + c.String()
	}
	b.WriteString(line + "\n")
	return b.String()
}

// fitInside is the size of a w x h image shrunk to fit in box, its aspect kept
// (each side rounded, at least 1); an image that fits already keeps its size.
func fitInside(w, h int, box image.Point) image.Point {
	f := min(float64(box.X)/float64(w), float64(box.Y)/float64(h), 1)
	return image.Pt(max(1, int(float64(w)*f+0.5)), max(1, int(float64(h)*f+0.5)))
}
