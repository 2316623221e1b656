//go:build cuda

package colorconv_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CUDA device against the CPU device for every code, depth and channel count,
// on whole images (vector path) and odd-offset views (scalar path), into poisoned
// outputs.

// validInput makes pixels in each family's range: 32F inputs in 0..1 for the
// BGR side; colour-space inputs come from converting a random BGR image on the CPU.
func validInput(t *testing.T, r *rand.Rand, code colorconv.Code, rows, cols int, mt gpuimage.MatType) *gpuimage.Image {
	d := mt.Depth()
	data := tu.RandomBytes(r, d, rows*cols*mt.Channels())
	if d == gpuimage.Depth32F {
		f := make([]float32, rows*cols*mt.Channels())
		for i := range f {
			f[i] = float32(r.Float64())
		}
		im, err := gpuimage.NewFromData(gpuimage.CPU(), rows, cols, mt, f)
		if err != nil {
			t.Fatal(err)
		}
		return colourSide(t, im, code)
	}
	im, err := gpuimage.NewFromBytes(gpuimage.CPU(), rows, cols, mt, data)
	if err != nil {
		t.Fatal(err)
	}
	return colourSide(t, im, code)
}

// colourSide converts a BGR image into the space an X2BGR code reads.
func colourSide(t *testing.T, bgr *gpuimage.Image, code colorconv.Code) *gpuimage.Image {
	name := code.String()
	i := strings.Index(name, "2")
	from := name[:i]
	if from == "BGR" || from == "RGB" || from == "BGRA" || from == "RGBA" || from == "LBGR" || from == "LRGB" || from == "GRAY" {
		return bgr
	}
	for _, c := range colorconv.Codes() {
		if c.String() == "BGR2"+from || (strings.HasSuffix(from, "_FULL") && c.String() == "BGR2"+from) {
			var out gpuimage.Image
			if err := colorconv.CvtColor(bgr, &out, c); err != nil {
				t.Fatal(err)
			}
			bgr.Close()
			return &out
		}
	}
	return bgr
}

func toDevice(t *testing.T, im *gpuimage.Image, dev *gpuimage.Device) *gpuimage.Image {
	b := tu.Bytes(t, im)
	out, err := gpuimage.New(dev, im.Rows(), im.Cols(), im.Type())
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Upload(b); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCUDACvtColor(t *testing.T) { cudaAgainstCPU(t, colorconv.Codes()) }

// sRGB Lab as devices with less opt-in shared memory run it: 32F with OpenCV's
// table read per cell from global memory (the H100 keeps the grid in 211 KB of
// shared memory), 8U with one copy of its tables per block (the H100 keeps one per
// lane).
func TestCUDALabCompactTables(t *testing.T) {
	defer colorconv.UseSharedTables(false)()
	cudaAgainstCPU(t, []colorconv.Code{colorconv.ColorBGRToLab, colorconv.ColorRGBToLab})
}

// cudaAgainstCPU compares the devices on codes for every depth and channel count
// the code takes.
func cudaAgainstCPU(t *testing.T, codes []colorconv.Code) {
	g := tu.CUDA(t)
	r := tu.Rand(t)
	for _, code := range codes {
		for _, d := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth32F} {
			for _, cn := range []int{1, 3, 4} {
				mt := gpuimage.MakeType(d, cn)
				for i, sz := range tu.Sizes {
					view := i%2 == 1
					rows, cols := sz[0], sz[1]
					if view {
						rows, cols = rows+3, cols+5
					}
					name := fmt.Sprintf("%v/%v/%dx%d/view=%v", code, mt, sz[0], sz[1], view)
					probe, _ := gpuimage.New(gpuimage.CPU(), rows, cols, mt)
					var pd gpuimage.Image
					perr := colorconv.CvtColor(probe, &pd, code)
					probe.Close()
					if perr != nil {
						pd.Close()
						if !errors.Is(perr, gpuimage.ErrBadType) {
							t.Errorf("%s: %v", name, perr)
						}
						break
					}
					cin := validInput(t, r, code, rows, cols, mt)
					gin := toDevice(t, cin, g)
					if cin.Type() != mt { // the input is in the code's colour space
						mt = cin.Type()
					}
					csrc, gsrc := cin, gin
					if view {
						rect := image.Rect(3, 1, 3+sz[1], 1+sz[0])
						csrc, _ = cin.Region(rect)
						gsrc, _ = gin.Region(rect)
					}
					cout := &gpuimage.Image{}
					gout := tu.Poisoned(t, g, sz[0], sz[1], pd.Type())
					pd.Close()
					if err := colorconv.CvtColor(csrc, cout, code); err != nil {
						t.Fatalf("%s CPU: %v", name, err)
					}
					if err := colorconv.CvtColor(gsrc, gout, code); err != nil {
						t.Fatalf("%s CUDA: %v", name, err)
					}
					abs, rel := tu.Tolerance(d)
					if d == gpuimage.Depth32F && (strings.Contains(code.String(), "Lab") || strings.Contains(code.String(), "HSV") || strings.Contains(code.String(), "HLS")) {
						abs = 1e-4 // 1e-4 absolute on 0..100 and 0..360 scales: powf/cbrtf/division ulps
					}
					if d == gpuimage.Depth8U && (strings.HasPrefix(code.String(), "Luv2") || strings.Contains(code.String(), "Lab")) {
						abs = 0 // the same integer algorithm on both devices (fixed8.go, lab8.go)
					}
					if d == gpuimage.Depth32F && strings.Contains(code.String(), "Luv") {
						abs = 5e-4 // u, v = 13*L*(...) multiply float32 rounding by up to 1300
					}
					res := tu.Compare(d, tu.Bytes(t, gout), tu.Bytes(t, cout), abs, rel)
					if res.Bad != 0 {
						t.Errorf("%s: %d of %d out of tolerance (max %g); %s", name, res.Bad, res.N, res.MaxAbs, res.First)
					}
					for _, im := range []*gpuimage.Image{cout, gout, csrc, gsrc, cin, gin} {
						im.Close()
					}
				}
			}
		}
	}
}

func TestCUDATransform(t *testing.T) {
	g := tu.CUDA(t)
	r := tu.Rand(t)
	for _, d := range tu.Depths {
		for _, scn := range []int{1, 3, 4} {
			for _, dcn := range []int{1, 3, 4} {
				mt := gpuimage.MakeType(d, scn)
				m := make([][]float64, dcn)
				for c := range m {
					for k := 0; k <= scn; k++ {
						m[c] = append(m[c], r.Float64()*2-0.5)
					}
				}
				cin, _ := tu.Random(t, r, gpuimage.CPU(), 61, 77, mt)
				gin := toDevice(t, cin, g)
				var cout gpuimage.Image
				gout := tu.Poisoned(t, g, 61, 77, gpuimage.MakeType(d, dcn))
				if err := colorconv.Transform(cin, &cout, m); err != nil {
					t.Fatal(err)
				}
				if err := colorconv.Transform(gin, gout, m); err != nil {
					t.Fatal(err)
				}
				abs, rel := tu.Tolerance(d)
				if d == gpuimage.Depth32F {
					abs = 2.5e-3 // fmaf on the GPU, mul+add on the CPU, terms up to ~1200
				}
				res := tu.Compare(d, tu.Bytes(t, gout), tu.Bytes(t, &cout), abs, rel)
				if res.Bad != 0 {
					t.Errorf("Transform %v -> %d: %d bad; %s", mt, dcn, res.Bad, res.First)
				}
				cin.Close()
				gin.Close()
				cout.Close()
				gout.Close()
			}
		}
	}
}

// 8U Lab and Luv to RGB and RGB to Lab are integer arithmetic on both devices: all
// 2^24 values must give the same bytes (the CPU's are OpenCV's; see
// TestFixed8BitExactWithOpenCV).
func TestCUDAFixed8Exhaustive(t *testing.T) {
	g := tu.CUDA(t)
	const cols = 4093
	rows := (1<<24 + cols - 1) / cols
	data := make([]byte, rows*cols*3)
	for i := 0; i < 1<<24; i++ {
		data[3*i], data[3*i+1], data[3*i+2] = byte(i>>16), byte(i>>8), byte(i)
	}
	cin, err := gpuimage.NewFromBytes(gpuimage.CPU(), rows, cols, gpuimage.CV8UC3, data)
	if err != nil {
		t.Fatal(err)
	}
	defer cin.Close()
	gin := toDevice(t, cin, g)
	defer gin.Close()
	for _, code := range fixed8Codes {
		var cout gpuimage.Image
		if err := colorconv.CvtColor(cin, &cout, code); err != nil {
			t.Fatal(err)
		}
		// RGB to Lab has two kernels: tables per lane in 160 KB of shared memory
		// (the H100's) and one 4.5 KB copy per block (devices with less).
		for _, shared := range []bool{true, false} {
			if !shared && !strings.HasSuffix(code.String(), "2Lab") {
				continue
			}
			restore := colorconv.UseSharedTables(shared)
			gout := tu.Poisoned(t, g, rows, cols, gpuimage.CV8UC3)
			if err := colorconv.CvtColor(gin, gout, code); err != nil {
				t.Fatal(err)
			}
			res := tu.Compare(gpuimage.Depth8U, tu.Bytes(t, gout), tu.Bytes(t, &cout), 0, 0)
			if res.Bad != 0 {
				t.Errorf("%v (shared tables %v): %d of %d values differ from the CPU (max diff %g); %s",
					code, shared, res.Bad, res.N, res.MaxAbs, res.First)
			}
			gout.Close()
			restore()
		}
		cout.Close()
	}
}

// ApplyColorMap on the GPU against the CPU device: every map, 8UC1 and 8UC3,
// awkward sizes (staged and unstaged rows), a view, into poisoned outputs: the same
// bytes.
func TestCUDAApplyColorMap(t *testing.T) {
	g := tu.CUDA(t)
	r := tu.Rand(t)
	for c := colorconv.ColormapAutumn; c <= colorconv.ColormapDeepGreen; c++ {
		for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3} {
			for _, sz := range [][2]int{{1, 1}, {1, 7}, {300, 451}, {3, 4097}, {64, 2048}} {
				cin, _ := tu.Random(t, r, gpuimage.CPU(), sz[0], sz[1], mt)
				gin := toDevice(t, cin, g)
				in := gin
				cview := cin
				if sz[1] > 8 {
					in, _ = gin.Region(image.Rect(3, 0, sz[1]-1, sz[0]))
					cview, _ = cin.Region(image.Rect(3, 0, sz[1]-1, sz[0]))
				}
				var cout gpuimage.Image
				gout := tu.Poisoned(t, g, in.Rows(), in.Cols(), gpuimage.CV8UC3)
				if err := colorconv.ApplyColorMap(cview, &cout, c); err != nil {
					t.Fatal(err)
				}
				if err := colorconv.ApplyColorMap(in, gout, c); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(tu.Bytes(t, gout), tu.Bytes(t, &cout)) {
					t.Errorf("%v %v %v: the GPU's colours differ from the CPU's", c, mt, sz)
				}
				for _, im := range []*gpuimage.Image{cin, gin, in, cview, &cout, gout} {
					im.Close()
				}
			}
		}
	}
}

// Hues out of [0, 360) on 32F (huge, infinite, NaN among them) give the CPU device's
// results, and the kernels end (OpenCV's HLS loops would not).
func TestCUDAHueOutOfRange(t *testing.T) {
	gpu := tu.CUDA(t)
	cs, gs := hueImage(t, gpuimage.CPU(), oddHues), hueImage(t, gpu, oddHues)
	defer cs.Close()
	defer gs.Close()
	for _, code := range hueCodes {
		var want gpuimage.Image
		if err := colorconv.CvtColor(cs, &want, code); err != nil {
			t.Fatal(err)
		}
		got := tu.Poisoned(t, gpu, 1, cs.Cols(), gpuimage.CV32FC3)
		if err := colorconv.CvtColor(gs, got, code); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, code.String(), gpuimage.Depth32F, tu.Bytes(t, got), tu.Bytes(t, &want))
		got.Close()
		want.Close()
	}
}
