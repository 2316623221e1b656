//go:build !noopencv

package fftfilter_test

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/gocvtest"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CPU device against OpenCV 4.6 (gocv) on random inputs.

func TestGetOptimalDFTSizeMatchesOpenCV(t *testing.T) {
	for n := 0; n < 5000; n++ {
		if got, want := fftfilter.GetOptimalDFTSize(n), gocv.GetOptimalDFTSize(n); got != want {
			t.Fatalf("GetOptimalDFTSize(%d) = %d, OpenCV %d", n, got, want)
		}
	}
	for _, n := range []int{3840, 2160, 4097, 1 << 20, 1<<20 + 1, 123456789} {
		if got, want := fftfilter.GetOptimalDFTSize(n), gocv.GetOptimalDFTSize(n); got != want {
			t.Errorf("GetOptimalDFTSize(%d) = %d, OpenCV %d", n, got, want)
		}
	}
}

// dftInput is a random input for a case: real or complex noise, or, for inverse
// transforms, OpenCV's spectrum of real noise (CCS, or whole for a real output).
func dftInput(t *testing.T, r interface{ Float64() float64 }, rows, cols, cn int, flags fftfilter.Flags) (gpuimage.MatType, []byte) {
	t.Helper()
	v := make([]float64, rows*cols*cn)
	for i := range v {
		v[i] = r.Float64()*2 - 1
	}
	if flags&fftfilter.DFTInverse == 0 || (cn == 2 && flags&fftfilter.DFTRealOutput == 0) {
		return gpuimage.MakeType(gpuimage.Depth32F, cn), encode(v)
	}
	x := gocvtest.Mat(t, rows, cols, gpuimage.CV32FC1, encode(v[:rows*cols]))
	defer x.Close()
	spec := gocv.NewMat()
	defer spec.Close()
	f := gocv.DftForward
	if flags&fftfilter.DFTRows != 0 {
		f |= gocv.DftRows
	}
	if cn == 2 {
		f |= gocv.DftComplexOutput
	}
	gocv.DFT(x, &spec, f)
	return gpuimage.MatType(spec.Type()), gocvtest.Bytes(t, spec)
}

func TestDFTMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range sizes {
		for _, c := range dftCases {
			rows, cols := sz[0], sz[1]
			name := fmt.Sprintf("%dx%d/C%d/flags%d", rows, cols, c.cn, c.flags)
			mt, data := dftInput(t, r, rows, cols, c.cn, c.flags)
			src := gocvtest.Mat(t, rows, cols, mt, data)
			want := gocv.NewMat()
			gocv.DFT(src, &want, gocv.DftFlags(c.flags))
			in := newImage(t, gpuimage.CPU(), rows, cols, mt, data)
			out := &gpuimage.Image{}
			if err := fftfilter.DFT(in, out, c.flags); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if out.Type() != gpuimage.MatType(want.Type()) {
				t.Errorf("%s: type %v, OpenCV %v", name, out.Type(), gpuimage.MatType(want.Type()))
			} else {
				closeEnough(t, name, tu.Bytes(t, out), gocvtest.Bytes(t, want), 1e-4, 1e-5)
			}
			src.Close()
			want.Close()
			in.Close()
			out.Close()
		}
	}
}

func TestDFT4KMatchesOpenCV(t *testing.T) {
	if testing.Short() {
		t.Skip("4K transform on the CPU")
	}
	r := tu.Rand(t)
	mt, data := dftInput(t, r, 2160, 3840, 1, 0)
	src := gocvtest.Mat(t, 2160, 3840, mt, data)
	defer src.Close()
	want := gocv.NewMat()
	defer want.Close()
	gocv.DFT(src, &want, gocv.DftForward)
	in := newImage(t, gpuimage.CPU(), 2160, 3840, mt, data)
	defer in.Close()
	out := &gpuimage.Image{}
	defer out.Close()
	if err := fftfilter.DFT(in, out, 0); err != nil {
		t.Fatal(err)
	}
	closeEnough(t, "3840x2160 CCS", tu.Bytes(t, out), gocvtest.Bytes(t, want), 1e-4, 1e-5)
}

// reversed returns y(-x, -y) (indices modulo the size, per row with rows), whose
// spectrum is the conjugate of y's.
func reversed(v []float64, rows, cols int, perRow bool) []float64 {
	out := make([]float64, len(v))
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			ri := (rows - i) % rows
			if perRow {
				ri = i
			}
			out[ri*cols+(cols-j)%cols] = v[i*cols+j]
		}
	}
	return out
}

func TestMulSpectrumsMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range sizes {
		for _, cplx := range []bool{false, true} {
			for _, rowsFlag := range []bool{false, true} {
				for _, conj := range []bool{false, true} {
					rows, cols := sz[0], sz[1]
					name := fmt.Sprintf("%dx%d/complex=%v/rows=%v/conj=%v", rows, cols, cplx, rowsFlag, conj)
					x, y := make([]float64, rows*cols), make([]float64, rows*cols)
					for i := range x {
						x[i], y[i] = r.Float64()*2-1, r.Float64()*2-1
					}
					// OpenCV's spectra of x and y (or, for conj, of y reversed, whose
					// spectrum is conj(Y)) on both sides.
					f := gocv.DftForward
					var flags fftfilter.Flags
					if cplx {
						f |= gocv.DftComplexOutput
					}
					if rowsFlag {
						f |= gocv.DftRows
						flags |= fftfilter.DFTRows
					}
					spec := func(v []float64) (gocv.Mat, *gpuimage.Image) {
						m := gocvtest.Mat(t, rows, cols, gpuimage.CV32FC1, encode(v))
						defer m.Close()
						s := gocv.NewMat()
						gocv.DFT(m, &s, f)
						return s, newImage(t, gpuimage.CPU(), rows, cols, gpuimage.MatType(s.Type()), gocvtest.Bytes(t, s))
					}
					am, a := spec(x)
					bm, b := spec(y)
					cm := bm
					if conj {
						cm, _ = spec(reversed(y, rows, cols, rowsFlag || rows == 1))
					}
					want := gocv.NewMat()
					gocv.MulSpectrums(am, cm, &want, gocv.DftFlags(flags))
					out := &gpuimage.Image{}
					if err := fftfilter.MulSpectrums(a, b, out, flags, conj); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					closeEnough(t, name, tu.Bytes(t, out), gocvtest.Bytes(t, want), 1e-4, 1e-5)
					for _, m := range []gocv.Mat{am, bm, want} {
						m.Close()
					}
					if conj {
						cm.Close()
					}
					a.Close()
					b.Close()
					out.Close()
				}
			}
		}
	}
}

func TestMagnitudePhaseMatchOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 1}, {7, 13}, {300, 451}} {
		rows, cols := sz[0], sz[1]
		x, y := make([]float64, rows*cols*2), make([]float64, rows*cols*2)
		for i := range x {
			x[i], y[i] = r.Float64()*200-100, r.Float64()*200-100
		}
		x[0], y[0] = 0, 0
		xm, ym := gocvtest.Mat(t, rows, cols, gpuimage.CV32FC2, encode(x)), gocvtest.Mat(t, rows, cols, gpuimage.CV32FC2, encode(y))
		xi, yi := newImage(t, gpuimage.CPU(), rows, cols, gpuimage.CV32FC2, encode(x)), newImage(t, gpuimage.CPU(), rows, cols, gpuimage.CV32FC2, encode(y))
		mag, ph := gocv.NewMat(), gocv.NewMat()
		gocv.Magnitude(xm, ym, &mag)
		out := &gpuimage.Image{}
		if err := fftfilter.Magnitude(xi, yi, out); err != nil {
			t.Fatal(err)
		}
		closeEnough(t, "Magnitude", tu.Bytes(t, out), gocvtest.Bytes(t, mag), 1e-6, 0)
		for _, deg := range []bool{false, true} {
			gocv.Phase(xm, ym, &ph, deg)
			if err := fftfilter.Phase(xi, yi, out, deg); err != nil {
				t.Fatal(err)
			}
			full, tol := 2*math.Pi, 0.3*math.Pi/180 // OpenCV's phase is accurate to about 0.3°
			if deg {
				full, tol = 360, 0.3
			}
			g, w := floats(tu.Bytes(t, out)), floats(gocvtest.Bytes(t, ph))
			for i := range g {
				d := math.Abs(g[i] - w[i])
				d = math.Min(d, full-d) // 0 and 2π are the same angle
				if d > tol || g[i] < 0 || g[i] >= full {
					t.Fatalf("Phase(degrees=%v) %dx%d element %d: %v, OpenCV %v", deg, rows, cols, i, g[i], w[i])
				}
			}
		}
		for _, m := range []gocv.Mat{xm, ym, mag, ph} {
			m.Close()
		}
		xi.Close()
		yi.Close()
		out.Close()
	}
}

// cvFilter is the reference for the mask filters: pad by reflection to the optimal
// size, whole complex spectrum, times the mask, inverse to real with scaling, crop,
// convert to the depth. mask(i, j) is the gain at element (i, j) of the padded
// spectrum.
func cvFilter(t *testing.T, src gocv.Mat, pad bool, mask func(i, j, p, q int) float64) gocv.Mat {
	rows, cols := src.Rows(), src.Cols()
	p, q := rows, cols
	if pad {
		p, q = gocv.GetOptimalDFTSize(rows), gocv.GetOptimalDFTSize(cols)
	}
	padded := gocv.NewMat()
	defer padded.Close()
	gocv.CopyMakeBorder(src, &padded, 0, p-rows, 0, q-cols, gocv.BorderReflect101, color.RGBA{})
	m := gocv.NewMatWithSize(p, q, gocv.MatTypeCV32FC2)
	defer m.Close()
	for i := 0; i < p; i++ {
		for j := 0; j < q; j++ {
			g := float32(mask(i, j, p, q))
			m.SetFloatAt(i, 2*j, g)
			m.SetFloatAt(i, 2*j+1, g)
		}
	}
	chans := gocv.Split(padded)
	for c := range chans {
		f := gocv.NewMat()
		chans[c].ConvertTo(&f, gocv.MatTypeCV32F)
		spec := gocv.NewMat()
		gocv.DFT(f, &spec, gocv.DftComplexOutput)
		gocv.Multiply(spec, m, &spec)
		back := gocv.NewMat()
		gocv.DFT(spec, &back, gocv.DftInverse|gocv.DftRealOutput|gocv.DftScale)
		crop := back.Region(image.Rect(0, 0, cols, rows))
		out := gocv.NewMat()
		crop.ConvertTo(&out, gocv.MatType(src.Type()&7))
		chans[c].Close()
		chans[c] = out
		for _, x := range []gocv.Mat{f, spec, back, crop} {
			x.Close()
		}
	}
	dst := gocv.NewMat()
	gocv.Merge(chans, &dst)
	for _, c := range chans {
		c.Close()
	}
	return dst
}

// freqOf is the frequency (cycles per image) of element (i, j) of a p x q spectrum
// padded from rows x cols.
func freqOf(i, j, p, q, rows, cols int) (fx, fy float64) {
	s := func(i, n int) int {
		if i <= n/2 {
			return i
		}
		return i - n
	}
	if cols == 1 && rows > 1 { // a column is transformed as one line down it
		return 0, float64(s(i, p)) * float64(rows) / float64(p)
	}
	return float64(s(j, q)) * float64(cols) / float64(q), float64(s(i, p)) * float64(rows) / float64(p)
}

func TestFiltersMatchOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 1}, {1, 37}, {29, 1}, {61, 45}, {300, 451}} {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV16SC4, gpuimage.CV32FC1} {
			rows, cols := sz[0], sz[1]
			data := tu.RandomBytes(r, mt.Depth(), rows*cols*mt.Channels())
			src := gocvtest.Mat(t, rows, cols, mt, data)
			in := newImage(t, gpuimage.CPU(), rows, cols, mt, data)
			for fi, f := range filters {
				name := fmt.Sprintf("%dx%d/%v/filter%d", rows, cols, mt, fi)
				want := cvFilter(t, src, true, func(i, j, p, q int) float64 {
					return f.Response(freqOf(i, j, p, q, rows, cols))
				})
				out := &gpuimage.Image{}
				if err := fftfilter.Apply(in, out, f); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkFiltered(t, name, mt.Depth(), tu.Bytes(t, out), gocvtest.Bytes(t, want))
				want.Close()
				out.Close()
			}
			src.Close()
			in.Close()
		}
	}
}

func TestApplyMaskMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 9}, {8, 1}, {45, 61}, {64, 48}} {
		rows, cols := sz[0], sz[1]
		// A symmetric random mask in centred order: gain g(f) = g(-f).
		gain := func(fi, fj int) float64 {
			h := math.Sin(float64(3*fi*fi+7*fj*fj) + 1)
			return (h + 1) / 2
		}
		m := make([]float64, rows*cols)
		for y := 0; y < rows; y++ {
			for x := 0; x < cols; x++ {
				m[y*cols+x] = gain(y-rows/2, x-cols/2)
			}
		}
		mask := newImage(t, gpuimage.CPU(), rows, cols, gpuimage.CV32FC1, encode(m))
		data := tu.RandomBytes(r, gpuimage.Depth32F, rows*cols*3)
		src := gocvtest.Mat(t, rows, cols, gpuimage.CV32FC3, data)
		in := newImage(t, gpuimage.CPU(), rows, cols, gpuimage.CV32FC3, data)
		want := cvFilter(t, src, false, func(i, j, p, q int) float64 {
			return m[((i+rows/2)%rows)*cols+(j+cols/2)%cols]
		})
		out := &gpuimage.Image{}
		if err := fftfilter.ApplyMask(in, out, mask); err != nil {
			t.Fatal(err)
		}
		checkFiltered(t, fmt.Sprintf("ApplyMask %dx%d", rows, cols), gpuimage.Depth32F, tu.Bytes(t, out), gocvtest.Bytes(t, want))
		for _, im := range []*gpuimage.Image{mask, in, out} {
			im.Close()
		}
		src.Close()
		want.Close()
	}
}

func TestSpectrumMatchesOpenCV(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 16}, {9, 1}, {45, 61}, {64, 48}} {
		rows, cols := sz[0], sz[1]
		data := tu.RandomBytes(r, gpuimage.Depth8U, rows*cols)
		src := gocvtest.Mat(t, rows, cols, gpuimage.CV8UC1, data)
		f := gocv.NewMat()
		src.ConvertTo(&f, gocv.MatTypeCV32F)
		spec := gocv.NewMat()
		gocv.DFT(f, &spec, gocv.DftComplexOutput)
		parts := gocv.Split(spec)
		mag := gocv.NewMat()
		gocv.Magnitude(parts[0], parts[1], &mag)
		mag.AddFloat(1)
		gocv.Log(mag, &mag)
		shifted := gocv.NewMatWithSize(rows, cols, gocv.MatTypeCV32F)
		for y := 0; y < rows; y++ {
			for x := 0; x < cols; x++ {
				shifted.SetFloatAt((y+rows/2)%rows, (x+cols/2)%cols, mag.GetFloatAt(y, x))
			}
		}
		want := gocv.NewMat()
		gocv.Normalize(shifted, &want, 0, 255, gocv.NormMinMax)
		want.ConvertTo(&want, gocv.MatTypeCV8U)
		in := newImage(t, gpuimage.CPU(), rows, cols, gpuimage.CV8UC1, data)
		out := &gpuimage.Image{}
		if err := fftfilter.Spectrum(in, out); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, fmt.Sprintf("Spectrum %dx%d", rows, cols), gpuimage.Depth8U, tu.Bytes(t, out), gocvtest.Bytes(t, want))
		for _, m := range append(parts, src, f, spec, mag, shifted, want) {
			m.Close()
		}
		in.Close()
		out.Close()
	}
}

func TestConvolveMatchesFilter2D(t *testing.T) {
	r := tu.Rand(t)
	for _, sz := range [][2]int{{1, 1}, {1, 40}, {33, 1}, {45, 61}} {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV32FC1, gpuimage.CV16SC4} {
			for _, k := range []struct{ w, h int }{{1, 1}, {3, 3}, {7, 5}, {15, 15}, {4, 6}} {
				for _, b := range []gpuimage.BorderType{gpuimage.BorderConstant, gpuimage.BorderReplicate, gpuimage.BorderReflect, gpuimage.BorderReflect101} {
					rows, cols := sz[0], sz[1]
					name := fmt.Sprintf("%dx%d/%v/k%dx%d/%v", rows, cols, mt, k.w, k.h, b)
					kern := make([][]float64, k.h)
					km := gocv.NewMatWithSize(k.h, k.w, gocv.MatTypeCV64F)
					for i := range kern {
						kern[i] = make([]float64, k.w)
						for j := range kern[i] {
							kern[i][j] = r.Float64()*2 - 0.8
							km.SetDoubleAt(i, j, kern[i][j])
						}
					}
					anchor := image.Pt(r.Intn(k.w), r.Intn(k.h))
					data := tu.RandomBytes(r, mt.Depth(), rows*cols*mt.Channels())
					src := gocvtest.Mat(t, rows, cols, mt, data)
					want := gocv.NewMat()
					dd := gocv.MatType(-1)
					if mt.Depth() == gpuimage.Depth8U {
						dd = gocv.MatTypeCV32F // keep the sign and the fraction
					}
					gocv.Filter2D(src, &want, dd, km, anchor, 1.5, gocv.BorderType(b))
					in := newImage(t, gpuimage.CPU(), rows, cols, mt, data)
					out := &gpuimage.Image{}
					if err := fftfilter.Convolve(in, out, gpuimage.Depth(dd), kern, anchor, 1.5, b); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					checkConvolved(t, name, gpuimage.Depth(want.Type()&7), tu.Bytes(t, out), gocvtest.Bytes(t, want), termScale(mt.Depth(), data, kern, 1.5))
					src.Close()
					want.Close()
					km.Close()
					in.Close()
					out.Close()
				}
			}
		}
	}
}
