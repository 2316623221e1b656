package gpuimage_test

import (
	"errors"
	"image"
	"image/color"
	"strings"
	"sync"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// devices lists the devices these tests run on: the CPU, and the first GPU in cuda
// builds (which only run on GPU hosts).
func devices(t *testing.T) []*gpuimage.Device {
	devs := []*gpuimage.Device{gpuimage.CPU()}
	if gpuimage.CUDAEnabled {
		d, err := gpuimage.CUDA(0)
		if err != nil {
			t.Fatal(err)
		}
		devs = append(devs, d)
	}
	return devs
}

func TestBadInput(t *testing.T) {
	for _, dev := range devices(t) {
		t.Run(dev.Name(), func(t *testing.T) {
			im, err := gpuimage.New(dev, 4, 5, gpuimage.CV8UC3)
			if err != nil {
				t.Fatal(err)
			}
			other, _ := gpuimage.New(dev, 5, 4, gpuimage.CV8UC1)
			defer other.Close()
			var nilImg *gpuimage.Image
			closed, _ := gpuimage.New(dev, 2, 2, gpuimage.CV8UC1)
			closed.Close()
			var zero gpuimage.Image
			cases := []struct {
				name string
				err  error
				want error
				msg  string
			}{
				{"New bad depth", second(gpuimage.New(dev, 2, 2, gpuimage.MatType(1))), gpuimage.ErrBadType, "depth"},
				{"New bad channels", second(gpuimage.New(dev, 2, 2, gpuimage.MakeType(gpuimage.Depth8U, 5))), gpuimage.ErrBadType, "5 channels"},
				{"New empty", second(gpuimage.New(dev, 0, 3, gpuimage.CV8UC1)), gpuimage.ErrEmpty, "0x3"},
				{"New negative", second(gpuimage.New(dev, -1, 3, gpuimage.CV8UC1)), gpuimage.ErrEmpty, ""},
				{"New huge", second(gpuimage.New(dev, 1<<31, 3, gpuimage.CV8UC1)), nil, "invalid image size"},
				{"New nil device", second(gpuimage.New(nil, 2, 2, gpuimage.CV8UC1)), nil, "nil device"},
				{"Upload short", im.Upload(make([]byte, 59)), gpuimage.ErrSizeMismatch, "needs 60 bytes, got 59"},
				{"Download long", im.Download(make([]byte, 61)), gpuimage.ErrSizeMismatch, "needs 60 bytes"},
				{"UploadData wrong type", gpuimage.UploadData(im, make([]float32, 60)), gpuimage.ErrTypeMismatch, "float32"},
				{"closed Upload", closed.Upload(make([]byte, 4)), gpuimage.ErrClosed, "closed"},
				{"closed ConvertTo", closed.ConvertTo(&zero, gpuimage.Depth32F, 1, 0), gpuimage.ErrClosed, ""},
				{"closed as output", im.CopyTo(closed), gpuimage.ErrClosed, ""},
				{"nil SetTo", nilImg.SetTo(gpuimage.Scalar{}), gpuimage.ErrNil, "nil"},
				{"nil output", im.ConvertTo(nil, gpuimage.Depth8U, 1, 0), gpuimage.ErrNil, ""},
				{"zero image input", zero.CopyTo(im), gpuimage.ErrEmpty, "empty"},
				{"ConvertTo bad depth", im.ConvertTo(&zero, gpuimage.Depth(4), 1, 0), gpuimage.ErrBadType, "depth"},
				{"AddAlpha on 1 channel", other.AddAlpha(&zero), gpuimage.ErrBadType, "want 3"},
				{"RemoveAlpha on 3 channels", im.RemoveAlpha(&zero), gpuimage.ErrBadType, "want 4"},
				{"ExtractChannel out of range", im.ExtractChannel(&zero, 3), nil, "channel 3 of a 3-channel"},
				{"Region outside", second(im.Region(image.Rect(3, 3, 6, 5))), nil, "outside"},
				{"Region empty", second(im.Region(image.Rect(1, 1, 1, 3))), nil, "empty"},
				{"Merge sizes", gpuimage.Merge([]*gpuimage.Image{other, mustNew(t, dev, 4, 5, gpuimage.CV8UC1), other}, &zero), gpuimage.ErrSizeMismatch, "plane 1"},
				{"Merge channels", gpuimage.Merge([]*gpuimage.Image{im, im, im}, &zero), gpuimage.ErrBadType, "3 channels"},
				{"Merge count", gpuimage.Merge([]*gpuimage.Image{other, other, other, other, other}, &zero), gpuimage.ErrBadType, "5 planes"},
				{"Merge none", gpuimage.Merge(nil, &zero), gpuimage.ErrBadType, "0 planes"},
				{"ToImage float", second(mustNew(t, dev, 2, 2, gpuimage.CV32FC1).ToImage()), gpuimage.ErrBadType, "convert to 8U"},
				{"ToImage 8UC2", second(mustNew(t, dev, 2, 2, gpuimage.CV8UC2).ToImage()), gpuimage.ErrBadType, "1, 3 or 4 channels"},
				{"ToImage 16UC2", second(mustNew(t, dev, 1, 3, gpuimage.MakeType(gpuimage.Depth16U, 2)).ToImage()), gpuimage.ErrBadType, "1, 3 or 4 channels"},
				{"FromImage nil", second(gpuimage.FromImage(dev, nil)), nil, "nil image"},
			}
			for _, c := range cases {
				if c.err == nil {
					t.Errorf("%s: no error", c.name)
					continue
				}
				if c.want != nil && !errors.Is(c.err, c.want) {
					t.Errorf("%s: error %q is not %q", c.name, c.err, c.want)
				}
				if !strings.Contains(c.err.Error(), c.msg) || !strings.HasPrefix(c.err.Error(), "gpuimage: ") {
					t.Errorf("%s: error %q should start with 'gpuimage: ' and mention %q", c.name, c.err, c.msg)
				}
			}
			if err := closed.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			im.Close()
		})
	}
}

func second[T any](_ T, err error) error { return err }

func mustNew(t *testing.T, dev *gpuimage.Device, rows, cols int, mt gpuimage.MatType) *gpuimage.Image {
	t.Helper()
	im, err := gpuimage.New(dev, rows, cols, mt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { im.Close() })
	return im
}

func TestCUDAWithoutTag(t *testing.T) {
	if gpuimage.CUDAEnabled {
		t.Skip("cuda build")
	}
	_, err := gpuimage.CUDA(0)
	if err == nil || !strings.Contains(err.Error(), "rebuild with -tags cuda") {
		t.Fatalf("CUDA(0) in a build without cuda: %v", err)
	}
	d, err := gpuimage.Default()
	if err != nil || d != gpuimage.CPU() {
		t.Fatalf("Default() = %v, %v; want the CPU", d, err)
	}
}

func TestDeviceInfo(t *testing.T) {
	for _, dev := range devices(t) {
		in, err := dev.Info()
		if err != nil {
			t.Fatal(err)
		}
		if in.Name == "" || in.Device != dev.Name() {
			t.Errorf("%s: info %+v", dev, in)
		}
		if dev.IsCUDA() && (in.TotalMemory == 0 || in.ComputeCapability[0] == 0) {
			t.Errorf("%s: info %+v", dev, in)
		}
		t.Log(in)
	}
}

func TestRegionSharesMemoryAndOutlivesParent(t *testing.T) {
	for _, dev := range devices(t) {
		parent := mustNew(t, dev, 6, 7, gpuimage.CV16UC1)
		parent.SetTo(gpuimage.NewScalar(1, 0, 0, 0))
		v, err := parent.Region(image.Rect(2, 1, 5, 4))
		if err != nil {
			t.Fatal(err)
		}
		if v.Rows() != 3 || v.Cols() != 3 || v.Pitch() != parent.Pitch() {
			t.Fatalf("view %v pitch %d", v, v.Pitch())
		}
		v.SetTo(gpuimage.NewScalar(9, 0, 0, 0))
		got, _ := gpuimage.ToData[uint16](parent)
		for y := 0; y < 6; y++ {
			for x := 0; x < 7; x++ {
				want := uint16(1)
				if x >= 2 && x < 5 && y >= 1 && y < 4 {
					want = 9
				}
				if got[y*7+x] != want {
					t.Fatalf("%s: pixel (%d,%d) = %d, want %d", dev, x, y, got[y*7+x], want)
				}
			}
		}
		parent.Close()
		// The view keeps the memory alive.
		vals, err := gpuimage.ToData[uint16](v)
		if err != nil || vals[0] != 9 {
			t.Fatalf("view after parent closed: %v %v", vals, err)
		}
		v.Close()
	}
}

func TestConvertInPlaceAndReuse(t *testing.T) {
	for _, dev := range devices(t) {
		im, err := gpuimage.NewFromData(dev, 1, 4, gpuimage.CV8UC1, []uint8{0, 1, 2, 255})
		if err != nil {
			t.Fatal(err)
		}
		if err := im.ConvertTo(im, gpuimage.Depth32F, 0.5, 1); err != nil {
			t.Fatal(err)
		}
		got, err := gpuimage.ToData[float32](im)
		if err != nil || im.Type() != gpuimage.CV32FC1 {
			t.Fatal(err, im)
		}
		for i, want := range []float32{1, 1.5, 2, 128.5} {
			if got[i] != want {
				t.Errorf("%s: in-place ConvertTo[%d] = %v, want %v", dev, i, got[i], want)
			}
		}
		// Round half to even, saturation, as OpenCV.
		if err := im.ConvertTo(im, gpuimage.Depth8U, 1, 0.5); err != nil {
			t.Fatal(err)
		}
		b, _ := gpuimage.ToData[uint8](im)
		if want := []uint8{2, 2, 2, 129}; string(b) != string(want) {
			t.Errorf("%s: ConvertTo 8U = %v, want %v", dev, b, want)
		}
		im.Close()
	}
}

func TestGoImageRoundTrip(t *testing.T) {
	r := tu.Rand(t)
	for _, dev := range devices(t) {
		nrgba := image.NewNRGBA(image.Rect(3, 4, 3+17, 4+9))
		r.Read(nrgba.Pix)
		gray := image.NewGray(image.Rect(0, 0, 5, 3))
		r.Read(gray.Pix)
		g16 := image.NewGray16(image.Rect(0, 0, 5, 3))
		r.Read(g16.Pix)
		n64 := image.NewNRGBA64(image.Rect(0, 0, 4, 2))
		r.Read(n64.Pix)
		type imageCase struct {
			img  image.Image
			want gpuimage.MatType
		}
		cases := []imageCase{{nrgba, gpuimage.CV8UC4}, {gray, gpuimage.CV8UC1}, {g16, gpuimage.CV16UC1}, {n64, gpuimage.CV16UC4}}
		// Opaque images of every kind go through *image.RGBA; images with alpha
		// through *image.NRGBA. Sub-images start off the origin.
		for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio422,
			image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410} {
			ycc := image.NewYCbCr(image.Rect(0, 0, 13, 7), ratio)
			r.Read(ycc.Y)
			r.Read(ycc.Cb)
			r.Read(ycc.Cr)
			cases = append(cases, imageCase{ycc, gpuimage.CV8UC3}, imageCase{ycc.SubImage(image.Rect(3, 1, 12, 6)), gpuimage.CV8UC3})
		}
		cmyk := image.NewCMYK(image.Rect(2, 2, 9, 5))
		r.Read(cmyk.Pix)
		rgba := image.NewRGBA(image.Rect(0, 0, 5, 4))
		r.Read(rgba.Pix)
		for i := 0; i < len(rgba.Pix); i += 4 { // valid premultiplied colours
			rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2] = min(rgba.Pix[i], rgba.Pix[i+3]), min(rgba.Pix[i+1], rgba.Pix[i+3]), min(rgba.Pix[i+2], rgba.Pix[i+3])
		}
		pal := image.NewPaletted(image.Rect(0, 0, 4, 3), color.Palette{color.NRGBA{1, 2, 3, 255}, color.NRGBA{200, 100, 50, 128}})
		r.Read(pal.Pix)
		for i := range pal.Pix {
			pal.Pix[i] %= 2
		}
		cases = append(cases, imageCase{cmyk, gpuimage.CV8UC3}, imageCase{rgba, gpuimage.CV8UC4}, imageCase{pal, gpuimage.CV8UC4})
		for _, c := range cases {
			im, err := gpuimage.FromImage(dev, c.img)
			if err != nil {
				t.Fatal(err)
			}
			if im.Type() != c.want {
				t.Errorf("%T → %v, want %v", c.img, im.Type(), c.want)
			}
			back, err := im.ToImage()
			if err != nil {
				t.Fatal(err)
			}
			b := c.img.Bounds()
			for y := 0; y < b.Dy(); y++ {
				for x := 0; x < b.Dx(); x++ {
					w := color.NRGBA64Model.Convert(c.img.At(b.Min.X+x, b.Min.Y+y))
					g := color.NRGBA64Model.Convert(back.At(x, y))
					if c.img.ColorModel() != color.Gray16Model && c.img.ColorModel() != color.NRGBA64Model { // 8-bit: compare in 8 bits
						w = color.NRGBAModel.Convert(c.img.At(b.Min.X+x, b.Min.Y+y))
						g = color.NRGBAModel.Convert(back.At(x, y))
					}
					if w != g {
						t.Fatalf("%T pixel (%d,%d): got %v, want %v", c.img, x, y, g, w)
					}
				}
			}
			im.Close()
		}
	}
}

// Page-locked buffers below and above 2 MB (which CUDA maps and registers rather
// than allocates) carry uploads and downloads on four streams at once.
func TestHostBufferAndStreams(t *testing.T) {
	r := tu.Rand(t)
	for _, dev := range devices(t) {
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			rows, cols := 64, 99
			if g%2 == 1 {
				rows, cols = 1031, 777
			}
			go func(seed int64) {
				defer wg.Done()
				s, err := dev.NewStream()
				if err != nil {
					t.Error(err)
					return
				}
				defer s.Close()
				in, _ := dev.NewHostBuffer(rows * cols * 3)
				out, _ := dev.NewHostBuffer(rows * cols * 3 * 4)
				defer in.Close()
				defer out.Close()
				for i := range in.Bytes() {
					in.Bytes()[i] = byte(int64(i)*seed + 7)
				}
				src, _ := gpuimage.New(dev, rows, cols, gpuimage.CV8UC3)
				var dst gpuimage.Image
				on := gpuimage.OnStream(s)
				if err := src.Upload(in.Bytes(), on); err != nil {
					t.Error(err)
				}
				if err := src.ConvertTo(&dst, gpuimage.Depth32F, 2, 1, on); err != nil {
					t.Error(err)
				}
				if err := dst.Download(out.Bytes(), on); err != nil {
					t.Error(err)
				}
				src.Close() // memory must not be reused before the queued work ends
				dst.Close()
				if err := s.Synchronize(); err != nil {
					t.Error(err)
				}
				got := tu.Values(gpuimage.Depth32F, out.Bytes())
				for i, v := range in.Bytes() {
					if got[i] != float64(v)*2+1 {
						t.Errorf("%s stream %d: element %d = %v, want %v", dev, seed, i, got[i], float64(v)*2+1)
						return
					}
				}
			}(int64(r.Intn(1000) + 1))
		}
		wg.Wait()
	}
}

func TestStreamOfAnotherDevice(t *testing.T) {
	devs := devices(t)
	if len(devs) < 2 {
		t.Skip("needs the CPU and a GPU")
	}
	s, _ := devs[1].NewStream()
	defer s.Close()
	im := mustNew(t, devs[0], 2, 2, gpuimage.CV8UC1)
	if err := im.SetTo(gpuimage.Scalar{}, gpuimage.OnStream(s)); !errors.Is(err, gpuimage.ErrDeviceMismatch) {
		t.Fatalf("stream of another device: %v", err)
	}
	// An output on another device is refused (CopyTo alone copies across devices:
	// TestCUDACopyToAcrossDevices).
	gim := mustNew(t, devs[1], 2, 2, gpuimage.CV8UC1)
	if err := im.ConvertTo(gim, gpuimage.Depth8U, 2, 0); !errors.Is(err, gpuimage.ErrDeviceMismatch) {
		t.Fatalf("ConvertTo into another device's image: %v", err)
	}
}

// Hconcat: columns side by side in order, any type, views and dst among the
// sources; mismatched heights, types and no images are errors.
func TestHconcat(t *testing.T) {
	cpu := gpuimage.CPU()
	r := tu.Rand(t)
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC3, gpuimage.CV32FC1, gpuimage.CV16SC4} {
		a, ab := tu.Random(t, r, cpu, 5, 3, mt)
		b, bb := tu.Random(t, r, cpu, 5, 1, mt)
		c, cb := tu.Random(t, r, cpu, 5, 7, mt)
		want := make([]byte, 0, len(ab)+len(bb)+len(cb))
		row := func(p []byte, cols, y int) []byte {
			n := cols * a.ElemSize()
			return p[y*n : (y+1)*n]
		}
		for y := range 5 {
			want = append(append(append(want, row(ab, 3, y)...), row(bb, 1, y)...), row(cb, 7, y)...)
		}
		dst := &gpuimage.Image{}
		if err := gpuimage.Hconcat([]*gpuimage.Image{a, b, c}, dst); err != nil {
			t.Fatal(err)
		}
		if dst.Cols() != 11 || dst.Rows() != 5 || dst.Type() != mt {
			t.Fatalf("%v: %dx%d %v", mt, dst.Cols(), dst.Rows(), dst.Type())
		}
		tu.Check(t, "Hconcat "+mt.String(), mt.Depth(), tu.Bytes(t, dst), want)
		// Into one of its sources: as into a new image.
		if err := gpuimage.Hconcat([]*gpuimage.Image{a, b, c}, c); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, "Hconcat into a source", mt.Depth(), tu.Bytes(t, c), want)
		for _, im := range []*gpuimage.Image{a, b, c, dst} {
			im.Close()
		}
	}
	a, _ := tu.Random(t, r, cpu, 4, 3, gpuimage.CV8UC1)
	b, _ := tu.Random(t, r, cpu, 5, 3, gpuimage.CV8UC1)
	f, _ := tu.Random(t, r, cpu, 4, 3, gpuimage.CV32FC1)
	dst := &gpuimage.Image{}
	for _, c := range []struct {
		srcs []*gpuimage.Image
		dst  *gpuimage.Image
		want error
	}{
		{[]*gpuimage.Image{a, b}, dst, gpuimage.ErrSizeMismatch},
		{[]*gpuimage.Image{a, f}, dst, gpuimage.ErrTypeMismatch},
		{[]*gpuimage.Image{a}, nil, gpuimage.ErrNil},
	} {
		if err := gpuimage.Hconcat(c.srcs, c.dst); !errors.Is(err, c.want) {
			t.Errorf("got %v, want %v", err, c.want)
		}
	}
	if err := gpuimage.Hconcat(nil, dst); err == nil {
		t.Error("no images: no error")
	}
	if !dst.Empty() {
		t.Error("a failed Hconcat wrote dst")
	}
}
