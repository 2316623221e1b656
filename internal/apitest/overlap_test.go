package apitest

import (
	"bytes"
	"image"
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/convolve"
	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// opCase is one public operation from a source image into a destination image.
type opCase struct {
	name string
	typ  gpuimage.MatType // the parent image's type
	run  func(src, dst *gpuimage.Image) error
}

func opCases() []opCase {
	k3 := [][]float64{{0, -1, 0}, {-1, 5, -1}, {0, -1, 0}}
	b := convolve.BorderReflect101
	c8 := gpuimage.CV8UC3
	return []opCase{
		{"CopyTo", c8, func(s, d *gpuimage.Image) error { return s.CopyTo(d) }},
		{"ConvertTo", c8, func(s, d *gpuimage.Image) error { return s.ConvertTo(d, -1, 1.5, 3) }},
		{"ConvertTo 32F", gpuimage.CV32FC1, func(s, d *gpuimage.Image) error { return s.ConvertTo(d, -1, -0.5, 1) }},
		{"ExtractChannel", gpuimage.CV8UC1, func(s, d *gpuimage.Image) error { return s.ExtractChannel(d, 0) }},
		{"Merge", gpuimage.CV8UC1, func(s, d *gpuimage.Image) error { return gpuimage.Merge([]*gpuimage.Image{s}, d) }},
		{"CvtColor BGR2RGB", c8, func(s, d *gpuimage.Image) error { return colorconv.CvtColor(s, d, colorconv.ColorBGRToRGB) }},
		{"CvtColor BGR2HSV", c8, func(s, d *gpuimage.Image) error { return colorconv.CvtColor(s, d, colorconv.ColorBGRToHSV) }},
		{"CvtColor BGR2Lab", c8, func(s, d *gpuimage.Image) error { return colorconv.CvtColor(s, d, colorconv.ColorBGRToLab) }},
		{"Transform", c8, func(s, d *gpuimage.Image) error {
			return colorconv.Transform(s, d, [][]float64{{0, 0, 1}, {0, 1, 0}, {0.5, 0.25, 0.25}})
		}},
		{"GaussianBlur", c8, func(s, d *gpuimage.Image) error { return convolve.GaussianBlur(s, d, image.Pt(5, 5), 0, 0, b) }},
		{"Blur", c8, func(s, d *gpuimage.Image) error { return convolve.Blur(s, d, image.Pt(3, 3), image.Pt(-1, -1), b) }},
		{"Filter2D", c8, func(s, d *gpuimage.Image) error { return convolve.Filter2D(s, d, -1, k3, image.Pt(-1, -1), 0, b) }},
		{"SepFilter2D", c8, func(s, d *gpuimage.Image) error {
			return convolve.SepFilter2D(s, d, -1, []float64{1, 2, 1}, []float64{0.25, 0.5, 0.25}, image.Pt(-1, -1), 0, b)
		}},
		{"Sobel", gpuimage.CV8UC1, func(s, d *gpuimage.Image) error { return convolve.Sobel(s, d, -1, 1, 0, 3, 0.5, 128, b) }},
		{"Laplacian", gpuimage.CV8UC1, func(s, d *gpuimage.Image) error { return convolve.Laplacian(s, d, -1, 3, 1, 128, b) }},
		{"LowPass", gpuimage.CV8UC1, func(s, d *gpuimage.Image) error { return fftfilter.LowPass(s, d, fftfilter.Gaussian, 8, 0) }},
		{"Spectrum", gpuimage.CV8UC1, func(s, d *gpuimage.Image) error { return fftfilter.Spectrum(s, d) }},
		{"Convolve", gpuimage.CV32FC1, func(s, d *gpuimage.Image) error {
			return fftfilter.Convolve(s, d, -1, k3, image.Pt(-1, -1), 0, gpuimage.BorderReflect101)
		}},
		{"Magnitude", gpuimage.CV32FC1, func(s, d *gpuimage.Image) error { return fftfilter.Magnitude(s, s, d) }},
		{"Phase", gpuimage.CV32FC1, func(s, d *gpuimage.Image) error { return fftfilter.Phase(s, s, d, false) }},
		{"MulSpectrums", gpuimage.CV32FC2, func(s, d *gpuimage.Image) error { return fftfilter.MulSpectrums(s, s, d, 0, true) }},
		{"DFT rows", gpuimage.CV32FC2, func(s, d *gpuimage.Image) error { return fftfilter.DFT(s, d, fftfilter.DFTRows) }},
	}
}

// Every public operation with its output a view that overlaps its input, both views
// of one parent (and the output the input itself): the result equals the operation
// on a separate copy of the input, and the parent changes exactly where the output
// lies (or not at all, when the output has another size or type and is
// reallocated, as OpenCV reallocates).
func TestOverlappingViews(t *testing.T) {
	r := tu.Rand(t)
	for _, dev := range devices(t) {
		for _, c := range opCases() {
			for _, shift := range []image.Point{{3, 2}, {0, 0}, {-2, 1}, {1, 0}} {
				const rows, cols = 23, 31
				data := tu.RandomBytes(r, c.typ.Depth(), rows*cols*c.typ.Channels())
				parent, err := gpuimage.NewFromBytes(dev, rows, cols, c.typ, data)
				if err != nil {
					t.Fatal(err)
				}
				in := image.Rect(4, 4, 20, 17)
				src, _ := parent.Region(in)
				dst, _ := parent.Region(in.Add(shift))
				// The reference: the same call on the same view of a copy of the parent
				// (filters read the parent's pixels around a view).
				copyParent, _ := gpuimage.NewFromBytes(dev, rows, cols, c.typ, data)
				ref, _ := copyParent.Region(in)
				want := &gpuimage.Image{}
				if err := c.run(ref, want); err != nil {
					t.Fatalf("%s on %s: %v", c.name, dev.Name(), err)
				}
				wantPixels := tu.Bytes(t, want)
				// The parent as it should end: its bytes with the output copied in.
				expParent, _ := gpuimage.NewFromBytes(gpuimage.CPU(), rows, cols, c.typ, data)
				if want.Type() == c.typ {
					v, _ := expParent.Region(in.Add(shift))
					w, _ := gpuimage.NewFromBytes(gpuimage.CPU(), want.Rows(), want.Cols(), want.Type(), wantPixels)
					w.CopyTo(v)
					v.Close()
					w.Close()
				}
				err = c.run(src, dst)
				name := c.name + " on " + dev.Name() + " shifted by " + shift.String()
				switch {
				case err != nil:
					t.Errorf("%s: %v", name, err)
				case !bytes.Equal(tu.Bytes(t, dst), wantPixels):
					t.Errorf("%s: the output differs from the operation on a copy", name)
				case !bytes.Equal(tu.Bytes(t, parent), tu.Bytes(t, expParent)):
					t.Errorf("%s: the parent image changed outside the output", name)
				}
				// In place: the output is the input itself.
				ref2, _ := gpuimage.NewFromBytes(dev, rows, cols, c.typ, data)
				inPlace, _ := ref2.Region(in)
				if err := c.run(inPlace, inPlace); err != nil {
					t.Errorf("%s in place: %v", name, err)
				} else if !bytes.Equal(tu.Bytes(t, inPlace), wantPixels) {
					t.Errorf("%s in place: the output differs from the operation on a copy", name)
				}
				for _, im := range []*gpuimage.Image{parent, src, dst, ref, want, expParent, inPlace, ref2, copyParent} {
					im.Close()
				}
			}
		}
	}
}
